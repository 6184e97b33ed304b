# keras.utils: to_categorical, normalize, pad_sequences, Sequence, plot_model (a no-op).
import _tlens
import numpy as _np
import tensorflow as _tf


def to_categorical(y, num_classes=None, dtype="float32"):
    y = _np.asarray(y)
    shape = list(y.shape)
    if shape and shape[-1] == 1 and len(shape) > 1:
        shape = shape[:-1]
    flat = y.reshape(-1).astype(_np.int64)
    if num_classes is None:
        num_classes = int(_np.max(flat)) + 1
    n = flat.shape[0]
    onehot = (flat.reshape(n, 1) == _np.arange(num_classes).reshape(1, num_classes)).astype(dtype)
    return onehot.reshape(shape + [num_classes])


def normalize(x, axis=-1, order=2):
    x = _np.asarray(x)
    norm = _np.sqrt(_np.sum(x * x, axis=axis, keepdims=True))
    return x / _np.maximum(norm, 1e-12)


def pad_sequences(sequences, maxlen=None, dtype="int32", padding="pre", truncating="pre", value=0.0):
    if _tlens.is_ndarray(sequences) or _tlens.is_tensor(sequences):
        x = _np.asarray(sequences)
        n, length = x.shape[0], x.shape[1]
        if maxlen is None:
            maxlen = length
        if length > maxlen:
            x = x[:, length - maxlen:] if truncating == "pre" else x[:, :maxlen]
        elif length < maxlen:
            pad = [[0, 0], [maxlen - length, 0]] if padding == "pre" else [[0, 0], [0, maxlen - length]]
            x = _np.pad(x, pad, constant_values=value)
        return x.astype(dtype)
    seqs = [list(s) for s in sequences]
    if maxlen is None:
        maxlen = max([len(s) for s in seqs]) if seqs else 0
    rows = []
    for s in seqs:
        if len(s) > maxlen:
            s = s[len(s) - maxlen:] if truncating == "pre" else s[:maxlen]
        fill = [value] * (maxlen - len(s))
        rows.append(fill + s if padding == "pre" else s + fill)
    return _np.array(rows, dtype=dtype).reshape(len(rows), maxlen)


class Sequence:
    def __len__(self):
        raise NotImplementedError

    def __getitem__(self, index):
        raise NotImplementedError

    def on_epoch_end(self):
        pass

    def __iter__(self):
        for i in range(len(self)):
            yield self[i]


def plot_model(model, to_file="model.png", show_shapes=False, show_dtype=False, show_layer_names=True, **kwargs):
    # FIXME: tensorlens draws no images.
    return None


def set_random_seed(seed):
    _np.random.seed(seed)
    _tf.random.set_seed(seed)


def get_file(fname=None, origin=None, **kwargs):
    raise NotImplementedError("tensorlens never downloads files (keras.utils.get_file); use keras.datasets, which are synthetic")


class _NpUtils:
    pass


np_utils = _NpUtils()
np_utils.to_categorical = to_categorical
np_utils.normalize = normalize
