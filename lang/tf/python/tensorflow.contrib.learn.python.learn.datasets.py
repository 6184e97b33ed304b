# tensorflow.contrib.learn.python.learn.datasets: a package path TF1 programs import the MNIST reader through.
