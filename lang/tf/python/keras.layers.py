# keras.layers: Keras layers over tensorlens' op registry.
#
# A layer builds its weights on first call (eager variables, even inside a tf.function trace or
# a functional model's graph: _tlens.init_scope) and computes with the same ops as tf.*, so the
# same code runs eagerly, traces into graphs, computes only shapes in abstract mode, and gives
# Keras tensors (keras.Input and what layers compute from it) exact static shapes.
#
# Shape errors Keras reports itself (a layer given an input of the wrong rank, ...) are
# ValueErrors in concrete mode and error diagnostics at the user's line in abstract mode, where
# analysis goes on with an unknown result (`_fail`).
import _tlens
import tensorflow as _tf
from keras import backend as _backend
from keras import _config
from keras import activations
from keras import initializers
from keras import regularizers
from keras import constraints

_range = range


def _snake(name):
    # keras.utils.generic_utils.to_snake_case without `re`: "MaxPooling2D" -> "max_pooling2d".
    out = ""
    n = len(name)
    for i in _range(n):
        c = name[i]
        if c.isupper() and i > 0:
            prev = name[i - 1]
            nxt = name[i + 1] if i + 1 < n else ""
            if prev.islower() or (nxt != "" and (nxt.islower() or nxt.isdigit()) and prev != "_"):
                out += "_"
        out += c.lower()
    if out.startswith("_"):
        return "private" + out
    return out


def _unknown_tensor():
    return _tlens.typed(None, None)


def _fail(message):
    """A Keras shape error: raised in concrete mode, a diagnostic in abstract mode (the caller
    then goes on with an unknown result)."""
    if _tlens.is_abstract():
        # A message built from unknown values comes from a check on unknown data: no diagnostic.
        if not _tlens.is_unknown(message) and "<unknown>" not in message:
            _tlens.report(message, "keras-shape")
        return _unknown_tensor()
    raise ValueError(message)


def _shape_tuple(shape, batch_none=True):
    """A tensor's static shape as Keras prints it: a tuple with None for unknown dims."""
    if shape is None or shape.ndims is None:
        return None
    dims = shape.as_list()
    if batch_none and len(dims) > 0:
        dims[0] = None
    return tuple(dims)


def _fmt_shape(dims):
    if dims is None:
        return "<unknown>"
    dims = list(dims)
    inner = ", ".join("None" if d is None else str(d) for d in dims)
    if len(dims) == 1:
        inner += ","
    return "(" + inner + ")"


def _static_dims(x):
    """The static shape of a tensor or ndarray as a list (None for unknown dims), or None when
    its rank is unknown. Read from the static type, so abstract values give no Unknowns."""
    if _tlens.is_unknown(x):
        return None
    s = _tlens.type_of(x)
    if s is None or _tlens.is_unknown(s) or "[" not in s:
        return None
    inner = s[s.index("[") + 1:s.rindex("]")]
    if inner == "":
        return []
    out = []
    for p in inner.split(","):
        p = p.strip()
        out.append(int(p) if p.isdigit() else None)
    return out


def _is_tensorlike(x):
    return _tlens.is_tensor(x) or _tlens.is_ndarray(x)


def _flatten(x):
    if isinstance(x, (list, tuple)):
        out = []
        for e in x:
            out.extend(_flatten(e))
        return out
    if isinstance(x, dict):
        out = []
        for k in x:
            out.extend(_flatten(x[k]))
        return out
    return [x]


def _pair(v, n=2):
    if isinstance(v, int):
        return [v] * n
    v = list(v)
    if len(v) == 1:
        return v * n
    return v


def _known_rank(x):
    if not _is_tensorlike(x):
        return None
    return x.shape.ndims if not _tlens.is_ndarray(x) else len(x.shape)


class InputSpec:
    def __init__(self, dtype=None, shape=None, ndim=None, max_ndim=None, min_ndim=None, axes=None,
                 allow_last_axis_squeeze=False, name=None):
        self.dtype = dtype
        self.shape = shape
        self.ndim = ndim if shape is None else len(shape)
        self.max_ndim = max_ndim
        self.min_ndim = min_ndim
        self.axes = axes or {}
        self.name = name


class _Node:
    """One call of a layer on Keras tensors: a node of a functional model's graph."""

    def __init__(self, layer, inputs, outputs, kwargs):
        self.layer = layer
        self.inputs = inputs          # the call's first argument (a tensor or a list of tensors)
        self.outputs = outputs        # flat list of output tensors
        self.kwargs = kwargs


class Layer:
    """Base class of every layer (and of Model). Subclasses override build(input_shape) and
    call(inputs), and create weights with add_weight."""

    def __init__(self, trainable=True, name=None, dtype=None, dynamic=False, input_shape=None,
                 batch_input_shape=None, batch_size=None, input_dim=None, **kwargs):
        self._init_layer(trainable, name, dtype, input_shape, batch_input_shape, batch_size, input_dim)

    def _init_layer(self, trainable=True, name=None, dtype=None, input_shape=None, batch_input_shape=None,
                    batch_size=None, input_dim=None):
        if getattr(self, "_layer_ready", False):
            return
        self._layer_ready = True
        self._name = name if name is not None else _backend.unique_object_name(_snake(type(self).__name__))
        self._trainable = trainable
        self._dtype = "float32" if dtype is None else (dtype if isinstance(dtype, str) else dtype.name)
        self.built = False
        self._trainable_weights = []
        self._non_trainable_weights = []
        self._losses = []
        self._inbound_nodes = []
        self._seen_output_shape = None
        self.input_spec = getattr(self, "input_spec", None)
        self.supports_masking = False
        if batch_input_shape is None and input_shape is None and input_dim is not None:
            input_shape = (input_dim,)
        if batch_input_shape is None and input_shape is not None:
            batch_input_shape = (batch_size,) + tuple(input_shape)
        self._batch_input_shape = None if batch_input_shape is None else tuple(batch_input_shape)

    # --- properties ------------------------------------------------------------------------
    @property
    def name(self):
        return self._name

    @property
    def dtype(self):
        return self._dtype

    @property
    def trainable(self):
        return self._trainable

    @trainable.setter
    def trainable(self, value):
        self._trainable = value
        for l in self._sublayers():
            l.trainable = value

    def _sublayers(self):
        """Layers held in attributes (lists, tuples and dicts of layers too), in order."""
        out = []
        seen = {}
        d = self.__dict__
        for k in d:
            v = d[k]
            if k.startswith("_") and k not in ("_layers", "_self_layers"):
                continue
            for e in _flatten(v) if isinstance(v, (list, tuple, dict)) else [v]:
                if isinstance(e, Layer) and e is not self and id(e) not in seen:
                    seen[id(e)] = True
                    out.append(e)
        return out

    def _all_weights(self, trainable):
        seen = {}
        out = []

        def visit(layer, parent_trainable):
            t = parent_trainable and layer._trainable
            own = layer._trainable_weights if t else []
            if trainable:
                ws = own
            else:
                ws = layer._non_trainable_weights + ([] if t else layer._trainable_weights)
            for w in ws:
                if id(w) not in seen:
                    seen[id(w)] = True
                    out.append(w)
            for s in layer._sublayers():
                visit(s, t)

        visit(self, True)
        return out

    @property
    def trainable_weights(self):
        return self._all_weights(True)

    @property
    def non_trainable_weights(self):
        return self._all_weights(False)

    @property
    def weights(self):
        return self.trainable_weights + self.non_trainable_weights

    @property
    def trainable_variables(self):
        return self.trainable_weights

    @property
    def non_trainable_variables(self):
        return self.non_trainable_weights

    @property
    def variables(self):
        return self.weights

    @property
    def losses(self):
        out = []
        for fn in self._losses:
            out.append(fn() if callable(fn) else fn)
        for s in self._sublayers():
            out.extend(s.losses)
        return out

    def add_loss(self, loss):
        self._losses.append(loss)

    def count_params(self):
        if not self.built and not self.weights:
            raise ValueError("You tried to call `count_params` on layer %s, but the layer isn't built. You can build it manually via: `%s.build(batch_input_shape)`." % (self.name, self.name))
        n = 0
        for w in self.weights:
            c = 1
            for d in w.shape.as_list():
                c *= d
            n += c
        return n

    def get_weights(self):
        return _backend.batch_get_value(self.weights)

    def set_weights(self, weights):
        ws = self.weights
        if len(ws) != len(weights):
            raise ValueError("You called `set_weights(weights)` on layer \"%s\" with a weight list of length %d, but the layer was expecting %d weights." % (self.name, len(weights), len(ws)))
        _backend.batch_set_value(zip(ws, weights))

    def get_config(self):
        # Keras' layer config (keras._config): the constructor's arguments, name, trainable, dtype.
        args = _config.ctor_arguments(self)
        if args is None:
            args = {}
            own = type(self).get_config is not Layer.get_config or type(self).__init__ is Layer.__init__
            extra = [n for n in _tlens.param_names(type(self).__init__)[1:]]
            if not own and extra and not isinstance(self, InputLayer):
                raise NotImplementedError("Layer %s has arguments %s in `__init__` and therefore must override `get_config()`."
                                          % (type(self).__name__, extra))
        cfg = dict(args)
        cfg["name"] = self.name
        cfg["trainable"] = self.trainable
        cfg["dtype"] = self.dtype
        return _config.serialize(cfg, "the config of layer '%s'" % self.name)

    @classmethod
    def from_config(cls, config):
        return cls(**config)

    @property
    def output_shape(self):
        return self._node_output_shape()

    def _node_output_shape(self):
        shapes = []
        for node in self._inbound_nodes:
            s = [_shape_tuple(t.shape) for t in node.outputs]
            shapes.append(s[0] if len(s) == 1 else s)
        if not shapes:
            raise AttributeError("The layer \"%s\" has never been called and thus has no defined output shape." % self.name)
        for s in shapes[1:]:
            if s != shapes[0]:
                raise AttributeError("The layer \"%s\" has multiple inbound nodes, with different output shapes. Hence the notion of \"output shape\" is ill-defined for the layer." % self.name)
        return shapes[0]

    @property
    def input_shape(self):
        if not self._inbound_nodes:
            raise AttributeError("The layer \"%s\" has never been called and thus has no defined input shape." % self.name)
        ins = _flatten(self._inbound_nodes[0].inputs)
        s = [_shape_tuple(t.shape) for t in ins]
        return s[0] if len(s) == 1 else s

    @property
    def output(self):
        if not self._inbound_nodes:
            raise AttributeError("Layer %s has no inbound nodes." % self.name)
        o = self._inbound_nodes[0].outputs
        return o[0] if len(o) == 1 else o

    @property
    def input(self):
        if not self._inbound_nodes:
            raise AttributeError("Layer %s is not connected, no input to return." % self.name)
        return self._inbound_nodes[0].inputs

    # --- weights -----------------------------------------------------------------------------
    def add_weight(self, name=None, shape=None, dtype=None, initializer=None, regularizer=None, trainable=None,
                   constraint=None, use_resource=None, synchronization=None, aggregation=None, **kwargs):
        self._init_layer()
        shape = [] if shape is None else [int(d) for d in shape]
        if trainable is None:
            trainable = True
        if initializer is None:
            initializer = "glorot_uniform" if dtype is None or _tf.as_dtype(dtype).is_floating else "zeros"
        init = initializers.get(initializer)
        with _tlens.init_scope():
            value = init(shape, dtype=_tf.float32 if dtype is None else _tf.as_dtype(dtype))
            var = _tf.Variable(value, trainable=trainable, name=self.name + "/" + (name if name is not None else "Variable"))
        if trainable:
            self._trainable_weights.append(var)
        else:
            self._non_trainable_weights.append(var)
        reg = regularizers.get(regularizer)
        if reg is not None:
            self._losses.append(lambda: reg(var))
        if constraint is not None:
            constraints.register(var, constraint)
        return var

    add_variable = add_weight

    def add_update(self, updates):
        """Eager updates have run already; in a TF1 graph the graph train step collects them."""
        for u in (updates if isinstance(updates, (list, tuple)) else [updates]):
            _backend.add_update_op(u)

    def build(self, input_shape):
        self.built = True

    def call(self, inputs, *args, **kwargs):
        return inputs

    def compute_output_shape(self, input_shape):
        raise NotImplementedError

    # --- calling -----------------------------------------------------------------------------
    def _check_input_spec(self, inputs):
        spec = self.input_spec
        if spec is None:
            return True
        specs = spec if isinstance(spec, (list, tuple)) else [spec]
        xs = inputs if isinstance(inputs, (list, tuple)) else [inputs]
        for i in _range(min(len(specs), len(xs))):
            s = specs[i]
            x = xs[i]
            if s is None or not _is_tensorlike(x):
                continue
            shape = x.shape if not _tlens.is_ndarray(x) else _tf.TensorShape(list(x.shape))
            if shape.ndims is None:
                continue
            nd = shape.ndims
            full = _fmt_shape(_shape_tuple(shape, False))
            head = "Input %d of layer \"%s\" is incompatible with the layer: " % (i, self.name)
            if s.ndim is not None and nd != s.ndim:
                _fail(head + "expected ndim=%d, found ndim=%d. Full shape received: %s" % (s.ndim, nd, full))
                return False
            if s.min_ndim is not None and nd < s.min_ndim:
                _fail(head + "expected min_ndim=%d, found ndim=%d. Full shape received: %s" % (s.min_ndim, nd, full))
                return False
            if s.max_ndim is not None and nd > s.max_ndim:
                _fail(head + "expected max_ndim=%d, found ndim=%d. Full shape received: %s" % (s.max_ndim, nd, full))
                return False
            dims = shape.as_list()
            for axis in s.axes:
                want = s.axes[axis]
                got = dims[axis] if -nd <= axis < nd else None
                if want is not None and got is not None and got != want:
                    _fail(head + "expected axis %d of input shape to have value %d, but received input with shape %s" % (axis, want, full))
                    return False
        return True

    def _autocast(self, x):
        if _is_tensorlike(x):
            if _tlens.is_ndarray(x):
                x = _tf.convert_to_tensor(x)
            dt = x.dtype
            if dt.is_floating and dt != _tf.float32 and self._dtype == "float32":
                x = _tf.cast(x, _tf.float32)
            return x
        if isinstance(x, (list, tuple)):
            return [self._autocast(e) for e in x]
        if isinstance(x, dict):
            return dict([(k, self._autocast(x[k])) for k in x])
        return x

    def _input_shapes(self, inputs):
        if isinstance(inputs, (list, tuple)):
            return [self._input_shapes(e) for e in inputs]
        if _is_tensorlike(inputs):
            return inputs.shape if not _tlens.is_ndarray(inputs) else _tf.TensorShape(list(inputs.shape))
        return None

    def _shapes_known(self, inputs):
        for x in _flatten(inputs):
            if _is_tensorlike(x) and x.shape.ndims is None:
                return False
        return True

    def __call__(self, inputs, *args, **kwargs):
        self._init_layer()
        if _tlens.is_unknown(inputs):
            return inputs
        if isinstance(inputs, (list, tuple)) and any([_tlens.is_unknown(e) for e in inputs]):
            return _unknown_tensor()
        if not isinstance(inputs, (list, tuple)) and not _is_tensorlike(inputs) and not isinstance(inputs, dict):
            inputs = _tf.convert_to_tensor(inputs)
        inputs = self._autocast(inputs)
        flat = _flatten(inputs)
        keras_call = len(flat) > 0 and all(_backend.is_keras_tensor(x) for x in flat if _is_tensorlike(x))
        if not self._check_input_spec(inputs):
            return _unknown_tensor()
        if not self._shapes_known(inputs):
            if _tlens.is_abstract():
                # After an error (or on data of unknown shape): nothing more is known.
                return _unknown_tensor()
        if not self.built:
            if not getattr(type(self).build, "_is_default", False):
                self._building = True
                try:
                    with _tlens.init_scope():
                        self.build(self._input_shapes(inputs))
                finally:
                    self._building = False
            self.built = True
        if "training" in kwargs and kwargs["training"] is None:
            del kwargs["training"]
        if "training" not in kwargs and _backend._state["learning_phase"] is not None:
            kwargs["training"] = _backend._state["learning_phase"] == 1
        if "training" in kwargs and not _tlens.accepts(self.call, "training"):
            del kwargs["training"]
        if "mask" in kwargs and not _tlens.accepts(self.call, "mask"):
            del kwargs["mask"]
        outputs = self.call(inputs, *args, **kwargs)
        if _tlens.is_unknown(outputs):
            return outputs
        outs = _flatten(outputs)
        if any([_tlens.is_unknown(o) for o in outs]):
            return outputs
        if outs and _is_tensorlike(outs[0]):
            self._seen_output_shape = _shape_tuple(outs[0].shape)
        if keras_call:
            node_kwargs = {}
            for k in kwargs:
                if k != "training":
                    node_kwargs[k] = kwargs[k]
            node = _Node(self, inputs, [o for o in outs if _tlens.is_symbolic(o)], node_kwargs)
            for i in _range(len(node.outputs)):
                o = node.outputs[i]
                if _backend.producer(o) is None:
                    _backend.set_producer(o, node, i)
            self._inbound_nodes.append(node)
            _backend._state["nodes"].append(node)
        return outputs

    def __repr__(self):
        return "<%s.%s object (%s)>" % (type(self).__module__, type(self).__name__, self.name)


# --- input --------------------------------------------------------------------------------------
_WIDENED_INTS = {"int8": "int32", "int16": "int32", "uint16": "int32", "uint32": "int64", "uint64": "int64"}


class InputLayer(Layer):
    def __init__(self, input_shape=None, batch_size=None, dtype=None, input_tensor=None, sparse=None,
                 name=None, ragged=None, type_spec=None, batch_input_shape=None, **kwargs):
        if name is None:
            name = "input_%d" % _backend.get_uid("input")
        if isinstance(dtype, str) and dtype in _WIDENED_INTS:
            # FIXME: the engine has no int8/int16/uint16/uint32/uint64 tensors; an Input of such
            # token ids (dtype='int16' in sentiment notebooks) holds them in int32/int64, which
            # Embedding casts to as Keras does, so only `model.input.dtype` differs.
            dtype = _WIDENED_INTS[dtype]
        Layer.__init__(self, name=name, dtype=dtype)
        if input_tensor is None:
            if batch_input_shape is None:
                batch_input_shape = (batch_size,) + tuple(input_shape if input_shape is not None else ())
            dt = _tf.float32 if dtype is None else _tf.as_dtype(dtype)
            input_tensor = _backend.symbolic_placeholder(dt, list(batch_input_shape), name)
        self._batch_input_shape = _shape_tuple(input_tensor.shape, False)
        self._dtype = input_tensor.dtype.name
        self.built = True
        node = _Node(self, [], [input_tensor], {})
        _backend.set_producer(input_tensor, node, 0)
        self._inbound_nodes.append(node)
        _backend._state["nodes"].append(node)

    @property
    def output_shape(self):
        return [_shape_tuple(self._inbound_nodes[0].outputs[0].shape)]

    def count_params(self):
        return 0

    def get_config(self):
        return {"batch_input_shape": list(self._batch_input_shape), "dtype": self.dtype, "sparse": False,
                "ragged": False, "name": self.name}


def Input(shape=None, batch_size=None, name=None, dtype=None, sparse=None, tensor=None, ragged=None,
          type_spec=None, batch_shape=None, **kwargs):
    if shape is None and batch_shape is None and tensor is None:
        raise ValueError("Please provide to Input a `shape` or a `tensor` or a `type_spec` argument. Note that `shape` does not include the batch dimension.")
    if isinstance(shape, int):
        shape = (shape,)
    layer = InputLayer(input_shape=shape, batch_size=batch_size, dtype=dtype, input_tensor=tensor, name=name,
                       batch_input_shape=batch_shape)
    return layer._inbound_nodes[0].outputs[0]


def _input_layer_of(t):
    p = _backend.producer(t)
    if p is None:
        return None
    return p[0].layer if isinstance(p[0].layer, InputLayer) else None


# --- core layers --------------------------------------------------------------------------------
class Dense(Layer):
    def __init__(self, units, activation=None, use_bias=True, kernel_initializer="glorot_uniform",
                 bias_initializer="zeros", kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, **kwargs):
        Layer.__init__(self, **kwargs)
        self.units = int(units)
        if self.units < 0:
            raise ValueError("Received an invalid value for `units`, expected a positive integer. Received: units=%d" % self.units)
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        self.kernel_initializer = kernel_initializer
        self.bias_initializer = bias_initializer
        self.kernel_regularizer = kernel_regularizer
        self.bias_regularizer = bias_regularizer
        self.kernel_constraint = constraints.get(kernel_constraint)
        self.bias_constraint = constraints.get(bias_constraint)
        self.input_spec = InputSpec(min_ndim=2)

    def build(self, input_shape):
        last = input_shape[-1]
        if last is None:
            raise ValueError("The last dimension of the inputs to a Dense layer should be defined. Found None. Full input shape received: %s" % _fmt_shape(input_shape.as_list()))
        self.input_spec = InputSpec(min_ndim=2, axes={-1: last})
        self.kernel = self.add_weight("kernel", [last, self.units], initializer=self.kernel_initializer,
                                      regularizer=self.kernel_regularizer, constraint=self.kernel_constraint)
        self.bias = self.add_weight("bias", [self.units], initializer=self.bias_initializer,
                                    regularizer=self.bias_regularizer, constraint=self.bias_constraint) if self.use_bias else None
        self.built = True

    def call(self, inputs):
        if inputs.dtype != self.kernel.dtype:
            # Keras' Dense casts its inputs (integer features too) to its compute dtype.
            inputs = _tf.cast(inputs, self.kernel.dtype)
        y = _tf.matmul(inputs, self.kernel)
        if self.use_bias:
            y = _tf.nn.bias_add(y, self.bias)
        return self.activation(y)


class Activation(Layer):
    def __init__(self, activation, **kwargs):
        Layer.__init__(self, **kwargs)
        self.activation = activations.get(activation)

    def call(self, inputs):
        return self.activation(inputs)


class ReLU(Layer):
    def __init__(self, max_value=None, negative_slope=0.0, threshold=0.0, **kwargs):
        Layer.__init__(self, **kwargs)
        self.max_value = max_value
        self.negative_slope = negative_slope

    def call(self, inputs):
        return activations.relu(inputs, self.negative_slope, self.max_value)


class LeakyReLU(Layer):
    def __init__(self, alpha=0.3, **kwargs):
        Layer.__init__(self, **kwargs)
        self.alpha = alpha

    def call(self, inputs):
        return _tf.nn.leaky_relu(inputs, self.alpha)


class PReLU(Layer):
    def __init__(self, alpha_initializer="zeros", alpha_regularizer=None, alpha_constraint=None,
                 shared_axes=None, **kwargs):
        Layer.__init__(self, **kwargs)
        self.alpha_initializer = alpha_initializer
        self.alpha_regularizer = alpha_regularizer
        if shared_axes is None:
            self.shared_axes = None
        elif isinstance(shared_axes, (list, tuple)):
            self.shared_axes = list(shared_axes)
        else:
            self.shared_axes = [shared_axes]

    def build(self, input_shape):
        param_shape = list(input_shape.as_list()[1:])
        if self.shared_axes is not None:
            for i in self.shared_axes:
                param_shape[i - 1] = 1
        self.alpha = self.add_weight("alpha", param_shape, initializer=self.alpha_initializer,
                                     regularizer=self.alpha_regularizer)
        self.built = True

    def call(self, inputs):
        return _tf.nn.relu(inputs) - self.alpha * _tf.nn.relu(-inputs)


class ELU(Layer):
    def __init__(self, alpha=1.0, **kwargs):
        Layer.__init__(self, **kwargs)
        self.alpha = alpha

    def call(self, inputs):
        return activations.elu(inputs, self.alpha)


class ThresholdedReLU(Layer):
    def __init__(self, theta=1.0, **kwargs):
        Layer.__init__(self, **kwargs)
        if theta is None or theta < 0:
            raise ValueError("The theta value of a Thresholded ReLU layer should be >=0. Received: %s" % theta)
        self.theta = theta

    def call(self, inputs):
        return inputs * _tf.cast(_tf.greater(inputs, self.theta), inputs.dtype)


class Softmax(Layer):
    def __init__(self, axis=-1, **kwargs):
        Layer.__init__(self, **kwargs)
        self.axis = axis

    def call(self, inputs):
        return _tf.nn.softmax(inputs, axis=self.axis)


class Dropout(Layer):
    def __init__(self, rate, noise_shape=None, seed=None, **kwargs):
        Layer.__init__(self, **kwargs)
        self.rate = float(rate)
        if self.rate < 0 or self.rate > 1:
            raise ValueError("Invalid value received for argument `rate`. Expected a float value between 0 and 1. Received: rate=%s" % rate)
        self.seed = seed

    def call(self, inputs, training=None):
        if training is None and not _backend.is_keras_tensor(inputs):
            training = _backend._graph_learning_phase()  # TF1 graphs: K.learning_phase() decides
        if _tlens.is_tensor(training):
            if self.rate == 0:
                return _tf.identity(inputs)
            return _tf.cond(training, lambda: _tf.nn.dropout(inputs, rate=self.rate, seed=self.seed),
                            lambda: _tf.identity(inputs))
        if training and self.rate > 0:
            return _tf.nn.dropout(inputs, rate=self.rate, seed=self.seed)
        return _tf.identity(inputs)


class Flatten(Layer):
    def __init__(self, data_format=None, **kwargs):
        Layer.__init__(self, **kwargs)
        self.input_spec = InputSpec(min_ndim=1)

    def call(self, inputs):
        dims = inputs.shape.as_list()
        if len(dims) == 1:
            return _tf.expand_dims(inputs, 1)
        n = 1
        for d in dims[1:]:
            n = None if (n is None or d is None) else n * d
        if n is not None:
            return _tf.reshape(inputs, [-1, n])
        return _tf.reshape(inputs, _tf.stack([_tf.shape(inputs)[0], -1]))


class Reshape(Layer):
    def __init__(self, target_shape, **kwargs):
        Layer.__init__(self, **kwargs)
        self.target_shape = tuple(target_shape)

    def call(self, inputs):
        target = list(self.target_shape)
        dims = inputs.shape.as_list()
        if -1 in target:
            known = 1
            for d in target:
                if d != -1:
                    known *= d
            total = 1
            for d in dims[1:]:
                total = None if (total is None or d is None) else total * d
            if total is not None:
                if known == 0 or total % known != 0:
                    return _fail("Exception encountered when calling layer \"%s\": total size of new array must be unchanged, input_shape = %s, output_shape = %s" % (self.name, list(dims[1:]), target))
                target = [total // known if d == -1 else d for d in target]
        else:
            total = 1
            for d in dims[1:]:
                total = None if (total is None or d is None) else total * d
            want = 1
            for d in target:
                want *= d
            if total is not None and total != want:
                return _fail("Exception encountered when calling layer \"%s\": total size of new array must be unchanged, input_shape = %s, output_shape = %s" % (self.name, list(dims[1:]), target))
        return _tf.reshape(inputs, [-1] + target)


class Permute(Layer):
    def __init__(self, dims, **kwargs):
        Layer.__init__(self, **kwargs)
        self.dims = tuple(dims)

    def call(self, inputs):
        return _tf.transpose(inputs, [0] + list(self.dims))


class RepeatVector(Layer):
    def __init__(self, n, **kwargs):
        Layer.__init__(self, **kwargs)
        self.n = n
        self.input_spec = InputSpec(ndim=2)

    def call(self, inputs):
        return _tf.tile(_tf.expand_dims(inputs, 1), [1, self.n, 1])


class Lambda(Layer):
    def __init__(self, function, output_shape=None, mask=None, arguments=None, **kwargs):
        Layer.__init__(self, **kwargs)
        self.function = function
        self.arguments = arguments or {}

    def call(self, inputs):
        return self.function(inputs, **self.arguments)

    @classmethod
    def from_config(cls, config):
        f = config.get("function")
        if not callable(f):
            # A saved model holds the function by name only (Keras would hold its bytecode and
            # refuse it in safe mode): it must come back through custom_objects.
            raise ValueError("The Lambda layer '%s' of the saved model wraps the Python function '%s', which a model "
                             "file cannot hold; pass it to load_model in custom_objects={'%s': ...}%s"
                             % (config.get("name"), f, f, " (a `lambda` cannot be named: define it with def)"
                                if f == "<lambda>" else ""))
        return cls(**config)


# --- convolutions and pooling ------------------------------------------------------------------
def _padding(p, layer):
    p = p.upper()
    if p == "CAUSAL" and isinstance(layer, Conv1D):
        return "VALID"  # Conv1D pads the time axis on the left itself (_causal)
    if p == "CAUSAL" and isinstance(layer, _Conv):
        raise ValueError("Causal padding is only supported for `Conv1D` and `SeparableConv1D`.")
    if p not in ("VALID", "SAME"):
        raise ValueError("The `padding` argument must be a string, one of \"valid\", \"same\" or \"causal\" (Conv1D only). Received: %s" % p.lower())
    return p


class _Conv(Layer):
    _rank = 2

    def __init__(self, filters, kernel_size, strides=1, padding="valid", data_format=None, dilation_rate=1,
                 groups=1, activation=None, use_bias=True, kernel_initializer="glorot_uniform",
                 bias_initializer="zeros", kernel_regularizer=None, bias_regularizer=None,
                 activity_regularizer=None, kernel_constraint=None, bias_constraint=None, **kwargs):
        Layer.__init__(self, **kwargs)
        if data_format not in (None, "channels_last"):
            raise NotImplementedError("tensorlens: Keras convolutions support data_format='channels_last' only")
        self.filters = int(filters)
        self.kernel_size = tuple(_pair(kernel_size, self._rank))
        self.strides = tuple(_pair(strides, self._rank))
        self.dilation_rate = tuple(_pair(dilation_rate, self._rank))
        self.padding = padding
        self._pad = _padding(padding, self)
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        self.kernel_initializer = kernel_initializer
        self.bias_initializer = bias_initializer
        self.kernel_regularizer = kernel_regularizer
        self.bias_regularizer = bias_regularizer
        self.kernel_constraint = constraints.get(kernel_constraint)
        self.bias_constraint = constraints.get(bias_constraint)
        self.input_spec = InputSpec(min_ndim=self._rank + 2)

    def build(self, input_shape):
        ch = input_shape[-1]
        if ch is None:
            raise ValueError("The channel dimension of the inputs should be defined. The input_shape received is %s, where axis -1 (0-based) is the channel dimension, which found to be `None`." % _fmt_shape(input_shape.as_list()))
        self.input_spec = InputSpec(min_ndim=self._rank + 2, axes={-1: ch})
        self.kernel = self.add_weight("kernel", list(self.kernel_size) + [ch, self.filters],
                                      initializer=self.kernel_initializer, regularizer=self.kernel_regularizer,
                                      constraint=self.kernel_constraint)
        self.bias = self.add_weight("bias", [self.filters], initializer=self.bias_initializer,
                                    regularizer=self.bias_regularizer, constraint=self.bias_constraint) if self.use_bias else None
        self.built = True

    def _bias_act(self, y):
        if self.use_bias:
            y = _tf.nn.bias_add(y, self.bias)
        return self.activation(y)


class Conv2D(_Conv):
    _rank = 2

    def call(self, inputs):
        s = self.strides
        d = self.dilation_rate
        dil = None if d == (1, 1) else [1, d[0], d[1], 1]
        y = _tf.nn.conv2d(inputs, self.kernel, [1, s[0], s[1], 1], self._pad, dilations=dil)
        return self._bias_act(y)


class Conv1D(_Conv):
    _rank = 1

    def call(self, inputs):
        d = self.dilation_rate[0]
        if str(self.padding).lower() == "causal":
            # Keras' causal padding: dilation * (kernel - 1) zeros before the first step, then a
            # 'valid' convolution, so output t sees inputs up to t only.
            inputs = _tf.pad(inputs, [[0, 0], [d * (self.kernel_size[0] - 1), 0], [0, 0]])
        x = _tf.expand_dims(inputs, 1)
        k = _tf.expand_dims(self.kernel, 0)
        y = _tf.nn.conv2d(x, k, [1, 1, self.strides[0], 1], self._pad, dilations=None if d == 1 else [1, 1, d, 1])
        return self._bias_act(_tf.squeeze(y, [1]))


class Conv2DTranspose(_Conv):
    """Transposed convolution: Conv2DBackpropInput with the output size Keras computes
    ((in - 1) * stride + kernel for 'valid', in * stride for 'same')."""
    _rank = 2

    def build(self, input_shape):
        ch = input_shape[-1]
        if ch is None:
            raise ValueError("The channel dimension of the inputs to `Conv2DTranspose` should be defined. The input_shape received is %s, where axis -1 (0-based) is the channel dimension, which found to be `None`." % _fmt_shape(input_shape.as_list()))
        self.input_spec = InputSpec(ndim=4, axes={-1: ch})
        self.kernel = self.add_weight("kernel", list(self.kernel_size) + [self.filters, ch],
                                      initializer=self.kernel_initializer, regularizer=self.kernel_regularizer)
        self.bias = self.add_weight("bias", [self.filters], initializer=self.bias_initializer,
                                    regularizer=self.bias_regularizer) if self.use_bias else None
        self.built = True

    def _out(self, size, k, s):
        if size is None:
            return None
        return size * s if self._pad == "SAME" else (size - 1) * s + k

    def call(self, inputs):
        dims = inputs.shape.as_list()
        k, s = self.kernel_size, self.strides
        oh, ow = self._out(dims[1], k[0], s[0]), self._out(dims[2], k[1], s[1])
        if dims[0] is not None and oh is not None and ow is not None:
            sizes = [dims[0], oh, ow, self.filters]
        else:
            sh = _tf.shape(inputs)
            sizes = _tf.stack([sh[0], oh if oh is not None else -1, ow if ow is not None else -1, self.filters])
        y = _tf._op("Conv2DBackpropInput", [sizes, self.kernel, inputs],
                    {"strides": [1, s[0], s[1], 1], "padding": self._pad}, None, False, False, _tf.int32)
        return self._bias_act(y)


Convolution2D = Conv2D
Convolution1D = Conv1D
Convolution2DTranspose = Conv2DTranspose


class _Pool(Layer):
    _rank = 2
    _op = "max"

    def __init__(self, pool_size=2, strides=None, padding="valid", data_format=None, **kwargs):
        Layer.__init__(self, **kwargs)
        self.pool_size = tuple(_pair(pool_size, self._rank))
        self.strides = tuple(_pair(strides, self._rank)) if strides is not None else self.pool_size
        self.padding = padding
        self._pad = _padding(padding, self)
        self.input_spec = InputSpec(ndim=self._rank + 2)

    def _pool(self, x, ksize, strides):
        if self._op == "max":
            return _tf.nn.max_pool(x, ksize, strides, self._pad)
        return _tf.nn.avg_pool(x, ksize, strides, self._pad)


class MaxPooling2D(_Pool):
    _rank = 2
    _op = "max"

    def call(self, inputs):
        p, s = self.pool_size, self.strides
        return self._pool(inputs, [1, p[0], p[1], 1], [1, s[0], s[1], 1])


class AveragePooling2D(MaxPooling2D):
    _op = "avg"


class MaxPooling1D(_Pool):
    _rank = 1
    _op = "max"

    def __init__(self, pool_size=2, strides=None, padding="valid", data_format="channels_last", **kwargs):
        _Pool.__init__(self, pool_size, strides, padding, None, **kwargs)

    def call(self, inputs):
        x = _tf.expand_dims(inputs, 1)
        y = self._pool(x, [1, 1, self.pool_size[0], 1], [1, 1, self.strides[0], 1])
        return _tf.squeeze(y, [1])


class AveragePooling1D(MaxPooling1D):
    _op = "avg"


MaxPool2D = MaxPooling2D
AvgPool2D = AveragePooling2D
MaxPool1D = MaxPooling1D
AvgPool1D = AveragePooling1D


class _GlobalPool(Layer):
    _axes = [1, 2]
    _ndim = 4
    _op = "mean"

    def __init__(self, data_format=None, keepdims=False, **kwargs):
        Layer.__init__(self, **kwargs)
        self.keepdims = keepdims
        self.input_spec = InputSpec(ndim=self._ndim)

    def call(self, inputs):
        if self._op == "mean":
            return _tf.reduce_mean(inputs, self._axes, keepdims=self.keepdims)
        return _tf.reduce_max(inputs, self._axes, keepdims=self.keepdims)


class GlobalAveragePooling2D(_GlobalPool):
    pass


class GlobalMaxPooling2D(_GlobalPool):
    _op = "max"


class GlobalAveragePooling1D(_GlobalPool):
    _axes = [1]
    _ndim = 3


class GlobalMaxPooling1D(_GlobalPool):
    _axes = [1]
    _ndim = 3
    _op = "max"


GlobalAvgPool2D = GlobalAveragePooling2D
GlobalMaxPool2D = GlobalMaxPooling2D
GlobalAvgPool1D = GlobalAveragePooling1D
GlobalMaxPool1D = GlobalMaxPooling1D


class ZeroPadding2D(Layer):
    def __init__(self, padding=(1, 1), data_format=None, **kwargs):
        Layer.__init__(self, **kwargs)
        if isinstance(padding, int):
            padding = ((padding, padding), (padding, padding))
        elif isinstance(padding[0], int):
            padding = ((padding[0], padding[0]), (padding[1], padding[1]))
        self.padding = padding
        self.input_spec = InputSpec(ndim=4)

    def call(self, inputs):
        p = self.padding
        return _tf.pad(inputs, [[0, 0], list(p[0]), list(p[1]), [0, 0]])


# --- normalization ------------------------------------------------------------------------------
class BatchNormalization(Layer):
    def __init__(self, axis=-1, momentum=0.99, epsilon=0.001, center=True, scale=True,
                 beta_initializer="zeros", gamma_initializer="ones", moving_mean_initializer="zeros",
                 moving_variance_initializer="ones", beta_regularizer=None, gamma_regularizer=None, **kwargs):
        Layer.__init__(self, **kwargs)
        self.axis = axis
        self.momentum = momentum
        self.epsilon = epsilon
        self.center = center
        self.scale = scale
        self._inits = (beta_initializer, gamma_initializer, moving_mean_initializer, moving_variance_initializer)

    def build(self, input_shape):
        nd = input_shape.ndims
        axis = self.axis if self.axis >= 0 else nd + self.axis
        if axis < 0 or axis >= nd:
            raise ValueError("Invalid axis: %d (input rank %d)" % (self.axis, nd))
        self._axis = axis
        c = input_shape[axis]
        if c is None:
            raise ValueError("Axis %d of input tensor should have a defined dimension but the layer received an input with shape %s." % (self.axis, _fmt_shape(input_shape.as_list())))
        self.input_spec = InputSpec(ndim=nd, axes={self.axis: c})
        self.gamma = self.add_weight("gamma", [c], initializer=self._inits[1]) if self.scale else None
        self.beta = self.add_weight("beta", [c], initializer=self._inits[0]) if self.center else None
        self.moving_mean = self.add_weight("moving_mean", [c], initializer=self._inits[2], trainable=False)
        self.moving_variance = self.add_weight("moving_variance", [c], initializer=self._inits[3], trainable=False)
        self.built = True

    def call(self, inputs, training=None):
        nd = inputs.shape.ndims
        axes = [i for i in _range(nd) if i != self._axis]
        if training and not _backend.is_keras_tensor(inputs):
            mean, var = _tf.nn.moments(inputs, axes)
            m = 1.0 - self.momentum
            # Eagerly these run here; in a TF1 graph they are ops the train step runs (add_update).
            self.add_update(self.moving_mean.assign_sub((self.moving_mean - mean) * m))
            self.add_update(self.moving_variance.assign_sub((self.moving_variance - var) * m))
        else:
            mean, var = self.moving_mean, self.moving_variance
        if self._axis != nd - 1:
            shape = [1] * nd
            shape[self._axis] = -1
            mean = _tf.reshape(mean, shape)
            var = _tf.reshape(var, shape)
            gamma = _tf.reshape(self.gamma, shape) if self.gamma is not None else None
            beta = _tf.reshape(self.beta, shape) if self.beta is not None else None
        else:
            gamma, beta = self.gamma, self.beta
        return _tf.nn.batch_normalization(inputs, mean, var, beta, gamma, self.epsilon)


class LayerNormalization(Layer):
    def __init__(self, axis=-1, epsilon=0.001, center=True, scale=True, **kwargs):
        Layer.__init__(self, **kwargs)
        self.axis = axis
        self.epsilon = epsilon
        self.center = center
        self.scale = scale

    def build(self, input_shape):
        c = input_shape[-1]
        self.gamma = self.add_weight("gamma", [c], initializer="ones") if self.scale else None
        self.beta = self.add_weight("beta", [c], initializer="zeros") if self.center else None
        self.built = True

    def call(self, inputs):
        mean, var = _tf.nn.moments(inputs, [-1 if self.axis == -1 else self.axis], keep_dims=True)
        return _tf.nn.batch_normalization(inputs, mean, var, self.beta, self.gamma, self.epsilon)


# --- embeddings and recurrent layers -----------------------------------------------------------
class Embedding(Layer):
    def __init__(self, input_dim, output_dim, embeddings_initializer="uniform", embeddings_regularizer=None,
                 activity_regularizer=None, embeddings_constraint=None, mask_zero=False, input_length=None, **kwargs):
        if "input_shape" not in kwargs and "batch_input_shape" not in kwargs:
            kwargs["input_shape"] = (input_length,)
        Layer.__init__(self, **kwargs)
        if input_dim <= 0 or output_dim <= 0:
            raise ValueError("Both `input_dim` and `output_dim` should be positive, Received input_dim = %d and output_dim = %d" % (input_dim, output_dim))
        self.input_dim = int(input_dim)
        self.output_dim = int(output_dim)
        self.input_length = input_length
        self.mask_zero = mask_zero
        init = embeddings_initializer
        self.embeddings_initializer = initializers.RandomUniform() if init == "uniform" else init
        self.embeddings_regularizer = embeddings_regularizer

    def _autocast(self, x):
        if _tlens.is_ndarray(x):
            return _tf.convert_to_tensor(x)
        return x

    def build(self, input_shape):
        self.embeddings = self.add_weight("embeddings", [self.input_dim, self.output_dim],
                                          initializer=self.embeddings_initializer,
                                          regularizer=self.embeddings_regularizer)
        self.built = True

    def call(self, inputs):
        if inputs.dtype != _tf.int32 and inputs.dtype != _tf.int64:
            inputs = _tf.cast(inputs, _tf.int32)
        return _tf.gather(self.embeddings, inputs)


class _RNN(Layer):
    _gates = 1

    def __init__(self, units, activation="tanh", recurrent_activation="sigmoid", use_bias=True,
                 kernel_initializer="glorot_uniform", recurrent_initializer="orthogonal", bias_initializer="zeros",
                 unit_forget_bias=True, kernel_regularizer=None, recurrent_regularizer=None, bias_regularizer=None,
                 activity_regularizer=None, kernel_constraint=None, recurrent_constraint=None, bias_constraint=None,
                 dropout=0.0, recurrent_dropout=0.0, return_sequences=False, return_state=False, go_backwards=False,
                 stateful=False, time_major=False, unroll=False, **kwargs):
        Layer.__init__(self, **kwargs)
        self.units = int(units)
        self.activation = activations.get(activation)
        self.recurrent_activation = activations.get(recurrent_activation)
        self.use_bias = use_bias
        self.kernel_initializer = kernel_initializer
        self.recurrent_initializer = recurrent_initializer
        self.bias_initializer = bias_initializer
        self.unit_forget_bias = unit_forget_bias
        self.kernel_regularizer = kernel_regularizer
        self.dropout = dropout
        self.return_sequences = return_sequences
        self.return_state = return_state
        self.go_backwards = go_backwards
        self.stateful = stateful
        self._state_vars = None
        self.input_spec = InputSpec(ndim=3)

    def _stateful_states(self, inputs):
        """A stateful layer's states: variables of [batch, units] (the batch must be fixed), read as
        the initial states of each call and assigned its final ones, until reset_states()."""
        if self._state_vars is None:
            b = inputs.shape[0]
            if b is None:
                raise ValueError("If a RNN is stateful, it needs to know its batch size. Specify the batch size of your "
                                 "input tensors: \n- If using a Sequential model, specify the batch size by passing a "
                                 "`batch_input_shape` argument to your first layer.\n- If using the functional API, "
                                 "specify the batch size by passing a `batch_shape` argument to your Input layer.")
            n = len(self._initial_states(inputs))
            with _tlens.init_scope():
                self._state_vars = [_tf.Variable(_tf.zeros([b, self.units], dtype=inputs.dtype), trainable=False)
                                    for _ in range(n)]
        return list(self._state_vars)

    def reset_states(self, states=None):
        if not self.stateful:
            raise AttributeError("Layer must be stateful.")
        if self._state_vars is None:
            return
        with _tlens.init_scope():
            for i, v in enumerate(self._state_vars):
                v.assign(_tf.zeros(v.shape, v.dtype) if states is None else _tf.cast(_tf.reshape(states[i] if isinstance(states, (list, tuple)) else states, v.shape), v.dtype))

    def build(self, input_shape):
        d = input_shape[-1]
        if d is None:
            raise ValueError("The last dimension of the inputs to `%s` should be defined. Found `None`." % type(self).__name__)
        n = self._gates * self.units
        self.kernel = self.add_weight("kernel", [d, n], initializer=self.kernel_initializer,
                                      regularizer=self.kernel_regularizer)
        self.recurrent_kernel = self.add_weight("recurrent_kernel", [self.units, n],
                                                initializer=self.recurrent_initializer)
        if self.use_bias:
            if self._gates == 4 and self.unit_forget_bias:
                self.bias = self.add_weight("bias", [n], initializer=_ForgetBias(self.units))
            else:
                self.bias = self.add_weight("bias", [n], initializer=self.bias_initializer)
        else:
            self.bias = None
        self.built = True

    def _zero_state(self, x):
        b = x.shape[0]
        if b is None:
            return _tf.zeros(_tf.stack([_tf.shape(x)[0], self.units]))
        return _tf.zeros([b, self.units])

    def _initial_states(self, x):
        return [self._zero_state(x)]

    def call(self, inputs, mask=None, training=None, initial_state=None):
        steps = inputs.shape[1]
        carried = self.stateful and initial_state is None
        if carried:
            svars = self._stateful_states(inputs)
            states = [_tf.identity(v) for v in svars]
        else:
            states = list(initial_state) if initial_state is not None else self._initial_states(inputs)
        if steps is None:
            # Unknown length (a symbolic model of variable-length sequences): one step gives the
            # shapes; the real loop runs on data, whose length is known.
            h, states = self._step(inputs[:, 0, :], states)
            seq = _tf.zeros_like(inputs[:, :, :1]) + _tf.expand_dims(h, 1) if self.return_sequences else None
        else:
            xs = _tf.unstack(inputs, axis=1)
            if self.go_backwards:
                xs = xs[::-1]
            outs = []
            h = None
            for x in xs:
                h, states = self._step(x, states)
                if self.return_sequences:
                    outs.append(h)
            seq = _tf.stack(outs, axis=1) if self.return_sequences else None
        if carried and not _backend.is_keras_tensor(inputs):
            for v, st in zip(svars, states):
                v.assign(st)
        out = seq if self.return_sequences else h
        if self.return_state:
            return [out] + list(states)
        return out

    def _matmuls(self, x, h):
        z = _tf.matmul(x, self.kernel) + _tf.matmul(h, self.recurrent_kernel)
        if self.bias is not None:
            z = z + self.bias
        return z


class _ForgetBias(initializers.Initializer):
    # LSTM biases: zeros, ones for the forget gate (unit_forget_bias=True).
    def __init__(self, units):
        self.units = units

    def _make(self, shape, dtype):
        u = self.units
        return _tf.concat([_tf.zeros([u]), _tf.ones([u]), _tf.zeros([2 * u])], 0)


class SimpleRNN(_RNN):
    _gates = 1

    def _step(self, x, states):
        h = self.activation(self._matmuls(x, states[0]))
        return h, [h]


class LSTM(_RNN):
    _gates = 4

    def _initial_states(self, x):
        return [self._zero_state(x), self._zero_state(x)]

    def _step(self, x, states):
        h, c = states[0], states[1]
        z = self._matmuls(x, h)
        i, f, g, o = _tf.split(z, 4, axis=1)
        i = self.recurrent_activation(i)
        f = self.recurrent_activation(f)
        c = f * c + i * self.activation(g)
        o = self.recurrent_activation(o)
        h = o * self.activation(c)
        return h, [h, c]


class GRU(_RNN):
    """Keras 2's default GRU (reset_after=True): separate input and recurrent biases, shape
    (2, 3 * units); gates z, r, h in that order."""
    _gates = 3

    def build(self, input_shape):
        use_bias = self.use_bias
        self.use_bias = False
        _RNN.build(self, input_shape)
        self.use_bias = use_bias
        self.bias = self.add_weight("bias", [2, 3 * self.units], initializer=self.bias_initializer) if use_bias else None
        self.built = True

    def _step(self, x, states):
        h = states[0]
        xz = _tf.matmul(x, self.kernel)
        hz = _tf.matmul(h, self.recurrent_kernel)
        if self.bias is not None:
            xz = xz + self.bias[0]
            hz = hz + self.bias[1]
        xr, xu, xh = _tf.split(xz, 3, axis=1)
        hr, hu, hh = _tf.split(hz, 3, axis=1)
        z = self.recurrent_activation(xr + hr)
        r = self.recurrent_activation(xu + hu)
        hn = self.activation(xh + r * hh)
        h = z * h + (1.0 - z) * hn
        return h, [h]


# --- merging ------------------------------------------------------------------------------------
class _Merge(Layer):
    def _check(self, inputs):
        if not isinstance(inputs, (list, tuple)) or len(inputs) < 1:
            raise ValueError("A merge layer should be called on a list of inputs. Received: inputs=%r (not a list of tensors)" % (inputs,))
        return list(inputs)


class Concatenate(_Merge):
    def __init__(self, axis=-1, **kwargs):
        Layer.__init__(self, **kwargs)
        self.axis = axis

    def call(self, inputs):
        xs = self._check(inputs)
        shapes = [x.shape.as_list() if x.shape.ndims is not None else None for x in xs]
        ref = shapes[0]
        for s in shapes[1:]:
            if ref is None or s is None:
                continue
            ax = self.axis if self.axis >= 0 else len(ref) + self.axis
            ok = len(s) == len(ref)
            if ok:
                for i in _range(1, len(ref)):
                    if i != ax and ref[i] is not None and s[i] is not None and ref[i] != s[i]:
                        ok = False
            if not ok:
                return _fail("A `Concatenate` layer requires inputs with matching shapes except for the concatenation axis. Received: input_shape=%s" % [_fmt_shape([None] + x[1:]) for x in shapes if x is not None])
        return _tf.concat(xs, self.axis)


class _Elementwise(_Merge):
    def call(self, inputs):
        xs = self._check(inputs)
        shapes = [_shape_tuple(x.shape) for x in xs]
        for s in shapes[1:]:
            if s is None or shapes[0] is None:
                continue
            if len(s) == len(shapes[0]):
                for a, b in zip(s[1:], shapes[0][1:]):
                    if a is not None and b is not None and a != b and a != 1 and b != 1:
                        return _fail("Inputs have incompatible shapes. Received shapes %s and %s" % (_fmt_shape(shapes[0]), _fmt_shape(s)))
        y = xs[0]
        for x in xs[1:]:
            y = self._merge(y, x)
        return self._finish(y, len(xs))

    def _finish(self, y, n):
        return y


class Add(_Elementwise):
    def _merge(self, a, b):
        return a + b


class Subtract(_Elementwise):
    def _merge(self, a, b):
        return a - b


class Multiply(_Elementwise):
    def _merge(self, a, b):
        return a * b


class Average(_Elementwise):
    def _merge(self, a, b):
        return a + b

    def _finish(self, y, n):
        return y / float(n)


class Maximum(_Elementwise):
    def _merge(self, a, b):
        return _tf.maximum(a, b)


class Minimum(_Elementwise):
    def _merge(self, a, b):
        return _tf.minimum(a, b)


def concatenate(inputs, axis=-1, **kwargs):
    return Concatenate(axis=axis, **kwargs)(inputs)


def add(inputs, **kwargs):
    return Add(**kwargs)(inputs)


def subtract(inputs, **kwargs):
    return Subtract(**kwargs)(inputs)


def multiply(inputs, **kwargs):
    return Multiply(**kwargs)(inputs)


def average(inputs, **kwargs):
    return Average(**kwargs)(inputs)


def maximum(inputs, **kwargs):
    return Maximum(**kwargs)(inputs)


# --- preprocessing, wrappers and resizing -------------------------------------------------------
class Rescaling(Layer):
    def __init__(self, scale, offset=0.0, **kwargs):
        Layer.__init__(self, **kwargs)
        self.scale = scale
        self.offset = offset

    def call(self, inputs):
        return inputs * self.scale + self.offset


class _RandomAugmentation(Layer):
    # FIXME: random augmentations keep shapes and are not applied (identity), as in inference.
    def __init__(self, *args, **kwargs):
        for k in ("mode", "seed", "fill_mode", "interpolation", "fill_value", "value_range"):
            kwargs.pop(k, None)
        Layer.__init__(self, **kwargs)

    def call(self, inputs, training=None):
        return _tf.identity(inputs)


class RandomFlip(_RandomAugmentation):
    pass


class RandomRotation(_RandomAugmentation):
    pass


class RandomZoom(_RandomAugmentation):
    pass


class RandomTranslation(_RandomAugmentation):
    pass


class RandomContrast(_RandomAugmentation):
    pass


class GaussianNoise(Layer):
    def __init__(self, stddev, seed=None, **kwargs):
        Layer.__init__(self, **kwargs)
        self.stddev = stddev

    def call(self, inputs, training=None):
        if training:
            return inputs + _tf.random_normal(_tf.shape(inputs), 0.0, self.stddev)
        return _tf.identity(inputs)


class GaussianDropout(Layer):
    def __init__(self, rate, seed=None, **kwargs):
        Layer.__init__(self, **kwargs)
        self.rate = rate
        self.seed = seed

    def call(self, inputs, training=None):
        if training and 0 < self.rate < 1:
            stddev = (self.rate / (1.0 - self.rate)) ** 0.5
            return inputs * _tf.random_normal(_tf.shape(inputs), 1.0, stddev, dtype=inputs.dtype, seed=self.seed)
        return _tf.identity(inputs)


class AlphaDropout(Layer):
    """Dropout that keeps SELU's self-normalisation: dropped units become SELU's negative
    saturation value, then an affine map restores the mean and variance (Keras' formula)."""

    def __init__(self, rate, noise_shape=None, seed=None, **kwargs):
        Layer.__init__(self, **kwargs)
        self.rate = rate
        self.noise_shape = noise_shape
        self.seed = seed

    def call(self, inputs, training=None):
        if training and 0 < self.rate < 1:
            alpha = 1.6732632423543772848170429916717
            scale = 1.0507009873554804934193349852946
            alpha_p = -alpha * scale
            shape = _tf.shape(inputs) if self.noise_shape is None else self.noise_shape
            kept = _tf.cast(_tf.greater_equal(_tf.random_uniform(shape, seed=self.seed), self.rate), inputs.dtype)
            a = ((1 - self.rate) * (1 + self.rate * alpha_p ** 2)) ** -0.5
            b = -a * alpha_p * self.rate
            x = inputs * kept + (1 - kept) * alpha_p
            return a * x + b
        return _tf.identity(inputs)


class SpatialDropout1D(Dropout):
    pass


class SpatialDropout2D(Dropout):
    pass


class UpSampling2D(Layer):
    def __init__(self, size=(2, 2), data_format=None, interpolation="nearest", **kwargs):
        Layer.__init__(self, **kwargs)
        self.size = tuple(_pair(size))
        self.input_spec = InputSpec(ndim=4)

    def call(self, inputs):
        dims = inputs.shape.as_list()
        h, w, c = dims[1], dims[2], dims[3]
        sh, sw = self.size
        x = _tf.expand_dims(_tf.expand_dims(inputs, 2), 4)
        x = _tf.tile(x, [1, 1, sh, 1, sw, 1])
        if h is None or w is None or c is None:
            s = _tf.shape(inputs)
            return _tf.reshape(x, _tf.stack([s[0], s[1] * sh, s[2] * sw, s[3]]))
        return _tf.reshape(x, [-1, h * sh, w * sw, c])


class UpSampling1D(Layer):
    def __init__(self, size=2, **kwargs):
        Layer.__init__(self, **kwargs)
        self.size = size
        self.input_spec = InputSpec(ndim=3)

    def call(self, inputs):
        dims = inputs.shape.as_list()
        x = _tf.tile(_tf.expand_dims(inputs, 2), [1, 1, self.size, 1])
        return _tf.reshape(x, [-1, dims[1] * self.size, dims[2]])


class TimeDistributed(Layer):
    def __init__(self, layer, **kwargs):
        Layer.__init__(self, **kwargs)
        self.layer = layer
        self.input_spec = InputSpec(min_ndim=3)

    def call(self, inputs, training=None):
        dims = inputs.shape.as_list()
        # Unknown dims (a None time axis) come from the input's dynamic shape.
        dyn = None
        if None in dims[1:]:
            dyn = _tf.shape(inputs)
            dims = [d if d is not None or i == 0 else dyn[i] for i, d in enumerate(dims)]
        x = _tf.reshape(inputs, _shape_arg([-1] + dims[2:]))
        y = self.layer(x, training=training)
        ydims = y.shape.as_list()
        if None in ydims[1:]:
            ydyn = _tf.shape(y)
            ydims = [d if d is not None or i == 0 else ydyn[i] for i, d in enumerate(ydims)]
        out = _tf.reshape(y, _shape_arg([-1, dims[1]] + ydims[1:]))
        if dyn is not None:
            static = inputs.shape.as_list()[:2] + y.shape.as_list()[1:]
            out.set_shape(static)
        return out


def _shape_arg(dims):
    """A reshape target from ints and scalar tensors: the list itself, or their stack."""
    if all(isinstance(d, int) for d in dims):
        return dims
    return _tf.stack([d if not isinstance(d, int) else _tf.constant(d, _tf.int32) for d in dims])


class Bidirectional(Layer):
    def __init__(self, layer, merge_mode="concat", backward_layer=None, weights=None, **kwargs):
        Layer.__init__(self, **kwargs)
        self.forward_layer = layer
        if backward_layer is None:
            backward_layer = type(layer)(layer.units, return_sequences=layer.return_sequences,
                                         go_backwards=not layer.go_backwards)
        self.backward_layer = backward_layer
        self.merge_mode = merge_mode
        self.input_spec = InputSpec(ndim=3)

    def call(self, inputs, training=None):
        f = self.forward_layer(inputs)
        b = self.backward_layer(inputs)
        if self.forward_layer.return_sequences:
            b = _tf.reverse(b, [1]) if hasattr(_tf, "reverse") else _tf.stack(_tf.unstack(b, axis=1)[::-1], axis=1)
        if self.merge_mode == "concat":
            return _tf.concat([f, b], -1)
        if self.merge_mode == "sum":
            return f + b
        if self.merge_mode == "mul":
            return f * b
        if self.merge_mode == "ave":
            return (f + b) / 2.0
        return [f, b]


# --- RNN cells and the RNN layer that loops them -------------------------------------------------
class _Cell:
    """One time step of SimpleRNN, LSTM or GRU as a layer: call(inputs, states) returns
    (output, new_states); the weights and the step are those of the full layer."""

    def _cell_init(self):
        self.input_spec = None

    @property
    def state_size(self):
        return [self.units] * len(self._initial_states_like())

    @property
    def output_size(self):
        return self.units

    def _initial_states_like(self):
        return [0] * (2 if self._gates == 4 else 1)

    def get_initial_state(self, inputs=None, batch_size=None, dtype=None):
        if batch_size is None:
            batch_size = _tf.shape(inputs)[0] if inputs.shape[0] is None else inputs.shape[0]
        dtype = _tf.float32 if dtype is None else dtype
        return [_tf.zeros(_tf.stack([batch_size, self.units]), dtype) for _ in self._initial_states_like()]

    def call(self, inputs, states, training=None):
        single = not isinstance(states, (list, tuple))
        states = [states] if single else list(states)
        h, new = self._step(inputs, states)
        return h, (new[0] if single and len(new) == 1 else new)


class SimpleRNNCell(_Cell, SimpleRNN):
    def __init__(self, units, **kwargs):
        SimpleRNN.__init__(self, units, **kwargs)
        self._cell_init()

    @property
    def state_size(self):
        return self.units


class LSTMCell(_Cell, LSTM):
    def __init__(self, units, **kwargs):
        LSTM.__init__(self, units, **kwargs)
        self._cell_init()


class GRUCell(_Cell, GRU):
    def __init__(self, units, **kwargs):
        GRU.__init__(self, units, **kwargs)
        self._cell_init()

    @property
    def state_size(self):
        return self.units


def _state_list(cell):
    s = cell.state_size
    return list(s) if isinstance(s, (list, tuple)) else [s]


class StackedRNNCells(Layer):
    """Cells applied one above the other at each step; the states are the cells' in order."""

    def __init__(self, cells, **kwargs):
        Layer.__init__(self, **kwargs)
        self.cells = list(cells)

    @property
    def state_size(self):
        return tuple([c.state_size for c in self.cells])

    @property
    def output_size(self):
        return self.cells[-1].output_size

    def get_initial_state(self, inputs=None, batch_size=None, dtype=None):
        out = []
        for c in self.cells:
            s = c.get_initial_state(inputs, batch_size, dtype)
            out.append(s[0] if isinstance(c.state_size, int) else s)
        return out

    def build(self, input_shape):
        d = input_shape[-1]
        for c in self.cells:
            if not c.built:
                c.build([input_shape[0], d])
                c.built = True
            d = c.output_size
        self.built = True

    def call(self, inputs, states, training=None):
        new = []
        x = inputs
        for c, s in zip(self.cells, states):
            x, s2 = c.call(x, s)
            new.append(s2)
        return x, new


class RNN(Layer):
    """keras.layers.RNN(cell): the cell looped over the time axis (axis 1), as SimpleRNN, LSTM and
    GRU do with their own steps."""

    def __init__(self, cell, return_sequences=False, return_state=False, go_backwards=False, stateful=False,
                 unroll=False, time_major=False, **kwargs):
        Layer.__init__(self, **kwargs)
        if isinstance(cell, (list, tuple)):
            cell = StackedRNNCells(cell)
        if not hasattr(cell, "call") or not hasattr(cell, "state_size"):
            raise ValueError("`cell` should have a `call` method and a `state_size` attribute. The RNN was passed: cell=%s" % (cell,))
        self.cell = cell
        self.return_sequences = return_sequences
        self.return_state = return_state
        self.go_backwards = go_backwards
        self.time_major = time_major
        self.input_spec = InputSpec(ndim=3)

    def build(self, input_shape):
        if not self.cell.built:
            self.cell.build([input_shape[0], input_shape[-1]])
            self.cell.built = True
        self.built = True

    def call(self, inputs, mask=None, training=None, initial_state=None):
        if self.time_major:
            inputs = _tf.transpose(inputs, [1, 0, 2])
        if initial_state is not None:
            states = list(initial_state) if isinstance(initial_state, (list, tuple)) else [initial_state]
            if isinstance(self.cell.state_size, int) and len(states) == 1:
                states = states[0]
        else:
            states = self.cell.get_initial_state(inputs[:, 0, :], None, inputs.dtype)
            if isinstance(self.cell.state_size, int):
                states = states[0]
        steps = inputs.shape[1]
        outs = []
        h = None
        if steps is None:
            # Unknown length (a symbolic model): one step gives the shapes, as SimpleRNN/LSTM do.
            h, states = self.cell.call(inputs[:, 0, :], states)
            seq = _tf.zeros_like(inputs[:, :, :1]) + _tf.expand_dims(h, 1) if self.return_sequences else None
        else:
            xs = _tf.unstack(inputs, axis=1)
            if self.go_backwards:
                xs = xs[::-1]
            for x in xs:
                h, states = self.cell.call(x, states)
                if self.return_sequences:
                    outs.append(h)
            seq = _tf.stack(outs, axis=1) if self.return_sequences else None
        out = seq if self.return_sequences else h
        if self.time_major and self.return_sequences:
            out = _tf.transpose(out, [1, 0, 2])
        if self.return_state:
            flat = []
            for s in (states if isinstance(states, (list, tuple)) else [states]):
                flat.extend(s if isinstance(s, (list, tuple)) else [s])
            return [out] + flat
        return out


class Wrapper(Layer):
    """keras.layers.Wrapper: the base of layers that wrap another layer (user subclasses such as
    a multi-head copy of a layer); it holds `layer`, whose weights are its own."""

    def __init__(self, layer, **kwargs):
        if not isinstance(layer, Layer):
            raise ValueError("Please initialize `%s` layer with a `tf.keras.layers.Layer` instance. Received: %s" % (type(self).__name__, layer))
        Layer.__init__(self, **kwargs)
        self.layer = layer

    def build(self, input_shape=None):
        if not self.layer.built:
            self.layer.build(input_shape)
            self.layer.built = True
        self.built = True

    @property
    def activity_regularizer(self):
        return getattr(self.layer, "activity_regularizer", None)

    def get_config(self):
        config = Layer.get_config(self)
        config["layer"] = {"class_name": type(self.layer).__name__, "config": self.layer.get_config()}
        return config


# Every built-in layer remembers its constructor's arguments: its get_config (keras._config).
def _record_layers():
    g = globals()
    for k in list(g.keys()):
        v = g[k]
        if isinstance(v, type) and issubclass(v, Layer) and v is not Layer and v is not InputLayer and "__init__" in v.__dict__:
            _config.record_init(v)


_record_layers()
