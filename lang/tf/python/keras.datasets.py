# keras.datasets: mnist, fashion_mnist, cifar10, cifar100, imdb, boston_housing. tensorlens never
# downloads or reads files: load_data() returns deterministic synthetic data with the real sets'
# per-example shapes and dtypes (mnist: uint8 images (N, 28, 28), uint8 labels (N,); cifar10:
# uint8 images (N, 32, 32, 3), uint8 labels (N, 1); ...) but fewer examples (`sizes`), so
# programs run quickly offline and the language server knows every shape. Each class has a fixed
# prototype and examples are noisy copies of it, so models learn. With the environment variable
# TLENS_KERAS_DATASETS=full they have the real sets' sizes (mnist 60000/10000, ...; the
# examples beyond the first 1000 repeat them), for programs that hard-code those sizes.
# (Abstract mode cannot read the environment and assumes the small sizes.)
import os as _os
import _tlens
import numpy as _np

_FULL = (not _tlens.is_abstract()) and _os.environ.get("TLENS_KERAS_DATASETS", "") == "full"


def _images(n, shape, classes, seed, label_shape):
    size = 1
    for d in shape:
        size *= d
    base = n if n <= 1000 else 1000
    _np.random.seed(1234 + classes)
    protos = _np.random.rand(classes, size)
    _np.random.seed(seed)
    labels = _np.random.randint(0, classes, base)
    x = ((protos[labels] * 0.6 + _np.random.rand(base, size) * 0.4) * 255.0).astype(_np.uint8)
    labels = labels.astype(_np.uint8)
    if n > base:
        reps = (n + base - 1) // base
        x = _np.tile(x, [reps, 1])[:n]
        labels = _np.tile(labels, [reps])[:n]
    return x.reshape([n] + list(shape)), labels.reshape([n] + label_shape)


class _ImageSet:
    def __init__(self, name, shape, classes, sizes, label_shape):
        self.__name__ = "keras.datasets." + name
        self._shape = shape
        self._classes = classes
        self.sizes = sizes
        self._label_shape = label_shape

    def load_data(self, path=None, label_mode="fine"):
        train = _images(self.sizes[0], self._shape, self._classes, 1, self._label_shape)
        test = _images(self.sizes[1], self._shape, self._classes, 2, self._label_shape)
        return train, test


mnist = _ImageSet("mnist", [28, 28], 10, (60000, 10000) if _FULL else (1000, 200), [])
fashion_mnist = _ImageSet("fashion_mnist", [28, 28], 10, (60000, 10000) if _FULL else (1000, 200), [])
cifar10 = _ImageSet("cifar10", [32, 32, 3], 10, (50000, 10000) if _FULL else (500, 100), [1])
cifar100 = _ImageSet("cifar100", [32, 32, 3], 100, (50000, 10000) if _FULL else (500, 100), [1])


class _Imdb:
    """Movie reviews as word indices. FIXME: the real set holds lists of different lengths (an
    object array); tensorlens returns int64 arrays of `length` indices, which pad_sequences and
    Embedding layers take as they are."""

    def __init__(self):
        self.__name__ = "keras.datasets.imdb"
        self.sizes = (25000, 25000) if _FULL else (500, 100)
        self.length = 80

    def _make(self, n, num_words, seed):
        _np.random.seed(seed)
        labels = _np.random.randint(0, 2, n)
        words = _np.random.randint(4, num_words, (n, self.length))
        # Positive reviews use the lower half of the vocabulary more often.
        bias = (labels.reshape(n, 1) * (words // 2)).astype(_np.int64)
        x = (words - bias).astype(_np.int64)
        x = _np.maximum(x, 4)
        return x, labels.astype(_np.int64)

    def load_data(self, path="imdb.npz", num_words=None, skip_top=0, maxlen=None, seed=113, start_char=1,
                  oov_char=2, index_from=3, **kwargs):
        v = 10000 if num_words is None else num_words
        return self._make(self.sizes[0], v, seed), self._make(self.sizes[1], v, seed + 1)

    def get_word_index(self, path="imdb_word_index.json"):
        return {}


imdb = _Imdb()


class _Boston:
    def __init__(self):
        self.__name__ = "keras.datasets.boston_housing"

    def load_data(self, path="boston_housing.npz", test_split=0.2, seed=113):
        _np.random.seed(seed)
        x = _np.random.rand(506, 13) * 10.0
        w = _np.random.rand(13)
        y = _np.sum(x * w, axis=1) + _np.random.rand(506)
        k = int(506 * (1 - test_split))
        return (x[:k], y[:k]), (x[k:], y[k:])


boston_housing = _Boston()
