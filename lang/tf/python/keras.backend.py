# keras.backend: the state the Keras modules share and Keras' backend functions.
#
# Symbolic Keras tensors (keras.Input and what layers compute from it) are graph tensors of one
# "Keras graph": in eager programs a graph of its own, in TF1 programs the default graph. Their
# static shapes come from the op registry's shape functions, as everything else in tensorlens.
# `_producers` maps a Keras tensor's name to the layer call (node) that produced it, which is how
# a functional Model finds its layers between its inputs and outputs.
import _tlens
_builtin_any = any  # the builtin, before this module defines K.any
import tensorflow as _tf

_state = {"graph": None, "uids": {}, "producers": {}, "nodes": [], "learning_phase": None, "session": None,
          "initialized": {}, "update_collector": [], "tf_keras": False}


def targets_checked_strictly():
    """Whether fit checks targets against the outputs as standalone Keras 2.x and TF 1's tf.keras
    did (training_utils.standardize_input_data: "Error when checking target"), not as TF 2's
    tf.keras, whose element-wise losses broadcast them: in TF 1-style programs, and in programs
    that import `keras` itself and never tf.keras."""
    return _tlens.style() == "graph" or not _state["tf_keras"]


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
    _state["session"] = None
    _state["initialized"] = {}
    _state["phase_tensors"] = []


reset_uids = clear_session


# --- the session of TF1 programs ------------------------------------------------------------------
# tf.keras 1.x ran fit/evaluate/predict of graph-mode programs as runs of one session: the one
# given to set_session, else the default session, else a new one; before a run it initialises the
# variables of the graph that are not initialised yet (never re-initialising the user's).
def get_session(op_input_list=()):
    sess = _state["session"]
    if sess is None:
        sess = _tf.get_default_session()
    if sess is None:
        sess = _tf.Session()
        _state["session"] = sess
    if not _tlens.is_abstract():
        _initialize_variables(sess)
    return sess


def set_session(session):
    _state["session"] = session


def _initialize_variables(sess):
    """Runs the initializers of the global variables that `sess` has not initialised (one read per
    variable not yet seen initialised: an uninitialised one fails that read)."""
    if _tlens.is_abstract() or _tlens.style() != "graph":
        return
    seen = _state["initialized"].setdefault(id(sess), {})
    todo = []
    for v in _tf.global_variables():
        if v.name in seen:
            continue
        try:
            sess.run(v)
        except _tf.errors.FailedPreconditionError:
            todo.append(v)
        seen[v.name] = True
    if todo:
        sess.run(_tf.variables_initializer(todo))


def add_update_op(op):
    """Keeps an update op (BatchNormalization's moving averages) for the graph step being built."""
    if _state["update_collector"] and op is not None and not _tf.executing_eagerly():
        _state["update_collector"][-1].append(op)


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


def image_dim_ordering():
    # Keras 1's name of the data format: 'tf' is channels_last, 'th' channels_first.
    return "tf"


def set_image_dim_ordering(dim_ordering):
    if dim_ordering not in ("tf", "th"):
        raise ValueError("Unknown dim_ordering: %s" % (dim_ordering,))
    set_image_data_format("channels_last" if dim_ordering == "tf" else "channels_first")


def learning_phase():
    # Set by set_learning_phase: that value. Else, in TF1 programs, a bool tensor of the default
    # graph (False unless fed: feed_dict={K.learning_phase(): 1}) that Dropout layers called
    # without `training` follow, as tf.keras 1.x did; in TF2 programs 0.
    p = _state["learning_phase"]
    if p is not None:
        return p
    t = _graph_learning_phase()
    return 0 if t is None else t


def _graph_learning_phase():
    """The TF1 learning-phase tensor of the default graph, or None outside TF1 graphs."""
    if _tlens.style() != "graph" or _state["learning_phase"] is not None or _tf.executing_eagerly():
        return None
    g = _tf.get_default_graph()
    if "phase_tensors" not in _state:
        _state["phase_tensors"] = []
    for graph, t in _state["phase_tensors"]:
        if graph == g:  # (graph objects are compared, not identities: each lookup gives a new one)
            return t
    with _tlens.init_scope():
        t = _tf.placeholder_with_default(False, [], name="keras_learning_phase")
    _state["phase_tensors"].append((g, t))
    return t


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


def _session_values(tensors):
    """Whether these values are read and written through the Keras session: graph tensors and
    variables of a TF1 program run concretely (also from the debugger's evaluate, which runs
    eagerly)."""
    return _tlens.style() == "graph" and not _tlens.is_abstract() and _builtin_any([_tlens.is_symbolic(t) for t in tensors])


def get_value(x):
    return batch_get_value([x])[0]


def set_value(x, value):
    batch_set_value([(x, value)])


def batch_get_value(tensors):
    tensors = list(tensors)
    if _session_values(tensors):
        return get_session().run(tensors)
    return [x.numpy() if _tlens.is_tensor(x) else x for x in tensors]


def batch_set_value(tuples):
    tuples = list(tuples)
    if _session_values([x for x, value in tuples]):
        get_session().run([_tf.assign(x, value) for x, value in tuples])
        return
    for x, value in tuples:
        x.assign(value)


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


# Element-wise functions that are TensorFlow's own (the same arguments: x, or x and y).
square = _tf.square
exp = _tf.exp
log = _tf.log
abs = _tf.abs
sign = _tf.sign
round = _tf.round
sin = _tf.sin
cos = _tf.cos
tanh = _tf.tanh
sigmoid = _tf.sigmoid
maximum = _tf.maximum
minimum = _tf.minimum
equal = _tf.equal
not_equal = _tf.not_equal
greater = _tf.greater
greater_equal = _tf.greater_equal
less = _tf.less
less_equal = _tf.less_equal


def sum(x, axis=None, keepdims=False):
    return _tf.reduce_sum(x, axis, keepdims=keepdims)


def _floaty(x):
    # Keras' reductions that average take booleans as floatx.
    x = _tf.convert_to_tensor(x)
    return _tf.cast(x, floatx()) if x.dtype.base_dtype == _tf.bool else x


def mean(x, axis=None, keepdims=False):
    return _tf.reduce_mean(_floaty(x), axis, keepdims=keepdims)


def sqrt(x):
    x = _tf.convert_to_tensor(x)
    return _tf.sqrt(_tf.maximum(x, _tf.zeros([], x.dtype)))  # Keras clips negatives to 0


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


def argmin(x, axis=-1):
    return _tf.argmin(x, axis)


def max(x, axis=None, keepdims=False):
    return _tf.reduce_max(x, axis, keepdims=keepdims)


def min(x, axis=None, keepdims=False):
    return _tf.reduce_min(x, axis, keepdims=keepdims)


def prod(x, axis=None, keepdims=False):
    return _tf.reduce_prod(x, axis, keepdims=keepdims)


def var(x, axis=None, keepdims=False):
    return _tf.math.reduce_variance(_floaty(x), axis, keepdims=keepdims)


def std(x, axis=None, keepdims=False):
    return _tf.math.reduce_std(_floaty(x), axis, keepdims=keepdims)


def any(x, axis=None, keepdims=False):
    return _tf.reduce_any(_tf.cast(x, _tf.bool), axis, keepdims=keepdims)


def all(x, axis=None, keepdims=False):
    return _tf.reduce_all(_tf.cast(x, _tf.bool), axis, keepdims=keepdims)


def cumsum(x, axis=0):
    return _tf.cumsum(x, axis)


def cumprod(x, axis=0):
    return _tf.cumprod(x, axis)


def pow(x, a):
    return _tf.pow(x, a)


def hard_sigmoid(x):
    from keras import activations
    return activations.hard_sigmoid(x)


def relu(x, alpha=0.0, max_value=None, threshold=0.0):
    from keras import activations
    return activations.relu(x, alpha, max_value, threshold)


def elu(x, alpha=1.0):
    from keras import activations
    return activations.elu(x, alpha)


def softmax(x, axis=-1):
    return _tf.nn.softmax(x, axis=axis)


def softplus(x):
    return _tf.nn.softplus(x)


def softsign(x):
    return _tf.nn.softsign(x)


def l2_normalize(x, axis=None):
    return _tf.nn.l2_normalize(x, axis)


def transpose(x):
    return _tf.transpose(x)


def permute_dimensions(x, pattern):
    return _tf.transpose(x, perm=list(pattern))


def flatten(x):
    return _tf.reshape(x, [-1])


def batch_flatten(x):
    return _tf.reshape(x, _tf.stack([-1, _tf.reduce_prod(_tf.shape(x)[1:])]))


def expand_dims(x, axis=-1):
    return _tf.expand_dims(x, axis)


def squeeze(x, axis):
    return _tf.squeeze(x, [axis])


def stack(x, axis=0):
    return _tf.stack(x, axis=axis)


def tile(x, n):
    if isinstance(n, int):
        n = [n]
    return _tf.tile(x, n)


def repeat_elements(x, rep, axis):
    return _tf.repeat(x, rep, axis=axis)


def ones_like(x, dtype=None, name=None):
    return _tf.ones_like(x, dtype=dtype)


def zeros_like(x, dtype=None, name=None):
    return _tf.zeros_like(x, dtype=dtype)


def eye(size, dtype=None, name=None):
    # Keras returns a variable.
    return _tf.Variable(_tf.eye(size, dtype=_tf.as_dtype(dtype if dtype is not None else floatx())), name=name)


def arange(start, stop=None, step=1, dtype="int32"):
    if stop is None:
        start, stop = 0, start
    return _tf.cast(_tf.range(start, stop, step), dtype)


def random_normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    return _tf.random.normal(shape, mean, stddev, dtype=_tf.as_dtype(dtype if dtype is not None else floatx()), seed=seed)


def random_uniform(shape, minval=0.0, maxval=1.0, dtype=None, seed=None):
    return _tf.random.uniform(shape, minval, maxval, dtype=_tf.as_dtype(dtype if dtype is not None else floatx()), seed=seed)


def gather(reference, indices):
    return _tf.gather(reference, indices)


def one_hot(indices, num_classes):
    return _tf.one_hot(indices, depth=num_classes, axis=-1)


def bias_add(x, bias, data_format=None):
    return _tf.nn.bias_add(x, bias)


def dropout(x, level, noise_shape=None, seed=None):
    return _tf.nn.dropout(x, rate=level, noise_shape=noise_shape, seed=seed)


def binary_crossentropy(target, output, from_logits=False):
    if from_logits:
        return _tf.nn.sigmoid_cross_entropy_with_logits(labels=target, logits=output)
    output = _tf.convert_to_tensor(output)
    eps = epsilon()
    output = _tf.clip_by_value(output, eps, 1.0 - eps)
    bce = target * _tf.log(output + eps) + (1.0 - target) * _tf.log(1.0 - output + eps)
    return -bce


def categorical_crossentropy(target, output, from_logits=False, axis=-1):
    from keras import losses
    return losses.categorical_crossentropy(target, output, from_logits=from_logits, axis=axis)


def sparse_categorical_crossentropy(target, output, from_logits=False, axis=-1, ignore_class=None):
    from keras import losses
    return losses.sparse_categorical_crossentropy(target, output, from_logits=from_logits, axis=axis)


def switch(condition, then_expression, else_expression):
    if isinstance(condition, bool):
        chosen = then_expression if condition else else_expression
        return chosen() if callable(chosen) else chosen
    cond = _tf.convert_to_tensor(condition)
    if cond.shape.ndims == 0:
        then_fn = then_expression if callable(then_expression) else (lambda: then_expression)
        else_fn = else_expression if callable(else_expression) else (lambda: else_expression)
        return _tf.cond(cond, then_fn, else_fn)
    if callable(then_expression):
        then_expression = then_expression()
    if callable(else_expression):
        else_expression = else_expression()
    return _tf.where(cond, then_expression, else_expression)


def ndim(x):
    s = x.shape if hasattr(x, "shape") else _tf.convert_to_tensor(x).shape
    return len(s) if isinstance(s, tuple) else s.ndims


def dtype(x):
    return x.dtype.base_dtype.name


def update(x, new_x):
    return x.assign(new_x)


def update_add(x, increment):
    return x.assign_add(increment)


def update_sub(x, decrement):
    return x.assign_sub(decrement)


def print_tensor(x, message="", summarize=3):
    _tf.print(message, x)
    return x


# --- graph-building functions of Keras' backend --------------------------------------------------
def placeholder(shape=None, ndim=None, dtype=None, sparse=False, name=None, ragged=False):
    if shape is None and ndim is not None:
        shape = [None] * ndim
    return symbolic_placeholder(_tf.as_dtype(dtype if dtype is not None else floatx()),
                                None if shape is None else list(shape), name)


def is_placeholder(x):
    return _tlens.is_symbolic(x) and getattr(getattr(x, "op", None), "type", None) == "Placeholder"


def eval(x):
    return get_value(x)


def gradients(loss, variables):
    return _tf.gradients(loss, variables)


def stop_gradient(variables):
    if isinstance(variables, (list, tuple)):
        return [_tf.stop_gradient(v) for v in variables]
    return _tf.stop_gradient(variables)


class _Function:
    """K.function(inputs, outputs, updates): a callable from input values to output values. In
    TF1 programs one run of the Keras session feeding the inputs (K.learning_phase() among them
    included); in TF2 programs the functional model from the inputs to the outputs, applied with
    training set by a learning-phase value among the inputs."""

    def __init__(self, inputs, outputs, updates=None, name=None):
        self.inputs = list(inputs) if isinstance(inputs, (list, tuple)) else [inputs]
        self._single = not isinstance(outputs, (list, tuple))
        self.outputs = [outputs] if self._single else list(outputs)
        self.updates = list(updates or [])
        self._model = None

    def __call__(self, inputs):
        values = list(inputs) if isinstance(inputs, (list, tuple)) else [inputs]
        if len(values) != len(self.inputs):
            raise ValueError("Input count mismatch: the function takes %d inputs, %d were given"
                             % (len(self.inputs), len(values)))
        if _tlens.style() == "graph":
            feed = {}
            for t, v in zip(self.inputs, values):
                if _tlens.is_tensor(t):
                    feed[t] = v
            res = get_session().run(self.outputs + self.updates, feed)[:len(self.outputs)]
            return res[0] if self._single else res
        phase = None
        ins, vals = [], []
        for t, v in zip(self.inputs, values):
            if not _tlens.is_tensor(t):  # K.learning_phase() of a TF2 program: 0 or a set value
                phase = v
                continue
            ins.append(t)
            vals.append(v)
        if self._model is None:
            from keras.models import Model
            self._model = Model(ins[0] if len(ins) == 1 else ins, self.outputs)
        res = self._model(vals[0] if len(vals) == 1 else vals, training=bool(phase) if phase is not None else False)
        res = res if isinstance(res, (list, tuple)) else [res]
        res = [r.numpy() if _tlens.is_tensor(r) and not _tlens.is_abstract() else r for r in res]
        return res[0] if self._single else res


def function(inputs, outputs, updates=None, name=None, **kwargs):
    return _Function(inputs, outputs, updates, name)
