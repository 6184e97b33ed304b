# numpy.random: deterministic generators on the engine's random ops (seeded by np.random.seed).
import _tlens
import numpy as _np

_state = {"seed": 0}


def seed(s=None):
    _state["seed"] = 0 if s is None else s
    _tlens.set_seed(_state["seed"])


def _shape(size):
    if size is None:
        return []
    if isinstance(size, int):
        return [size]
    return list(size)


def _uniform(shape):
    return _tlens.op("RandomUniform", [shape], {"dtype": _np.float64}, None, False, True, "int64")


def _normal(shape):
    return _tlens.op("RandomStandardNormal", [shape], {"dtype": _np.float64}, None, False, True, "int64")


def rand(*shape):
    return _uniform(list(shape))


def randn(*shape):
    return _normal(list(shape))


def random(size=None):
    return _uniform(_shape(size))


random_sample = random
sample = random


def uniform(low=0.0, high=1.0, size=None):
    return _uniform(_shape(size)) * (high - low) + low


def normal(loc=0.0, scale=1.0, size=None):
    return _normal(_shape(size)) * scale + loc


def standard_normal(size=None):
    return _normal(_shape(size))


def randint(low, high=None, size=None, dtype=None):
    if high is None:
        low, high = 0, low
    u = _uniform(_shape(size)) * (high - low) + low
    return _np.floor(u).astype(_np.int64 if dtype is None else dtype)


def choice(a, size=None, replace=True, p=None):
    n = a if isinstance(a, int) else len(a)
    idx = randint(0, n, size)
    if isinstance(a, int):
        return idx
    return _np.array(a)[idx]


def permutation(x):
    # The order of n uniform draws: a permutation that follows np.random.seed.
    if isinstance(x, int):
        return _np.argsort(_uniform([x]))
    x = _np.array(x)
    return x[_np.argsort(_uniform([x.shape[0]]))]


def shuffle(x):
    if isinstance(x, list):
        items = list(x)
        for i, j in enumerate(permutation(len(x)).tolist()):
            x[i] = items[j]
    elif not _tlens.is_unknown(x):
        x[:] = permutation(x)
    return None


class RandomState:
    def __init__(self, seed_=None):
        seed(seed_)

    def rand(self, *shape):
        return rand(*shape)

    def randn(self, *shape):
        return randn(*shape)

    def uniform(self, low=0.0, high=1.0, size=None):
        return uniform(low, high, size)

    def normal(self, loc=0.0, scale=1.0, size=None):
        return normal(loc, scale, size)

    def randint(self, low, high=None, size=None, dtype=None):
        return randint(low, high, size, dtype)

    def permutation(self, x):
        return permutation(x)

    def shuffle(self, x):
        return shuffle(x)

    def choice(self, a, size=None, replace=True, p=None):
        return choice(a, size, replace, p)


def default_rng(seed_=None):
    return RandomState(seed_)
