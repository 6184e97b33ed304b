# tensorflow.contrib.learn.python.learn: a package path TF1 programs import the MNIST reader through.
