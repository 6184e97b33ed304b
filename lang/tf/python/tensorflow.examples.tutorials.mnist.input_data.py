# input_data.read_data_sets: MNIST as the TF1 tutorials load it. tensorlens never downloads: it
# returns deterministic synthetic data of MNIST's exact shapes and dtypes (55000/5000/10000
# images of 784 float32 pixels in [0, 1), labels one-hot float32 or uint8), so programs run
# offline and the language server knows every shape. next_batch follows TensorFlow's DataSet.
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
        # TensorFlow's order: shuffled at the first call and after each epoch (np.random's
        # stream); a batch that crosses an epoch's end is the rest of it plus the next's start.
        start = self._index
        if self._epochs_completed == 0 and start == 0 and shuffle:
            perm0 = np.arange(self._num_examples)
            np.random.shuffle(perm0)
            self._images = self._images[perm0]
            self._labels = self._labels[perm0]
        if start + batch_size > self._num_examples:
            self._epochs_completed += 1
            rest = self._num_examples - start
            images_rest = self._images[start:self._num_examples]
            labels_rest = self._labels[start:self._num_examples]
            if shuffle:
                perm = np.arange(self._num_examples)
                np.random.shuffle(perm)
                self._images = self._images[perm]
                self._labels = self._labels[perm]
            self._index = batch_size - rest
            end = self._index
            return (np.concatenate((images_rest, self._images[0:end]), axis=0),
                    np.concatenate((labels_rest, self._labels[0:end]), axis=0))
        self._index = start + batch_size
        return self._images[start:self._index], self._labels[start:self._index]


class Datasets:
    def __init__(self, train, validation, test):
        self.train = train
        self.validation = validation
        self.test = test


def _make(n, one_hot, seed):
    # Each class has a fixed prototype image; an example is its prototype plus noise, and 2% of the
    # labels are wrong (as hard examples are in MNIST), so models learn to a plausible accuracy.
    # Private generators: loading the data does not change np.random's stream.
    prototypes = np.random.RandomState(0).rand(10, 784).astype(np.float32)
    rs = np.random.RandomState(seed)
    base = n if n <= 2000 else 2000  # distinct examples; larger sets repeat them
    classes = rs.randint(0, 10, base)
    images = (prototypes[classes] * 0.5 + rs.rand(base, 784).astype(np.float32) * 0.5).astype(np.float32)
    wrong = rs.rand(base) < 0.02
    classes = np.where(wrong, (classes + 1 + rs.randint(0, 9, base)) % 10, classes)
    if n > base:
        rows = np.arange(n) % base  # one gather: half the copying of tile-then-slice
        images = images[rows]
        classes = classes[rows]
    if one_hot:
        labels = (classes.reshape(n, 1) == np.arange(10).reshape(1, 10)).astype(np.float32)
    else:
        labels = classes.astype(np.uint8)
    return DataSet(images, labels)


def read_data_sets(train_dir="MNIST_data", fake_data=False, one_hot=False, dtype=None, reshape=True,
                   validation_size=5000, seed=None, source_url=None):
    train = _make(60000 - validation_size, one_hot, 1)
    validation = _make(validation_size, one_hot, 2)
    test = _make(10000, one_hot, 3)
    return Datasets(train, validation, test)
