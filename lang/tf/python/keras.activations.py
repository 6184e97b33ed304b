# keras.activations: activation functions by name (Dense(..., activation="relu")).
import tensorflow as _tf


def linear(x):
    return x


def relu(x, alpha=0.0, max_value=None, threshold=0.0):
    if alpha != 0.0:
        return _tf.nn.leaky_relu(x, alpha)
    y = _tf.nn.relu(x)
    if max_value is not None:
        y = _tf.minimum(y, float(max_value))
    return y


def sigmoid(x):
    return _tf.sigmoid(x)


def tanh(x):
    return _tf.tanh(x)


def softmax(x, axis=-1):
    return _tf.nn.softmax(x, axis=axis)


def log_softmax(x, axis=-1):
    return _tf.nn.log_softmax(x, axis=axis)


def elu(x, alpha=1.0):
    y = _tf.nn.elu(x)
    if alpha == 1.0:
        return y
    return _tf.where(_tf.greater(x, 0), y, alpha * y)


def selu(x):
    return _tf.nn.selu(x)


def softplus(x):
    return _tf.nn.softplus(x)


def softsign(x):
    return x / (_tf.abs(x) + 1.0)


def swish(x):
    return x * _tf.sigmoid(x)


silu = swish


def gelu(x, approximate=False):
    return 0.5 * x * (1.0 + _tf.tanh(0.7978845608028654 * (x + 0.044715 * x * x * x)))


def exponential(x):
    return _tf.exp(x)


def hard_sigmoid(x):
    return _tf.clip_by_value(x * 0.2 + 0.5, 0.0, 1.0)


def relu6(x):
    return _tf.nn.relu6(x)


def leaky_relu(x, alpha=0.3):
    return _tf.nn.leaky_relu(x, alpha)


_by_name = {"linear": linear, "relu": relu, "sigmoid": sigmoid, "tanh": tanh, "softmax": softmax,
            "log_softmax": log_softmax, "elu": elu, "selu": selu, "softplus": softplus, "softsign": softsign,
            "swish": swish, "silu": silu, "gelu": gelu, "exponential": exponential, "hard_sigmoid": hard_sigmoid,
            "relu6": relu6, "leaky_relu": leaky_relu}


def get(identifier):
    if identifier is None:
        return linear
    if isinstance(identifier, str):
        if identifier not in _by_name:
            raise ValueError("Unknown activation function: '%s'. Please ensure you are using a `keras.utils.custom_object_scope` and that this object is included in the scope." % identifier)
        return _by_name[identifier]
    if callable(identifier):
        return identifier
    raise TypeError("Could not interpret activation function identifier: %r" % (identifier,))


def serialize(activation):
    return getattr(activation, "__name__", "linear")
