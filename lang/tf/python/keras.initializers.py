# keras.initializers: weight initializers by name or object (Keras' defaults: glorot_uniform
# kernels, zero biases).
import tensorflow as _tf


def _fans(shape):
    shape = list(shape)
    if len(shape) < 1:
        return 1, 1
    if len(shape) == 1:
        return shape[0], shape[0]
    if len(shape) == 2:
        return shape[0], shape[1]
    receptive = 1
    for d in shape[:-2]:
        receptive *= d
    return shape[-2] * receptive, shape[-1] * receptive


def _dtype(dtype):
    return _tf.float32 if dtype is None else _tf.as_dtype(dtype)


class Initializer:
    def __call__(self, shape, dtype=None, **kwargs):
        return self._make(list(shape), _dtype(dtype))

    def get_config(self):
        # The constructor's arguments (keras._config.record_init, applied below).
        from keras import _config
        args = _config.ctor_arguments(self)
        return _config.serialize(args if args is not None else {}, "an initializer's config")


class Zeros(Initializer):
    def _make(self, shape, dtype):
        return _tf.zeros(shape, dtype)


class Ones(Initializer):
    def _make(self, shape, dtype):
        return _tf.ones(shape, dtype)


class Constant(Initializer):
    def __init__(self, value=0):
        self.value = value

    def _make(self, shape, dtype):
        return _tf.fill(shape, _tf.cast(self.value, dtype))


class RandomNormal(Initializer):
    def __init__(self, mean=0.0, stddev=0.05, seed=None):
        self.mean, self.stddev, self.seed = mean, stddev, seed

    def _make(self, shape, dtype):
        return _tf.random_normal(shape, self.mean, self.stddev, dtype, self.seed)


class RandomUniform(Initializer):
    def __init__(self, minval=-0.05, maxval=0.05, seed=None):
        self.minval, self.maxval, self.seed = minval, maxval, seed

    def _make(self, shape, dtype):
        return _tf.random_uniform(shape, self.minval, self.maxval, dtype, self.seed)


class TruncatedNormal(Initializer):
    def __init__(self, mean=0.0, stddev=0.05, seed=None):
        self.mean, self.stddev, self.seed = mean, stddev, seed

    def _make(self, shape, dtype):
        return _tf.truncated_normal(shape, self.mean, self.stddev, dtype, self.seed)


class VarianceScaling(Initializer):
    def __init__(self, scale=1.0, mode="fan_in", distribution="truncated_normal", seed=None):
        self.scale, self.mode, self.distribution, self.seed = scale, mode, distribution, seed

    def _make(self, shape, dtype):
        fan_in, fan_out = _fans(shape)
        n = fan_in if self.mode == "fan_in" else fan_out if self.mode == "fan_out" else (fan_in + fan_out) / 2.0
        s = self.scale / max(1.0, float(n))
        if self.distribution == "uniform":
            limit = (3.0 * s) ** 0.5
            return _tf.random_uniform(shape, -limit, limit, dtype, self.seed)
        stddev = s ** 0.5
        if self.distribution == "truncated_normal":
            return _tf.truncated_normal(shape, 0.0, stddev / 0.87962566103423978, dtype, self.seed)
        return _tf.random_normal(shape, 0.0, stddev, dtype, self.seed)


class GlorotUniform(VarianceScaling):
    def __init__(self, seed=None):
        VarianceScaling.__init__(self, 1.0, "fan_avg", "uniform", seed)


class GlorotNormal(VarianceScaling):
    def __init__(self, seed=None):
        VarianceScaling.__init__(self, 1.0, "fan_avg", "truncated_normal", seed)


class HeNormal(VarianceScaling):
    def __init__(self, seed=None):
        VarianceScaling.__init__(self, 2.0, "fan_in", "truncated_normal", seed)


class HeUniform(VarianceScaling):
    def __init__(self, seed=None):
        VarianceScaling.__init__(self, 2.0, "fan_in", "uniform", seed)


class LecunNormal(VarianceScaling):
    def __init__(self, seed=None):
        VarianceScaling.__init__(self, 1.0, "fan_in", "truncated_normal", seed)


class LecunUniform(VarianceScaling):
    def __init__(self, seed=None):
        VarianceScaling.__init__(self, 1.0, "fan_in", "uniform", seed)


class Orthogonal(GlorotUniform):
    # FIXME: tensorlens has no QR decomposition; a Glorot-scaled uniform matrix stands in.
    def __init__(self, gain=1.0, seed=None):
        GlorotUniform.__init__(self, seed)


zeros = Zeros
ones = Ones
constant = Constant
random_normal = RandomNormal
random_uniform = RandomUniform
truncated_normal = TruncatedNormal
glorot_uniform = GlorotUniform
glorot_normal = GlorotNormal
he_normal = HeNormal
he_uniform = HeUniform
lecun_normal = LecunNormal
lecun_uniform = LecunUniform
orthogonal = Orthogonal

_by_name = {"zeros": Zeros, "ones": Ones, "constant": Constant, "random_normal": RandomNormal,
            "random_uniform": RandomUniform, "truncated_normal": TruncatedNormal, "glorot_uniform": GlorotUniform,
            "glorot_normal": GlorotNormal, "he_normal": he_normal, "he_uniform": HeUniform,
            "lecun_normal": LecunNormal, "lecun_uniform": LecunUniform, "orthogonal": Orthogonal,
            "variance_scaling": VarianceScaling}


def get(identifier):
    if identifier is None:
        return None
    if isinstance(identifier, str):
        key = identifier
        if key not in _by_name:
            # "GlorotUniform" spelled as the class
            for k, v in _by_name.items():
                if v.__name__ == identifier:
                    return v()
            raise ValueError("Unknown initializer: '%s'" % identifier)
        return _by_name[key]()
    if isinstance(identifier, type):
        return identifier()
    if callable(identifier):
        return identifier
    raise ValueError("Could not interpret initializer identifier: %r" % (identifier,))


def serialize(initializer):
    """Keras' {"class_name", "config"} of an initializer (a layer's get_config writes it)."""
    if initializer is None:
        return None
    return {"class_name": type(initializer).__name__, "config": initializer.get_config()}


def deserialize(config, custom_objects=None):
    if config is None:
        return None
    if isinstance(config, str):
        return get(config)
    cls = (custom_objects or {}).get(config["class_name"]) or globals().get(config["class_name"])
    if cls is None:
        raise ValueError("Unknown initializer: '%s'" % config["class_name"])
    return cls(**config.get("config", {}))


def _record_initializers():
    from keras import _config
    g = globals()
    for k in list(g.keys()):
        v = g[k]
        if isinstance(v, type) and issubclass(v, Initializer) and v is not Initializer and "__init__" in v.__dict__:
            _config.record_init(v)


_record_initializers()
