# keras._config: Keras' get_config/from_config for the built-in classes, and Keras' serialized
# object layout ({"class_name": ..., "config": {...}}).
#
# A built-in layer's, optimizer's, initializer's or regularizer's config is the constructor
# arguments it was built with (by parameter name; positional ones named from the signature) plus,
# for layers, name, trainable and dtype: `cls(**config)` builds the same object again. Built-in
# classes record those arguments through record_init; a user's subclass with its own __init__
# must override get_config, as in Keras.
import _tlens

_range = range


def record_init(cls):
    """Wraps cls.__init__ so that an instance remembers the arguments it was built with (the
    outermost constructor's only)."""
    if "_tlens_recorded_init" in cls.__dict__:
        return cls  # an alias of a class already recorded (glorot_uniform = GlorotUniform)
    # Abstract mode enters one function at most 3 times on a stack (InterpOptions), so a class
    # hierarchy may nest at most 3 recorded constructors (Orthogonal > GlorotUniform >
    # VarianceScaling).
    init = cls.__init__

    def __init__(self, *args, **kwargs):
        if getattr(self, "_tlens_ctor", None) is None:
            self._tlens_ctor = (cls, init, args, dict(kwargs))
        init(self, *args, **kwargs)

    __init__.__wrapped__ = init  # hovers and signature help show the real parameters
    __init__.__doc__ = getattr(init, "__doc__", None)
    cls.__init__ = __init__
    cls._tlens_recorded_init = __init__
    return cls


def ctor_arguments(obj):
    """The constructor arguments of `obj` as a dict, or None when its class defines an __init__
    of its own that did not record them (a user's subclass)."""
    rec = getattr(obj, "_tlens_ctor", None)
    if rec is None:
        return None
    cls, init, args, kwargs = rec
    if type(obj).__init__ is not cls._tlens_recorded_init:
        return None
    names = _tlens.param_names(init)[1:]
    out = {}
    for i in _range(len(args)):
        if i >= len(names):
            raise NotImplementedError("tensorlens: %s was built with more positional arguments than its parameters; its config "
                                      "cannot name them" % type(obj).__name__)
        out[names[i]] = args[i]
    for k in kwargs:
        out[k] = kwargs[k]
    return out


def serialize(value, where="config"):
    """A config value as JSON-able data: Keras objects as {"class_name", "config"}, functions by
    name, tuples as lists."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (list, tuple)):
        return [serialize(v, where) for v in value]
    if isinstance(value, dict):
        out = {}
        for k in value:
            out[str(k)] = serialize(value[k], where)
        return out
    if _tlens.is_ndarray(value) or _tlens.is_tensor(value):
        if _tlens.is_ndarray(value) and len(value.shape) == 0:
            return value.item()
        if _tlens.is_ndarray(value):
            return value.tolist()
        raise NotImplementedError("tensorlens: a tensor in %s cannot be saved in a model config" % where)
    if hasattr(value, "get_config") and not isinstance(value, type):
        return {"class_name": type(value).__name__, "config": serialize(value.get_config(), where)}
    name = getattr(value, "__name__", None)
    if name is not None and callable(value):
        return name
    dt = getattr(value, "name", None)
    if isinstance(dt, str) and type(value).__name__ == "DType":
        return dt
    raise NotImplementedError("tensorlens: %r in %s cannot be saved in a model config" % (value, where))


def _modules():
    from keras import layers, initializers, regularizers, optimizers, losses, metrics, models, constraints
    return [layers, models, initializers, regularizers, optimizers, losses, metrics, constraints]


_aliases = {"Functional": "Model"}


def lookup(class_name, custom_objects):
    """The class (or function) a saved config names: custom_objects first, then Keras' modules."""
    if custom_objects and class_name in custom_objects:
        return custom_objects[class_name]
    name = _aliases.get(class_name, class_name)
    for m in _modules():
        v = getattr(m, name, None)
        if v is not None and not name.startswith("_"):
            return v
    raise ValueError("Unknown object '%s' in the saved model: pass it in custom_objects={'%s': ...} "
                     "(a class of your own, or one tensorlens does not model)" % (class_name, class_name))


def _is_object(v):
    return isinstance(v, dict) and "class_name" in v and "config" in v and len(v) <= 4


def deserialize(value, custom_objects):
    """The inverse of serialize for constructor arguments: {"class_name", "config"} dicts become
    objects again; names stay names (Keras' constructors take activations, losses and
    initializers by name), except names of the user's own functions given in custom_objects."""
    if _is_object(value):
        return build(value, custom_objects)
    if isinstance(value, list):
        return [deserialize(v, custom_objects) for v in value]
    if isinstance(value, dict):
        out = {}
        for k in value:
            out[k] = deserialize(value[k], custom_objects)
        return out
    if isinstance(value, str) and custom_objects and value in custom_objects:
        return custom_objects[value]
    return value


def build(entry, custom_objects):
    """An object from {"class_name", "config"}: cls.from_config(config) (which is cls(**config)
    unless the class overrides it)."""
    cls = lookup(entry["class_name"], custom_objects)
    config = entry["config"]
    from keras.models import Model
    if isinstance(cls, type) and issubclass(cls, Model):
        # Models rebuild their layers from the config as saved (and a user's from_config gets it
        # as saved, as in Keras).
        if _tlens.accepts(cls.from_config, "custom_objects"):
            return cls.from_config(config, custom_objects)
        return cls.from_config(config)
    if hasattr(cls, "from_config"):
        return cls.from_config(config) if _user_class(cls) else cls.from_config(deserialize(config, custom_objects))
    return cls(**deserialize(config, custom_objects))


def _user_class(cls):
    """A class whose from_config the user wrote: it gets the config as saved (its own objects are
    its business, as in Keras)."""
    m = getattr(cls, "__module__", "") or ""
    return not (m == "keras" or m.startswith("keras.") or m.startswith("tensorflow"))
