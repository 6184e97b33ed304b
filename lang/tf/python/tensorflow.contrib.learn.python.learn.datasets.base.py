# tensorflow.contrib.learn.python.learn.datasets.base: tf.contrib.learn.datasets.base.
from tensorflow.contrib.learn.datasets.base import Dataset, Datasets, load_csv_with_header, load_csv_without_header
