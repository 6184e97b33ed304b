# tf.contrib.learn.datasets.base: the Dataset/Datasets tuples and load_csv_with_header, which
# reads TF1's CSV layout (a header row: the number of samples, the number of features, then
# optional target names; then rows of features and an integer target).
import csv as _csv
import numpy as _np
from tensorflow.examples.tutorials.mnist.input_data import Datasets


class Dataset:
    _fields = ("data", "target")

    def __init__(self, data, target):
        self.data = data
        self.target = target

    def __iter__(self):
        return iter([self.data, self.target])

    def __getitem__(self, i):
        return [self.data, self.target][i]

    def __len__(self):
        return 2

    def __repr__(self):
        return "Dataset(data=%r, target=%r)" % (self.data, self.target)


def load_csv_with_header(filename, target_dtype, features_dtype, target_column=-1):
    with open(filename) as f:
        rows = list(_csv.reader(f))
    header = rows[0]
    n_samples = int(header[0])
    n_features = int(header[1])
    data = _np.zeros((n_samples, n_features), dtype=features_dtype)
    target = _np.zeros((n_samples,), dtype=target_dtype)
    for i, row in enumerate(rows[1:n_samples + 1]):
        target[i] = float(row.pop(target_column))
        data[i] = _np.asarray([float(v) for v in row], dtype=features_dtype)
    return Dataset(data=data, target=target)


def load_csv_without_header(filename, target_dtype, features_dtype, target_column=-1):
    with open(filename) as f:
        rows = list(_csv.reader(f))
    target = _np.asarray([float(r.pop(target_column)) for r in rows], dtype=target_dtype)
    data = _np.asarray([[float(v) for v in r] for r in rows], dtype=features_dtype)
    return Dataset(data=data, target=target)
