# numpy._index: index construction and selection: indices, mgrid / ogrid, s_ / index_exp, ix_,
# ndindex / ndenumerate, fromfunction, tri*_indices, diag_indices, fill_diagonal, unravel_index /
# ravel_multi_index, flatnonzero, lexsort, partition / argpartition, select, piecewise, put, the
# set routines (isin, in1d, intersect1d, union1d, setdiff1d, setxor1d) and logspace / geomspace.
# numpy.py re-exports the public names.
import _tlens
import numpy as _np
from numpy._util import _axis, _op, _values, _known, _typed, _int_list

_int = int
_float = float
_range = range
_list = list
_tuple = tuple
_slice = slice


def indices(dimensions, dtype=int, sparse=False):
    dims = _list(dimensions)
    dt = _np.int64 if dtype is int else _np.dtype(dtype)
    n = len(dims)
    out = []
    for i, d in enumerate(dims):
        shape = [1] * n
        shape[i] = d
        g = _np.reshape(_np.arange(d, dtype=dt), shape)
        out.append(g if sparse else _np.broadcast_to(g, dims))
    if sparse:
        return _tuple(out)
    return _np.stack(out, 0) if out else _np.zeros((0,), dt)


def _grid_axis(s):
    """One slice of mgrid / ogrid as a 1-d array (a complex step is a number of points)."""
    start = 0 if s.start is None else s.start
    step = 1 if s.step is None else s.step
    if not isinstance(step, (_int, _float)) and not _tlens.is_ndarray(step):
        return _np.linspace(start, s.stop, _int(abs(step)))  # a complex step: a number of points
    return _np.arange(start, s.stop, step)


class _Grid:
    def __init__(self, sparse):
        self.sparse = sparse

    def __getitem__(self, key):
        if isinstance(key, _slice):
            return _grid_axis(key)
        axes = [_grid_axis(k) for k in key]
        common = axes[0].dtype
        for a in axes[1:]:
            common = _np.promote_types(common, a.dtype)
        axes = [a.astype(common) if a.dtype != common else a for a in axes]
        n = len(axes)
        shape = [a.shape[0] for a in axes]
        out = []
        for i, a in enumerate(axes):
            s = [1] * n
            s[i] = -1
            g = _np.reshape(a, s)
            out.append(g if self.sparse else _np.broadcast_to(g, shape))
        return out if self.sparse else _np.stack(out, 0)


mgrid = _Grid(False)
ogrid = _Grid(True)


class _IndexExpression:
    def __init__(self, maketuple):
        self.maketuple = maketuple

    def __getitem__(self, item):
        if self.maketuple and not isinstance(item, _tuple):
            return (item,)
        return item


s_ = _IndexExpression(False)
index_exp = _IndexExpression(True)


def ix_(*args):
    out = []
    nd = len(args)
    for k, new in enumerate(args):
        a = _np.asarray(new)
        if a.ndim != 1:
            raise ValueError("Cross index must be 1 dimensional")
        if a.size == 0:
            a = a.astype(_np.int64)
        if a.dtype == _np.bool_:
            a = _np.nonzero(a)[0]
        out.append(_np.reshape(a, [1] * k + [-1] + [1] * (nd - k - 1)))
    return _tuple(out)


class ndindex:
    """Iterates over the index tuples of a shape, last axis fastest."""

    def __init__(self, *shape):
        if len(shape) == 1 and isinstance(shape[0], (_tuple, _list)):
            shape = _tuple(shape[0])
        self.shape = _tuple(shape)

    def __iter__(self):
        idx = [0] * len(self.shape)
        total = 1
        for d in self.shape:
            total *= d
        for _ in _range(total):
            yield _tuple(idx)
            for k in _range(len(idx) - 1, -1, -1):
                idx[k] += 1
                if idx[k] < self.shape[k]:
                    break
                idx[k] = 0


class ndenumerate:
    """Iterates over (index tuple, element) pairs of an array."""

    def __init__(self, arr):
        self.arr = _np.asarray(arr)

    def __iter__(self):
        flat = _np.reshape(self.arr, [-1])
        k = 0
        for idx in ndindex(*self.arr.shape):
            yield idx, flat[k]
            k += 1


def fromfunction(function, shape, *, dtype=float, **kwargs):
    dt = _np.float64 if dtype is float else _np.dtype(dtype)
    args = indices(shape, dtype=dt)
    return function(*[args[i] for i in _range(len(_list(shape)))], **kwargs)


def tri(N, M=None, k=0, dtype=float):
    M = N if M is None else M
    i = _np.arange(N)[:, None]
    j = _np.arange(M)[None, :]
    return (j - i <= k).astype(_np.float64 if dtype is float else dtype)


def _tri_indices(n, k, m, lower):
    m = n if m is None else m
    mask = tri(n, m, k, dtype=_np.bool_)
    if not lower:
        mask = _np.logical_not(tri(n, m, k - 1, dtype=_np.bool_))
    w = _op("Where", [mask])
    return w[:, 0], w[:, 1]


def tril_indices(n, k=0, m=None):
    return _tri_indices(n, k, m, True)


def triu_indices(n, k=0, m=None):
    return _tri_indices(n, k, m, False)


def tril_indices_from(arr, k=0):
    arr = _np.asarray(arr)
    if arr.ndim != 2:
        raise ValueError("input array must be 2-d")
    return tril_indices(arr.shape[-2], k, arr.shape[-1])


def triu_indices_from(arr, k=0):
    arr = _np.asarray(arr)
    if arr.ndim != 2:
        raise ValueError("input array must be 2-d")
    return triu_indices(arr.shape[-2], k, arr.shape[-1])


def diag_indices(n, ndim=2):
    idx = _np.arange(n)
    return _tuple(idx for _ in _range(ndim))


def diag_indices_from(arr):
    arr = _np.asarray(arr)
    if arr.ndim < 2:
        raise ValueError("input array must be at least 2-d")
    return diag_indices(arr.shape[0], arr.ndim)


def fill_diagonal(a, val, wrap=False):
    if a.ndim < 2:
        raise ValueError("array must be at least 2-d")
    n = a.shape[0]
    for d in a.shape[1:]:
        if a.ndim > 2 and d != n:
            raise ValueError("All dimensions of input must be of equal length")
    k = n
    for d in a.shape[1:]:
        k = d if d < k else k
    if a.ndim == 2 and wrap and a.shape[0] > a.shape[1] + 1:
        raise NotImplementedError("tensorlens: np.fill_diagonal's wrap=True is not supported for tall matrices")
    idx = _np.arange(k)
    v = _np.asarray(val).astype(a.dtype)
    v = _np.resize(_np.ravel(v), [k]) if v.ndim > 0 else v
    a[_tuple(idx for _ in _range(a.ndim))] = v


def unravel_index(indices, shape, order="C"):
    idx = _np.asarray(indices)
    if not (idx.dtype.is_integer or idx.size == 0):
        raise TypeError("only int indices permitted")
    dims = [shape] if isinstance(shape, _int) else _list(shape)
    total = 1
    for d in dims:
        total *= d
    vals = _values(idx)
    if vals is not None:
        for v in (vals if isinstance(vals, _list) else [vals]):
            for x in (v if isinstance(v, _list) else [v]):
                if x < 0 or x >= total:
                    raise ValueError("index %d is out of bounds for array with size %d" % (x, total))
    rem = idx.astype(_np.int64)
    out = []
    for d in reversed(dims):
        out.append(rem % d)
        rem = rem // d
    return _tuple(reversed(out))


def ravel_multi_index(multi_index, dims, mode="raise", order="C"):
    dims = _list(dims)
    arrs = [_np.asarray(m).astype(_np.int64) for m in multi_index]
    if len(arrs) != len(dims):
        raise ValueError("parameter multi_index must be a sequence of length %d" % len(dims))
    r = None
    for a, d in zip(arrs, dims):
        v = _values(_np.any((a < 0) | (a >= d)))
        if v is True and mode == "raise":
            raise ValueError("invalid entry in coordinates array")
        if mode == "wrap":
            a = a % d
        elif mode == "clip":
            a = _np.clip(a, 0, d - 1)
        r = a if r is None else r * d + a
    return r


def flatnonzero(a):
    return _np.reshape(_op("Where", [_np.ravel(a) != 0]), [-1])


def lexsort(keys, axis=-1):
    keys = [_np.asarray(k) for k in keys]
    if not keys:
        raise TypeError("need sequence of keys with len > 0 in lexsort")
    n = keys[0].shape[-1]
    idx = _np.arange(n)
    for k in keys:
        order = _np.argsort(_np.take(k, idx), kind="stable")
        idx = _np.take(idx, order)
    return idx


def argpartition(a, kth, axis=-1, kind="introselect", order=None):
    """A full (stable) argsort: one valid partition for every kth (numpy's own order differs)."""
    a = _np.asarray(a)
    for k in _int_list(kth):
        n = a.size if axis is None else a.shape[_axis(axis, a.ndim)]
        if k >= n or k < -n:
            raise ValueError("kth(=%d) out of bounds (%d)" % (k, n))
    return _np.argsort(a, axis)


def partition(a, kth, axis=-1, kind="introselect", order=None):
    a = _np.asarray(a)
    for k in _int_list(kth):
        n = a.size if axis is None else a.shape[_axis(axis, a.ndim)]
        if k >= n or k < -n:
            raise ValueError("kth(=%d) out of bounds (%d)" % (k, n))
    return _np.sort(a, axis)


def select(condlist, choicelist, default=0):
    if len(condlist) != len(choicelist):
        raise ValueError("list of cases must be same length as list of conditions")
    if len(choicelist) == 0:
        raise ValueError("select with an empty condition list is not possible")
    choices = [_np.asarray(c) for c in choicelist] + [_np.asarray(default)]
    common = choices[0].dtype
    for c in choices[1:]:
        common = _np.promote_types(common, c.dtype)
    conds = []
    for i, c in enumerate(condlist):
        c = _np.asarray(c)
        if c.dtype != _np.bool_:
            raise TypeError("invalid entry %d in condlist: should be boolean ndarray" % i)
        conds.append(c)
    out = choices[-1].astype(common)
    for c, v in zip(reversed(conds), reversed(choices[:-1])):
        out = _np.where(c, v.astype(common), out)
    return out


def piecewise(x, condlist, funclist, *args, **kw):
    x = _np.asarray(x)
    if isinstance(condlist, _list) and condlist and not isinstance(condlist[0], (_list,)) and not _tlens.is_ndarray(condlist[0]):
        condlist = [condlist]
    conds = [_np.asarray(c) for c in (condlist if isinstance(condlist, _list) else [condlist])]
    n = len(conds)
    if len(funclist) == n + 1:
        otherwise = conds[0]
        for c in conds[1:]:
            otherwise = otherwise | c
        conds.append(_np.logical_not(otherwise))
    elif len(funclist) != n:
        raise ValueError("with %d condition(s), either %d or %d functions are expected" % (n, n, n + 1))
    out = _np.zeros_like(x)
    for c, f in zip(conds, funclist):
        v = f(x, *args, **kw) if callable(f) else _np.asarray(f)
        out = _np.where(c, _np.asarray(v).astype(x.dtype), out)
    return out


def put(a, ind, v, mode="raise"):
    idx = _np.ravel(_np.asarray(ind)).astype(_np.int64)
    n = a.size
    if mode == "wrap":
        idx = idx % n
    elif mode == "clip":
        idx = _np.clip(idx, 0, n - 1)
    else:
        bad = _values(_np.any((idx >= n) | (idx < -n)))
        if bad is True:
            raise IndexError("index %d is out of bounds for axis 0 with size %d" % (_int(_np.max(_np.abs(idx))), n))
        idx = _np.where(idx < 0, idx + n, idx)
    vals = _np.resize(_np.ravel(_np.asarray(v)).astype(a.dtype), [idx.shape[0]])
    a[_np.unravel_index(idx, a.shape)] = vals


# --- sets ----------------------------------------------------------------------------------------

def isin(element, test_elements, assume_unique=False, invert=False):
    e = _np.asarray(element)
    t = _np.ravel(_np.asarray(test_elements))
    if t.dtype != e.dtype:
        c = _np.promote_types(e.dtype, t.dtype)
        e, t = e.astype(c), t.astype(c)
    if t.size == 0:
        r = _np.zeros(e.shape, _np.bool_)
    else:
        s = _np.sort(t) if t.size > 1 else t
        pos = _np.clip(_np.searchsorted(s, e), 0, s.shape[0] - 1)
        r = _np.take(s, pos) == e
    return _np.logical_not(r) if invert else r


def in1d(ar1, ar2, assume_unique=False, invert=False):
    return isin(_np.ravel(_np.asarray(ar1)), ar2, assume_unique, invert)


def intersect1d(ar1, ar2, assume_unique=False, return_indices=False):
    if return_indices:
        raise NotImplementedError("tensorlens: np.intersect1d's return_indices is not supported")
    a, b = _np.unique(ar1), _np.unique(ar2)
    return a[isin(a, b)]


def union1d(ar1, ar2):
    return _np.unique(_np.concatenate((_np.ravel(_np.asarray(ar1)), _np.ravel(_np.asarray(ar2)))))


def setdiff1d(ar1, ar2, assume_unique=False):
    a = _np.ravel(_np.asarray(ar1)) if assume_unique else _np.unique(ar1)
    return a[isin(a, ar2, invert=True)]


def setxor1d(ar1, ar2, assume_unique=False):
    a, b = _np.unique(ar1), _np.unique(ar2)
    return _np.sort(_np.concatenate((a[isin(a, b, invert=True)], b[isin(b, a, invert=True)])))


# --- spaced ranges -------------------------------------------------------------------------------

def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0):
    y = _np.linspace(start, stop, num, endpoint)
    r = _np.power(_np.asarray(base, _np.float64), y)
    return r if dtype is None else r.astype(dtype)


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    if start == 0 or stop == 0:
        raise ValueError("Geometric sequence cannot include zero")
    sign = -1.0 if start < 0 and stop < 0 else 1.0
    a, b = _np.log10(_np.asarray(abs(start), _np.float64)), _np.log10(_np.asarray(abs(stop), _np.float64))
    r = logspace(_float(a), _float(b), num, endpoint) * sign
    if num > 0:
        r[0] = sign * abs(start)
        if endpoint and num > 1:
            r[-1] = sign * abs(stop)
    return r if dtype is None else r.astype(dtype)


# --- vectorize -----------------------------------------------------------------------------------

class vectorize:
    """np.vectorize(pyfunc): pyfunc called on each element of the broadcast arguments (as Python
    numbers), the results gathered into an array of otypes[0] or the first result's dtype."""

    def __init__(self, pyfunc=None, otypes=None, doc=None, excluded=None, cache=False, signature=None):
        if signature is not None:
            raise NotImplementedError("tensorlens: np.vectorize's signature argument is not supported")
        self.pyfunc = pyfunc
        self.otypes = otypes
        self.excluded = set(excluded) if excluded else set()
        self.__doc__ = doc if doc is not None else getattr(pyfunc, "__doc__", None)

    def __call__(self, *args, **kwargs):
        if self.pyfunc is None:
            return vectorize(args[0], self.otypes)
        keys = [i for i in _range(len(args)) if i not in self.excluded]
        arrays = _np.broadcast_arrays(*[_np.asarray(args[i]) for i in keys])
        shape = _list(arrays[0].shape) if arrays else []
        flats = [_np.reshape(a, [-1]).tolist() for a in arrays]
        n = len(flats[0]) if flats else 0
        if n == 0 and not self.otypes:
            raise ValueError("cannot call `vectorize` on size 0 inputs unless `otypes` is set")
        out = []
        call = _list(args)
        for k in _range(n):
            for j, i in enumerate(keys):
                call[i] = flats[j][k]
            out.append(self.pyfunc(*call, **kwargs))
        if isinstance(self.otypes, str):
            dt = {"d": _np.float64, "f": _np.float32, "l": _np.int64, "i": _np.int32, "?": _np.bool_}[self.otypes[0]]
        elif self.otypes:
            dt = self.otypes[0]
        else:
            dt = _np.asarray(out[0]).dtype
        if n == 0:
            return _np.zeros(shape, dt)
        return _np.reshape(_np.array(out, dt), shape)


# --- histogram2d ---------------------------------------------------------------------------------

def histogram2d(x, y, bins=10, range=None, density=None, weights=None):
    x = _np.ravel(_np.asarray(x))
    y = _np.ravel(_np.asarray(y))
    if x.shape != y.shape:
        raise ValueError("x and y must have the same length.")
    if isinstance(bins, _int) or (_tlens.is_ndarray(bins) and bins.ndim == 0):
        bins = [bins, bins]
    rng = [None, None] if range is None else _list(range)
    edges = [_edges_of(v, b, r) for v, b, r in zip((x, y), bins, rng)]
    counts = [_np.searchsorted(e, v, "right") for v, e in zip((x, y), edges)]
    counts = [_np.where(v == e[-1], c - 1, c) for v, e, c in zip((x, y), edges, counts)]
    nbin = [e.shape[0] + 1 for e in edges]
    flat = counts[0] * nbin[1] + counts[1]
    data = _np.ones(flat.shape, _np.float64) if weights is None else _np.ravel(_np.asarray(weights)).astype(_np.float64)
    hist = _op("UnsortedSegmentSum", [data, flat, _np.array(nbin[0] * nbin[1], _np.int64)])
    hist = _np.reshape(hist, nbin)[1:-1, 1:-1]
    if density:
        dx = _np.diff(edges[0]).astype(_np.float64)
        dy = _np.diff(edges[1]).astype(_np.float64)
        hist = hist / (dx[:, None] * dy[None, :]) / _np.sum(hist)
    return hist, edges[0], edges[1]


def _edges_of(v, b, r):
    if _tlens.is_ndarray(b) or isinstance(b, (_list, _tuple)):
        return _np.asarray(b).astype(_np.float64)
    if r is not None:
        lo, hi = _float(r[0]), _float(r[1])
    elif v.size == 0:
        lo, hi = 0.0, 1.0
    else:
        lo, hi = _float(_np.min(v)), _float(_np.max(v))
    if lo == hi:
        lo, hi = lo - 0.5, hi + 0.5
    return _np.linspace(lo, hi, _int(b) + 1)
