# tensorflow.contrib.learn.python: a package path TF1 programs import the MNIST reader through.
