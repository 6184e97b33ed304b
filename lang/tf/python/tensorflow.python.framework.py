# tensorflow.python.framework: ops, dtypes, tensor_shape and constant_op under their internal names.
