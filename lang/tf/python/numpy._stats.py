# numpy._stats: scans, differences and statistics: cumsum / cumprod (the engine's Cumsum and
# Cumprod along any axis), diff, var / std with ddof, median, percentile / quantile, average, ptp,
# count_nonzero, bincount, histogram, digitize, searchsorted, interp, gradient, trapz, cov,
# corrcoef and the nan* reductions, with numpy's result dtypes: integer and bool scans, sums and
# counts are int64, means and quantiles of integers float64. Sorting uses TopKV2 over whole rows,
# searches LowerBound / UpperBound. numpy.py re-exports the public names.
import _tlens
import numpy as _np
from numpy._util import _arr, _axis, _axes, _op, _values, _known, _typed, _move_last, _range_along, _as_float

_int = int
_float = float
_range = range
_list = list
_tuple = tuple
_builtin_sum = sum


def _sum_dtype(a, dtype):
    if dtype is not None:
        return a.astype(dtype)
    if not a.dtype.is_floating and a.dtype != _np.int64:
        return a.astype(_np.int64)
    return a


def _scan(op_type, a, axis, dtype):
    a = _sum_dtype(_np.asarray(a), dtype)
    if axis is None:
        a, axis = _np.reshape(a, [-1]), 0
    else:
        axis = _axis(axis, a.ndim)
    return _op(op_type, [a, axis], {"exclusive": False, "reverse": False})


def cumsum(a, axis=None, dtype=None, out=None):
    return _scan("Cumsum", a, axis, dtype)


def cumprod(a, axis=None, dtype=None, out=None):
    return _scan("Cumprod", a, axis, dtype)


def diff(a, n=1, axis=-1, prepend=None, append=None):
    if n == 0:
        return _np.asarray(a)
    if n < 0:
        raise ValueError("order must be non-negative but got " + repr(n))
    a = _np.asarray(a)
    if a.ndim == 0:
        raise ValueError("diff requires input that is at least one dimensional")
    axis = _axis(axis, a.ndim)
    parts = []
    for extra in (prepend, None, append):
        if extra is None:
            continue
        e = _np.asarray(extra)
        if e.ndim == 0:
            shape = _list(a.shape)
            shape[axis] = 1
            e = _np.broadcast_to(e, shape)
        parts.append(e)
    if prepend is not None or append is not None:
        items = ([parts[0]] if prepend is not None else []) + [a] + ([parts[-1]] if append is not None else [])
        a = _np.concatenate(items, axis)
    for _ in _range(n):
        m = a.shape[axis]
        hi, lo = _range_along(a, 1, m, axis), _range_along(a, 0, m - 1 if _known(m) else -1, axis)
        a = _op("NotEqual", [hi, lo]) if a.dtype == _np.bool_ else hi - lo
    return a


def _mean_dtype(a, dtype):
    if dtype is not None:
        return a.astype(dtype)
    return a if a.dtype.is_floating else a.astype(_np.float64)


def var(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
    a = _mean_dtype(_np.asarray(a), dtype)
    m = _np.mean(a, axis, keepdims=True)
    d = a - m
    s = _np.sum(d * d, axis, keepdims=keepdims)
    n = a.size if axis is None else _count(a, axis)
    return s / _np.array(_float(_max0(n - ddof)), s.dtype)


def _max0(x):
    return x if x > 0 else 0


def _count(a, axis):
    n = 1
    for ax in (axis if isinstance(axis, (_list, _tuple)) else [axis]):
        n *= a.shape[_axis(ax, a.ndim)]
    return n


def std(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
    return _np.sqrt(var(a, axis, dtype, ddof=ddof, keepdims=keepdims))


def ptp(a, axis=None, out=None, keepdims=False):
    a = _np.asarray(a)
    return _np.max(a, axis, keepdims=keepdims) - _np.min(a, axis, keepdims=keepdims)


def count_nonzero(a, axis=None, *, keepdims=False):
    a = _np.asarray(a)
    nz = a if a.dtype == _np.bool_ else a != 0
    r = _np.sum(nz.astype(_np.int64), axis, keepdims=keepdims)
    if axis is None and not keepdims:
        v = _tlens.value(r)
        return v if _known(v) else r
    return r


def _sorted_last(a):
    """a sorted ascending along its last axis (TopKV2 over whole rows, reversed)."""
    n = a.shape[-1]
    if not _known(n) or n is None:
        return _typed(a.dtype, a.shape)
    if a.dtype == _np.bool_:
        return _sorted_last(a.astype(_np.uint8)).astype(_np.bool_)
    vals = _op("TopKV2", [a, _np.array(n, _np.int32)], {"sorted": True}, "int32")[0]
    return vals[..., ::-1]


def _reduce_setup(a, axis):
    """a with the reduced axes flattened into the last one; the kept shape (axis None: [])."""
    a = _np.asarray(a)
    if axis is None:
        return _np.reshape(a, [-1]), [], None
    axes = _axes(axis, a.ndim)
    keep = [d for d in _range(a.ndim) if d not in axes]
    t = _np.transpose(a, keep + axes)
    kept = [a.shape[d] for d in keep]
    return _np.reshape(t, kept + [-1]), kept, axes


def _keepdims(r, a_ndim, axes, qdims):
    """r (q dims first, then the kept dims) with the reduced axes put back as ones."""
    shape = _list(r.shape[:qdims])
    kept = _list(r.shape[qdims:])
    full = []
    k = 0
    for d in _range(a_ndim):
        if axes is None or d in axes:
            full.append(1)
        else:
            full.append(kept[k])
            k += 1
    return _np.reshape(r, shape + full)


def _lerp(a, b, t):
    d = b - a
    lo = a + d * t
    return _op("SelectV2", [t >= 0.5, b - d * (1 - t), lo])


def _quantile(a, q, axis, method, keepdims, nan_aware=False):
    a = _np.asarray(a)
    q = _np.asarray(q, _np.float64)
    qv = _values(q)
    if qv is not None:
        for x in (qv if isinstance(qv, _list) else [qv]):
            if not (0.0 <= x <= 1.0):
                raise ValueError("Quantiles must be in the range [0, 1]")
    if method not in ("linear", "lower", "higher", "nearest", "midpoint"):
        raise ValueError("'%s' is not a valid method. Use one of: ('inverted_cdf', 'averaged_inverted_cdf', "
                         "'closest_observation', 'interpolated_inverted_cdf', 'hazen', 'weibull', 'linear', "
                         "'median_unbiased', 'normal_unbiased', 'nearest', 'lower', 'higher', 'midpoint')" % method)
    flat, kept, axes = _reduce_setup(a, axis)
    # numpy interpolates with a float64 fraction: linear and midpoint results are float64.
    dt = _np.float64 if method in ("linear", "midpoint") else a.dtype
    n = flat.shape[-1]
    if not _known(n) or n is None:
        shape = _list(q.shape) + kept
        return _typed(dt, shape)
    if n == 0:
        raise IndexError("cannot do a non-empty take from an empty axes.")
    s = _sorted_last(flat)
    s = s if s.dtype == dt else s.astype(dt)
    qq = _np.reshape(q, [-1])
    pos = qq * (n - 1)
    lo = _np.floor(pos)
    t = pos - lo
    lo_i = lo.astype(_np.int64)
    hi_i = _np.minimum(lo_i + 1, n - 1)
    lo_v = _np.moveaxis(_op("GatherV2", [s, lo_i, -1]), -1, 0)
    hi_v = _np.moveaxis(_op("GatherV2", [s, hi_i, -1]), -1, 0)
    tb = _np.reshape(t, [-1] + [1] * len(kept))
    if method == "linear":
        r = _lerp(lo_v, hi_v, tb)
    elif method == "lower":
        r = lo_v
    elif method == "higher":
        r = _op("SelectV2", [tb > 0, hi_v, lo_v])
    elif method == "midpoint":
        r = _op("SelectV2", [tb > 0, (lo_v + hi_v) / 2, lo_v])
    else:
        # nearest: ties go to the even index, as numpy's around does.
        up = (tb > 0.5) | ((tb == 0.5) & (_np.reshape(lo_i % 2, [-1] + [1] * len(kept)) == 1))
        r = _op("SelectV2", [up, hi_v, lo_v])
    if a.dtype.is_floating:
        # numpy's partition puts NaN last and the result is NaN where a row has one.
        has_nan = _np.any(_np.isnan(flat), -1)
        r = _op("SelectV2", [has_nan, _np.array(_np.nan, dt), r])
    if keepdims:
        r = _keepdims(r, a.ndim, axes, 1)
    return _np.reshape(r, _list(q.shape) + _list(r.shape[1:]))


def quantile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False, *, interpolation=None):
    return _quantile(a, q, axis, interpolation or method, keepdims)


def percentile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False, *, interpolation=None):
    q = _np.asarray(q, _np.float64)
    qv = _values(q)
    if qv is not None:
        for x in (qv if isinstance(qv, _list) else [qv]):
            if not (0.0 <= x <= 100.0):
                raise ValueError("Percentiles must be in the range [0, 100]")
    return _quantile(a, q / 100, axis, interpolation or method, keepdims)


def median(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    a = _np.asarray(a)
    flat, kept, axes = _reduce_setup(a, axis)
    dt = a.dtype if a.dtype.is_floating else _np.float64
    n = flat.shape[-1]
    if not _known(n) or n is None:
        return _typed(dt, kept)
    if n == 0:
        return _np.mean(flat, -1)
    s = _sorted_last(flat)
    if n % 2:
        r = s[..., n // 2].astype(dt)
    else:
        r = _np.mean(s[..., n // 2 - 1:n // 2 + 1], -1)
        r = r.astype(dt) if r.dtype != dt else r
    if a.dtype.is_floating:
        r = _op("SelectV2", [_np.any(_np.isnan(flat), -1), _np.array(_np.nan, dt), r])
    if keepdims:
        r = _keepdims(r, a.ndim, axes, 0)
    return r


def average(a, axis=None, weights=None, returned=False, *, keepdims=False):
    a = _np.asarray(a)
    if weights is None:
        avg = _np.mean(a, axis, keepdims=keepdims)
        scl = _np.array(_float(a.size if axis is None else _count(a, axis)), avg.dtype)
        return (avg, _np.broadcast_to(scl, avg.shape)) if returned else avg
    w = _np.asarray(weights)
    rt = _np.promote_types(a.dtype, w.dtype)
    if not rt.is_floating:
        rt = _np.float64
    if a.shape != w.shape:
        if axis is None:
            raise TypeError("Axis must be specified when shapes of a and weights differ.")
        if w.ndim != 1:
            raise TypeError("1D weights expected when shapes of a and weights differ.")
        ax = _axis(axis, a.ndim)
        if w.shape[0] != a.shape[ax]:
            raise ValueError("Length of weights not compatible with specified axis.")
        w = _np.reshape(w, [1] * ax + [-1] + [1] * (a.ndim - ax - 1))
        w = _np.broadcast_to(w, a.shape)
    w = w.astype(rt)
    scl = _np.sum(w, axis, keepdims=keepdims)
    z = _values(_np.any(scl == 0))
    if z is True:
        raise ZeroDivisionError("Weights sum to zero, can't be normalized")
    avg = _np.sum(a.astype(rt) * w, axis, keepdims=keepdims) / scl
    return (avg, scl) if returned else avg


def bincount(x, weights=None, minlength=0):
    listed = not _tlens.is_ndarray(x)
    x = _np.asarray(x)
    if listed and x.dtype.is_floating:
        x = x.astype(_np.int64)  # numpy converts a list with an unsafe cast
    if x.ndim != 1:
        raise ValueError("object too deep for desired array" if x.ndim > 1 else "object of too small depth for desired array")
    if x.size > 0 and not (x.dtype.is_integer or x.dtype == _np.bool_):
        raise TypeError("Cannot cast array data from dtype('%s') to dtype('int64') according to the rule 'safe'" % x.dtype)
    if minlength < 0:
        raise ValueError("'minlength' must not be negative")
    x = x.astype(_np.int64)
    if x.size == 0:
        n = 0
    else:
        lo, hi = _tlens.value(_np.min(x)), _tlens.value(_np.max(x))
        if not _known(lo, hi):
            return _typed(_np.int64 if weights is None else _np.float64, [None])
        if lo < 0:
            raise ValueError("'list' argument must have no negative elements")
        n = hi + 1
    n = n if n > minlength else minlength
    if weights is None:
        data = _np.ones_like(x)
    else:
        data = _np.asarray(weights).astype(_np.float64)
        if data.shape != x.shape:
            raise ValueError("The weights and list don't have the same length.")
    return _op("UnsortedSegmentSum", [data, x, _np.array(n, _np.int64)])


def searchsorted(a, v, side="left", sorter=None):
    a = _np.asarray(a)
    if a.ndim != 1:
        raise ValueError("object too deep for desired array" if a.ndim > 1 else "object of too small depth for desired array")
    if sorter is not None:
        a = _np.take(a, sorter)
    v = _np.asarray(v)
    t = _np.promote_types(a.dtype, v.dtype)
    if side not in ("left", "right"):
        raise ValueError("side must be 'left' or 'right' (got %r)" % (side,))
    op = "LowerBound" if side == "left" else "UpperBound"
    r = _op(op, [_np.reshape(a.astype(t), [1, -1]), _np.reshape(v.astype(t), [1, -1])], {"out_type": _np.int64})
    return _np.reshape(r, _list(v.shape))


def digitize(x, bins, right=False):
    x = _np.asarray(x)
    bins = _np.asarray(bins)
    if bins.ndim != 1:
        raise ValueError("object too deep for desired array" if bins.ndim > 1 else "object of too small depth for desired array")
    d = _values(bins)
    inc = True
    if d is not None and len(d) > 1:
        up = _builtin_sum(1 for i in _range(len(d) - 1) if d[i] <= d[i + 1])
        down = _builtin_sum(1 for i in _range(len(d) - 1) if d[i] >= d[i + 1])
        if up != len(d) - 1 and down != len(d) - 1:
            raise ValueError("bins must be monotonically increasing or decreasing")
        inc = up == len(d) - 1
    side = "left" if right else "right"
    if inc:
        return searchsorted(bins, x, side)
    return bins.shape[0] - searchsorted(bins[::-1], x, side)


def histogram(a, bins=10, range=None, density=None, weights=None):
    a = _np.asarray(a)
    if isinstance(bins, str):
        raise NotImplementedError("tensorlens: np.histogram takes a number of bins or their edges, not %r" % bins)
    flat = _np.reshape(a, [-1])
    w = None if weights is None else _np.reshape(_np.asarray(weights), [-1])
    if w is not None and w.shape != flat.shape:
        raise ValueError("weights should have the same shape as a.")
    if isinstance(bins, _int):
        if bins < 1:
            raise ValueError("`bins` must be positive, when an integer")
        edges, uniform = _uniform_edges(flat, bins, range), True
    else:
        edges, uniform = _np.asarray(bins), False
        e = _values(edges)
        if e is not None and any(e[i] > e[i + 1] for i in _range(len(e) - 1)):
            raise ValueError("`bins` must increase monotonically, when an array")
    if edges is None:
        return _typed(_np.int64 if w is None else w.dtype, [bins]), _typed(_np.float64, [bins + 1])
    nb = edges.shape[0] - 1
    if uniform:
        counts = _uniform_counts(flat, w, edges, nb)
    else:
        counts = _edge_counts(flat, w, edges)
    if density:
        db = _np.diff(edges).astype(_np.float64)
        return counts / db / _np.sum(counts), edges
    return counts, edges


def _uniform_edges(flat, bins, range):
    if range is not None:
        first, last = _float(range[0]), _float(range[1])
        if first > last:
            raise ValueError("max must be larger than min in range parameter.")
    elif not _known(flat.size):
        return None
    elif flat.size == 0:
        first, last = 0.0, 1.0
    else:
        lo, hi = _tlens.value(_np.min(flat)), _tlens.value(_np.max(flat))
        if not _known(lo, hi):
            return None
        first, last = _float(lo), _float(hi)
    if first != first or last != last or first in (_np.inf, -_np.inf) or last in (_np.inf, -_np.inf):
        raise ValueError("autodetected range of [%s, %s] is not finite" % (first, last))
    if first == last:
        first, last = first - 0.5, last + 0.5
    dt = flat.dtype if flat.dtype.is_floating else _np.float64
    return _np.linspace(first, last, bins + 1, dtype=dt)


def _uniform_counts(flat, w, edges, nb):
    """numpy's uniform-bin path: the bin from the scaled value, then corrected against the edges."""
    ev = _values(edges)
    first, last = ev[0], ev[-1]
    x = flat.astype(edges.dtype)
    keep = (x >= first) & (x <= last)
    sel = _np.reshape(_op("Where", [keep]), [-1])
    x = _op("GatherV2", [x, sel, 0])
    ww = None if w is None else _op("GatherV2", [w, sel, 0])
    norm = nb / (last - first)
    idx = ((x - first) * norm).astype(_np.int64)
    idx = _op("SelectV2", [idx == nb, idx - 1, idx])
    lower = _op("GatherV2", [edges, idx, 0])
    idx = _op("SelectV2", [x < lower, idx - 1, idx])
    upper = _op("GatherV2", [edges, idx + 1, 0])
    idx = _op("SelectV2", [(x >= upper) & (idx != nb - 1), idx + 1, idx])
    data = _np.ones_like(idx) if ww is None else ww
    return _op("UnsortedSegmentSum", [data, idx, _np.array(nb, _np.int64)])


def _edge_counts(flat, w, edges):
    if w is None:
        s = _sorted_last(flat)
        left = searchsorted(s, edges[:-1], "left")
        right = searchsorted(s, edges[-1:], "right")
        return _np.diff(_np.concatenate([left, right]))
    # weighted: each value's bin from the edges, the last edge inclusive.
    nb = edges.shape[0] - 1
    idx = searchsorted(edges, flat, "right") - 1
    idx = _op("SelectV2", [flat == edges[-1], _np.full_like(idx, nb - 1), idx])
    keep = (idx >= 0) & (idx < nb)
    sel = _np.reshape(_op("Where", [keep]), [-1])
    return _op("UnsortedSegmentSum", [_op("GatherV2", [w, sel, 0]), _op("GatherV2", [idx, sel, 0]), _np.array(nb, _np.int64)])


def interp(x, xp, fp, left=None, right=None, period=None):
    if period is not None:
        raise NotImplementedError("tensorlens: np.interp's period argument is not supported")
    x = _np.asarray(x).astype(_np.float64)
    xp = _np.asarray(xp).astype(_np.float64)
    fp = _np.asarray(fp).astype(_np.float64)
    if xp.ndim != 1 or fp.ndim != 1:
        raise ValueError("object too deep for desired array")
    if xp.shape[0] != fp.shape[0]:
        raise ValueError("fp and xp are not of the same length.")
    if xp.shape[0] == 0:
        raise ValueError("array of sample points is empty")
    n = xp.shape[0]
    lval = fp[0] if left is None else _np.array(left, _np.float64)
    rval = fp[-1] if right is None else _np.array(right, _np.float64)
    if n == 1:
        r = _np.full_like(x, _tlens.value(fp[0]))
    else:
        j = _np.clip(searchsorted(xp, x, "right") - 1, 0, n - 2)
        x0, x1 = _np.take(xp, j), _np.take(xp, j + 1)
        y0, y1 = _np.take(fp, j), _np.take(fp, j + 1)
        slope = (y1 - y0) / (x1 - x0)
        r = slope * (x - x0) + y0
        r = _op("SelectV2", [_np.isnan(r), slope * (x - x1) + y1, r])
        r = _op("SelectV2", [x == xp[-1], _np.broadcast_to(fp[-1], x.shape), r])
    r = _op("SelectV2", [x < xp[0], _np.broadcast_to(lval, x.shape), r])
    return _op("SelectV2", [x > xp[-1], _np.broadcast_to(rval, x.shape), r])


def gradient(f, *varargs, axis=None, edge_order=1):
    f = _np.asarray(f)
    if edge_order != 1:
        raise NotImplementedError("tensorlens: np.gradient supports edge_order=1 only")
    axes = _list(_range(f.ndim)) if axis is None else _axes(axis, f.ndim)
    if not varargs:
        spacing = [1.0] * len(axes)
    elif len(varargs) == 1 and _np.ndim(varargs[0]) == 0:
        spacing = [varargs[0]] * len(axes)
    elif len(varargs) == len(axes):
        spacing = _list(varargs)
    else:
        raise TypeError("invalid number of arguments")
    dt = f.dtype if f.dtype.is_floating else _np.float64
    f = f.astype(dt)
    outs = []
    for ax, dx in zip(axes, spacing):
        n = f.shape[ax]
        if n < 2:
            raise ValueError("Shape of array too small to calculate a numerical gradient, at least (edge_order + 1) "
                             "elements are required.")
        outs.append(_grad_axis(f, ax, n, dx))
    return outs[0] if len(outs) == 1 else outs


def _grad_axis(f, ax, n, dx):
    cut = lambda s, e: _range_along(f, s, e, ax)
    if _np.ndim(dx) == 0:
        dx = _float(dx)
        first = (cut(1, 2) - cut(0, 1)) / dx
        last = (cut(n - 1, n) - cut(n - 2, n - 1)) / dx
        mid = (cut(2, n) - cut(0, n - 2)) / (2.0 * dx) if n > 2 else None
    else:
        x = _np.asarray(dx).astype(_np.float64)
        if x.ndim != 1 or x.shape[0] != n:
            raise ValueError("when 1d, distances must match the length of the corresponding dimension")
        d = _np.diff(x)
        shape = [1] * f.ndim
        shape[ax] = -1
        first = (cut(1, 2) - cut(0, 1)) / _np.reshape(d[:1], shape)
        last = (cut(n - 1, n) - cut(n - 2, n - 1)) / _np.reshape(d[-1:], shape)
        mid = None
        if n > 2:
            d1, d2 = _np.reshape(d[:-1], shape), _np.reshape(d[1:], shape)
            a = -d2 / (d1 * (d1 + d2))
            b = (d2 - d1) / (d1 * d2)
            c = d1 / (d2 * (d1 + d2))
            mid = a * cut(0, n - 2) + b * cut(1, n - 1) + c * cut(2, n)
    parts = [first] + ([mid] if mid is not None else []) + [last]
    return _np.concatenate(parts, ax)


def trapz(y, x=None, dx=1.0, axis=-1):
    y = _np.asarray(y)
    axis = _axis(axis, y.ndim)
    n = y.shape[axis]
    if x is None:
        d = dx
    else:
        x = _np.asarray(x)
        d = _np.diff(x, axis=-1 if x.ndim == 1 else axis)
        if x.ndim == 1:
            shape = [1] * y.ndim
            shape[axis] = -1
            d = _np.reshape(d, shape)
    return _np.sum(d * (_range_along(y, 1, n, axis) + _range_along(y, 0, n - 1, axis)) / 2.0, axis)


def cov(m, y=None, rowvar=True, bias=False, ddof=None, fweights=None, aweights=None, *, dtype=None):
    if fweights is not None or aweights is not None:
        raise NotImplementedError("tensorlens: np.cov's fweights and aweights are not supported")
    if ddof is not None and ddof != _int(ddof):
        raise ValueError("ddof must be integer")
    m = _np.asarray(m)
    if m.ndim > 2:
        raise ValueError("m has more than 2 dimensions")
    if dtype is None:
        dtype = _np.promote_types(m.dtype, _np.float64) if y is None else _np.promote_types(_np.promote_types(m.dtype, _np.asarray(y).dtype), _np.float64)
    X = _np.atleast_2d(m).astype(dtype)
    if not rowvar and X.shape[0] != 1:
        X = X.T
    if y is not None:
        yy = _np.asarray(y)
        if yy.ndim > 2:
            raise ValueError("y has more than 2 dimensions")
        yy = _np.atleast_2d(yy).astype(dtype)
        if not rowvar and yy.shape[0] != 1:
            yy = yy.T
        X = _np.concatenate((X, yy), 0)
    if ddof is None:
        ddof = 0 if bias else 1
    avg = _np.mean(X, 1)
    fact = X.shape[1] - ddof
    X = X - avg[:, None]
    c = _np.dot(X, X.T)
    c = c * _np.array(1.0 / fact if fact > 0 else _np.inf, dtype)
    return _np.squeeze(c)


def corrcoef(x, y=None, rowvar=True, bias=None, ddof=None, *, dtype=None):
    c = cov(x, y, rowvar, dtype=dtype)
    if c.ndim == 0:
        return c / c
    d = _np.diagonal(c)
    s = _np.sqrt(d)
    c = c / s[:, None]
    c = c / s[None, :]
    return _np.clip(c, -1, 1)


# --- nan-aware reductions ------------------------------------------------------------------------

def _nan_fill(a, v):
    a = _np.asarray(a)
    if not a.dtype.is_floating:
        return a, None
    mask = _np.isnan(a)
    return _op("SelectV2", [mask, _np.array(v, a.dtype), a]), mask


def nansum(a, axis=None, dtype=None, out=None, keepdims=False):
    return _np.sum(_nan_fill(a, 0)[0], axis, dtype, keepdims=keepdims)


def nanprod(a, axis=None, dtype=None, out=None, keepdims=False):
    return _np.prod(_nan_fill(a, 1)[0], axis, dtype, keepdims=keepdims)


def nancumsum(a, axis=None, dtype=None, out=None):
    return cumsum(_nan_fill(a, 0)[0], axis, dtype)


def nancumprod(a, axis=None, dtype=None, out=None):
    return cumprod(_nan_fill(a, 1)[0], axis, dtype)


def _nan_count(mask, a, axis, keepdims):
    return _np.sum(_np.logical_not(mask).astype(_np.int64), axis, keepdims=keepdims)


def nanmean(a, axis=None, dtype=None, out=None, keepdims=False):
    a = _np.asarray(a)
    filled, mask = _nan_fill(a, 0)
    if mask is None:
        return _np.mean(a, axis, dtype, keepdims=keepdims)
    tot = _np.sum(filled, axis, dtype, keepdims=keepdims)
    cnt = _nan_count(mask, a, axis, keepdims)
    return tot / cnt.astype(tot.dtype)


def nanvar(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
    a = _np.asarray(a)
    filled, mask = _nan_fill(a, 0)
    if mask is None:
        return var(a, axis, dtype, ddof=ddof, keepdims=keepdims)
    cnt = _nan_count(mask, a, axis, True)
    avg = _np.sum(filled, axis, dtype, keepdims=True) / cnt.astype(filled.dtype)
    d = _op("SelectV2", [mask, _np.zeros_like(filled), filled - avg])
    s = _np.sum(d * d, axis, dtype, keepdims=keepdims)
    cnt = _nan_count(mask, a, axis, keepdims)
    dof = cnt - ddof
    return _op("SelectV2", [dof <= 0, _np.array(_np.nan, s.dtype), s / _np.maximum(dof, 1).astype(s.dtype)])


def nanstd(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
    return _np.sqrt(nanvar(a, axis, dtype, ddof=ddof, keepdims=keepdims))


def _nan_extreme(fn, fill):
    def f(a, axis=None, out=None, keepdims=False):
        a = _np.asarray(a)
        filled, mask = _nan_fill(a, fill)
        if mask is None:
            return fn(a, axis, keepdims=keepdims)
        r = fn(filled, axis, keepdims=keepdims)
        all_nan = _np.all(mask, axis, keepdims=keepdims)
        return _op("SelectV2", [all_nan, _np.array(_np.nan, a.dtype), r])
    return f


nanmax = _nan_extreme(lambda a, axis, keepdims: _np.max(a, axis, keepdims=keepdims), -_np.inf)
nanmin = _nan_extreme(lambda a, axis, keepdims: _np.min(a, axis, keepdims=keepdims), _np.inf)


def _nan_arg(fn, fill):
    def f(a, axis=None, out=None, *, keepdims=False):
        a = _np.asarray(a)
        filled, mask = _nan_fill(a, fill)
        if mask is not None and _values(_np.any(_np.all(mask, axis))) is True:
            raise ValueError("All-NaN slice encountered")
        return fn(a if mask is None else filled, axis)
    return f


nanargmax = _nan_arg(lambda a, axis: _np.argmax(a, axis), -_np.inf)
nanargmin = _nan_arg(lambda a, axis: _np.argmin(a, axis), _np.inf)


def nanmedian(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    return nanquantile(a, 0.5, axis, keepdims=keepdims)


def nanpercentile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False):
    return nanquantile(a, _np.asarray(q, _np.float64) / 100, axis, method=method, keepdims=keepdims)


def nanquantile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False):
    a = _np.asarray(a)
    if not a.dtype.is_floating:
        return _quantile(a, q, axis, method, keepdims)
    if method != "linear":
        raise NotImplementedError("tensorlens: nanquantile supports method='linear' only")
    q = _np.asarray(q, _np.float64)
    flat, kept, axes = _reduce_setup(a, axis)
    n = flat.shape[-1]
    if not _known(n) or n is None:
        return _typed(_np.float64, _list(q.shape) + kept)
    s = _sorted_last(flat)  # NaN last (TopKV2 puts NaN first, reversed)
    cnt = _np.sum(_np.logical_not(_np.isnan(flat)).astype(_np.int64), -1)
    qq = _np.reshape(q, [-1, 1] if kept else [-1])
    pos = qq * (cnt - 1).astype(_np.float64)
    lo = _np.floor(pos)
    t = pos - lo
    lo_i = _np.clip(lo.astype(_np.int64), 0, n - 1)
    hi_i = _np.clip(lo_i + 1, 0, _np.maximum(cnt - 1, 0))
    batch = len(kept)
    rows = _np.reshape(s, [-1, n])
    li = _np.reshape(lo_i, [-1, _builtin_prod(kept)]) if batch else _np.reshape(lo_i, [-1, 1])
    hi = _np.reshape(hi_i, [-1, _builtin_prod(kept)]) if batch else _np.reshape(hi_i, [-1, 1])
    nr = rows.shape[0]
    ridx = _np.broadcast_to(_np.arange(nr)[None, :], li.shape)
    lo_v = _op("GatherNd", [rows, _np.stack([ridx, li], -1)])
    hi_v = _op("GatherNd", [rows, _np.stack([ridx, hi], -1)])
    tt = _np.reshape(t, li.shape)
    r = _lerp(lo_v.astype(_np.float64), hi_v.astype(_np.float64), tt)
    cnt_b = _np.broadcast_to(_np.reshape(cnt, [1, -1]), li.shape)
    r = _op("SelectV2", [cnt_b == 0, _np.array(_np.nan, _np.float64), r])
    r = _np.reshape(r, _list(q.shape) + kept)
    if keepdims:
        r = _keepdims(_np.reshape(r, [-1] + kept), a.ndim, axes, 1)
        r = _np.reshape(r, _list(q.shape) + _list(r.shape[1:]))
    return r


def _builtin_prod(xs):
    p = 1
    for x in xs:
        p *= x
    return p
