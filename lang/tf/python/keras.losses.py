# keras.losses: loss functions by name ("categorical_crossentropy", "mse", ...) and as classes.
# Each returns the per-example loss; the classes (and Model.compile) average it over the batch.
import tensorflow as _tf

_EPS = 1e-07


def _prep(y_true, y_pred):
    # Keras converts y_pred first (numpy arrays and lists are accepted), then casts y_true to it.
    y_pred = _tf.convert_to_tensor(y_pred)
    return _match_rank(_cast_like(y_true, y_pred), y_pred), y_pred


def _cast_like(y_true, y_pred):
    y_true = _tf.convert_to_tensor(y_true)
    if y_true.dtype != y_pred.dtype:
        y_true = _tf.cast(y_true, y_pred.dtype)
    return y_true


def _match_rank(y_true, y_pred):
    # Keras squeezes or expands a trailing 1 so [N] targets meet [N, 1] outputs.
    rt, rp = y_true.shape.ndims, y_pred.shape.ndims
    if rt is not None and rp is not None:
        if rt == rp - 1:
            y_true = _tf.expand_dims(y_true, -1)
        elif rt == rp + 1 and y_true.shape[-1] == 1:
            y_true = _tf.squeeze(y_true, [-1])
    return y_true


def categorical_crossentropy(y_true, y_pred, from_logits=False, label_smoothing=0.0, axis=-1):
    y_pred = _tf.convert_to_tensor(y_pred)
    y_true = _cast_like(y_true, y_pred)
    if label_smoothing:
        n = y_pred.shape[-1]
        y_true = y_true * (1.0 - label_smoothing) + label_smoothing / float(n)
    if from_logits:
        return _tf.nn.softmax_cross_entropy_with_logits(labels=y_true, logits=y_pred)
    p = y_pred / _tf.reduce_sum(y_pred, axis, keepdims=True)
    p = _tf.clip_by_value(p, _EPS, 1.0 - _EPS)
    return -_tf.reduce_sum(y_true * _tf.log(p), axis)


def sparse_categorical_crossentropy(y_true, y_pred, from_logits=False, axis=-1, ignore_class=None):
    y_pred = _tf.convert_to_tensor(y_pred)
    y_true = _tf.convert_to_tensor(y_true)
    rt, rp = y_true.shape.ndims, y_pred.shape.ndims
    if rt is not None and rp is not None and rt == rp and y_true.shape[-1] == 1:
        y_true = _tf.squeeze(y_true, [-1])
    labels = _tf.cast(y_true, _tf.int32)
    if from_logits:
        return _tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=y_pred)
    # Keras' backend: the clipped probabilities' logs as logits of a softmax cross-entropy, so
    # outputs that do not sum to 1 (a sigmoid layer) are normalised as categorical_crossentropy
    # normalises them: -log(p_true) + log(sum(p)).
    p = _tf.clip_by_value(y_pred, _EPS, 1.0 - _EPS)
    return _tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=_tf.log(p))


def binary_crossentropy(y_true, y_pred, from_logits=False, label_smoothing=0.0, axis=-1):
    y_true, y_pred = _prep(y_true, y_pred)
    if label_smoothing:
        y_true = y_true * (1.0 - label_smoothing) + 0.5 * label_smoothing
    if from_logits:
        return _tf.reduce_mean(_tf.nn.sigmoid_cross_entropy_with_logits(labels=y_true, logits=y_pred), axis)
    p = _tf.clip_by_value(y_pred, _EPS, 1.0 - _EPS)
    return _tf.reduce_mean(-(y_true * _tf.log(p) + (1.0 - y_true) * _tf.log(1.0 - p)), axis)


def mean_squared_error(y_true, y_pred):
    y_true, y_pred = _prep(y_true, y_pred)
    return _tf.reduce_mean(_tf.square(y_pred - y_true), -1)


def mean_absolute_error(y_true, y_pred):
    y_true, y_pred = _prep(y_true, y_pred)
    return _tf.reduce_mean(_tf.abs(y_pred - y_true), -1)


def mean_absolute_percentage_error(y_true, y_pred):
    y_true, y_pred = _prep(y_true, y_pred)
    return 100.0 * _tf.reduce_mean(_tf.abs((y_true - y_pred) / _tf.maximum(_tf.abs(y_true), _EPS)), -1)


def _maybe_convert_labels(y_true):
    # Keras: 0/1 labels become -1/1 for the hinge losses.
    is_binary = _tf.reduce_all(_tf.logical_or(_tf.equal(y_true, 0), _tf.equal(y_true, 1)))
    return _tf.cond(is_binary, lambda: 2.0 * y_true - 1.0, lambda: y_true)


def hinge(y_true, y_pred):
    y_true, y_pred = _prep(y_true, y_pred)
    y_true = _maybe_convert_labels(y_true)
    return _tf.reduce_mean(_tf.maximum(1.0 - y_true * y_pred, 0.0), -1)


def squared_hinge(y_true, y_pred):
    y_true, y_pred = _prep(y_true, y_pred)
    y_true = _maybe_convert_labels(y_true)
    return _tf.reduce_mean(_tf.square(_tf.maximum(1.0 - y_true * y_pred, 0.0)), -1)


def categorical_hinge(y_true, y_pred):
    y_pred = _tf.convert_to_tensor(y_pred)
    y_true = _cast_like(y_true, y_pred)
    pos = _tf.reduce_sum(y_true * y_pred, -1)
    neg = _tf.reduce_max((1.0 - y_true) * y_pred, -1)
    return _tf.maximum(neg - pos + 1.0, 0.0)


def mean_squared_logarithmic_error(y_true, y_pred):
    y_true, y_pred = _prep(y_true, y_pred)
    first = _tf.log(_tf.maximum(y_pred, _EPS) + 1.0)
    second = _tf.log(_tf.maximum(y_true, _EPS) + 1.0)
    return _tf.reduce_mean(_tf.square(first - second), -1)


def log_cosh(y_true, y_pred):
    y_true, y_pred = _prep(y_true, y_pred)
    x = y_pred - y_true
    return _tf.reduce_mean(x + _tf.nn.softplus(-2.0 * x) - _tf.cast(_tf.log(2.0), x.dtype), -1)


def poisson(y_true, y_pred):
    y_true, y_pred = _prep(y_true, y_pred)
    return _tf.reduce_mean(y_pred - y_true * _tf.log(y_pred + _EPS), -1)


def cosine_similarity(y_true, y_pred, axis=-1):
    y_pred = _tf.convert_to_tensor(y_pred)
    y_true = _cast_like(y_true, y_pred)
    return -_tf.reduce_sum(_tf.nn.l2_normalize(y_true, axis) * _tf.nn.l2_normalize(y_pred, axis), axis)


def kl_divergence(y_true, y_pred):
    y_pred = _tf.convert_to_tensor(y_pred)
    y_true = _tf.clip_by_value(_cast_like(y_true, y_pred), _EPS, 1.0)
    p = _tf.clip_by_value(y_pred, _EPS, 1.0)
    return _tf.reduce_sum(y_true * _tf.log(y_true / p), -1)


def huber(y_true, y_pred, delta=1.0):
    y_true, y_pred = _prep(y_true, y_pred)
    err = _tf.abs(y_pred - y_true)
    quad = _tf.minimum(err, delta)
    return _tf.reduce_mean(0.5 * quad * quad + delta * (err - quad), -1)


mse = MSE = mean_squared_error
mae = MAE = mean_absolute_error
mape = MAPE = mean_absolute_percentage_error
kld = KLD = kullback_leibler_divergence = kl_divergence
msle = MSLE = mean_squared_logarithmic_error
logcosh = log_cosh


class Loss:
    _fn = None
    _default_name = None  # a user's subclass without a name keeps name None, as in Keras

    def __init__(self, reduction="auto", name=None, **kwargs):
        self.reduction = reduction
        self.name = name if name is not None else self._default_name
        self._kwargs = kwargs

    def call(self, y_true, y_pred):
        return type(self)._fn(y_true, y_pred, **self._kwargs)

    def __call__(self, y_true, y_pred, sample_weight=None):
        per_example = self.call(y_true, y_pred)
        if sample_weight is not None:
            per_example = per_example * _tf.cast(sample_weight, per_example.dtype)
        if self.reduction == "none":
            return per_example
        if self.reduction == "sum":
            return _tf.reduce_sum(per_example)
        return _tf.reduce_mean(per_example)

    def get_config(self):
        return {"name": self.name, "reduction": self.reduction}


class CategoricalCrossentropy(Loss):
    _default_name = "categorical_crossentropy"

    def __init__(self, from_logits=False, label_smoothing=0.0, axis=-1, reduction="auto", name=None):
        Loss.__init__(self, reduction, name, from_logits=from_logits, label_smoothing=label_smoothing)

    def call(self, y_true, y_pred):
        return categorical_crossentropy(y_true, y_pred, **self._kwargs)


class SparseCategoricalCrossentropy(Loss):
    _default_name = "sparse_categorical_crossentropy"

    def __init__(self, from_logits=False, ignore_class=None, reduction="auto", name=None):
        Loss.__init__(self, reduction, name, from_logits=from_logits)

    def call(self, y_true, y_pred):
        return sparse_categorical_crossentropy(y_true, y_pred, **self._kwargs)


class BinaryCrossentropy(Loss):
    _default_name = "binary_crossentropy"

    def __init__(self, from_logits=False, label_smoothing=0.0, axis=-1, reduction="auto", name=None):
        Loss.__init__(self, reduction, name, from_logits=from_logits, label_smoothing=label_smoothing)

    def call(self, y_true, y_pred):
        return binary_crossentropy(y_true, y_pred, **self._kwargs)


class MeanSquaredError(Loss):
    _default_name = "mean_squared_error"

    def call(self, y_true, y_pred):
        return mean_squared_error(y_true, y_pred)


class MeanAbsoluteError(Loss):
    _default_name = "mean_absolute_error"

    def call(self, y_true, y_pred):
        return mean_absolute_error(y_true, y_pred)


class Huber(Loss):
    _default_name = "huber_loss"

    def __init__(self, delta=1.0, reduction="auto", name=None):
        Loss.__init__(self, reduction, name, delta=delta)

    def call(self, y_true, y_pred):
        return huber(y_true, y_pred, **self._kwargs)


class KLDivergence(Loss):
    _default_name = "kl_divergence"

    def call(self, y_true, y_pred):
        return kl_divergence(y_true, y_pred)


class Hinge(Loss):
    _default_name = "hinge"

    def call(self, y_true, y_pred):
        return hinge(y_true, y_pred)


class MeanAbsolutePercentageError(Loss):
    _default_name = "mean_absolute_percentage_error"

    def call(self, y_true, y_pred):
        return mean_absolute_percentage_error(y_true, y_pred)


class MeanSquaredLogarithmicError(Loss):
    _default_name = "mean_squared_logarithmic_error"

    def call(self, y_true, y_pred):
        return mean_squared_logarithmic_error(y_true, y_pred)


class SquaredHinge(Loss):
    _default_name = "squared_hinge"

    def call(self, y_true, y_pred):
        return squared_hinge(y_true, y_pred)


class CategoricalHinge(Loss):
    _default_name = "categorical_hinge"

    def call(self, y_true, y_pred):
        return categorical_hinge(y_true, y_pred)


class LogCosh(Loss):
    _default_name = "log_cosh"

    def call(self, y_true, y_pred):
        return log_cosh(y_true, y_pred)


class Poisson(Loss):
    _default_name = "poisson"

    def call(self, y_true, y_pred):
        return poisson(y_true, y_pred)


class CosineSimilarity(Loss):
    _default_name = "cosine_similarity"

    def __init__(self, axis=-1, reduction="auto", name=None):
        Loss.__init__(self, reduction, name, axis=axis)

    def call(self, y_true, y_pred):
        return cosine_similarity(y_true, y_pred, **self._kwargs)


_by_name = {"categorical_crossentropy": categorical_crossentropy,
            "sparse_categorical_crossentropy": sparse_categorical_crossentropy,
            "binary_crossentropy": binary_crossentropy, "mean_squared_error": mean_squared_error,
            "mse": mean_squared_error, "MSE": mean_squared_error, "mean_absolute_error": mean_absolute_error,
            "mae": mean_absolute_error, "MAE": mean_absolute_error,
            "mean_absolute_percentage_error": mean_absolute_percentage_error, "mape": mean_absolute_percentage_error,
            "hinge": hinge, "kl_divergence": kl_divergence, "kld": kl_divergence,
            "kullback_leibler_divergence": kl_divergence, "huber_loss": huber, "huber": huber,
            "squared_hinge": squared_hinge, "categorical_hinge": categorical_hinge,
            "mean_squared_logarithmic_error": mean_squared_logarithmic_error, "msle": mean_squared_logarithmic_error,
            "MSLE": mean_squared_logarithmic_error, "log_cosh": log_cosh, "logcosh": log_cosh,
            "poisson": poisson, "cosine_similarity": cosine_similarity}


def get(identifier):
    if identifier is None:
        return None
    if isinstance(identifier, str):
        if identifier not in _by_name:
            raise ValueError("Unknown loss function: '%s'. Please ensure you are using a `keras.utils.custom_object_scope` and that this object is included in the scope." % identifier)
        return _by_name[identifier]
    if isinstance(identifier, type):
        return identifier()
    if callable(identifier):
        return identifier
    raise ValueError("Could not interpret loss function identifier: %r" % (identifier,))


def canonical_name(identifier):
    """The name of the loss Keras' checks talk about ("categorical_crossentropy"), or None."""
    if isinstance(identifier, str):
        fn = _by_name.get(identifier)
        return None if fn is None else fn.__name__
    if isinstance(identifier, Loss):
        return type(identifier)._default_name
    return getattr(identifier, "__name__", None)


def from_logits(identifier):
    if isinstance(identifier, Loss):
        return identifier._kwargs.get("from_logits", False)
    return False
