# keras.metrics: metric functions by name ("accuracy", "mae", ...) and stateful metric objects
# (update_state / result / reset_state) whose state lives in eager variables.
import _tlens
import tensorflow as _tf
from keras import losses as _losses


def _labels(y_true, y_pred):
    y_true = _tf.convert_to_tensor(y_true)
    rt, rp = y_true.shape.ndims, y_pred.shape.ndims
    if rt is not None and rp is not None and rt == rp and y_true.shape[-1] == 1:
        y_true = _tf.squeeze(y_true, [-1])
    return y_true


def sparse_categorical_accuracy(y_true, y_pred):
    y_true = _labels(y_true, y_pred)
    pred = _tf.argmax(y_pred, -1)
    return _tf.cast(_tf.equal(_tf.cast(y_true, _tf.int64), pred), _tf.float32)


def categorical_accuracy(y_true, y_pred):
    return _tf.cast(_tf.equal(_tf.argmax(y_true, -1), _tf.argmax(y_pred, -1)), _tf.float32)


def binary_accuracy(y_true, y_pred, threshold=0.5):
    y_true = _losses._match_rank(_losses._cast_like(y_true, y_pred), y_pred)
    pred = _tf.cast(_tf.greater(y_pred, threshold), y_pred.dtype)
    return _tf.reduce_mean(_tf.cast(_tf.equal(y_true, pred), _tf.float32), -1)


def accuracy(y_true, y_pred):
    return _tf.cast(_tf.equal(_losses._cast_like(y_true, y_pred), y_pred), _tf.float32)


def top_k_categorical_accuracy(y_true, y_pred, k=5):
    raise NotImplementedError("tensorlens: top_k_categorical_accuracy is not supported")


mean_squared_error = mse = _losses.mean_squared_error
mean_absolute_error = mae = _losses.mean_absolute_error
categorical_crossentropy = _losses.categorical_crossentropy
sparse_categorical_crossentropy = _losses.sparse_categorical_crossentropy
binary_crossentropy = _losses.binary_crossentropy


def resolve(identifier, loss_name, output_shape, target_shape):
    """(history name, function) for a compile() metric; 'accuracy' picks the variant Keras picks
    from the loss and the shapes of the targets and outputs."""
    if isinstance(identifier, str):
        name = identifier
        if identifier in ("accuracy", "acc"):
            # tf.keras in TensorFlow 1 (and Keras before 2.3) logs either spelling as "acc"
            # (history.history['acc'], 'val_acc'); TensorFlow 2 keeps the name given.
            if _tlens.style() == "graph":
                name = "acc"
            out_last = output_shape[-1] if output_shape else None
            t_rank = len(target_shape) if target_shape is not None else None
            o_rank = len(output_shape) if output_shape is not None else None
            t_last = target_shape[-1] if target_shape else None
            if loss_name == "binary_crossentropy" or out_last == 1:
                return name, binary_accuracy
            if loss_name == "sparse_categorical_crossentropy" or (t_rank is not None and o_rank is not None and (t_rank == o_rank - 1 or (t_rank == o_rank and t_last == 1))):
                return name, sparse_categorical_accuracy
            return name, categorical_accuracy
        fns = {"mse": mean_squared_error, "mean_squared_error": mean_squared_error, "mae": mean_absolute_error,
               "mean_absolute_error": mean_absolute_error, "categorical_accuracy": categorical_accuracy,
               "sparse_categorical_accuracy": sparse_categorical_accuracy, "binary_accuracy": binary_accuracy,
               "categorical_crossentropy": categorical_crossentropy,
               "sparse_categorical_crossentropy": sparse_categorical_crossentropy,
               "binary_crossentropy": binary_crossentropy}
        if identifier not in fns:
            raise ValueError("Unknown metric function: '%s'. Please ensure you are using a `keras.utils.custom_object_scope` and that this object is included in the scope." % identifier)
        return name, fns[identifier]
    if isinstance(identifier, Metric):
        if type(identifier)._values is Metric._values or type(identifier).__module__ != __name__:
            # A user's Metric subclass (update_state/result/reset_state): stateful, as in Keras.
            return identifier.name, _Stateful(identifier)
        return identifier.name, identifier._fn_for_compile()
    return getattr(identifier, "__name__", "metric"), identifier


class _Stateful:
    """A stateful metric compiled into a model: each batch updates it, the logs show result()."""

    def __init__(self, metric):
        self.metric = metric

    def __call__(self, y_true, y_pred):
        self.metric.update_state(y_true, y_pred)
        return self.metric.result()

    def reset(self):
        if hasattr(self.metric, "reset_state"):
            self.metric.reset_state()
        else:
            self.metric.reset_states()


class Metric:
    _default_name = "metric"

    def __init__(self, name=None, dtype=None, **kwargs):
        if name is None and type(self)._default_name is Metric._default_name:
            # A user's subclass: its class name in snake case, unique, as Keras names layers.
            from keras import layers as _layers, backend as _backend
            name = _backend.unique_object_name(_layers._snake(type(self).__name__))
        self.name = name if name is not None else self._default_name
        self.dtype = dtype if dtype is not None else "float32"
        self._weights = []
        if type(self)._values is not Metric._values:
            # The built-in averaging metrics: a total and a count. A user's subclass has only the
            # weights it adds, as in Keras.
            self.total = self.add_weight("total")
            self.count = self.add_weight("count")

    def add_weight(self, name=None, shape=(), aggregation=None, synchronization=None, initializer=None,
                   dtype=None, **kwargs):
        dtype = _tf.as_dtype(dtype if dtype is not None else self.dtype)
        shape = list(shape) if shape is not None else []
        with _tlens.init_scope():
            if initializer is None or initializer == "zeros":
                value = _tf.zeros(shape, dtype)
            elif initializer == "ones":
                value = _tf.ones(shape, dtype)
            else:
                from keras import initializers as _initializers
                value = _initializers.get(initializer)(shape, dtype)
            v = _tf.Variable(value, trainable=False, name=self.name + "/" + (name or "Variable"))
        self._weights.append(v)
        return v

    @property
    def variables(self):
        return list(self._weights)

    weights = variables

    def _values(self, y_true, y_pred):
        raise NotImplementedError

    def _fn_for_compile(self):
        return lambda y_true, y_pred: self._values(y_true, y_pred)

    def update_state(self, y_true, y_pred=None, sample_weight=None):
        # Python lists and numpy arrays are values too (metric.update_state([0, 1], [[...]])).
        if y_true is not None and not _tlens.is_tensor(y_true):
            y_true = _tf.convert_to_tensor(y_true)
        if y_pred is not None and not _tlens.is_tensor(y_pred):
            y_pred = _tf.convert_to_tensor(y_pred)
        v = _tf.cast(self._values(y_true, y_pred), _tf.float32)
        self.total.assign_add(_tf.reduce_sum(v))
        self.count.assign_add(_tf.cast(_tf.size(v), _tf.float32))

    def result(self):
        return self.total / _tf.maximum(self.count, 1.0)

    def reset_state(self):
        for v in self._weights:
            v.assign(_tf.zeros_like(v))

    reset_states = reset_state

    def __call__(self, *args, **kwargs):
        self.update_state(*args, **kwargs)
        return self.result()

    def get_config(self):
        return {"name": self.name, "dtype": self.dtype}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


class Mean(Metric):
    _default_name = "mean"

    def _values(self, values, unused=None):
        return values

    def update_state(self, values, sample_weight=None):
        Metric.update_state(self, values, None, sample_weight)


class Sum(Mean):
    _default_name = "sum"

    def result(self):
        return _tf.identity(self.total)


class _FnMetric(Metric):
    _fn = None

    def _values(self, y_true, y_pred):
        return type(self)._fn(y_true, y_pred)


class Accuracy(Metric):
    _default_name = "accuracy"

    def _values(self, y_true, y_pred):
        return accuracy(y_true, y_pred)


class SparseCategoricalAccuracy(Metric):
    _default_name = "sparse_categorical_accuracy"

    def _values(self, y_true, y_pred):
        return sparse_categorical_accuracy(y_true, y_pred)


class CategoricalAccuracy(Metric):
    _default_name = "categorical_accuracy"

    def _values(self, y_true, y_pred):
        return categorical_accuracy(y_true, y_pred)


class BinaryAccuracy(Metric):
    _default_name = "binary_accuracy"

    def __init__(self, name=None, dtype=None, threshold=0.5):
        Metric.__init__(self, name, dtype)
        self.threshold = threshold

    def _values(self, y_true, y_pred):
        return binary_accuracy(y_true, y_pred, self.threshold)


class MeanSquaredError(Metric):
    _default_name = "mean_squared_error"

    def _values(self, y_true, y_pred):
        return mean_squared_error(y_true, y_pred)


class MeanAbsoluteError(Metric):
    _default_name = "mean_absolute_error"

    def _values(self, y_true, y_pred):
        return mean_absolute_error(y_true, y_pred)


class SparseCategoricalCrossentropy(Metric):
    _default_name = "sparse_categorical_crossentropy"

    def __init__(self, name=None, dtype=None, from_logits=False):
        Metric.__init__(self, name, dtype)
        self.from_logits = from_logits

    def _values(self, y_true, y_pred):
        return sparse_categorical_crossentropy(y_true, y_pred, self.from_logits)


class CategoricalCrossentropy(Metric):
    _default_name = "categorical_crossentropy"

    def __init__(self, name=None, dtype=None, from_logits=False, label_smoothing=0):
        Metric.__init__(self, name, dtype)
        self.from_logits = from_logits

    def _values(self, y_true, y_pred):
        return categorical_crossentropy(y_true, y_pred, self.from_logits)


class _Confusion(Metric):
    """Precision and Recall at one threshold: counts of true/false positives/negatives (shape
    [1], as Keras' one-threshold variables), updated with y_pred > threshold."""
    _kinds = ()

    def __init__(self, thresholds=None, top_k=None, class_id=None, name=None, dtype=None):
        Metric.__init__(self, name, dtype)
        if top_k is not None or class_id is not None:
            raise NotImplementedError("tensorlens: %s with top_k or class_id" % type(self).__name__)
        if isinstance(thresholds, (list, tuple)):
            if len(thresholds) != 1:
                raise NotImplementedError("tensorlens: %s with several thresholds" % type(self).__name__)
            thresholds = thresholds[0]
        self.thresholds = 0.5 if thresholds is None else float(thresholds)
        for k in self._kinds:
            setattr(self, k, self.add_weight(k, shape=(1,), initializer="zeros"))

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_true = _tf.cast(_tf.convert_to_tensor(y_true), _tf.bool)
        y_pred = _tf.greater(_tf.cast(_tf.convert_to_tensor(y_pred), _tf.float32), self.thresholds)
        w = 1.0 if sample_weight is None else _tf.cast(_tf.convert_to_tensor(sample_weight), _tf.float32)
        conds = {"true_positives": _tf.logical_and(y_true, y_pred),
                 "false_positives": _tf.logical_and(_tf.logical_not(y_true), y_pred),
                 "false_negatives": _tf.logical_and(y_true, _tf.logical_not(y_pred)),
                 "true_negatives": _tf.logical_and(_tf.logical_not(y_true), _tf.logical_not(y_pred))}
        for k in self._kinds:
            c = _tf.cast(conds[k], _tf.float32) * w
            getattr(self, k).assign_add(_tf.reshape(_tf.reduce_sum(c), [1]))

    def _ratio(self, a, b):
        r = _tf.math.divide_no_nan(a, a + b)
        return r[0]


class Precision(_Confusion):
    _default_name = "precision"
    _kinds = ("true_positives", "false_positives")

    def result(self):
        return self._ratio(self.true_positives, self.false_positives)


class Recall(_Confusion):
    _default_name = "recall"
    _kinds = ("true_positives", "false_negatives")

    def result(self):
        return self._ratio(self.true_positives, self.false_negatives)
