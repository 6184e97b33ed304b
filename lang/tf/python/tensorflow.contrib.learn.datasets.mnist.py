# tf.contrib.learn.datasets.mnist (also reached as tensorflow.contrib.learn.python.learn.datasets.
# mnist): TF1's MNIST reader, the same offline synthetic data as
# tensorflow.examples.tutorials.mnist.input_data (its real shapes and split), and load_mnist.
from tensorflow.examples.tutorials.mnist.input_data import DataSet, Datasets, read_data_sets


def load_mnist(train_dir="MNIST-data"):
    return read_data_sets(train_dir)
