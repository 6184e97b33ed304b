# keras.backend: the state the Keras modules share and Keras' backend functions.
#
# Symbolic Keras tensors (keras.Input and what layers compute from it) are graph tensors of one
# "Keras graph": in eager programs a graph of its own, in TF1 programs the default graph. Their
# static shapes come from the op registry's shape functions, as everything else in tensorlens.
# `_producers` maps a Keras tensor's name to the layer call (node) that produced it, which is how
# a functional Model finds its layers between its inputs and outputs.
import _tlens
import tensorflow as _tf

_state = {"graph": None, "uids": {}, "producers": {}, "nodes": [], "learning_phase": None}


def keras_graph():
    if _tlens.style() == "graph":
        return _tf.get_default_graph()
    if _state["graph"] is None:
        _state["graph"] = _tf.Graph()
    return _state["graph"]


def is_keras_tensor(x):
    if not _tlens.is_symbolic(x):
        return False
    g = _tlens.graph_of(x)
    return g == keras_graph() and x.name in _state["producers"]


def symbolic_placeholder(dtype, shape, name=None):
    """A placeholder of the Keras graph (keras.Input, and what Keras applies models to)."""
    g = keras_graph()
    if _tlens.style() == "graph":
        return _tf.placeholder(dtype, shape, name=name)
    with g.as_default():
        return _tf.placeholder(dtype, shape, name=name)


def producer(x):
    if not _tlens.is_symbolic(x):
        return None
    return _state["producers"].get(x.name)


def set_producer(x, node, index):
    _state["producers"][x.name] = (node, index)


def get_uid(prefix=""):
    n = _state["uids"].get(prefix, 0) + 1
    _state["uids"][prefix] = n
    return n


def unique_object_name(base, zero_based=True):
    n = get_uid(base)
    if zero_based:
        return base if n == 1 else "%s_%d" % (base, n - 1)
    return "%s_%d" % (base, n)


def clear_session():
    _state["graph"] = None
    _state["uids"] = {}
    _state["producers"] = {}
    _state["nodes"] = []


reset_uids = clear_session


def floatx():
    return "float32"


def set_floatx(value):
    if value != "float32":
        raise NotImplementedError("tensorlens: Keras models compute in float32 only")


def epsilon():
    return 1e-07


def set_epsilon(value):
    pass


def image_data_format():
    return "channels_last"


def set_image_data_format(data_format):
    if data_format != "channels_last":
        raise NotImplementedError("tensorlens: Keras layers support data_format='channels_last' only")


def learning_phase():
    p = _state["learning_phase"]
    return 0 if p is None else p


def set_learning_phase(value):
    _state["learning_phase"] = value


def int_shape(x):
    s = x.shape
    if isinstance(s, tuple):
        return s
    if s.ndims is None:
        return None
    return tuple(s.as_list())


def count_params(x):
    n = 1
    for d in int_shape(x):
        n *= d
    return n


def get_value(x):
    if _tlens.is_tensor(x):
        return x.numpy()
    return x


def set_value(x, value):
    x.assign(value)


def batch_get_value(tensors):
    return [get_value(t) for t in tensors]


def shape(x):
    return _tf.shape(x)


def cast(x, dtype):
    return _tf.cast(x, dtype)


def constant(value, dtype=None, shape=None, name=None):
    return _tf.constant(value, dtype=dtype if dtype is not None else _tf.float32, shape=shape, name=name)


def variable(value, dtype=None, name=None, constraint=None):
    return _tf.Variable(value, dtype=dtype, name=name)


def zeros(shape, dtype=None, name=None):
    return _tf.zeros(shape, dtype if dtype is not None else _tf.float32)


def ones(shape, dtype=None, name=None):
    return _tf.ones(shape, dtype if dtype is not None else _tf.float32)


def sum(x, axis=None, keepdims=False):
    return _tf.reduce_sum(x, axis, keepdims=keepdims)


def mean(x, axis=None, keepdims=False):
    return _tf.reduce_mean(x, axis, keepdims=keepdims)


def square(x):
    return _tf.square(x)


def sqrt(x):
    return _tf.sqrt(x)


def exp(x):
    return _tf.exp(x)


def log(x):
    return _tf.log(x)


def abs(x):
    return _tf.abs(x)


def dot(x, y):
    return _tf.matmul(x, y)


def reshape(x, shape):
    return _tf.reshape(x, shape)


def concatenate(tensors, axis=-1):
    return _tf.concat(tensors, axis)


def clip(x, min_value, max_value):
    return _tf.clip_by_value(x, min_value, max_value)


def argmax(x, axis=-1):
    return _tf.argmax(x, axis)
