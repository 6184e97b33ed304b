# keras.models: Model (functional and subclassed), Sequential, compile/fit/evaluate/predict and
# summary().
#
# fit/evaluate/predict first check the data against the model: x against the model's input
# shape, y against its output shape and the loss (categorical_crossentropy with integer labels,
# ...). Before the first fit, a model without a known input shape is applied to a symbolic
# input of the data's shape, so its weights are created and its output shape is known the same
# way in both modes. In abstract mode that is all they do: no loop over the data; fit returns a
# History of unknown values and predict a typed array of the output's shape.
import _tlens
import tensorflow as _tf
import numpy as _np
from keras import backend as _backend
from keras import layers as _layers
from keras import losses as _losses
from keras import metrics as _metrics
from keras import optimizers as _optimizers
from keras import callbacks as _callbacks
from keras import _session_steps
from keras import _saving
from keras.layers import Layer, InputLayer, Input, _fail, _fmt_shape, _shape_tuple, _flatten

_range = range


def _unknown():
    return _tlens.value(_tlens.typed(_tf.float32, []))


def _data_shape(x):
    """The shape of a data argument as a list (None when unknown)."""
    if x is None:
        return None
    if _tlens.is_ndarray(x) or _tlens.is_tensor(x):
        return _layers._static_dims(x)
    return None


def _as_array(x):
    if x is None or _tlens.is_unknown(x) or _tlens.is_ndarray(x) or _tlens.is_tensor(x):
        return x
    if isinstance(x, (list, tuple)):
        return _np.asarray(x)
    return x


def _expand_1d(x):
    # Keras 2 (standalone Keras, and tf.keras up to TF 2.6: data_adapter.expand_1d) makes a 1-D
    # input array a column, (n,) -> (n, 1), so `Dense(1, input_dim=1)` fits a plain list of numbers
    # (the programs of that era rely on it; TF 2.7 and later raise instead).
    dims = _data_shape(x)
    if dims is None or len(dims) != 1:
        return x
    if _tlens.is_ndarray(x):
        return _np.expand_dims(x, 1)
    return _tf.expand_dims(x, 1)


def _fmt_data_shape(dims):
    return _fmt_shape(dims)


_shuffle_state = [20231123]


def _permutation(n):
    """A deterministic shuffle of range(n) (Fisher-Yates over a linear congruential generator)."""
    items = list(_range(n))
    s = _shuffle_state[0]
    for i in _range(n - 1, 0, -1):
        s = (s * 1103515245 + 12345) % 2147483648
        j = s % (i + 1)
        items[i], items[j] = items[j], items[i]
    _shuffle_state[0] = s
    return _np.array(items)


def _take(x, idx):
    if isinstance(x, dict):
        return dict([(k, x[k][idx]) for k in x])
    return [a[idx] for a in x] if isinstance(x, list) else x[idx]


def _rows(x, a, b):
    if isinstance(x, dict):
        return dict([(k, x[k][a:b]) for k in x])
    return [e[a:b] for e in x] if isinstance(x, list) else x[a:b]


def _batch_len(x):
    if isinstance(x, dict):
        for k in x:
            return len(x[k])
        return 0
    return len(x[0]) if isinstance(x, list) else len(x)


def _nest_arrays(x):
    """x with every array of a list/tuple/dict of arrays converted by _as_array (lists for tuples)."""
    if isinstance(x, dict):
        return dict([(k, _as_array(x[k])) for k in x])
    return [_as_array(a) for a in x]


def _nest_values(x):
    return [x[k] for k in x] if isinstance(x, dict) else list(x)



# Losses computed element by element: the op that meets targets and outputs (its name in the
# message of a shape mismatch).
_ELEMENTWISE_LOSSES = {
    "mean_squared_error": ("SquaredDifference", "SquaredDifference"),
    "mean_absolute_error": ("Sub", "sub"),
    "mean_absolute_percentage_error": ("Sub", "sub"),
    "huber": ("Sub", "sub"),
    "hinge": ("Mul", "mul"),
    "binary_crossentropy": ("Mul", "mul"),
}


def _sigmoid_output(t):
    """Whether a model output is a sigmoid's (Keras then computes binary cross-entropy from the
    logits before it, which must have the targets' shape)."""
    try:
        return t is not None and t.op.type == "Sigmoid"
    except Exception:
        return False


class _ArrayData:
    """Batches of in-memory arrays (numpy arrays or tensors); `x` may be a list of arrays (one per
    input of a functional model)."""

    def __init__(self, x, y, batch_size, sample_weight=None):
        self.multi = _several_arrays(x)
        self.x = _nest_arrays(x) if self.multi else _as_array(x)
        if isinstance(self.x, dict):
            self.x = dict([(k, _expand_1d(self.x[k])) for k in self.x])
        elif self.multi:
            self.x = [_expand_1d(a) for a in self.x]
        else:
            self.x = _expand_1d(self.x)
        # Several targets (one per output of the model): a list, or a dict keyed by output names.
        self.y_multi = _several_arrays(y)
        self.y = _nest_arrays(y) if self.y_multi else _as_array(y)
        self.batch_size = 32 if batch_size is None else int(batch_size)
        self.x_shapes = [_data_shape(a) for a in _nest_values(self.x)] if self.multi else [_data_shape(self.x)]
        self.x_shape = self.x_shapes[0] if self.x_shapes else None
        self.y_shapes = [_data_shape(a) for a in _nest_values(self.y)] if self.y_multi else None
        self.y_shape = self.y_shapes[0] if self.y_multi and self.y_shapes else (None if self.y_multi else _data_shape(self.y))
        self.n = self.x_shape[0] if self.x_shape else None

    def steps(self):
        if self.n is None:
            return 0
        return (self.n + self.batch_size - 1) // self.batch_size

    def batches(self, shuffle):
        x, y = self.x, self.y
        if shuffle and self.n is not None and self.n > 1:
            idx = _permutation(self.n)
            x = _take(x, idx)
            if y is not None:
                y = _take(y, idx)
        bs = self.batch_size
        for start in _range(0, self.n, bs):
            yield _rows(x, start, start + bs), (None if y is None else _rows(y, start, start + bs))

    def split(self, fraction):
        n = self.n
        k = int(n * (1.0 - fraction))
        val = _ArrayData(_rows(self.x, k, n), None if self.y is None else _rows(self.y, k, n), self.batch_size)
        train = _ArrayData(_rows(self.x, 0, k), None if self.y is None else _rows(self.y, 0, k), self.batch_size)
        return train, val


class _IteratorData:
    """Batches from a keras.utils.Sequence-like object (ImageDataGenerator.flow) or a generator."""

    def __init__(self, it, steps_per_epoch):
        self.it = it
        self.steps_per_epoch = steps_per_epoch
        spec = getattr(it, "_tlens_spec", None)
        if spec is not None:
            xs, ys, bs = spec()
            self.x_shape, self.y_shape, self.batch_size = xs, ys, bs
        else:
            self.x_shape, self.y_shape, self.batch_size = None, None, None
        self.n = self.x_shape[0] if self.x_shape else None

    def steps(self):
        if self.steps_per_epoch is not None:
            return self.steps_per_epoch
        if hasattr(self.it, "__len__"):
            return len(self.it)
        raise ValueError("When passing an infinitely repeating dataset or generator, you must specify the `steps_per_epoch` argument.")

    def batches(self, shuffle):
        steps = self.steps()
        if hasattr(self.it, "__getitem__") and hasattr(self.it, "__len__"):
            n = len(self.it)
            for i in _range(steps):
                b = self.it[i % n]
                if isinstance(b, (tuple, list)):
                    yield b[0], (b[1] if len(b) > 1 else None)
                else:
                    yield b, None
            if hasattr(self.it, "on_epoch_end"):
                self.it.on_epoch_end()
            return
        for i in _range(steps):
            b = next(self.it)
            if isinstance(b, (tuple, list)):
                yield b[0], (b[1] if len(b) > 1 else None)
            else:
                yield b, None


class _DatasetData:
    """Batches of a tf.data Dataset (each element an (x, y) batch or an x batch): one pass over it
    per epoch, or `steps_per_epoch` batches from an iterator kept across epochs."""

    def __init__(self, ds, steps_per_epoch):
        self.ds = ds
        self.steps_per_epoch = steps_per_epoch
        self.batch_size = None
        self.n = None
        self._it = None
        spec = ds.element_spec
        xs, ys = (spec[0], spec[1] if len(spec) > 1 else None) if isinstance(spec, tuple) else (spec, None)

        def dims(s):
            return None if s is None or isinstance(s, (tuple, dict)) or s.shape.ndims is None else s.shape.as_list()
        self.x_shape, self.y_shape = dims(xs), dims(ys)
        self.x_shapes = [self.x_shape]
        self.multi = False
        self._epoch = None

    def _pass(self):
        out = []
        for e in self.ds._elements(None):
            out.append((e[0], e[1] if len(e) > 1 else None) if isinstance(e, tuple) else (e, None))
        return out

    def steps(self):
        if self.steps_per_epoch is not None:
            return self.steps_per_epoch
        self._epoch = self._pass()
        return len(self._epoch)

    def batches(self, shuffle):
        if self.steps_per_epoch is not None:
            if self._it is None:
                self._it = self.ds._elements(None)
            for _ in _range(self.steps_per_epoch):
                try:
                    e = next(self._it)
                except StopIteration:
                    self._it = self.ds._elements(None)
                    e = next(self._it)
                yield (e[0], e[1] if len(e) > 1 else None) if isinstance(e, tuple) else (e, None)
            return
        epoch = self._epoch if self._epoch is not None else self._pass()
        self._epoch = None
        for b in epoch:
            yield b


def _several_arrays(v):
    if isinstance(v, dict):
        return True
    if not isinstance(v, (list, tuple)) or len(v) == 0:
        return False
    # Abstract mode: several unknown arrays (slices of a scikit-learn result) are several inputs.
    return _tlens.is_ndarray(v[0]) or _tlens.is_tensor(v[0]) or (len(v) > 1 and _tlens.is_unknown(v[0]))


def _make_data(x, y, batch_size, steps=None):
    if _tlens.is_unknown(x) or _tlens.is_unknown(y):
        return _ArrayData(None, None, batch_size)
    if hasattr(x, "element_spec") and hasattr(x, "_elements"):  # a tf.data Dataset
        if y is not None:
            raise ValueError("`y` argument is not supported when using dataset as input.")
        return _DatasetData(x, steps)
    if isinstance(x, dict) or _several_arrays(y):
        return _ArrayData(x, y, batch_size)
    if x is not None and not (_tlens.is_ndarray(x) or _tlens.is_tensor(x) or isinstance(x, (list, tuple))):
        return _IteratorData(x, steps)
    if (isinstance(x, tuple) and len(x) == 2 and y is None and not _tlens.is_tensor(x[0]) and not _tlens.is_ndarray(x[0])
            and not _tlens.is_unknown(x[0])):
        return _ArrayData(x[0], x[1], batch_size)
    return _ArrayData(x, y, batch_size)


def _session_mode():
    """Whether Keras' loops run as session runs: a TF1-style program (graph mode) outside any
    tf.function, as tf.keras 1.x ran them (keras._session_steps)."""
    return _tlens.style() == "graph" and not _tf.executing_eagerly()


def _progress(step, total):
    return "%d/%d [%s]" % (step, total, "=" * 30)


def _fmt_logs(logs):
    parts = []
    for k in logs:
        v = logs[k]
        if abs(v) >= 1e-3 or v == 0:
            parts.append(" - %s: %.4f" % (k, v))
        else:
            parts.append(" - %s: %.4e" % (k, v))
    return "".join(parts)


class Model(Layer):
    """keras.Model: functional (Model(inputs, outputs)) or subclassed (override call)."""

    def __init__(self, *args, **kwargs):
        inputs = kwargs.pop("inputs", None)
        outputs = kwargs.pop("outputs", None)
        if len(args) >= 1:
            inputs = args[0]
        if len(args) >= 2:
            outputs = args[1]
        name = kwargs.pop("name", None)
        Layer.__init__(self, name=name, trainable=kwargs.pop("trainable", True))
        self._is_graph_network = False
        self._compiled = False
        self.optimizer = None
        self.stop_training = False
        self.history = None
        self._nodes = []
        self._layers = []
        self._kt_inputs = []
        self._kt_outputs = []
        if inputs is not None and outputs is not None:
            if _tlens.is_abstract():
                # Abstract mode: a graph that cannot be followed (unknown values) is unknown, not
                # an error.
                try:
                    self._init_graph_network(inputs, outputs)
                except ValueError:
                    self._init_unknown_graph(inputs)
            else:
                self._init_graph_network(inputs, outputs)
        elif inputs is not None or outputs is not None:
            raise TypeError("Model() needs both `inputs` and `outputs` for the functional API")

    # --- the functional graph ----------------------------------------------------------------
    def _init_unknown_graph(self, inputs):
        self._nested_inputs = inputs
        self._nested_outputs = None
        self._kt_inputs = [t for t in _flatten(inputs) if _tlens.is_symbolic(t)]
        self._kt_outputs = []
        self._nodes = []
        self._is_graph_network = True
        self._layers = [l for l in [_layers._input_layer_of(t) for t in self._kt_inputs] if l is not None]
        self.built = True

    def _init_graph_network(self, inputs, outputs):
        # Keras normalises a list of one input or output to the tensor itself: predict of
        # Model(inputs=[a], outputs=[y]) gives one array.
        if isinstance(inputs, list) and len(_flatten(inputs)) == 1:
            inputs = _flatten(inputs)[0]
        if isinstance(outputs, list) and len(_flatten(outputs)) == 1:
            outputs = _flatten(outputs)[0]
        ins = _flatten(inputs)
        outs = _flatten(outputs)
        for t in ins:
            if _layers._input_layer_of(t) is None:
                raise ValueError("Input tensors to a Functional must come from `tf.keras.Input`. Received: %r (missing previous layer metadata)." % (t,))
        for t in outs:
            if not _backend.is_keras_tensor(t):
                if _tlens.is_abstract() and not _tlens.is_symbolic(t):
                    # An earlier shape error left the output unknown; it was reported there.
                    self._nested_inputs = inputs
                    self._nested_outputs = outputs
                    self._kt_inputs = ins
                    self._kt_outputs = []
                    self._is_graph_network = True
                    self._layers = [_layers._input_layer_of(t) for t in ins]
                    self.built = True
                    return
                raise ValueError("Output tensors of a Functional model must be the output of a TensorFlow `Layer` (thus holding past layer metadata). Found: %r" % (t,))
        # The nodes between the inputs and the outputs: one backwards pass over every layer call
        # in creation order (a topological order), without recursion (abstract mode bounds it).
        in_names = {}
        for t in ins:
            in_names[t.name] = True
        needed = {}
        for t in outs:
            needed[t.name] = True
        chosen = []
        all_nodes = _backend._state["nodes"]
        for k in _range(len(all_nodes) - 1, -1, -1):
            node = all_nodes[k]
            hit = None
            for o in node.outputs:
                if o.name in needed and o.name not in in_names:
                    hit = o
            if hit is None:
                continue
            if isinstance(node.layer, InputLayer):
                raise ValueError("Graph disconnected: cannot obtain value for tensor %s at layer \"%s\". The following previous layers were accessed without issue: %s" % (hit.name, node.layer.name, [n.layer.name for n in chosen]))
            chosen.append(node)
            for x in _flatten(node.inputs):
                if _tlens.is_symbolic(x):
                    if _backend.producer(x) is None:
                        raise ValueError("tensorlens: the tensor %s of a functional model was not computed by a Keras layer; wrap TensorFlow ops on Keras tensors in a keras.layers.Lambda layer" % x.name)
                    needed[x.name] = True
        nodes = chosen[::-1]
        self._nested_inputs = inputs
        self._nested_outputs = outputs
        self._kt_inputs = ins
        self._kt_outputs = outs
        self._nodes = nodes
        layers = [_layers._input_layer_of(t) for t in ins]
        seen = {}
        for l in layers:
            seen[id(l)] = True
        for n in nodes:
            if id(n.layer) not in seen:
                seen[id(n.layer)] = True
                layers.append(n.layer)
        self._layers = layers
        self._is_graph_network = True
        self.built = True

    def _run_graph(self, inputs, training):
        if not self._kt_outputs:
            return _layers._unknown_tensor()
        inputs = self._order_inputs(inputs)
        xs = _flatten(inputs)
        if len(xs) != len(self._kt_inputs):
            raise ValueError("Layer \"%s\" expects %d input(s), but it received %d input tensors." % (self.name, len(self._kt_inputs), len(xs)))
        values = {}
        for t, x in zip(self._kt_inputs, xs):
            values[t.name] = self._conform(x, t)
        for node in self._nodes:
            args = self._map(node.inputs, values)
            kw = dict(node.kwargs)
            if training is not None:
                kw["training"] = training
            out = node.layer(args, **kw)
            for t, o in zip(node.outputs, _flatten(out)):
                values[t.name] = o
        return self._map(self._nested_outputs, values)

    def _map(self, structure, values):
        if isinstance(structure, (list, tuple)):
            return [self._map(s, values) for s in structure]
        if _tlens.is_symbolic(structure) and structure.name in values:
            return values[structure.name]
        return structure

    def _conform(self, x, ref):
        if _tlens.is_ndarray(x) or not _tlens.is_tensor(x):
            x = _tf.convert_to_tensor(x)
        if x.dtype != ref.dtype and not _backend.is_keras_tensor(x):
            x = _tf.cast(x, ref.dtype)
        # Keras' _conform_to_reference_input: a trailing 1 more or less than the Input's rank
        # (fit expands 1-D data to [n, 1]; Input(shape=[]) wants [n]).
        xr, rr = x.shape.ndims, ref.shape.ndims
        if xr is not None and rr is not None and not _backend.is_keras_tensor(x):
            if xr == rr + 1 and x.shape.as_list()[-1] == 1:
                x = _tf.squeeze(x, [-1])
            elif xr + 1 == rr and ref.shape.as_list()[-1] == 1:
                x = _tf.expand_dims(x, -1)
        return x

    # --- layers --------------------------------------------------------------------------------
    @property
    def layers(self):
        if self._is_graph_network:
            return list(self._layers)
        return self._sublayers()

    def get_layer(self, name=None, index=None):
        ls = self.layers
        if index is not None:
            if len(ls) <= index:
                raise ValueError("Was asked to retrieve layer at index %d but model only has %d layers." % (index, len(ls)))
            return ls[index]
        for l in ls:
            if l.name == name:
                return l
        raise ValueError("No such layer: %s. Existing layers are: %s." % (name, [l.name for l in ls]))

    @property
    def inputs(self):
        if hasattr(self, "_user_inputs"):
            return self._user_inputs
        return list(self._kt_inputs) if self._kt_inputs else None

    @inputs.setter
    def inputs(self, value):
        # A plain attribute in Keras: subclassed models may keep their own inputs there.
        self._user_inputs = value

    @property
    def outputs(self):
        if hasattr(self, "_user_outputs"):
            return self._user_outputs
        return list(self._kt_outputs) if self._kt_outputs else None

    @outputs.setter
    def outputs(self, value):
        self._user_outputs = value

    @property
    def input(self):
        if not self._kt_inputs:
            raise AttributeError("Layer %s is not connected, no input to return." % self.name)
        return self._kt_inputs[0] if len(self._kt_inputs) == 1 else list(self._kt_inputs)

    @property
    def output(self):
        if not self._kt_outputs:
            raise AttributeError("Layer %s has no inbound nodes." % self.name)
        return self._kt_outputs[0] if len(self._kt_outputs) == 1 else list(self._kt_outputs)

    @property
    def input_shape(self):
        if not self._kt_inputs:
            raise AttributeError("The model has not yet been built.")
        s = [_shape_tuple(t.shape) for t in self._kt_inputs]
        return s[0] if len(s) == 1 else s

    @property
    def output_shape(self):
        if self._inbound_nodes:
            return self._node_output_shape()
        if not self._kt_outputs:
            raise AttributeError("The model has not yet been built.")
        s = [_shape_tuple(t.shape) for t in self._kt_outputs]
        return s[0] if len(s) == 1 else s

    # --- calling -------------------------------------------------------------------------------
    def call(self, inputs, training=None, mask=None):
        if self._is_graph_network:
            return self._run_graph(inputs, training)
        raise NotImplementedError("Model subclasses must implement call()")

    def build(self, input_shape=None):
        if self._is_graph_network or input_shape is None or getattr(self, "_building", False):
            # From __call__ (a subclass's build calling super().build): the call that follows
            # builds the layers.
            self.built = True
            return
        if isinstance(input_shape, _tf.TensorShape):
            input_shape = input_shape.as_list()
        self._symbolic_output(list(input_shape), _tf.float32)
        self.built = True

    def _symbolic_output(self, batch_shape, dtype):
        """Applies the model to a symbolic input of `batch_shape` (builds its weights) and returns
        the output, or None when that failed in abstract mode."""
        if self._is_graph_network:
            return self._kt_outputs[0] if len(self._kt_outputs) == 1 else None
        key = tuple(batch_shape)
        cache = getattr(self, "_symbolic_cache", None)
        if cache is None:
            cache = {}
            self._symbolic_cache = cache
        if key in cache:
            return cache[key]
        # The batch dimension as given: build(input_shape=(4, 784)) calls the model on a batch of 4,
        # as Keras does (a call that draws tf.random.normal(x.shape) needs it known).
        x = _backend.symbolic_placeholder(dtype, list(batch_shape))
        y = self(x)
        self.built = True
        y = y if _tlens.is_symbolic(y) else None
        cache[key] = y
        return y

    # --- compile -------------------------------------------------------------------------------
    def compile(self, optimizer="rmsprop", loss=None, metrics=None, loss_weights=None, weighted_metrics=None,
                run_eagerly=None, steps_per_execution=None, jit_compile=None, **kwargs):
        self.optimizer = _optimizers.get(optimizer)
        self.loss = loss
        # Models with several outputs: a loss, metrics and a weight per output (a list in output
        # order or a dict keyed by output names; one loss or a flat metric list applies to all),
        # resolved against the outputs when fit/evaluate first see the data (_heads).
        self._compile_args = (loss, metrics, loss_weights)
        self._compile_weighted_metrics = weighted_metrics
        self._heads = None
        single = loss[0] if isinstance(loss, (list, tuple)) and len(loss) == 1 else loss
        self._loss_multi = isinstance(single, (list, tuple, dict))
        if self._loss_multi:
            for l in (single.values() if isinstance(single, dict) else single):
                _losses.get(l)  # unknown names fail at compile, as in Keras
            self._loss_fn = _losses.get(None)
            self._loss_name = None
        else:
            self._loss_fn = _losses.get(single)
            self._loss_name = _losses.canonical_name(single)
        self._metric_ids = []
        if metrics is not None:
            for m in _flatten(metrics) if isinstance(metrics, dict) else (metrics if isinstance(metrics, (list, tuple)) else [metrics]):
                if isinstance(m, (list, tuple)):
                    self._metric_ids.extend(m)
                else:
                    self._metric_ids.append(m)
        if weighted_metrics is not None:
            # FIXME: fit does not weight by sample_weight yet; the weighted metrics are computed
            # (and logged under their names) unweighted.
            for m in weighted_metrics if isinstance(weighted_metrics, (list, tuple)) else [weighted_metrics]:
                self._metric_ids.append(m)
        # Keras captures which layers are trainable when the model is compiled: fit and
        # train_on_batch train those, whatever `trainable` says later (the frozen discriminator
        # of a GAN still trains through its own compiled model).
        self._compiled_trainable_state = self._get_trainable_state()
        self._run_eagerly = bool(run_eagerly)
        self._train_function = None
        self._test_function = None
        self._custom_train_function = None
        self._custom_test_function = None
        self._session_steps = None
        self._compiled = True

    def _get_trainable_state(self):
        state = []
        seen = {}
        todo = [self]
        while todo:
            l = todo.pop()
            if id(l) in seen:
                continue
            seen[id(l)] = True
            state.append((l, l._trainable))
            todo.extend(l._sublayers())
        return state

    def _set_trainable_state(self, state):
        for l, t in state:
            l._trainable = t

    def _with_compiled_trainability(self, fn):
        state = getattr(self, "_compiled_trainable_state", None)
        if state is None:
            return fn()
        now = self._get_trainable_state()
        self._set_trainable_state(state)
        try:
            return fn()
        finally:
            self._set_trainable_state(now)

    # --- several outputs -----------------------------------------------------------------------
    def _output_names(self, n):
        if self._is_graph_network and len(self._kt_outputs) == n:
            names = []
            for t in self._kt_outputs:
                p = _backend.producer(t)
                names.append(p[0].layer.name if p is not None else t.name.split(":")[0])
            return names
        return ["output_%d" % (i + 1) for i in _range(n)]

    def _per_output(self, spec, names, what, default):
        if isinstance(spec, dict):
            for k in spec:
                if k not in names:
                    raise ValueError("Found unexpected %s that do not correspond to any Model output: %s. Valid mode output names: %s. Received struct is: %s." % (what, list(spec.keys()), names, spec))
            return [spec.get(nm, default) for nm in names]
        if isinstance(spec, (list, tuple)):
            if len(spec) != len(names):
                raise ValueError("When passing a list as %s, it should have one entry per model output. The model has %d outputs, but you passed %s=%s" % (what, len(names), what, list(spec)))
            return list(spec)
        return [spec for nm in names]

    def _make_heads(self, n, y_shapes, out_shapes):
        loss, metrics, weights = self._compile_args
        names = self._output_names(n)
        losses = self._per_output(loss, names, "loss", None)
        ws = self._per_output(weights, names, "loss_weights", 1.0) if weights is not None else [1.0 for nm in names]
        if metrics is None:
            ms = [[] for nm in names]
        elif isinstance(metrics, dict) or (isinstance(metrics, (list, tuple)) and len(metrics) > 0 and
                                            isinstance(metrics[0], (list, tuple, type(None)))):
            ms = self._per_output(metrics, names, "metrics", [])
        else:
            ms = [metrics for nm in names]
        heads = []
        for i in _range(n):
            m = ms[i]
            m = [] if m is None else (list(m) if isinstance(m, (list, tuple)) else [m])
            lname = _losses.canonical_name(losses[i])
            ys = y_shapes[i] if y_shapes is not None and i < len(y_shapes) else None
            os = out_shapes[i] if out_shapes is not None else None
            heads.append({"name": names[i], "loss_fn": _losses.get(losses[i]), "loss_name": lname,
                          "weight": float(ws[i]),
                          "metrics": [_metrics.resolve(e, lname, os, ys) for e in m]})
        return heads

    def _order_inputs(self, x):
        """A dict of inputs as the list the functional model's inputs take, by input names."""
        if not isinstance(x, dict) or not self._is_graph_network or not self._kt_inputs:
            return x
        names = [_layers._input_layer_of(t).name for t in self._kt_inputs]
        out = []
        for nm in names:
            if nm not in x:
                raise ValueError("Missing data for input \"%s\". You passed a data dictionary with keys %s. Expected the following keys: %s" % (nm, list(x.keys()), names))
            out.append(x[nm])
        return out

    def _order_targets(self, data, names):
        if isinstance(data.y, dict):
            out = []
            for nm in names:
                if nm not in data.y:
                    raise ValueError("Found unexpected losses or metrics that do not correspond to any Model output: the targets have keys %s; the model's outputs are %s" % (list(data.y.keys()), names))
                out.append(data.y[nm])
            for k in data.y:
                if k not in names:
                    raise ValueError("Found unexpected target keys %s that do not correspond to any Model output. Valid output names: %s" % (list(data.y.keys()), names))
            data.y = out
            data.y_shapes = [_data_shape(a) for a in out]
            data.y_shape = data.y_shapes[0] if out else None

    def _assert_compiled(self, what):
        if not self._compiled:
            raise RuntimeError("You must compile your model before training/testing. Use `model.compile(optimizer, loss)`.")
        if what == "fit" and self._custom_train_step():
            return
        if what == "evaluate" and self._custom_test_step():
            return
        if what != "predict" and self._loss_fn is None and not getattr(self, "_loss_multi", False) and not self.losses:
            raise ValueError("No loss found. You may have forgotten to provide a `loss` argument in the `compile()` method.")

    def _resolved_metrics(self, out_shape, y_shape):
        if self._heads is not None:
            # (log name, function) in Keras' order: each output's loss, then each output's metrics.
            out = [(h["name"] + "_loss", None) for h in self._heads if h["loss_fn"] is not None]
            for h in self._heads:
                for n, f in h["metrics"]:
                    out.append((h["name"] + "_" + n, f))
            return out
        out = []
        for m in self._metric_ids:
            out.append(_metrics.resolve(m, self._loss_name, out_shape, y_shape))
        # model.metrics after fit/evaluate: the loss tracker and the compiled metric objects.
        self._tracker()
        cm = getattr(self, "compiled_metrics", None)
        if isinstance(cm, _CompiledMetrics) and cm._built is None:
            cm._built = [cm._object(m, name, fn) for m, (name, fn) in zip(self._metric_ids, out)]
        return out

    def _compute_loss(self, y_true, y_pred):
        if self._heads is not None:
            return self._compute_multi_loss(y_true, y_pred)
        # compile() may give no loss when the model adds its own (add_loss): then those are it.
        if self._loss_fn is None:
            loss = _tf.constant(0.0)
        else:
            per = self._loss_fn(y_true, y_pred)
            loss = _tf.reduce_mean(per) if per.shape.ndims != 0 else per
        for r in self.losses:
            loss = loss + r
        return loss

    def _compute_multi_loss(self, y_true, y_pred):
        """Keras' total loss of a model with several outputs: the weighted sum of each output's
        (mean) loss, plus the model's own losses; each output's loss is kept for the logs."""
        preds = list(y_pred) if isinstance(y_pred, (list, tuple)) else [y_pred]
        ys = list(y_true) if isinstance(y_true, (list, tuple)) else [y_true]
        if len(preds) != len(self._heads):
            raise ValueError("The model has %d outputs, but its call returned %d" % (len(self._heads), len(preds)))
        if len(ys) != len(self._heads):
            raise ValueError("The model has %d outputs, but %d target arrays were given" % (len(self._heads), len(ys)))
        total = None
        parts = []
        for h, yt, yp in zip(self._heads, ys, preds):
            if h["loss_fn"] is None or yt is None:
                parts.append(None)
                continue
            per = h["loss_fn"](yt, yp)
            l = _tf.reduce_mean(per) if per.shape.ndims != 0 else per
            parts.append(l)
            term = l * h["weight"] if h["weight"] != 1.0 else l
            total = term if total is None else total + term
        if total is None:
            total = _tf.constant(0.0)
        for r in self.losses:
            total = total + r
        self._head_losses = parts
        return total

    # --- data checks -----------------------------------------------------------------------------
    def _expected_input(self, index=0):
        """The batch shape (list with None) of the model's input `index`, or None when it has no
        fixed input."""
        if self._kt_inputs and index < len(self._kt_inputs):
            s = self._kt_inputs[index].shape
            return None if s.ndims is None else [None] + s.as_list()[1:]
        return None

    def _check_inputs(self, data):
        if not getattr(data, "multi", False):
            return self._check_x(data.x_shape)
        if len(self._kt_inputs) > 1 and len(data.x_shapes) != len(self._kt_inputs):
            _fail("Layer \"%s\" expects %d input(s), but it received %d input tensors." % (self.name, len(self._kt_inputs), len(data.x_shapes)))
            return False
        for i in _range(min(len(data.x_shapes), len(self._kt_inputs))):
            if not self._check_x(data.x_shapes[i], i):
                return False
        return True

    def _check_x(self, x_shape, index=0):
        want = self._expected_input(index)
        if want is None or x_shape is None:
            return True
        got = [None] + list(x_shape[1:])
        if len(got) == len(want) + 1 and got[-1] == 1:
            got = got[:-1]  # squeezed as Keras conforms inputs to the Input's rank (_conform)
        ok = len(got) == len(want)
        if ok:
            for a, b in zip(got, want):
                if a is not None and b is not None and a != b:
                    ok = False
        if not ok:
            _fail("Input %d of layer \"%s\" is incompatible with the layer: expected shape=%s, found shape=%s" % (index, self.name, _fmt_shape(want), _fmt_shape(got)))
            return False
        return True

    def _check_y(self, y_shape, out_shape, loss_name=None, out=None):
        if y_shape is None or out_shape is None:
            return True
        loss = self._loss_name if loss_name is None else loss_name
        yr, orank = len(y_shape), len(out_shape)
        classes = out_shape[-1] if orank > 0 else None
        y_last = y_shape[-1] if yr > 0 else None
        shown_y = _fmt_shape([None] + list(y_shape[1:])) if yr > 0 else "()"
        shown_o = _fmt_shape(out_shape)
        if loss == "categorical_crossentropy":
            # Integer labels: the targets lack the class axis (or have it as 1) and agree with the
            # outputs elsewhere; targets of another rank are just incompatible (TF's message).
            lacks_axis = yr == orank - 1 and all(a is None or b is None or a == b for a, b in zip(y_shape[1:], out_shape[1:-1]))
            if classes is not None and classes > 1 and (lacks_axis or (yr == orank and y_last == 1)):
                _fail("Shapes %s and %s are incompatible: loss 'categorical_crossentropy' expects one-hot targets of shape %s, but the targets have shape %s (integer class labels?). Use loss='sparse_categorical_crossentropy' for integer labels, or one-hot encode them with keras.utils.to_categorical(y, %d)." % (_fmt_shape([None, 1]), shown_o, shown_o, _fmt_shape(y_shape), classes))
                return False
            if (yr == orank and y_last is not None and classes is not None and y_last != classes) or yr != orank:
                _fail("Shapes %s and %s are incompatible: targets of shape %s for model outputs of shape %s" % (shown_y, shown_o, _fmt_shape(y_shape), shown_o))
                return False
            return True
        if loss == "sparse_categorical_crossentropy":
            if yr == orank and y_last is not None and y_last != 1:
                _fail("loss 'sparse_categorical_crossentropy' expects integer class labels of shape (N,) or (N, 1), but the targets have shape %s, which looks one-hot encoded. Use loss='categorical_crossentropy' for one-hot targets (or np.argmax(y, axis=-1) to get the labels)." % _fmt_shape(y_shape))
                return False
            if yr not in (orank, orank - 1):
                _fail("loss 'sparse_categorical_crossentropy' expects integer class labels of shape (N,) or (N, 1) for model outputs of shape %s, but the targets have shape %s" % (shown_o, _fmt_shape(y_shape)))
                return False
            return True
        if loss in _ELEMENTWISE_LOSSES:
            if not _backend.targets_checked_strictly():
                return self._check_elementwise_y(y_shape, out_shape, loss, out)
            ys = list(y_shape)
            if yr == orank - 1:
                ys = ys + [1]
            if len(ys) != orank:
                _fail("Shapes %s and %s are incompatible: targets of shape %s for model outputs of shape %s" % (shown_y, shown_o, _fmt_shape(y_shape), shown_o))
                return False
            for a, b in zip(ys[1:], out_shape[1:]):
                if a is not None and b is not None and a != b:
                    _fail("Shapes %s and %s are incompatible: targets of shape %s for model outputs of shape %s (loss '%s')" % (_fmt_shape([None] + ys[1:]), shown_o, _fmt_shape(y_shape), shown_o, loss))
                    return False
        return True

    def _check_elementwise_y(self, y_shape, out_shape, loss, out):
        """Losses computed element by element (mse, mae, binary cross-entropy, hinge, ...), as
        TF 2's tf.keras compares targets and outputs: targets of rank 1 for outputs of rank 2 get an axis
        (compile_utils.match_dtype_and_rank), a trailing axis of 1 on the side with one more is
        squeezed (losses_utils.squeeze_or_expand_dimensions), then the loss's op broadcasts them.
        Binary cross-entropy on a sigmoid's output takes its logits and needs equal shapes."""
        ys, os_ = list(y_shape), list(out_shape)
        if len(ys) == 1 and len(os_) == 2:
            ys = ys + [1]
        if len(os_) == len(ys) + 1 and os_[-1] in (1, None):
            os_ = os_[:-1]
        elif len(ys) == len(os_) + 1 and ys[-1] in (1, None):
            ys = ys[:-1]
        shown = lambda dims: "(" + ", ".join("None" if i == 0 or d is None else str(d) for i, d in enumerate(dims)) + ("," if len(dims) == 1 else "") + ")"
        if loss == "binary_crossentropy" and _sigmoid_output(out):
            same = len(ys) == len(os_) and all(a is None or b is None or a == b for a, b in zip(ys[1:], os_[1:]))
            if not same:
                _fail("`logits` and `labels` must have the same shape, received (%s vs %s)." % (shown(os_), shown(ys)))
                return False
            return True
        op_type, op_name = _ELEMENTWISE_LOSSES[loss]
        # Broadcasting from the right; the batch axis always agrees.
        for k in _range(1, min(len(ys), len(os_))):
            a, b = os_[-k], ys[-k]
            if len(os_) - k == 0 or len(ys) - k == 0:
                break
            if a is not None and b is not None and a != b and a != 1 and b != 1:
                tf1 = lambda dims: "[" + ",".join("?" if i == 0 or d is None else str(d) for i, d in enumerate(dims)) + "]"
                _fail("Dimensions must be equal, but are %d and %d for '%s/%s' (op: '%s') with input shapes: %s, %s." % (a, b, loss, op_name, op_type, tf1(os_), tf1(ys)))
                return False
        return True

    def _prepare(self, data, what):
        """Checks `data` against the model and builds it; returns (ok, output shape)."""
        if isinstance(data, _ArrayData) and data.multi and isinstance(data.x, dict) and self._is_graph_network:
            data.x = self._order_inputs(data.x)
            data.x_shapes = [_data_shape(a) for a in data.x]
            data.x_shape = data.x_shapes[0] if data.x_shapes else None
        n_out = len(self._kt_outputs) if self._is_graph_network and self._kt_outputs else None
        y_multi = isinstance(data, _ArrayData) and data.y_multi
        if y_multi and n_out == 1 and len(data.y) == 1:
            data.y = _nest_values(data.y)[0]
            data.y_multi = False
            data.y_shape = _data_shape(data.y)
            y_multi = False
        self._heads = None
        if what != "predict" and (y_multi or (n_out is not None and n_out > 1) or getattr(self, "_loss_multi", False)):
            return self._prepare_multi(data, n_out)
        if data.x_shape is not None and data.y_shape is not None and data.x_shape[0] is not None and \
                data.y_shape[0] is not None and data.x_shape[0] != data.y_shape[0]:
            _fail("Data cardinality is ambiguous:\n  x sizes: %d\n  y sizes: %d\nMake sure all arrays contain the same number of samples." % (data.x_shape[0], data.y_shape[0]))
            return False, None
        if not self._check_inputs(data):
            return False, None
        if (what == "fit" and self._custom_train_step()) or (what == "evaluate" and self._custom_test_step()):
            return True, None  # the subclass's step decides what the model computes
        out = None
        if getattr(data, "multi", False):
            out = self._kt_outputs[0] if self._is_graph_network and len(self._kt_outputs) == 1 else None
            if out is None and _tlens.is_abstract():
                return False, None
        elif data.x_shape is not None:
            dtype = _tf.float32
            out = self._symbolic_output([None] + list(data.x_shape[1:]), dtype)
        elif self._kt_outputs:
            out = self._kt_outputs[0]
        out_shape = None
        if out is not None and out.shape.ndims is not None:
            out_shape = [None] + out.shape.as_list()[1:]
        if out is None and data.x_shape is not None and _tlens.is_abstract():
            return False, None
        if what != "predict" and not self._check_y(data.y_shape, out_shape, out=out):
            return False, None
        return True, out_shape

    def _prepare_multi(self, data, n_out):
        n = n_out
        if n is None:
            if not (isinstance(data, _ArrayData) and data.y_multi):
                if _tlens.is_abstract():
                    return False, None
                raise ValueError("tensorlens: a model compiled with several losses needs its targets as a list or a dict (one array per output)")
            n = len(data.y)
        names = self._output_names(n)
        if isinstance(data, _ArrayData) and data.y_multi:
            self._order_targets(data, names)
            if len(data.y) != n:
                raise ValueError("Data and model outputs do not match: the model has %d outputs (%s), but %d target arrays were given" % (n, names, len(data.y)))
        out_shapes = None
        if n_out is not None:
            out_shapes = []
            for t in self._kt_outputs:
                out_shapes.append(None if t.shape.ndims is None else [None] + t.shape.as_list()[1:])
        y_shapes = data.y_shapes if isinstance(data, _ArrayData) else None
        self._heads = self._make_heads(n, y_shapes, out_shapes)
        if not self._check_inputs(data):
            return False, None
        if y_shapes is not None:
            for i in _range(n):
                if y_shapes[i] is not None and data.x_shape is not None and y_shapes[i][0] is not None and \
                        data.x_shape[0] is not None and y_shapes[i][0] != data.x_shape[0]:
                    _fail("Data cardinality is ambiguous:\n  x sizes: %d\n  y sizes: %d\nMake sure all arrays contain the same number of samples." % (data.x_shape[0], y_shapes[i][0]))
                    return False, None
                if out_shapes is not None and not self._check_y(y_shapes[i], out_shapes[i], self._heads[i]["loss_name"] or "", self._kt_outputs[i]):
                    return False, None
        return True, None

    # --- training ------------------------------------------------------------------------------
    def _custom_train_step(self):
        # A subclass that overrides train_step(self, data) takes over the step, as in Keras:
        # fit calls it with each batch and logs the dict it returns.
        return getattr(type(self), "train_step", None) is not Model.train_step

    def _custom_test_step(self):
        return getattr(type(self), "test_step", None) is not Model.test_step

    def train_step(self, data):
        x, y = (data[0], data[1]) if isinstance(data, tuple) and len(data) == 2 else (data, None)
        loss, y_pred = self._default_train_step(x, y)
        return {"loss": loss}

    def test_step(self, data):
        x, y = (data[0], data[1]) if isinstance(data, tuple) and len(data) == 2 else (data, None)
        loss, y_pred = self._default_test_step(x, y)
        return {"loss": loss}

    # --- what custom train_step/test_step use: Keras' compiled loss and metrics ------------------
    @property
    def compiled_loss(self):
        return _CompiledLoss(self)

    @property
    def compiled_metrics(self):
        c = getattr(self, "_compiled_metrics_obj", None)
        if c is None or c._ids is not self._metric_ids:
            c = _CompiledMetrics(self)
            self._compiled_metrics_obj = c
        return c

    @property
    def metrics(self):
        # Keras: the loss tracker and the compiled metrics (once they have seen data), then the
        # metrics of the layers.
        if not self._compiled:
            return []
        out = [self._tracker()] if getattr(self, "_loss_tracker", None) is not None else []
        return out + self.compiled_metrics.metrics

    @property
    def metrics_names(self):
        return [m.name for m in self.metrics]

    def _tracker(self):
        t = getattr(self, "_loss_tracker", None)
        if t is None:
            t = _metrics.Mean(name="loss")
            self._loss_tracker = t
        return t

    def compute_loss(self, x=None, y=None, y_pred=None, sample_weight=None):
        return self.compiled_loss(y, y_pred, sample_weight, regularization_losses=self.losses)

    def _custom_step_function(self, attr, method):
        # Keras runs a custom train_step/test_step as a tf.function too (make_train_function).
        def step(x, y):
            return method((x, y) if y is not None else x)
        return self._traced_step(attr, step)

    def _step_logs(self, xb, yb, step=None):
        if step is None:
            step = self._custom_step_function("_custom_train_function", self.train_step)
        logs = step(xb, yb)
        out = {}
        for k in (logs or {}):
            v = logs[k]
            out[k] = float(v.result() if hasattr(v, "result") and not _tlens.is_tensor(v) else v)
        return out

    def _reset_metrics(self):
        for m in getattr(self, "metrics", None) or []:
            if hasattr(m, "reset_state"):
                m.reset_state()
            elif hasattr(m, "reset_states"):
                m.reset_states()

    def _traced_step(self, attr, step):
        # Keras runs its steps as tf.functions (Model.make_train_function, make_test_function)
        # unless the model is compiled with run_eagerly=True: traced into a graph once per input
        # signature, then replayed, so later steps skip the Python of the layers, the tape and
        # the optimizer (a trace that fails runs eagerly from then on: lang/tf/FunctionObj.h).
        # Made anew at each compile (compile resets `attr`), as Keras does. Models with several
        # outputs keep the eager step: their per-output losses are Python state read after it.
        if getattr(self, "_run_eagerly", True) or self._heads is not None:
            return step
        fn = getattr(self, attr)
        if fn is None:
            fn = _tlens.function(step)
            setattr(self, attr, fn)
        return fn

    def _train_step_function(self):
        return self._traced_step("_train_function", self._default_train_step)

    def _test_step_function(self):
        # evaluate's step, and fit's validation.
        return self._traced_step("_test_function", self._default_test_step)

    def _default_test_step(self, x, y):
        y_pred = self(x, training=False)
        return self._compute_loss(y, y_pred), y_pred

    def _default_train_step(self, x, y):
        with _tf.GradientTape() as tape:
            y_pred = self(x, training=True)
            loss = self._compute_loss(y, y_pred)
        variables = self.trainable_variables
        grads = tape.gradient(loss, variables)
        self.optimizer.apply_gradients(zip(grads, variables))
        return loss, y_pred

    def _batch_logs(self, loss, y, y_pred, metrics):
        if self._heads is not None:
            logs = {"loss": float(loss)}
            for h, l in zip(self._heads, getattr(self, "_head_losses", [])):
                if l is not None:
                    logs[h["name"] + "_loss"] = float(l)
            ys = list(y) if isinstance(y, (list, tuple)) else [y]
            preds = list(y_pred) if isinstance(y_pred, (list, tuple)) else [y_pred]
            for i in _range(len(self._heads)):
                h = self._heads[i]
                for n, fn in h["metrics"]:
                    logs[h["name"] + "_" + n] = float(_tf.reduce_mean(fn(ys[i], preds[i])))
            return logs
        logs = {"loss": float(loss)}
        for name, fn in metrics:
            logs[name] = float(_tf.reduce_mean(fn(y, y_pred)))
        return logs

    def fit(self, x=None, y=None, batch_size=None, epochs=1, verbose="auto", callbacks=None, validation_split=0.0,
            validation_data=None, shuffle=True, class_weight=None, sample_weight=None, initial_epoch=0,
            steps_per_epoch=None, validation_steps=None, validation_batch_size=None, validation_freq=1,
            max_queue_size=10, workers=1, use_multiprocessing=False):
        self._assert_compiled("fit")
        data = _make_data(x, y, batch_size, steps_per_epoch)
        ok, out_shape = self._prepare(data, "fit")
        val = None
        if validation_data is not None:
            if isinstance(validation_data, (tuple, list)):
                vx = validation_data[0]
                vy = validation_data[1] if len(validation_data) > 1 else None
            else:  # a dataset or a generator of (x, y) batches, validation_steps of them
                vx, vy = validation_data, None
            val = _make_data(vx, vy, validation_batch_size or data.batch_size, validation_steps)
            if ok and self._heads is not None:
                heads = self._heads
                ok = self._prepare(val, "evaluate")[0]
                self._heads = heads
            elif ok:
                ok = self._check_inputs(val) and self._check_y(val.y_shape, out_shape)
        elif validation_split and isinstance(data, _ArrayData):
            data, val = data.split(validation_split)
        metrics = self._resolved_metrics(out_shape, data.y_shape)
        names = ["loss"] + [n for n, f in metrics]
        if val is not None:
            names = names + ["val_" + n for n in names]
        history = _callbacks.History()
        history.set_model(self)
        history.params = {"verbose": verbose, "epochs": epochs, "steps": None}
        self.history = history
        if not ok or _tlens.is_abstract():
            # Abstract mode checks shapes only; the values are unknown.
            for k in names:
                history.history[k] = [_unknown() for e in _range(initial_epoch, epochs)]
            history.epoch = list(_range(initial_epoch, epochs))
            if ok and callbacks and epochs > initial_epoch:
                self._abstract_callbacks(list(callbacks), names, initial_epoch)
            return history
        with _tlens.quiet():
            return self._with_compiled_trainability(
                lambda: self._fit_loop(data, val, metrics, epochs, initial_epoch, verbose, callbacks, history, shuffle))

    def _abstract_callbacks(self, cbs, names, epoch):
        """Abstract fit: the callbacks see one batch and one epoch whose logs are unknown, so what
        they collect (losses, rates) is unknown rather than empty."""
        logs = dict([(k, _unknown()) for k in names])
        batch_logs = dict([(k, logs[k]) for k in names if not k.startswith("val_")])
        for cb in cbs:
            cb.set_model(self)
        for cb in cbs:
            cb.on_train_begin({})
        for cb in cbs:
            cb.on_epoch_begin(epoch, {})
        for cb in cbs:
            cb.on_train_batch_begin(0, {})
        for cb in cbs:
            cb.on_train_batch_end(0, dict(batch_logs))
        for cb in cbs:
            cb.on_epoch_end(epoch, dict(logs))
        for cb in cbs:
            cb.on_train_end(dict(logs))

    def _fit_loop(self, data, val, metrics, epochs, initial_epoch, verbose, callbacks, history, shuffle):
        # Keras' CallbackList: the user's callbacks, then History, then the progress bar, so the
        # logs a callback adds (LearningRateScheduler's "lr") are recorded and printed.
        cbs = list(callbacks or []) + [history]
        for cb in cbs:
            cb.set_model(self)
        steps = data.steps()
        history.params["steps"] = steps
        verbose = 1 if verbose == "auto" else verbose
        self.stop_training = False
        for cb in cbs:
            cb.on_train_begin({})
        custom = self._custom_train_step()
        graph = _session_mode()
        if graph:
            _session_steps._check_model(self, "train")
        step_fn = None if custom or graph else self._train_step_function()
        for epoch in _range(initial_epoch, epochs):
            if custom:
                self._reset_metrics()
            for cb in cbs:
                cb.on_epoch_begin(epoch, {})
            if verbose:
                print("Epoch %d/%d" % (epoch + 1, epochs))
            sums = {}
            seen = 0
            step = 0
            stateful = self._reset_stateful(metrics)
            for xb, yb in data.batches(shuffle):
                for cb in cbs:
                    cb.on_train_batch_begin(step, {})
                if graph:
                    logs = _session_steps.batch_logs(self, xb, yb, metrics, "train")
                elif custom:
                    logs = self._step_logs(xb, yb)
                else:
                    loss, y_pred = step_fn(xb, yb)
                    logs = self._batch_logs(loss, yb, y_pred, metrics)
                n = _batch_len(xb)
                for k in logs:
                    sums[k] = sums.get(k, 0.0) + logs[k] * n
                seen += n
                step += 1
                for cb in cbs:
                    cb.on_train_batch_end(step - 1, logs)
            epoch_logs = {}
            for k in sums:
                epoch_logs[k] = sums[k] / max(seen, 1)
            for k in stateful:
                if k in sums:
                    epoch_logs[k] = float(stateful[k].metric.result())
            if custom and step > 0:
                # A custom train_step's metrics are its own running results: Keras logs the last.
                epoch_logs = dict(logs)
            if val is not None:
                vlogs = self._evaluate_data(val, metrics)
                for k in vlogs:
                    epoch_logs["val_" + k] = vlogs[k]
            for cb in cbs:
                cb.on_epoch_end(epoch, epoch_logs)
            if verbose:
                print(_progress(step, step) + _fmt_logs(epoch_logs))
            if self.stop_training:
                break
        for cb in cbs:
            cb.on_train_end(dict([(k, history.history[k][-1]) for k in history.history if history.history[k]]))
        return history

    def _evaluate_data(self, data, metrics):
        with _tlens.quiet():
            return self._evaluate_loop(data, metrics)

    def _reset_stateful(self, metrics):
        out = {}
        for name, fn in metrics:
            if isinstance(fn, _metrics._Stateful):
                fn.reset()
                out[name] = fn
        return out

    def _evaluate_loop(self, data, metrics):
        sums = {}
        seen = 0
        stateful = self._reset_stateful(metrics)
        graph = _session_mode()
        custom = self._custom_test_step()
        if graph and custom:
            raise NotImplementedError("tensorlens: Model.test_step overrides are TF2 Keras; this program uses the TF1 graph "
                                      "API, so its Keras models evaluate as session runs")
        if custom:
            self._reset_metrics()
        step_fn = None if graph or custom else self._test_step_function()
        test_fn = self._custom_step_function("_custom_test_function", self.test_step) if custom else None
        for xb, yb in data.batches(False):
            if custom:
                logs = self._step_logs(xb, yb, test_fn)
            elif graph:
                logs = _session_steps.batch_logs(self, xb, yb, metrics, "test")
            else:
                loss, y_pred = step_fn(xb, yb)
                logs = self._batch_logs(loss, yb, y_pred, metrics)
            n = _batch_len(xb)
            for k in logs:
                sums[k] = sums.get(k, 0.0) + logs[k] * n
            seen += n
        out = {}
        for k in sums:
            out[k] = sums[k] / max(seen, 1)
        for k in stateful:
            if k in sums:
                out[k] = float(stateful[k].metric.result())
        if custom and seen > 0:
            out = dict(logs)  # a custom test_step's running results: the last, as in Keras
        return out

    def evaluate(self, x=None, y=None, batch_size=None, verbose="auto", sample_weight=None, steps=None,
                 callbacks=None, max_queue_size=10, workers=1, use_multiprocessing=False, return_dict=False):
        self._assert_compiled("evaluate")
        data = _make_data(x, y, batch_size, steps)
        ok, out_shape = self._prepare(data, "evaluate")
        metrics = self._resolved_metrics(out_shape, data.y_shape)
        names = ["loss"] + [n for n, f in metrics]
        if not ok or _tlens.is_abstract():
            logs = {}
            for k in names:
                logs[k] = _unknown()
        else:
            logs = self._evaluate_data(data, metrics)
            if verbose == "auto" or verbose:
                s = data.steps()
                print(_progress(s, s) + _fmt_logs(logs))
        if return_dict:
            return logs
        if self._custom_test_step() and ok and not _tlens.is_abstract():
            names = list(logs.keys())  # the names the custom test_step returned
        if len(names) == 1:
            return logs[names[0]]
        return [logs[k] for k in names]

    def predict(self, x, batch_size=None, verbose="auto", steps=None, callbacks=None, max_queue_size=10,
                workers=1, use_multiprocessing=False):
        data = _make_data(x, None, batch_size, steps)
        ok, out_shape = self._prepare(data, "predict")
        if not ok:
            return _layers._unknown_tensor()
        if _tlens.is_abstract():
            if self._is_graph_network and len(self._kt_outputs) > 1:
                if data.n is None:
                    return [_layers._unknown_tensor() for t in self._kt_outputs]
                return [_tlens.typed(t.dtype, [data.n] + t.shape.as_list()[1:], True) if t.shape.ndims is not None
                        else _layers._unknown_tensor() for t in self._kt_outputs]
            out = self._symbolic_output([None] + list(data.x_shape[1:]), _tf.float32) if data.x_shape is not None else None
            if out is None or data.n is None:
                return _layers._unknown_tensor()
            return _tlens.typed(out.dtype, [data.n] + out.shape.as_list()[1:], True)
        graph = _session_mode()
        with _tlens.quiet():
            outs = []
            for xb, yb in data.batches(False):
                outs.append(_session_steps.predict_batch(self, xb) if graph else self(xb, training=False))
            if verbose == "auto" or verbose:
                s = data.steps()
                print(_progress(s, s))
            # Session runs give numpy arrays; eager steps give tensors.
            cat = (lambda xs: _np.concatenate(xs, 0)) if graph else (lambda xs: _tf.concat(xs, 0))
            if outs and isinstance(outs[0], (list, tuple)):
                # One array per output of the model.
                return [_tlens.to_ndarray(o[0]) if len(outs) == 1 else _tlens.to_ndarray(cat(list(o)))
                        for o in zip(*outs)]
            if outs and isinstance(outs[0], dict):
                return dict([(k, _tlens.to_ndarray(cat([o[k] for o in outs]))) for k in outs[0]])
            if len(outs) == 1:
                return _tlens.to_ndarray(outs[0])
            return _tlens.to_ndarray(cat(outs))

    def __call__(self, inputs, *args, **kwargs):
        if not self._is_graph_network and getattr(self, "_tlens_build_shape", None) is None and _tlens.is_tensor(inputs):
            # The input shape a subclassed model is rebuilt with by load_model.
            dims = _layers._static_dims(inputs)
            if dims is not None:
                self._tlens_build_shape = [None] + list(dims[1:])
        return Layer.__call__(self, inputs, *args, **kwargs)

    def train_on_batch(self, x, y=None, sample_weight=None, class_weight=None, reset_metrics=True, return_dict=False):
        self._assert_compiled("fit")
        data = _ArrayData(x, y, None)
        ok, out_shape = self._prepare(data, "fit")
        metrics = self._resolved_metrics(out_shape, data.y_shape)
        if not ok or _tlens.is_abstract():
            logs = {"loss": _unknown()}
            for n, f in metrics:
                logs[n] = _unknown()
        else:
            with _tlens.quiet():
                logs = self._with_compiled_trainability(lambda: self._one_batch(data, metrics))
        if return_dict:
            return logs
        vals = list(logs.values())
        return vals[0] if len(vals) == 1 else vals

    def _one_batch(self, data, metrics):
        if _session_mode():
            return _session_steps.batch_logs(self, data.x, data.y, metrics, "train")
        if self._custom_train_step():
            return self._step_logs(data.x, data.y)
        loss, y_pred = self._train_step_function()(data.x, data.y)
        return self._batch_logs(loss, data.y, y_pred, metrics)

    def test_on_batch(self, x, y=None, sample_weight=None, reset_metrics=True, return_dict=False):
        return self.evaluate(x, y, batch_size=_batch_len(x), verbose=0, return_dict=return_dict)

    def predict_on_batch(self, x):
        return self.predict(x, batch_size=_batch_len(x), verbose=0)

    # --- saving --------------------------------------------------------------------------------
    def save(self, filepath, overwrite=True, include_optimizer=True, save_format=None, signatures=None, options=None,
             save_traces=True, **kwargs):
        # The architecture (Keras' config), the compile state and the weights: keras._saving.
        _saving.save_model(self, filepath, overwrite, include_optimizer)

    def save_weights(self, filepath, overwrite=True, save_format=None, options=None):
        # Every weight in model order, in tensorlens' checkpoint files (filepath.index and
        # filepath.data-00000-of-00001, as TF's checkpoint format names them; not HDF5).
        if _tlens.is_abstract():
            return  # abstract mode writes no files
        ws = self.weights
        _tlens.write_checkpoint(str(filepath), ["%04d/%s" % (i, w.name) for i, w in enumerate(ws)],
                                _backend.batch_get_value(ws))

    def load_weights(self, filepath, skip_mismatch=False, by_name=False, options=None):
        stored = sorted(_tlens.read_checkpoint(str(filepath)), key=lambda kv: kv[0])
        ws = self.weights
        if len(stored) != len(ws):
            raise ValueError("You are trying to load a weight file containing %d weights into a model with %d "
                             "weights (%s)." % (len(stored), len(ws), filepath))
        pairs = []
        for (key, value), w in zip(stored, ws):
            if list(value.shape) != w.shape.as_list():
                if skip_mismatch:
                    continue
                raise ValueError("Shapes %s and %s are incompatible: weight %s of %s holds %s" %
                                 (tuple(w.shape.as_list()), tuple(value.shape), w.name, filepath, key.split("/", 1)[1]))
            pairs.append((w, value))
        _backend.batch_set_value(pairs)
        return None

    def get_config(self):
        # Keras' model config (keras._saving): a functional model's layers and their call graph; a
        # subclass must override get_config (its constructor's arguments), as in Keras.
        if self._is_graph_network:
            return _saving.functional_config(self)
        if type(self).get_config is Model.get_config:
            raise NotImplementedError("Model %s is a subclassed model: to save its architecture it must override "
                                      "`get_config()` (returning its constructor's arguments; and `from_config()` if they "
                                      "need rebuilding), or save only its weights with save_weights()" % type(self).__name__)
        return {"name": self.name, "trainable": self.trainable}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        if "input_layers" in config and "output_layers" in config:
            return _saving.functional_from_config(cls, config, custom_objects)
        return cls(**config)

    def to_json(self, **kwargs):
        import json as _json
        return _json.dumps(_saving.entry(self))

    # --- summary -------------------------------------------------------------------------------
    def _sequential_like(self):
        if not self._is_graph_network:
            return True
        if len(self._kt_inputs) != 1 or len(self._kt_outputs) != 1:
            return False
        prev = self._kt_inputs[0].name
        seen = {}
        for node in self._nodes:
            ins = _flatten(node.inputs)
            if len(ins) != 1 or ins[0].name != prev or len(node.outputs) != 1 or id(node.layer) in seen:
                return False
            seen[id(node.layer)] = True
            prev = node.outputs[0].name
        return True

    def _layer_output_shape(self, layer):
        try:
            return layer.output_shape
        except AttributeError:
            return "multiple"

    def _connections(self, layer):
        out = []
        relevant = {}
        for n in self._nodes:
            relevant[id(n)] = True
        for node in layer._inbound_nodes:
            if id(node) not in relevant:
                continue
            for t in _flatten(node.inputs):
                p = _backend.producer(t)
                if p is None:
                    continue
                src_node, index = p
                node_index = 0
                for i in _range(len(src_node.layer._inbound_nodes)):
                    if src_node.layer._inbound_nodes[i] is src_node:
                        node_index = i
                out.append("%s[%d][%d]" % (src_node.layer.name, node_index, index))
        return out

    def reset_states(self):
        """Zeros the states of the model's stateful layers (stateful RNNs), as Keras does."""
        for layer in self.layers:
            if getattr(layer, "stateful", False) and hasattr(layer, "reset_states"):
                layer.reset_states()

    def summary(self, line_length=None, positions=None, print_fn=None, expand_nested=False, show_trainable=False,
                layer_range=None):
        if not self.built:
            raise ValueError("This model has not yet been built. Build the model first by calling `build()` or by calling the model on a batch of data.")
        if print_fn is None:
            print_fn = print
        sequential_like = self._sequential_like()
        if sequential_like:
            line_length = line_length or 65
            positions = positions or [0.45, 0.85, 1.0]
            header = ["Layer (type)", "Output Shape", "Param #"]
        else:
            line_length = line_length or 98
            positions = positions or [0.3, 0.6, 0.70, 1.0]
            header = ["Layer (type)", "Output Shape", "Param #", "Connected to"]
        if positions[-1] <= 1:
            positions = [int(line_length * p) for p in positions]

        def print_row(fields):
            left = [str(f) for f in fields]
            while any(left):
                line = ""
                for col in _range(len(left)):
                    start = positions[col - 1] if col > 0 else 0
                    end = positions[col]
                    space = 2 if col != len(positions) - 1 else 0
                    cutoff = end - start - space
                    if col != len(positions) - 1:
                        cutoff -= 1
                    fit = left[col][:cutoff]
                    cands = [fit.find(c) + len(c) for c in ("),", "},", "],", "',") if fit.find(c) >= 0]
                    if cands:
                        cutoff = min(cands)
                        fit = fit[:cutoff]
                    if col == 0:
                        line += " "
                    line += fit
                    line += " " * space if space else ""
                    left[col] = left[col][cutoff:]
                    line += " " * (positions[col] - len(line))
                print_fn(line)

        print_fn("Model: \"%s\"" % self.name)
        print_fn("_" * line_length)
        print_row(header)
        print_fn("=" * line_length)
        for layer in self.layers:
            shape = self._layer_output_shape(layer)
            if not layer.built and not getattr(layer, "_is_graph_network", False):
                params = "0 (unused)"
            else:
                params = layer.count_params()
            fields = [layer.name + " (" + type(layer).__name__ + ")", shape, params]
            if not sequential_like:
                fields.append(self._connections(layer))
            print_row(fields)
            print_fn(" " * line_length)
        print_fn("=" * line_length)
        trainable = _count(self.trainable_weights)
        non_trainable = _count(self.non_trainable_weights)
        print_fn("Total params: %d (%s)" % (trainable + non_trainable, _readable_size((trainable + non_trainable) * 4)))
        print_fn("Trainable params: %d (%s)" % (trainable, _readable_size(trainable * 4)))
        print_fn("Non-trainable params: %d (%s)" % (non_trainable, _readable_size(non_trainable * 4)))
        print_fn("_" * line_length)

    def _tlens_summary_rows(self):
        """(layer name, class, output shape as a list with None or None when unknown, params) per
        layer, for the language server's hover."""
        rows = []
        for layer in self.layers:
            try:
                shape = layer.output_shape
            except AttributeError:
                shape = layer._seen_output_shape
            if isinstance(layer, InputLayer) and isinstance(shape, list):
                shape = shape[0]
            if isinstance(shape, list) and shape and isinstance(shape[0], tuple):
                shape = shape[0]
            shape = None if shape is None else list(shape)
            params = layer.count_params() if (layer.built or layer.weights) else 0
            rows.append((layer.name, type(layer).__name__, shape, params))
        return rows


class _CompiledLoss:
    """model.compiled_loss(y_true, y_pred, sample_weight=None, regularization_losses=None): the
    compiled loss (mean over the batch) plus the given losses; updates the 'loss' tracker."""

    def __init__(self, model):
        self._model = model

    def __call__(self, y_true, y_pred, sample_weight=None, regularization_losses=None):
        m = self._model
        if m._loss_fn is None:
            loss = _tf.constant(0.0)
        else:
            per = m._loss_fn(y_true, y_pred)
            loss = _tf.reduce_mean(per) if per.shape.ndims != 0 else per
        for r in regularization_losses or []:
            loss = loss + r
        m._tracker().update_state(loss)
        return loss

    @property
    def metrics(self):
        return [self._model._tracker()]


class _MeanMetricWrapper(_metrics.Metric):
    def __init__(self, fn, name):
        _metrics.Metric.__init__(self, name=name)
        self._fn = fn

    def _values(self, y_true, y_pred):
        return self._fn(y_true, y_pred)


class _CompiledMetrics:
    """model.compiled_metrics: the compile() metrics as metric objects, resolved ('accuracy' to
    its variant) when they first see data, as Keras' MetricsContainer."""

    def __init__(self, model):
        self._model = model
        self._ids = model._metric_ids
        self._built = None

    def _build(self, y_true, y_pred):
        if self._built is not None:
            return
        out_shape = _data_shape(y_pred)
        y_shape = _data_shape(y_true)
        self._built = []
        for m in self._ids:
            name, fn = _metrics.resolve(m, self._model._loss_name, out_shape, y_shape)
            self._built.append(self._object(m, name, fn))

    def _object(self, m, name, fn):
        return (fn.metric if isinstance(fn, _metrics._Stateful) else
                (m if isinstance(m, _metrics.Metric) else _MeanMetricWrapper(fn, name)))

    def update_state(self, y_true, y_pred, sample_weight=None):
        self._build(y_true, y_pred)
        for m in self._built:
            m.update_state(y_true, y_pred)

    def reset_state(self):
        for m in self._built or []:
            m.reset_state()

    @property
    def metrics(self):
        return list(self._built or [])


def _count(weights):
    n = 0
    for w in weights:
        c = 1
        for d in w.shape.as_list():
            c *= d
        n += c
    return n


def _readable_size(size):
    units = ["Byte", "KB", "MB", "GB", "TB", "PB"]
    size = float(size)
    for unit in units:
        if size / 1024 < 1:
            return "%.2f %s" % (size, unit)
        size /= 1024
    return "%.2f %s" % (size, units[-1])


Model.build._is_default = True
Functional = Model


class Sequential(Model):
    """A linear stack of layers. With an input shape (an Input, an InputLayer, or input_shape= on
    the first layer) each added layer is applied to the symbolic output so far, so shape errors
    point at the add() (or Sequential([...])) line; without one the model is built on first use."""

    def __init__(self, layers=None, name=None):
        Model.__init__(self, name=name)
        self._kt_in = None
        self._kt_out = None
        self._input_layer = None
        if layers:
            for l in layers:
                self.add(l)

    @property
    def layers(self):
        return list(self._layers)

    def add(self, layer):
        if _tlens.is_symbolic(layer) and _layers._input_layer_of(layer) is not None:
            self._set_input(layer)
            return
        if isinstance(layer, InputLayer):
            self._set_input(layer._inbound_nodes[0].outputs[0])
            return
        if not isinstance(layer, Layer):
            raise TypeError("The added layer must be an instance of class Layer. Received: layer=%r of type %s." % (layer, type(layer)))
        for l in self._layers:
            if l.name == layer.name:
                raise ValueError("All layers added to a Sequential model should have unique names. Name \"%s\" is already the name of a layer in this model. Update the `name` argument to pass a unique name." % layer.name)
        self._layers.append(layer)
        if self._kt_out is None and not self._layers[:-1] and layer._batch_input_shape is not None:
            self._set_input(Input(batch_shape=layer._batch_input_shape, dtype=layer.dtype if layer.dtype != "float32" else None))
            return
        self._apply(layer)

    def _set_input(self, t):
        self._kt_in = t
        self._kt_out = t
        self._input_layer = _layers._input_layer_of(t)
        for l in self._layers:
            self._apply(l)

    def _apply(self, layer):
        if self._kt_out is None:
            return
        if not _tlens.is_symbolic(self._kt_out):
            return  # an earlier layer's error was reported; nothing more is known
        self._kt_out = layer(self._kt_out)
        self._graph_ready()

    def _graph_ready(self):
        self._kt_inputs = [self._kt_in]
        self._kt_outputs = [self._kt_out] if _tlens.is_symbolic(self._kt_out) else []
        self.built = True

    def pop(self):
        if not self._layers:
            raise TypeError("There are no layers in the model.")
        self._layers.pop()
        if self._kt_in is not None:
            self._set_input(self._kt_in)

    def predict_classes(self, x, batch_size=32, verbose=0):
        """Keras 2's Sequential.predict_classes (removed in TF 2.6): the argmax of the
        predictions, or for one output column (a sigmoid) whether it passes 0.5, as int32."""
        proba = self.predict(x, batch_size=batch_size, verbose=verbose)
        if proba.shape[-1] > 1:
            return proba.argmax(axis=-1)
        return (proba > 0.5).astype("int32")

    def predict_proba(self, x, batch_size=32, verbose=0):
        """Keras 2's Sequential.predict_proba: the predictions (probabilities)."""
        return self.predict(x, batch_size=batch_size, verbose=verbose)

    def _symbolic_output(self, batch_shape, dtype):
        if self._kt_in is None:
            self._set_input(Input(batch_shape=[None] + list(batch_shape[1:]), dtype=dtype))
        return self._kt_out if _tlens.is_symbolic(self._kt_out) else None

    def build(self, input_shape=None):
        if input_shape is not None and self._kt_in is None:
            if isinstance(input_shape, _tf.TensorShape):
                input_shape = input_shape.as_list()
            self._set_input(Input(batch_shape=list(input_shape)))
        self.built = True

    def call(self, inputs, training=None, mask=None):
        x = inputs
        if self._kt_in is not None and not _backend.is_keras_tensor(x) and _tlens.is_tensor(x):
            if x.dtype != self._kt_in.dtype:
                x = _tf.cast(x, self._kt_in.dtype)
        for layer in self._layers:
            x = layer(x, training=training)
        return x

    def __call__(self, inputs, *args, **kwargs):
        if self._kt_in is None and (_tlens.is_tensor(inputs) or _tlens.is_ndarray(inputs)) and not _tlens.is_symbolic(inputs):
            shape = _layers._static_dims(inputs)
            if shape is not None:
                self._symbolic_output([None] + shape[1:], _tf.float32)
        return Layer.__call__(self, inputs, *args, **kwargs)

    def _sequential_like(self):
        return True

    def get_config(self):
        return _saving.sequential_config(self)

    @classmethod
    def from_config(cls, config, custom_objects=None):
        return _saving.sequential_from_config(cls, config, custom_objects)


def load_model(filepath, custom_objects=None, compile=True, options=None, safe_mode=True):
    return _saving.load_model(filepath, custom_objects, compile)


def save_model(model, filepath, overwrite=True, include_optimizer=True, save_format=None, **kwargs):
    _saving.save_model(model, filepath, overwrite, include_optimizer)


def _clone_layer(layer):
    return _saving._config.build(_saving.entry(layer), {type(layer).__name__: type(layer)})


def clone_model(model, input_tensors=None, clone_function=None):
    """Keras' clone_model: the same architecture with new layers (each from its config, or
    clone_function(layer)) and freshly initialised weights."""
    if isinstance(model, Sequential):
        if input_tensors is not None:
            raise NotImplementedError("tensorlens: clone_model(input_tensors=...) is not supported for a Sequential model")
        fn = _clone_layer if clone_function is None else clone_function
        clone = Sequential(name=model.name)
        if model._kt_in is not None and model._input_layer is not None:
            clone.add(_saving._input(model._input_layer.get_config()))
        for layer in model._layers:
            clone.add(fn(layer))
        return clone
    if not isinstance(model, Model) or not model._is_graph_network:
        raise ValueError("Expected `model` argument to be a functional `Model` instance, but got a subclassed model instead: %s" % (model,))
    if input_tensors is not None or clone_function is not None:
        raise NotImplementedError("tensorlens: clone_model of a functional model takes neither input_tensors nor clone_function")
    custom = {}
    for layer in model._layers:
        custom[type(layer).__name__] = type(layer)
    return Model.from_config(model.get_config(), custom_objects=custom)


def model_from_json(json_string, custom_objects=None):
    import json as _json
    return _saving.rebuild({"model_config": _json.loads(json_string)}, custom_objects, False)
