# input_data.read_data_sets: MNIST as the TF1 tutorials load it. tensorlens never downloads: it
# returns deterministic synthetic data of MNIST's exact shapes and dtypes (55000/5000/10000
# images of 784 float32 pixels in [0, 1), labels one-hot float32 or uint8), so programs run
# offline and the language server knows every shape.
import numpy as np


class DataSet:
    def __init__(self, images, labels):
        self._images = images
        self._labels = labels
        self._num_examples = images.shape[0]
        self._index = 0
        self._epochs_completed = 0

    @property
    def images(self):
        return self._images

    @property
    def labels(self):
        return self._labels

    @property
    def num_examples(self):
        return self._num_examples

    @property
    def epochs_completed(self):
        return self._epochs_completed

    def next_batch(self, batch_size, fake_data=False, shuffle=True):
        start = self._index
        if start + batch_size > self._num_examples:
            self._epochs_completed += 1
            start = 0
        self._index = start + batch_size
        return self._images[start:start + batch_size], self._labels[start:start + batch_size]


class Datasets:
    def __init__(self, train, validation, test):
        self.train = train
        self.validation = validation
        self.test = test


def _make(n, one_hot, seed):
    # Each class has a fixed prototype image; an example is its prototype plus noise, so models
    # learn (accuracy rises as on MNIST) while everything stays offline and deterministic.
    np.random.seed(0)
    prototypes = np.random.rand(10, 784).astype(np.float32)
    np.random.seed(seed)
    classes = np.random.randint(0, 10, n)
    images = (prototypes[classes] * 0.5 + np.random.rand(n, 784).astype(np.float32) * 0.5).astype(np.float32)
    if one_hot:
        labels = (classes.reshape(n, 1) == np.arange(10).reshape(1, 10)).astype(np.float32)
    else:
        labels = classes.astype(np.uint8)
    return DataSet(images, labels)


def read_data_sets(train_dir="MNIST_data", fake_data=False, one_hot=False, dtype=None, reshape=True,
                   validation_size=5000, seed=None, source_url=None):
    train = _make(55000, one_hot, 1)
    validation = _make(validation_size, one_hot, 2)
    test = _make(10000, one_hot, 3)
    return Datasets(train, validation, test)
