# keras.constraints: weight constraints (MaxNorm, NonNeg, UnitNorm, MinMaxNorm and user
# Constraint subclasses). A layer's add_weight(constraint=...) registers the constraint with its
# variable (keras.backend's `constraints`); the Keras optimizers apply it after each update of
# that variable, as Keras does.
import _tlens
import tensorflow as _tf

_EPS = 1e-07


class Constraint:
    """The base of weight constraints: called on a weight after each update, in Keras."""

    def __call__(self, w):
        return w

    def get_config(self):
        return {}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


def _norms(w, axis):
    return _tf.sqrt(_tf.reduce_sum(_tf.square(w), axis=axis, keepdims=True))


class MaxNorm(Constraint):
    def __init__(self, max_value=2, axis=0):
        self.max_value = max_value
        self.axis = axis

    def __call__(self, w):
        norms = _norms(w, self.axis)
        desired = _tf.clip_by_value(norms, 0.0, float(self.max_value))
        return w * (desired / (_EPS + norms))

    def get_config(self):
        return {"max_value": self.max_value, "axis": self.axis}


class NonNeg(Constraint):
    def __call__(self, w):
        return w * _tf.cast(_tf.greater_equal(w, 0.0), w.dtype)


class UnitNorm(Constraint):
    def __init__(self, axis=0):
        self.axis = axis

    def __call__(self, w):
        return w / (_EPS + _norms(w, self.axis))

    def get_config(self):
        return {"axis": self.axis}


class MinMaxNorm(Constraint):
    def __init__(self, min_value=0.0, max_value=1.0, rate=1.0, axis=0):
        self.min_value = min_value
        self.max_value = max_value
        self.rate = rate
        self.axis = axis

    def __call__(self, w):
        norms = _norms(w, self.axis)
        desired = self.rate * _tf.clip_by_value(norms, float(self.min_value), float(self.max_value)) + (1 - self.rate) * norms
        return w * (desired / (_EPS + norms))

    def get_config(self):
        return {"min_value": self.min_value, "max_value": self.max_value, "rate": self.rate, "axis": self.axis}


class RadialConstraint(Constraint):
    def __init__(self, *args, **kwargs):
        raise NotImplementedError("tensorlens: keras.constraints.RadialConstraint is not supported")


max_norm = MaxNorm
maxnorm = MaxNorm
non_neg = NonNeg
nonneg = NonNeg
unit_norm = UnitNorm
unitnorm = UnitNorm
min_max_norm = MinMaxNorm
radial_constraint = RadialConstraint

_by_name = {"max_norm": MaxNorm, "maxnorm": MaxNorm, "MaxNorm": MaxNorm, "non_neg": NonNeg, "nonneg": NonNeg,
            "NonNeg": NonNeg, "unit_norm": UnitNorm, "unitnorm": UnitNorm, "UnitNorm": UnitNorm,
            "min_max_norm": MinMaxNorm, "MinMaxNorm": MinMaxNorm}


def get(identifier):
    if identifier is None:
        return None
    if isinstance(identifier, dict):
        return deserialize(identifier)
    if isinstance(identifier, str):
        if identifier not in _by_name:
            raise ValueError("Unknown constraint: '%s'. Please ensure you are using a `keras.utils.custom_object_scope` and that this object is included in the scope." % identifier)
        return _by_name[identifier]()
    if callable(identifier):
        return identifier
    raise ValueError("Could not interpret constraint identifier: %s" % (identifier,))


def serialize(constraint):
    if constraint is None:
        return None
    return {"class_name": type(constraint).__name__, "config": constraint.get_config()}


def deserialize(config, custom_objects=None):
    if config is None:
        return None
    name = config.get("class_name") if isinstance(config, dict) else config
    cls = (custom_objects or {}).get(name) or _by_name.get(name)
    if cls is None:
        raise ValueError("Unknown constraint: '%s'. Please ensure you are using a `keras.utils.custom_object_scope` and that this object is included in the scope." % name)
    return cls(**(config.get("config") or {})) if isinstance(config, dict) else cls()


# --- application --------------------------------------------------------------------------------
_registered = {}  # id(variable) -> (variable, constraint)


def register(var, constraint):
    c = get(constraint)
    if c is not None:
        _registered[id(var)] = (var, c)


def of(var):
    """The constraint registered for this variable, or None."""
    e = _registered.get(id(var))
    return e[1] if e is not None and e[0] is var else None
