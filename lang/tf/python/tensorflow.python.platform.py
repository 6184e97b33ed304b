# tensorflow.python.platform: gfile and tf_logging under their internal names.
