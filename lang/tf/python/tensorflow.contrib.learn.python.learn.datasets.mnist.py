# tensorflow.contrib.learn.python.learn.datasets.mnist: tf.contrib.learn.datasets.mnist.
from tensorflow.contrib.learn.datasets.mnist import DataSet, Datasets, read_data_sets, load_mnist
