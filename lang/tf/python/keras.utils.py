# keras.utils: to_categorical, normalize, pad_sequences, Sequence, plot_model (drawn with matplotlib).
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


def _plot_layout(model):
    """The model's layers as (label inputs, depth) and edges by layer name: a Sequential is a
    chain; a functional model follows its connections (summary's 'Connected to')."""
    layers = list(model.layers)
    names = [l.name for l in layers]
    edges = []
    if model._sequential_like():
        edges = [(names[i], names[i + 1]) for i in range(len(names) - 1)]
    else:
        for layer in layers:
            for c in model._connections(layer):
                src = c.split("[")[0]
                if src in names:
                    edges.append((src, layer.name))
    depth = {}
    for n in names:  # the layers are in topological order
        ins = [depth[a] for a, b in edges if b == n and a in depth]
        depth[n] = 1 + max(ins) if ins else 0
    return layers, edges, depth


def _plot_label(model, layer, show_shapes, show_dtype, show_layer_names):
    label = "%s: %s" % (layer.name, type(layer).__name__) if show_layer_names else type(layer).__name__
    if show_dtype:
        label += "\n" + str(getattr(layer, "dtype", None))
    if show_shapes:
        label += "\noutput: " + str(model._layer_output_shape(layer))
    return label


def plot_model(model, to_file="model.png", show_shapes=False, show_dtype=False, show_layer_names=True,
               rankdir="TB", expand_nested=False, dpi=96, **kwargs):
    """Draws the model's layers as boxes joined by arrows into `to_file` (any format matplotlib
    writes: .png, .svg, .pdf). Keras draws with pydot and graphviz; tensorlens draws with
    matplotlib (through the Python the run uses). The language server writes nothing."""
    if _tlens.is_abstract():
        return None
    if not model.built:
        raise ValueError("This model has not yet been built. Build the model first by calling `build()` or by "
                         "calling the model on a batch of data.")
    try:
        import matplotlib
        import matplotlib.pyplot as plt
    except ImportError:
        print("tensorlens: plot_model draws with matplotlib, which this run's Python does not have; "
              "%s was not written" % (to_file,))
        return None
    layers, edges, depth = _plot_layout(model)
    rows = {}
    for l in layers:
        rows.setdefault(depth[l.name], []).append(l.name)
    width = max(len(r) for r in rows.values()) if rows else 1
    pos = {}
    horizontal = rankdir in ("LR", "RL")
    for d, row in rows.items():
        for i, n in enumerate(row):
            across = (i + 0.5) * width / len(row)
            pos[n] = (d, -across) if horizontal else (across, -d)
    n_rows = len(rows) or 1
    fig = plt.figure(figsize=(2.0 + 1.8 * n_rows, 1.0 + 1.2 * width) if horizontal
                     else (1.0 + 3.2 * width, 0.4 + 1.1 * n_rows))
    ax = fig.add_axes([0, 0, 1, 1])
    ax.axis("off")
    for a, b in edges:
        ax.annotate("", xy=pos[b], xytext=pos[a],
                    arrowprops=dict(arrowstyle="->", shrinkA=14, shrinkB=14, color="black"))
    for l in layers:
        x, y = pos[l.name]
        ax.text(x, y, _plot_label(model, l, show_shapes, show_dtype, show_layer_names), ha="center",
                va="center", fontsize=9, bbox=dict(boxstyle="round", facecolor="white", edgecolor="black"))
    if horizontal:
        ax.set_xlim(-0.6, n_rows - 0.4)
        ax.set_ylim(-width - 0.1, 0.1)
    else:
        ax.set_xlim(-0.1, width + 0.1)
        ax.set_ylim(-n_rows + 0.4, 0.6)
    fig.savefig(to_file, dpi=dpi)
    plt.close(fig)
    return None


def model_to_dot(model, show_shapes=False, show_dtype=False, show_layer_names=True, rankdir="TB",
                 expand_nested=False, dpi=96, subgraph=False, **kwargs):
    raise ImportError("tensorlens: model_to_dot needs pydot and graphviz, which tensorlens does not model; "
                      "plot_model draws the model with matplotlib instead")


def set_random_seed(seed):
    _np.random.seed(seed)
    _tf.random.set_seed(seed)


def get_file(fname=None, origin=None, untar=False, md5_hash=None, file_hash=None, cache_subdir="datasets",
             hash_algorithm="auto", extract=False, archive_format="auto", cache_dir=None):
    """Keras' get_file: the cached file (~/.keras/datasets/fname) when it is there; otherwise the
    download, which tensorlens never makes: Keras' "URL fetch failure" Exception, as an offline run
    raises it. Abstract mode gives the path and reads nothing."""
    import os
    import _tlens
    if origin is None:
        raise ValueError('Please specify the "origin" argument (URL of the file to download).')
    if cache_dir is None:
        cache_dir = os.path.join(os.path.expanduser("~"), ".keras")
    datadir = os.path.join(os.path.expanduser(str(cache_dir)), cache_subdir)
    if not fname:
        fname = os.path.basename(origin.split("?")[0].split("#")[0])
        if not fname:
            raise ValueError("Can't parse the file name from the origin provided: '%s'.Please specify the `fname` as the input param." % origin)
    fname = str(fname)
    if untar:
        untar_fpath = os.path.join(datadir, fname)
        fpath = untar_fpath + ".tar.gz"
    else:
        fpath = os.path.join(datadir, fname)
    if _tlens.is_abstract():
        return untar_fpath if untar else fpath
    os.makedirs(datadir, exist_ok=True)
    if not os.path.exists(fpath):
        import urllib.request
        import urllib.error
        try:
            urllib.request.urlretrieve(origin, fpath)
        except urllib.error.HTTPError as e:
            raise Exception("URL fetch failure on {}: {} -- {}".format(origin, e.code, e.msg))
        except urllib.error.URLError as e:
            raise Exception("URL fetch failure on {}: {} -- {}".format(origin, getattr(e, "errno", None), e.reason))
    if untar:
        if not os.path.exists(untar_fpath):
            _extract_archive(fpath, datadir, "tar")
        return untar_fpath
    if extract:
        _extract_archive(fpath, datadir, archive_format)
    return fpath


def _extract_archive(path, to, archive_format):
    import tarfile
    import zipfile
    kinds = ["tar", "zip"] if archive_format == "auto" else ([archive_format] if isinstance(archive_format, str) else list(archive_format))
    for kind in kinds:
        if kind == "tar" and tarfile.is_tarfile(path):
            with tarfile.open(path) as archive:
                archive.extractall(to)
            return True
        if kind == "zip" and zipfile.is_zipfile(path):
            with zipfile.ZipFile(path) as archive:
                archive.extractall(to)
            return True
    return False


class _NpUtils:
    pass


np_utils = _NpUtils()
np_utils.to_categorical = to_categorical
np_utils.normalize = normalize
