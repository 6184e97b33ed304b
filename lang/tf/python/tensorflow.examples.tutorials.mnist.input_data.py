# input_data.read_data_sets: MNIST as the TF1 tutorials load it. tensorlens never downloads: it
# returns deterministic synthetic data of MNIST's exact shapes and dtypes (55000/5000/10000
# images of 784 float32 pixels in [0, 1), labels one-hot float32 or uint8), so programs run
# offline and the language server knows every shape. next_batch follows TensorFlow's DataSet.
import numpy as np


class DataSet:
    # The examples are kept as the distinct images and labels plus `rows`, the index of each
    # example among them, in the set's current order. The distinct examples are made at the first
    # batch or array asked for, a batch gathers only its own rows, and the whole `images` array
    # is made at its first use: loading the data costs nothing until the program uses it (a
    # breakpoint in the graph's construction stops at once). Values and order are those of
    # TensorFlow's DataSet over the full arrays.
    def __init__(self, make_distinct, rows):
        self._make_distinct = make_distinct
        self._distinct = None
        self._rows = rows
        self._images = None
        self._labels = None
        self._num_examples = rows.shape[0]
        self._index = 0
        self._epochs_completed = 0

    @property
    def images(self):
        if self._images is None:
            self._images = self._examples()[0][self._rows]
        return self._images

    @property
    def labels(self):
        if self._labels is None:
            self._labels = self._examples()[1][self._rows]
        return self._labels

    @property
    def num_examples(self):
        return self._num_examples

    @property
    def epochs_completed(self):
        return self._epochs_completed

    def _examples(self):
        if self._distinct is None:
            self._distinct = self._make_distinct()
        return self._distinct

    def _permute(self, perm):
        self._rows = self._rows[perm]
        self._images = None
        self._labels = None

    def _take(self, start, end):
        rows = self._rows[start:end]
        images, labels = self._examples()
        return images[rows], labels[rows]

    def next_batch(self, batch_size, fake_data=False, shuffle=True):
        # TensorFlow's order: shuffled at the first call and after each epoch (np.random's
        # stream); a batch that crosses an epoch's end is the rest of it plus the next's start.
        start = self._index
        if self._epochs_completed == 0 and start == 0 and shuffle:
            perm0 = np.arange(self._num_examples)
            np.random.shuffle(perm0)
            self._permute(perm0)
        if start + batch_size > self._num_examples:
            self._epochs_completed += 1
            rest = self._num_examples - start
            images_rest, labels_rest = self._take(start, self._num_examples)
            if shuffle:
                perm = np.arange(self._num_examples)
                np.random.shuffle(perm)
                self._permute(perm)
            self._index = batch_size - rest
            end = self._index
            images_new, labels_new = self._take(0, end)
            return (np.concatenate((images_rest, images_new), axis=0),
                    np.concatenate((labels_rest, labels_new), axis=0))
        self._index = start + batch_size
        return self._take(start, self._index)


class Datasets:
    def __init__(self, train, validation, test):
        self.train = train
        self.validation = validation
        self.test = test


def _distinct_examples(base, one_hot, seed):
    # Each class has a fixed prototype image; an example is its prototype plus noise, and 2% of the
    # labels are wrong (as hard examples are in MNIST), so models learn to a plausible accuracy.
    # Private generators: making the data does not change np.random's stream, whenever it happens.
    prototypes = np.random.RandomState(0).rand(10, 784).astype(np.float32)
    rs = np.random.RandomState(seed)
    classes = rs.randint(0, 10, base)
    images = (prototypes[classes] * 0.5 + rs.rand(base, 784).astype(np.float32) * 0.5).astype(np.float32)
    wrong = rs.rand(base) < 0.02
    classes = np.where(wrong, (classes + 1 + rs.randint(0, 9, base)) % 10, classes)
    if one_hot:
        return images, (classes.reshape(base, 1) == np.arange(10).reshape(1, 10)).astype(np.float32)
    return images, classes.astype(np.uint8)


def _make(n, one_hot, seed):
    base = n if n <= 2000 else 2000  # distinct examples; larger sets repeat them
    return DataSet(lambda: _distinct_examples(base, one_hot, seed), np.arange(n) % base)


def read_data_sets(train_dir="MNIST_data", fake_data=False, one_hot=False, dtype=None, reshape=True,
                   validation_size=5000, seed=None, source_url=None):
    train = _make(60000 - validation_size, one_hot, 1)
    validation = _make(validation_size, one_hot, 2)
    test = _make(10000, one_hot, 3)
    return Datasets(train, validation, test)
