# numpy.random: numpy's legacy RandomState (MT19937 and numpy 1.x's algorithms, filled in C++ by
# _nprandom), so a seeded program draws the numbers it draws under real numpy. Results are
# numpy's types: a Python float or int when size is None, float64 / int64 arrays otherwise. In
# abstract mode (the language server) nothing is drawn: results are only typed.
import _tlens
import _nprandom
import numpy as _np

_int = int
_float = float


def _size(args):
    """rand(*shape)'s arguments as a size (None for no arguments)."""
    if not args:
        return None
    if len(args) == 1 and not isinstance(args[0], _int) and not _tlens.is_ndarray(args[0]):
        return args[0]
    return args


def _is_scalar(v):
    return isinstance(v, (_int, _float)) or (_tlens.is_ndarray(v) and v.ndim == 0)


class RandomState:
    """numpy.random.RandomState: one MT19937 generator and numpy's legacy draws."""

    def __init__(self, seed=None):
        self._mt = _nprandom.state()
        if seed is not None:
            _nprandom.seed(self._mt, seed)

    def seed(self, seed=None):
        _nprandom.seed(self._mt, seed)

    def get_state(self, legacy=True):
        return _nprandom.get_state(self._mt)

    def set_state(self, state):
        _nprandom.set_state(self._mt, state)

    def random_sample(self, size=None):
        return _nprandom.random(self._mt, size)

    def random(self, size=None):
        return _nprandom.random(self._mt, size)

    def rand(self, *args):
        return _nprandom.random(self._mt, _size(args))

    def randn(self, *args):
        return _nprandom.gauss(self._mt, _size(args))

    def standard_normal(self, size=None):
        return _nprandom.gauss(self._mt, size)

    def normal(self, loc=0.0, scale=1.0, size=None):
        if _is_scalar(scale) and _float(scale) < 0:
            raise ValueError("scale < 0")
        if size is None and not (_is_scalar(loc) and _is_scalar(scale)):
            size = (_np.zeros_like(_np.array(loc, _np.float64)) + _np.zeros_like(_np.array(scale, _np.float64))).shape
        g = _nprandom.gauss(self._mt, size)
        if size is None:
            return _float(loc) + _float(scale) * g
        if not _is_scalar(scale):
            scale = _np.array(scale, _np.float64)
        if not _is_scalar(loc):
            loc = _np.array(loc, _np.float64)
        return scale * g + loc

    def uniform(self, low=0.0, high=1.0, size=None):
        if size is None and not (_is_scalar(low) and _is_scalar(high)):
            size = (_np.zeros_like(_np.array(low, _np.float64)) + _np.zeros_like(_np.array(high, _np.float64))).shape
        u = _nprandom.random(self._mt, size)
        if size is None:
            return _float(low) + (_float(high) - _float(low)) * u
        if _is_scalar(low) and _is_scalar(high):
            return (_float(high) - _float(low)) * u + _float(low)
        low, high = _np.array(low, _np.float64), _np.array(high, _np.float64)
        return (high - low) * u + low

    def standard_exponential(self, size=None):
        return _nprandom.exponential(self._mt, size)

    def exponential(self, scale=1.0, size=None):
        e = _nprandom.exponential(self._mt, size)
        return _float(scale) * e if size is None else scale * e

    def poisson(self, lam=1.0, size=None):
        if _is_scalar(lam):
            return _nprandom.poisson(self._mt, lam, size)
        # Parameters element by element: the helper arrays are not the program's values.
        with _tlens.quiet():
            lams = _np.array(lam, _np.float64) if size is None else _np.zeros(size) + lam
            if _tlens.is_abstract():
                return _tlens.typed(_np.int64, list(lams.shape), True)
            flat = [_nprandom.poisson(self._mt, v) for v in lams.flatten().tolist()]
            return _np.array(flat, _np.int64).reshape(lams.shape)

    def binomial(self, n, p, size=None):
        if _is_scalar(n) and _is_scalar(p):
            return _nprandom.binomial(self._mt, n, p, size)
        # Parameters element by element: the helper arrays are not the program's values.
        with _tlens.quiet():
            ns = _np.zeros_like(_np.array(p, _np.float64), _np.int64) + _np.array(n, _np.int64) if size is None else _np.zeros(size, _np.int64) + n
            ps = _np.zeros_like(ns, _np.float64) + p
            if _tlens.is_abstract():
                return _tlens.typed(_np.int64, list(ns.shape), True)
            flat = [_nprandom.binomial(self._mt, k, q) for k, q in zip(ns.flatten().tolist(), ps.flatten().tolist())]
            return _np.array(flat, _np.int64).reshape(ns.shape)

    def multivariate_normal(self, mean, cov, size=None, check_valid="warn", tol=1e-8):
        with _tlens.quiet():  # the factor and the sums are not the program's values
            return self._multivariate_normal(mean, cov, size)

    def _multivariate_normal(self, mean, cov, size):
        mean = _np.array(mean, _np.float64)
        d = mean.shape[0]
        shape = [] if size is None else ([size] if isinstance(size, _int) else list(size))
        if _tlens.is_abstract():
            return _tlens.typed(_np.float64, shape + [d], True)
        n = 1
        for k in shape:
            n *= k
        # The same n * d standard normals as numpy (so later draws stay in step), but factored by
        # Cholesky: numpy's LAPACK SVD factor gives the same distribution, other samples.
        x = _nprandom.gauss(self._mt, (n, d))
        factor = _np.array(_cholesky(_np.array(cov, _np.float64).tolist()), _np.float64)
        return (_np.matmul(x, factor.T) + mean).reshape(shape + [d])

    def integers(self, low, high=None, size=None, dtype=None, endpoint=False):
        # Generator.integers (default_rng): RandomState's draws, see default_rng.
        if high is None:
            low, high = 0, low
        return self.randint(low, high + 1 if endpoint else high, size, dtype)

    def randint(self, low, high=None, size=None, dtype=None):
        if high is None:
            low, high = 0, low
        # dtype=int (numpy's default 'l') gives Python ints for size None, as numpy does.
        dtype = None if dtype is None or dtype is int else _np.dtype(dtype)
        if _is_scalar(low) and _is_scalar(high):
            return _nprandom.randint(self._mt, low, high, size, dtype)
        # Array bounds: one draw per element in order, as numpy's broadcasting path does.
        # Parameters element by element: the helper arrays are not the program's values.
        with _tlens.quiet():
            lows = _np.zeros_like(_np.array(high)) + _np.array(low) if size is None else _np.zeros(size, _np.int64) + low
            highs = _np.zeros_like(lows) + high
            if _tlens.is_abstract():
                return _tlens.typed(_np.int64 if dtype is None else dtype, list(lows.shape), True)
            flat = [_nprandom.randint(self._mt, lo, hi, None, dtype) for lo, hi in zip(lows.flatten().tolist(), highs.flatten().tolist())]
            return _np.array(flat, _np.int64 if dtype is None else dtype).reshape(lows.shape)

    def random_integers(self, low, high=None, size=None):
        if high is None:
            low, high = 1, low
        return self.randint(low, high + 1, size)

    def choice(self, a, size=None, replace=True, p=None):
        if isinstance(a, _int):
            return _nprandom.choice(self._mt, a, size, replace, p)
        if isinstance(a, (list, tuple)) and _any_str(a):
            # Strings: one pick (numpy gives an np.str_); arrays of strings are not supported.
            if size is not None:
                raise NotImplementedError("tensorlens: np.random.choice over strings takes one sample (size=None)")
            return a[_nprandom.choice(self._mt, len(a), None, replace, p)]
        arr = _np.array(a)
        if arr.ndim == 0:
            return _nprandom.choice(self._mt, _int(arr), size, replace, p)
        if arr.ndim != 1:
            raise ValueError("a must be 1-dimensional")
        n = arr.shape[0]
        if _tlens.is_unknown(n):
            return _tlens.typed(arr.dtype, [] if size is None else ([size] if isinstance(size, _int) else list(size)), True)
        if n == 0 and size is None:
            raise ValueError("'a' cannot be empty unless no samples are taken")
        return arr[_nprandom.choice(self._mt, n, size, replace, p)]

    def permutation(self, x):
        if isinstance(x, _int):
            return _nprandom.permutation(self._mt, x)
        if not _tlens.is_ndarray(x):
            x = _np.array(x)
        return _nprandom.permutation(self._mt, x)

    def shuffle(self, x):
        if isinstance(x, list) or _tlens.is_ndarray(x):
            _nprandom.shuffle(self._mt, x)
            return None
        if _tlens.is_abstract() or _tlens.is_unknown(x):
            return None
        # Another mutable sequence: numpy's untyped path, swap by swap.
        for i in range(len(x) - 1, 0, -1):
            j = _nprandom.interval(self._mt, i)
            x[i], x[j] = x[j], x[i]
        return None


def _any_str(items):
    for x in items:
        if isinstance(x, str):
            return True
    return False


def _cholesky(a):
    """The lower Cholesky factor of a small covariance matrix (nested lists); 0 where singular."""
    n = len(a)
    low = [[0.0] * n for _ in range(n)]
    for i in range(n):
        for j in range(i + 1):
            s = a[i][j] - sum(low[i][k] * low[j][k] for k in range(j))
            if i == j:
                low[i][j] = s ** 0.5 if s > 0 else 0.0
            else:
                low[i][j] = s / low[j][j] if low[j][j] > 0 else 0.0
    return low


_rand = RandomState()


def seed(seed=None):
    _rand.seed(seed)


def get_state(legacy=True):
    return _rand.get_state(legacy)


def set_state(state):
    _rand.set_state(state)


def random_sample(size=None):
    return _rand.random_sample(size)


def random(size=None):
    return _rand.random_sample(size)


ranf = random_sample
sample = random_sample


def rand(*args):
    return _rand.rand(*args)


def randn(*args):
    return _rand.randn(*args)


def standard_normal(size=None):
    return _rand.standard_normal(size)


def normal(loc=0.0, scale=1.0, size=None):
    return _rand.normal(loc, scale, size)


def uniform(low=0.0, high=1.0, size=None):
    return _rand.uniform(low, high, size)


def standard_exponential(size=None):
    return _rand.standard_exponential(size)


def exponential(scale=1.0, size=None):
    return _rand.exponential(scale, size)


def randint(low, high=None, size=None, dtype=None):
    return _rand.randint(low, high, size, dtype)


def multivariate_normal(mean, cov, size=None, check_valid="warn", tol=1e-8):
    return _rand.multivariate_normal(mean, cov, size, check_valid, tol)


def poisson(lam=1.0, size=None):
    return _rand.poisson(lam, size)


def binomial(n, p, size=None):
    return _rand.binomial(n, p, size)


def random_integers(low, high=None, size=None):
    return _rand.random_integers(low, high, size)


def choice(a, size=None, replace=True, p=None):
    return _rand.choice(a, size, replace, p)


def permutation(x):
    return _rand.permutation(x)


def shuffle(x):
    return _rand.shuffle(x)


def default_rng(seed=None):
    # FIXME: numpy's Generator is PCG64 with other algorithms (ziggurat normals); this gives
    # RandomState's streams, so seeded default_rng() programs print other numbers than numpy.
    return RandomState(seed)
