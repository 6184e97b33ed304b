# keras.datasets: mnist, fashion_mnist, cifar10, cifar100, imdb, reuters, boston_housing. tensorlens
# never downloads or reads files: load_data() returns deterministic synthetic data with the real
# sets' sizes, shapes, dtypes and value ranges (mnist: uint8 images (60000, 28, 28) in 0-255,
# uint8 labels (60000,); cifar10: uint8 images (50000, 32, 32, 3), uint8 labels (50000, 1); ...),
# so programs that hard-code those sizes run and the language server knows every shape. Each
# class has a fixed prototype and examples are noisy copies of it; a share of the labels is wrong
# on purpose (mnist 2%, cifar10 30%, ...), so models learn to a plausible accuracy, not 100%.
# The data comes from private generators: loading a dataset never changes np.random's stream.
# Abstract mode never materialises the arrays (shapes only).
import _tlens
import numpy as _np


def _images(n, shape, classes, seed, label_shape, label_noise, ink=None):
    size = 1
    for d in shape:
        size *= d
    base = n if n <= 2000 else 2000  # distinct images; larger sets repeat them
    rs = _np.random.RandomState(seed)
    labels = rs.randint(0, classes, base)
    if ink is None:
        # Natural images (CIFAR): dense, mid-grey on average.
        protos = _np.random.RandomState(1234 + classes).rand(classes, size)
        x = ((protos[labels] * 0.6 + rs.rand(base, size) * 0.4) * 255.0).astype(_np.uint8)
    else:
        # Dark backgrounds (MNIST, Fashion-MNIST): a class prototype of `ink` pixels, about 80% of
        # it kept per example plus 2% stray pixels, the rest exactly 0, so the mean and the share
        # of zeros are the real sets' (MNIST 33/255 and 81%; Fashion 73/255 and about 50%).
        protos = _np.random.RandomState(1234 + classes).rand(classes, size) < ink
        on = (protos[labels] & (rs.rand(base, size) < 0.8)) | (rs.rand(base, size) < 0.02)
        level = _np.floor(128.0 + 128.0 * rs.rand(base, size)) if ink < 0.3 else _np.floor(256.0 * rs.rand(base, size))
        x = _np.where(on, level, 0.0).astype(_np.uint8)
    if n > base:
        rows = _np.arange(n) % base  # one gather: half the copying of tile-then-slice
        x = x[rows]
        labels = labels[rows]
    # Hard or mislabelled examples, as every real set has: a share of the labels is wrong, drawn
    # per example (a repeated image is not always labelled the same, so no model learns the
    # mistakes by heart), which caps the accuracy below 100% in training as in test.
    wrong = rs.rand(n) < label_noise
    other = (labels + 1 + rs.randint(0, classes - 1, n)) % classes
    labels = _np.where(wrong, other, labels).astype(_np.uint8)
    return x.reshape([n] + list(shape)), labels.reshape([n] + label_shape)


class _ImageSet:
    def __init__(self, name, shape, classes, sizes, label_shape, label_noise, ink=None):
        self.__name__ = "keras.datasets." + name
        self._shape = shape
        self._classes = classes
        self.sizes = sizes
        self._label_shape = label_shape
        self._label_noise = label_noise
        self._ink = ink

    def load_data(self, path=None, label_mode="fine"):
        train = _images(self.sizes[0], self._shape, self._classes, 1, self._label_shape, self._label_noise, self._ink)
        test = _images(self.sizes[1], self._shape, self._classes, 2, self._label_shape, self._label_noise, self._ink)
        return train, test


mnist = _ImageSet("mnist", [28, 28], 10, (60000, 10000), [], 0.02, ink=0.19)
fashion_mnist = _ImageSet("fashion_mnist", [28, 28], 10, (60000, 10000), [], 0.1, ink=0.55)
cifar10 = _ImageSet("cifar10", [32, 32, 3], 10, (50000, 10000), [1], 0.3)
cifar100 = _ImageSet("cifar100", [32, 32, 3], 100, (50000, 10000), [1], 0.5)


class _Sequences:
    """Texts as word indices (imdb, reuters). FIXME: the real sets hold lists of different lengths
    (an object array); tensorlens returns int64 arrays of `length` indices, which
    vectorize_sequences-style loops, pad_sequences and Embedding layers take as they are."""

    def __init__(self, name, sizes, classes, length, label_noise):
        self.__name__ = "keras.datasets." + name
        self.sizes = sizes
        self.classes = classes
        self.length = length
        self._label_noise = label_noise

    def _make(self, n, num_words, seed):
        rs = _np.random.RandomState(seed)
        labels = rs.randint(0, self.classes, n)
        words = rs.randint(4, num_words, (n, self.length))
        # Each class favours its own band of the vocabulary.
        band = (num_words - 4) // self.classes
        favoured = 4 + labels.reshape(n, 1) * band + rs.randint(0, max(band, 1), (n, self.length))
        x = _np.where(rs.rand(n, self.length) < 0.3, favoured, words).astype(_np.int64)
        wrong = rs.rand(n) < self._label_noise
        labels = _np.where(wrong, (labels + 1) % self.classes, labels)
        return x, labels.astype(_np.int64)

    def load_data(self, path=None, num_words=None, skip_top=0, maxlen=None, seed=113, start_char=1,
                  oov_char=2, index_from=3, test_split=0.2, **kwargs):
        v = 10000 if num_words is None else num_words
        return self._make(self.sizes[0], v, seed), self._make(self.sizes[1], v, seed + 1)

    def get_word_index(self, path=None):
        """The word -> rank dict (1 = most frequent) with the real index's size (imdb 88,584 words,
        reuters 30,979), so `index_word[i]` finds every index load_data gives. The most frequent
        words are real ones; past them the words are synthetic ("w123")."""
        words = self._top_words + ["w%d" % i for i in range(len(self._top_words) + 1, self.vocabulary + 1)]
        return dict(zip(words, range(1, self.vocabulary + 1)))


imdb = _Sequences("imdb", (25000, 25000), 2, 80, 0.1)
imdb.vocabulary = 88584
imdb._top_words = ["the", "and", "a", "of", "to", "is", "br", "in", "it", "i", "this", "that", "was",
                   "as", "for", "with", "movie", "but", "film", "on", "not", "you", "are", "his",
                   "have", "he", "be", "one", "all", "at", "by", "an", "they", "who", "so", "from",
                   "like", "her", "or", "just", "about", "it's", "out", "has", "if", "some", "there",
                   "what", "good", "more", "when", "very", "up", "no", "time", "she", "even", "my"]
reuters = _Sequences("reuters", (8982, 2246), 46, 80, 0.2)
reuters.vocabulary = 30979
reuters._top_words = ["the", "of", "to", "in", "said", "and", "a", "mln", "3", "for", "vs", "dlrs",
                      "it", "reuter", "000", "1", "pct", "on", "from", "is", "that", "its", "cts",
                      "by", "at", "year", "be", "with", "2", "will", "was", "billion", "he", "u",
                      "s", "net", "has", "would", "an", "as"]


class _Boston:
    def __init__(self):
        self.__name__ = "keras.datasets.boston_housing"

    def load_data(self, path="boston_housing.npz", test_split=0.2, seed=113):
        rs = _np.random.RandomState(seed)  # private: np.random's stream is the program's
        x = rs.rand(506, 13) * 10.0
        w = rs.rand(13)
        y = _np.sum(x * w, axis=1) + rs.rand(506)
        k = int(506 * (1 - test_split))
        return (x[:k], y[:k]), (x[k:], y[k:])


boston_housing = _Boston()
