# tensorflow_datasets (tfds), offline. tensorlens never downloads: `load` and `builder` give the
# image classification sets that keras.datasets also has (mnist, fashion_mnist, cifar10) from the
# same deterministic synthetic data (the real sets' sizes, shapes, dtypes, value ranges and class
# names; learnable to a plausible accuracy), as tf.data Datasets with TFDS' element structure:
# {"image": uint8 (28, 28, 1), "label": int64} or (image, label) with as_supervised=True. Split
# strings are TFDS' ("train", "test[:10%]", "train[80%:90%]", "train[:1000]", "train+test").
# Every other registered dataset would be downloaded by TFDS, so here it raises a ConnectionError
# naming it; a name TFDS does not know raises DatasetNotFoundError. Abstract mode never
# materialises the arrays (keras.datasets gives their shapes).
import numpy as _np
import tensorflow as _tf
from keras import datasets as _keras_datasets

__version__ = "4.9.3"


class Split:
    TRAIN = "train"
    TEST = "test"
    VALIDATION = "validation"
    ALL = "all"


class DatasetNotFoundError(ValueError):
    pass


class _Feature:
    pass


class ClassLabel(_Feature):
    def __init__(self, num_classes=None, names=None, names_file=None):
        if names is not None:
            self.names = [str(n) for n in names]
            self.num_classes = len(self.names)
        else:
            self.num_classes = int(num_classes)
            self.names = [str(i) for i in range(self.num_classes)]
        self.shape = ()
        self.dtype = _tf.int64

    def int2str(self, int_value):
        return self.names[int(int_value)]

    def str2int(self, str_value):
        if str_value in self.names:
            return self.names.index(str_value)
        raise ValueError("Invalid string class label %s" % str_value)

    def __repr__(self):
        return "ClassLabel(shape=(), dtype=int64, num_classes=%d)" % self.num_classes


class Image(_Feature):
    def __init__(self, shape=(None, None, 3), dtype=None, encoding_format=None):
        self.shape = tuple(shape)
        self.dtype = _tf.uint8 if dtype is None else dtype

    def __repr__(self):
        return "Image(shape=%s, dtype=uint8)" % (self.shape,)


class FeaturesDict(_Feature):
    def __init__(self, features):
        self._features = dict(features)

    def __getitem__(self, key):
        return self._features[key]

    def __contains__(self, key):
        return key in self._features

    def keys(self):
        return self._features.keys()

    def items(self):
        return self._features.items()

    def __iter__(self):
        return iter(self._features)

    def __len__(self):
        return len(self._features)

    @property
    def shape(self):
        return {k: v.shape for k, v in self._features.items()}

    @property
    def dtype(self):
        return {k: v.dtype for k, v in self._features.items()}

    def __repr__(self):
        rows = "".join("    '%s': %r,\n" % (k, v) for k, v in self._features.items())
        return "FeaturesDict({\n%s})" % rows


class features:
    ClassLabel = ClassLabel
    Image = Image
    FeaturesDict = FeaturesDict


class SplitInfo:
    def __init__(self, name, num_examples):
        self.name = name
        self.num_examples = num_examples
        self.num_shards = 1
        self.shard_lengths = [num_examples]

    def __repr__(self):
        return "<SplitInfo num_examples=%d, num_shards=1>" % self.num_examples


class DatasetInfo:
    def __init__(self, name, description, features, splits, homepage):
        self.name = name
        self.full_name = name + "/3.0.1"
        self.version = "3.0.1"
        self.description = description
        self.features = features
        self.splits = splits
        self.supervised_keys = ("image", "label")
        self.homepage = homepage
        self.citation = ""
        self.data_dir = "~/tensorflow_datasets/" + self.full_name
        self.download_size = 0
        self.dataset_size = 0
        self.disable_shuffling = False

    def __repr__(self):
        splits = "".join("        '%s': %r,\n" % (k, v) for k, v in self.splits.items())
        feats = repr(self.features).replace("\n", "\n    ")
        return ("tfds.core.DatasetInfo(\n    name='%s',\n    full_name='%s',\n    description=\"\"\"\n    %s\n    \"\"\",\n"
                "    homepage='%s',\n    data_path='%s',\n    features=%s,\n    supervised_keys=('image', 'label'),\n"
                "    splits={\n%s    },\n)" % (self.name, self.full_name, self.description, self.homepage,
                                                self.data_dir, feats, splits))


# name: (keras.datasets loader, image shape, class names, description, homepage)
_IMAGE_SETS = {
    "mnist": ("mnist", (28, 28, 1), [str(i) for i in range(10)],
              "The MNIST database of handwritten digits.", "http://yann.lecun.com/exdb/mnist/"),
    "fashion_mnist": ("fashion_mnist", (28, 28, 1),
                      ["T-shirt/top", "Trouser", "Pullover", "Dress", "Coat", "Sandal", "Shirt", "Sneaker", "Bag", "Ankle boot"],
                      "Fashion-MNIST is a dataset of Zalando's article images consisting of a training set of 60,000 examples and a test set of 10,000 examples. Each example is a 28x28 grayscale image, associated with a label from 10 classes.",
                      "https://github.com/zalandoresearch/fashion-mnist"),
    "cifar10": ("cifar10", (32, 32, 3),
                ["airplane", "automobile", "bird", "cat", "deer", "dog", "frog", "horse", "ship", "truck"],
                "The CIFAR-10 dataset consists of 60000 32x32 colour images in 10 classes, with 6000 images per class. There are 50000 training images and 10000 test images.",
                "https://www.cs.toronto.edu/~kriz/cifar.html"),
}

# Datasets TFDS registers whose data tensorlens does not synthesise: TFDS would download them.
_DOWNLOADED = ("cats_vs_dogs", "tf_flowers", "rock_paper_scissors", "horses_or_humans", "imdb_reviews",
               "glue", "colorectal_histology", "cifar100", "emnist", "kmnist", "svhn_cropped", "celeb_a",
               "caltech101", "oxford_flowers102", "oxford_iiit_pet", "stanford_dogs", "food101", "coco",
               "voc", "imagenet2012", "imagenet_v2", "imagenette", "beans", "malaria", "eurosat",
               "patch_camelyon", "mnist_corrupted", "binarized_mnist", "omniglot", "speech_commands",
               "ag_news_subset", "yelp_polarity_reviews", "amazon_us_reviews", "squad", "wmt14_translate",
               "wmt19_translate", "ted_hrlr_translate", "tiny_shakespeare", "lm1b", "wikipedia",
               "titanic", "iris", "boston_housing", "diabetic_retinopathy_detection", "places365_small",
               "sun397", "dtd", "deep_weeds", "plant_village", "cassava", "uc_merced", "resisc45",
               "so2sat", "quickdraw_bitmap", "sentiment140", "civil_comments", "cnn_dailymail",
               "gigaword", "xsum", "scientific_papers", "movielens", "shapes3d", "dsprites",
               "smallnorb", "stl10", "lsun", "div2k", "cycle_gan")


class _Builder:
    def __init__(self, name, data_dir=None):
        spec = _IMAGE_SETS[name]
        self.name = name
        self._loader = getattr(_keras_datasets, spec[0])
        self._shape = spec[1]
        sizes = self._loader.sizes
        self._sizes = {"train": sizes[0], "test": sizes[1]}
        feats = FeaturesDict({"image": Image(shape=spec[1]), "label": ClassLabel(names=spec[2])})
        splits = {k: SplitInfo(k, n) for k, n in self._sizes.items()}
        self.info = DatasetInfo(name, spec[3], feats, splits, spec[4])
        self._arrays = None

    def download_and_prepare(self, download_dir=None, download_config=None, file_format=None):
        return None

    def _split_arrays(self, split):
        if self._arrays is None:
            (xtr, ytr), (xte, yte) = self._loader.load_data()
            self._arrays = {
                "train": (_np.reshape(xtr, (-1,) + self._shape), ytr.reshape(-1).astype(_np.int64)),
                "test": (_np.reshape(xte, (-1,) + self._shape), yte.reshape(-1).astype(_np.int64)),
            }
        xs, ys = [], []
        for name, lo, hi in _parse_split(split, self._sizes):
            x, y = self._arrays[name]
            xs.append(x[lo:hi])
            ys.append(y[lo:hi])
        if len(xs) == 1:
            return xs[0], ys[0]
        return _np.concatenate(xs), _np.concatenate(ys)

    def _dataset(self, split, as_supervised, batch_size):
        x, y = self._split_arrays(split)
        if batch_size == -1:
            # TFDS: batch_size=-1 gives the whole split as tensors, not a dataset.
            x, y = _tf.constant(x), _tf.constant(y)
            return (x, y) if as_supervised else {"image": x, "label": y}
        if as_supervised:
            ds = _tf.data.Dataset.from_tensor_slices((x, y))
        else:
            ds = _tf.data.Dataset.from_tensor_slices({"image": x, "label": y})
        if batch_size is not None:
            ds = ds.batch(batch_size)
        return ds

    def as_dataset(self, split=None, batch_size=None, shuffle_files=False, decoders=None, read_config=None,
                   as_supervised=False):
        if split is None:
            return {k: self._dataset(k, as_supervised, batch_size) for k in self._sizes}
        if isinstance(split, (list, tuple)):
            return [self._dataset(s, as_supervised, batch_size) for s in split]
        return self._dataset(split, as_supervised, batch_size)


def _bound(text, n, whole, default):
    text = text.strip()
    if text == "":
        return default
    if text.endswith("%"):
        pct = float(text[:-1])
        v = int(round(pct * n / 100.0))
    else:
        v = int(text)
    if v < 0:
        v = n + v
    return max(0, min(n, v))


def _parse_split(split, sizes):
    """TFDS' split strings: 'train', 'test[:10%]', 'train[80%:]', 'train[10:20]', 'train+test'."""
    if not isinstance(split, str):
        raise TypeError("split should be a str, a list of str or None, got %r" % (split,))
    out = []
    for part in split.split("+"):
        part = part.strip()
        name, lo, hi = part, None, None
        if "[" in part:
            if not part.endswith("]"):
                raise ValueError("Unrecognized split format: %r" % part)
            name, rng = part[:-1].split("[", 1)
            if ":" not in rng:
                raise ValueError("Unrecognized split format: %r" % part)
            a, b = rng.split(":", 1)
            lo, hi = a, b
        if name == "all":
            names = list(sizes)
        elif name in sizes:
            names = [name]
        else:
            raise ValueError("Unknown split '%s'. Should be one of %s." % (name, list(sizes)))
        for nm in names:
            n = sizes[nm]
            start = 0 if lo is None else _bound(lo, n, n, 0)
            stop = n if hi is None else _bound(hi, n, n, n)
            out.append((nm, start, stop))
    return out


def _known_name(name):
    base = name.split("/")[0].split(":")[0]
    if base in _IMAGE_SETS:
        return base
    if base in _DOWNLOADED:
        raise ConnectionError("tensorlens does not access the network: tfds.load('%s') would download the dataset "
                              "(tensorlens' offline tensorflow_datasets has %s)" % (name, ", ".join(sorted(_IMAGE_SETS))))
    raise DatasetNotFoundError("Dataset %s not found." % base)


def builder(name, data_dir=None, **kwargs):
    return _Builder(_known_name(name), data_dir)


def load(name, split=None, data_dir=None, batch_size=None, shuffle_files=False, download=True,
         as_supervised=False, decoders=None, read_config=None, with_info=False, builder_kwargs=None,
         download_and_prepare_kwargs=None, as_dataset_kwargs=None, try_gcs=False):
    b = builder(name, data_dir=data_dir)
    ds = b.as_dataset(split=split, batch_size=batch_size, shuffle_files=shuffle_files,
                      as_supervised=as_supervised)
    if with_info:
        return ds, b.info
    return ds


def as_numpy(dataset):
    """tfds.as_numpy: a Dataset becomes an iterator of numpy elements; tensors become arrays."""
    if isinstance(dataset, _tf.data.Dataset):
        return dataset.as_numpy_iterator()
    if isinstance(dataset, dict):
        return {k: as_numpy(v) for k, v in dataset.items()}
    if isinstance(dataset, (list, tuple)):
        return type(dataset)(as_numpy(v) for v in dataset)
    if hasattr(dataset, "numpy"):
        return dataset.numpy()
    return dataset


def disable_progress_bar():
    return None


def enable_progress_bar():
    return None


def list_builders():
    return sorted(set(list(_IMAGE_SETS) + list(_DOWNLOADED)))
