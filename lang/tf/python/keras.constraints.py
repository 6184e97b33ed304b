# keras.constraints: weight constraints (MaxNorm, NonNeg, UnitNorm, MinMaxNorm and user
# Constraint subclasses). tensorlens' optimizers do not apply constraints after their updates
# yet, so a constraint is refused with NotImplementedError (where it is made, or get() of it)
# instead of training silently without it. `None`, the default of every layer argument, works:
# get(None) and serialize(None) are None.


def _refuse(what):
    raise NotImplementedError("tensorlens: Keras weight constraints (%s) are not applied by tensorlens' optimizers yet; "
                              "remove the constraint to run this program" % (what,))


class Constraint:
    """The base of weight constraints: called on a weight after each update, in Keras."""

    def __call__(self, w):
        return w

    def get_config(self):
        return {}


class _Refused(Constraint):
    def __init__(self, *args, **kwargs):
        _refuse(type(self).__name__)


class MaxNorm(_Refused):
    pass


class NonNeg(_Refused):
    pass


class UnitNorm(_Refused):
    pass


class MinMaxNorm(_Refused):
    pass


class RadialConstraint(_Refused):
    pass


max_norm = MaxNorm
maxnorm = MaxNorm
non_neg = NonNeg
nonneg = NonNeg
unit_norm = UnitNorm
unitnorm = UnitNorm
min_max_norm = MinMaxNorm


def get(identifier):
    if identifier is None:
        return None
    _refuse(identifier if isinstance(identifier, str) else type(identifier).__name__)


def serialize(constraint):
    if constraint is None:
        return None
    _refuse(type(constraint).__name__)


def deserialize(config, custom_objects=None):
    if config is None:
        return None
    _refuse(config.get("class_name", config) if isinstance(config, dict) else config)
