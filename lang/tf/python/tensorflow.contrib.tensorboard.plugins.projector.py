# tf.contrib.tensorboard.plugins.projector (TF1): the embedding projector's ProjectorConfig
# message (embeddings.add(), tensor_name, metadata_path, sprite.image_path,
# sprite.single_image_dim) and visualize_embeddings, which writes
# projector_config.pbtxt in protobuf's text format into the writer's log directory, as
# TensorBoard reads it.
import os as _os

PROJECTOR_FILENAME = "projector_config.pbtxt"


class _Repeated:
    """A repeated field: append/extend for scalars, add() for messages."""

    def __init__(self, message_class=None):
        self._items = []
        self._message_class = message_class

    def add(self, **kwargs):
        if self._message_class is None:
            raise AttributeError("'RepeatedScalarContainer' object has no attribute 'add'")
        m = self._message_class(**kwargs)
        self._items.append(m)
        return m

    def append(self, value):
        self._items.append(value)

    def extend(self, values):
        self._items.extend(values)

    def __len__(self):
        return len(self._items)

    def __iter__(self):
        return iter(self._items)

    def __getitem__(self, i):
        return self._items[i]

    def __repr__(self):
        return repr(self._items)


class _Message:
    # (name, number, kind): kind is "string", "uint32", "repeated uint32", a message class, or
    # ("repeated", message class).
    _FIELDS = ()

    def __init__(self, **kwargs):
        for name, _, kind in self._FIELDS:
            if kind == "string":
                value = ""
            elif kind == "uint32":
                value = 0
            elif kind == "repeated uint32":
                value = _Repeated()
            elif isinstance(kind, tuple):
                value = _Repeated(kind[1])
            else:
                value = kind()
            object.__setattr__(self, name, value)
        for k, v in kwargs.items():
            setattr(self, k, v)

    def __setattr__(self, name, value):
        for n, _, kind in self._FIELDS:
            if n == name:
                if kind == "string" and not isinstance(value, str):
                    raise TypeError("%r has type %s, but expected one of: (<class 'bytes'>, <class 'str'>)"
                                    % (value, type(value).__name__))
                if kind != "string" and kind != "uint32":
                    raise AttributeError("Assignment not allowed to field \"%s\" in protocol message object." % name)
                object.__setattr__(self, name, value)
                return
        raise AttributeError("Assignment not allowed (no field \"%s\" in protocol message object)." % name)

    def _empty(self):
        return self._text(0) == ""

    def _text(self, indent):
        pad = "  " * indent
        lines = []
        for name, _, kind in self._FIELDS:
            value = getattr(self, name)
            if kind == "string":
                if value:
                    lines.append('%s%s: "%s"\n' % (pad, name, value.replace("\\", "\\\\").replace('"', '\\"')))
            elif kind == "uint32":
                if value:
                    lines.append("%s%s: %d\n" % (pad, name, value))
            elif kind == "repeated uint32":
                for v in value:
                    lines.append("%s%s: %d\n" % (pad, name, v))
            elif isinstance(kind, tuple):
                for m in value:
                    lines.append("%s%s {\n%s%s}\n" % (pad, name, m._text(indent + 1), pad))
            elif not value._empty():
                lines.append("%s%s {\n%s%s}\n" % (pad, name, value._text(indent + 1), pad))
        return "".join(lines)

    def __str__(self):
        return self._text(0)


class SpriteMetadata(_Message):
    _FIELDS = (("image_path", 1, "string"), ("single_image_dim", 2, "repeated uint32"))


class EmbeddingInfo(_Message):
    _FIELDS = (("tensor_name", 1, "string"), ("metadata_path", 2, "string"), ("bookmarks_path", 3, "string"),
               ("tensor_shape", 4, "repeated uint32"), ("sprite", 5, SpriteMetadata), ("tensor_path", 6, "string"))


class ProjectorConfig(_Message):
    _FIELDS = (("model_checkpoint_path", 1, "string"), ("embeddings", 2, ("repeated", EmbeddingInfo)),
               ("model_checkpoint_dir", 3, "string"))


def visualize_embeddings(summary_writer, config):
    """Writes `config` as projector_config.pbtxt into the log directory: summary_writer is a
    FileWriter (TF1's contrib API) or the log directory itself (as tensorboard's own module takes).
    The `tensorboard` package itself is not embedded: a user's installed one stays reachable."""
    logdir = summary_writer if isinstance(summary_writer, str) else summary_writer.get_logdir()
    if logdir is None:
        raise ValueError("Summary writer must have a logdir")
    if not _os.path.isdir(logdir):
        _os.makedirs(logdir)
    with open(_os.path.join(logdir, PROJECTOR_FILENAME), "w") as f:
        f.write(str(config))
