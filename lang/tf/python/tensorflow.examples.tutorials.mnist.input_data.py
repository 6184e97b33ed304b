# input_data.read_data_sets: MNIST as the TF1 tutorials load it. tensorlens never downloads: it
# returns deterministic synthetic data of MNIST's exact shapes and dtypes (55000/5000/10000
# images of 784 float32 pixels in [0, 1), labels one-hot float32 or uint8), so programs run
# offline and the language server knows every shape. next_batch follows TensorFlow's DataSet.
import numpy as np


class DataSet:
    # The examples are kept as the distinct images plus `rows`, the index of each example's image
    # among them, and the labels, both in the set's current order. The distinct images are made at
    # the first batch or array asked for, a batch gathers only its own rows, and the whole
    # `images` array is made at its first use: loading the data costs little until the program
    # uses it (a breakpoint in the graph's construction stops at once). Values and order are
    # those of TensorFlow's DataSet over the full arrays.
    def __init__(self, make_distinct, rows, labels):
        self._make_distinct = make_distinct
        self._distinct = None
        self._rows = rows
        self._images = None
        self._labels = labels
        self._num_examples = rows.shape[0]
        self._index = 0
        self._epochs_completed = 0

    @property
    def images(self):
        if self._images is None:
            self._images = self._examples()[self._rows]
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

    def _examples(self):
        if self._distinct is None:
            self._distinct = self._make_distinct()
        return self._distinct

    def _permute(self, perm):
        self._rows = self._rows[perm]
        self._labels = self._labels[perm]
        self._images = None

    def _take(self, start, end):
        return self._examples()[self._rows[start:end]], self._labels[start:end]

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


def _distinct_images(classes, seed):
    # MNIST's statistics, not only its shapes: each class has a fixed prototype of "ink" (about
    # 19% of the pixels); an example keeps about 80% of its prototype's ink and gains a few stray
    # pixels; ink is 0.5-1.0, in steps of 1/255, and the rest exactly 0. The mean is about 0.13 and
    # four pixels in five are 0, as in MNIST (0.1307, 81%), so tutorials' learning rates (0.8 for
    # an SGD MLP) train as on the real set; a dense noise image (mean 0.5) made them diverge.
    ink = np.random.RandomState(0).rand(10, 784) < 0.19
    rs = np.random.RandomState(seed + 100)
    n = classes.shape[0]
    on = (ink[classes] & (rs.rand(n, 784) < 0.8)) | (rs.rand(n, 784) < 0.02)
    level = np.floor(128.0 + 128.0 * rs.rand(n, 784)) / 255.0
    return np.where(on, level, 0.0).astype(np.float32)


def _make(n, one_hot, seed, uint8=False, flat=True):
    # 2,000 distinct images at most; larger sets repeat them. 2% of the examples have a wrong
    # label, drawn per example, so a repeated image is not always labelled the same: a model
    # cannot learn the mistakes by heart, and its accuracy stays near 98%, as on MNIST, in
    # training and in test. Private generators: the data never changes np.random's stream.
    base = n if n <= 2000 else 2000
    rs = np.random.RandomState(seed)
    classes = rs.randint(0, 10, base)
    rows = np.arange(n) % base
    labels = classes[rows]
    wrong = rs.rand(n) < 0.02
    labels = np.where(wrong, (labels + 1 + rs.randint(0, 9, n)) % 10, labels)
    if one_hot:
        labels = (labels.reshape(n, 1) == np.arange(10).reshape(1, 10)).astype(np.float32)
    else:
        labels = labels.astype(np.uint8)
    def images():
        # TensorFlow's DataSet: dtype=tf.uint8 keeps the 0-255 pixels, float32 scales them to
        # [0, 1]; reshape=False keeps [n, 28, 28, 1].
        x = _distinct_images(classes, seed)
        if uint8:
            x = np.round(x * 255.0).astype(np.uint8)
        return x if flat else x.reshape(x.shape[0], 28, 28, 1)
    return DataSet(images, rows, labels)


def read_data_sets(train_dir="MNIST_data", fake_data=False, one_hot=False, dtype=None, reshape=True,
                   validation_size=5000, seed=None, source_url=None):
    name = getattr(dtype, "name", dtype)
    if name not in (None, "uint8", "float32"):
        raise TypeError("Invalid image dtype %r, expected uint8 or float32" % (dtype,))
    uint8 = name == "uint8"
    train = _make(60000 - validation_size, one_hot, 1, uint8, reshape)
    validation = _make(validation_size, one_hot, 2, uint8, reshape)
    test = _make(10000, one_hot, 3, uint8, reshape)
    return Datasets(train, validation, test)
