# keras.preprocessing.image: ImageDataGenerator. flow() yields batches of the given arrays with
# `rescale` applied; the random augmentations (rotation, shifts, flips, zoom, ...) keep shapes
# and are not applied (FIXME), so shapes and training behave as with Keras, minus augmentation.
import _tlens
import numpy as _np
from keras.layers import _fail, _static_dims


class NumpyArrayIterator:
    def __init__(self, x, y, generator, batch_size=32, shuffle=True, seed=None, subset=None):
        x = _np.asarray(x)
        dims = _static_dims(x)
        if dims is not None and len(dims) != 4:
            _fail("Input data in `NumpyArrayIterator` should have rank 4. You passed an array with shape %s" % (x.shape,))
        if y is not None:
            y = _np.asarray(y)
            yd = _static_dims(y)
            if dims is not None and yd is not None and dims[0] is not None and yd[0] is not None and dims[0] != yd[0]:
                _fail("`x` (images tensor) and `y` (labels) should have the same length. Found: x.shape = %s, y.shape = %s" % (x.shape, y.shape))
        n = x.shape[0]
        split = generator.validation_split
        if subset is not None and split:
            k = int(n * (1 - split))
            if subset == "training":
                x, y = x[:k], (None if y is None else y[:k])
            else:
                x, y = x[k:], (None if y is None else y[k:])
        self.x = x
        self.y = y
        self.generator = generator
        self.batch_size = batch_size
        self.shuffle = shuffle
        self.n = x.shape[0]
        self._index = 0

    def _tlens_spec(self):
        return _static_dims(self.x), (None if self.y is None else _static_dims(self.y)), self.batch_size

    def __len__(self):
        return (self.n + self.batch_size - 1) // self.batch_size

    def __getitem__(self, i):
        start = i * self.batch_size
        xb = self.generator.standardize(self.x[start:start + self.batch_size].astype(_np.float32))
        if self.y is None:
            return xb
        return xb, self.y[start:start + self.batch_size]

    def __iter__(self):
        return self

    def __next__(self):
        b = self[self._index % len(self)]
        self._index += 1
        return b

    def next(self):
        return self.__next__()

    def on_epoch_end(self):
        pass


class ImageDataGenerator:
    def __init__(self, featurewise_center=False, samplewise_center=False, featurewise_std_normalization=False,
                 samplewise_std_normalization=False, zca_whitening=False, zca_epsilon=1e-06, rotation_range=0,
                 width_shift_range=0.0, height_shift_range=0.0, brightness_range=None, shear_range=0.0,
                 zoom_range=0.0, channel_shift_range=0.0, fill_mode="nearest", cval=0.0, horizontal_flip=False,
                 vertical_flip=False, rescale=None, preprocessing_function=None, data_format=None,
                 validation_split=0.0, interpolation_order=1, dtype=None):
        self.rescale = rescale
        self.preprocessing_function = preprocessing_function
        self.validation_split = validation_split
        self.rotation_range = rotation_range
        self.horizontal_flip = horizontal_flip

    def standardize(self, x):
        if self.preprocessing_function is not None:
            x = self.preprocessing_function(x)
        if self.rescale:
            x = x * self.rescale
        return x

    def random_transform(self, x, seed=None):
        return x

    def fit(self, x, augment=False, rounds=1, seed=None):
        dims = _static_dims(_np.asarray(x))
        if dims is not None and len(dims) != 4:
            _fail("Input to `.fit()` should have rank 4. Got array with shape: %s" % (x.shape,))

    def flow(self, x, y=None, batch_size=32, shuffle=True, sample_weight=None, seed=None, save_to_dir=None,
             save_prefix="", save_format="png", ignore_class_split=False, subset=None):
        return NumpyArrayIterator(x, y, self, batch_size, shuffle, seed, subset)

    def flow_from_directory(self, directory, *args, **kwargs):
        raise NotImplementedError("tensorlens: flow_from_directory reads image files, which tensorlens does not do; use flow() on arrays")

    def flow_from_dataframe(self, dataframe, *args, **kwargs):
        raise NotImplementedError("tensorlens: flow_from_dataframe is not supported; use flow() on arrays")


def img_to_array(img, data_format=None, dtype=None):
    x = _np.asarray(img)
    x = x.astype(_np.float32 if dtype is None else dtype)
    if len(x.shape) == 2:
        x = x.reshape((x.shape[0], x.shape[1], 1))
    return x


def _pil_image():
    # Images are PIL images, as in Keras: PIL comes from the user's Python (concrete mode only).
    try:
        from PIL import Image
    except ImportError:
        raise ImportError("Could not import PIL.Image. The use of `array_to_img` requires PIL.")
    return Image


def array_to_img(x, data_format=None, scale=True, dtype=None):
    x = _np.asarray(x, dtype=_np.float32)
    if x.ndim != 3:
        raise ValueError("Expected image array to have rank 3 (single image). Got array with shape: %s" % (x.shape,))
    if data_format == "channels_first":
        x = x.transpose(1, 2, 0)
    if scale:
        x = x - _np.min(x)
        x_max = _np.max(x)
        if x_max != 0:
            x = x / x_max
        x = x * 255
    Image = _pil_image()
    c = x.shape[2]
    if c == 4:
        return Image.fromarray(x.astype("uint8"), "RGBA")
    if c == 3:
        return Image.fromarray(x.astype("uint8"), "RGB")
    if c == 1:
        return Image.fromarray(x[:, :, 0].astype("uint8"), "L")
    raise ValueError("Unsupported channel number: %d" % c)


def save_img(path, x, data_format=None, file_format=None, scale=True, **kwargs):
    img = array_to_img(x, data_format=data_format, scale=scale)
    img.save(path, format=file_format, **kwargs)


def load_img(path, grayscale=False, color_mode="rgb", target_size=None, interpolation="nearest",
             keep_aspect_ratio=False):
    Image = _pil_image()
    img = Image.open(path)
    if grayscale:
        color_mode = "grayscale"
    mode = {"grayscale": "L", "rgba": "RGBA", "rgb": "RGB"}.get(color_mode)
    if mode is None:
        raise ValueError('color_mode must be "grayscale", "rgb", or "rgba"')
    if img.mode != mode:
        img = img.convert(mode)
    if target_size is not None:
        size = (target_size[1], target_size[0])
        if img.size != size:
            img = img.resize(size, Image.NEAREST if interpolation == "nearest" else Image.BILINEAR)
    return img
