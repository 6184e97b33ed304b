# numpy._shape: numpy's shape and layout functions (ravel, flip, rot90, swapaxes, moveaxis,
# atleast_*d, broadcast_to, the stacks and splits, append / insert / delete, resize, take, diag,
# diagonal, trace, tril / triu) as engine ops over whole arrays: slices, transposes, concats and
# gathers, never a Python loop over elements. numpy.py re-exports the public names.
import _tlens
import numpy as _np
from numpy._util import AxisError, _arr, _axis, _axes, _op, _values, _known, _typed, _int_list, _range_along

_int = int
_range = range
_tuple = tuple
_list = list


def ravel(a, order="C"):
    return _np.reshape(_arr(a), [-1])


def copy(a, order="K"):
    return _op("Identity", [_arr(a)])


def asanyarray(a, dtype=None, order=None):
    return _np.asarray(a, dtype)


def ascontiguousarray(a, dtype=None):
    a = _np.asarray(a, dtype)
    return _np.reshape(a, [1]) if a.ndim == 0 else a


def empty_like(prototype, dtype=None, order="K", subok=True, shape=None):
    return full_like(prototype, 0, dtype, shape=shape)


def full_like(a, fill_value, dtype=None, order="K", subok=True, shape=None):
    a = _arr(a)
    dtype = a.dtype if dtype is None else _np.dtype(dtype)
    shape = a.shape if shape is None else shape
    return _np.full(shape, _np.array(fill_value).astype(dtype), dtype)


def flip(m, axis=None):
    m = _arr(m)
    axes = _list(_range(m.ndim)) if axis is None else _axes(axis, m.ndim)
    return m[_tuple(slice(None, None, -1) if i in axes else slice(None) for i in _range(m.ndim))]


def fliplr(m):
    m = _arr(m)
    if m.ndim < 2:
        raise ValueError("Input must be >= 2-d.")
    return flip(m, 1)


def flipud(m):
    m = _arr(m)
    if m.ndim < 1:
        raise ValueError("Input must be >= 1-d.")
    return flip(m, 0)


def swapaxes(a, axis1, axis2):
    a = _arr(a)
    i, j = _axis(axis1, a.ndim, "axis1"), _axis(axis2, a.ndim, "axis2")
    perm = _list(_range(a.ndim))
    perm[i], perm[j] = perm[j], perm[i]
    return _np.transpose(a, perm)


def rot90(m, k=1, axes=(0, 1)):
    m = _arr(m)
    axes = _tuple(axes)
    if len(axes) != 2:
        raise ValueError("len(axes) must be 2.")
    if axes[0] == axes[1] or _abs_diff(axes[0], axes[1]) == m.ndim:
        raise ValueError("Axes must be different.")
    if axes[0] >= m.ndim or axes[0] < -m.ndim or axes[1] >= m.ndim or axes[1] < -m.ndim:
        raise ValueError("Axes={} out of range for array of ndim={}.".format(axes, m.ndim))
    k %= 4
    if k == 0:
        return m[:]
    if k == 2:
        return flip(flip(m, axes[0]), axes[1])
    perm = _list(_range(m.ndim))
    perm[axes[0]], perm[axes[1]] = perm[axes[1]], perm[axes[0]]
    if k == 1:
        return _np.transpose(flip(m, axes[1]), perm)
    return flip(_np.transpose(m, perm), axes[1])


def _abs_diff(a, b):
    return a - b if a > b else b - a


def moveaxis(a, source, destination):
    a = _arr(a)
    src = [_axis(s, a.ndim, "source") for s in (source if isinstance(source, (_list, _tuple)) else [source])]
    dst = [_axis(d, a.ndim, "destination") for d in (destination if isinstance(destination, (_list, _tuple)) else [destination])]
    if len(src) != len(dst):
        raise ValueError("`source` and `destination` arguments must have the same number of elements")
    if len(set(src)) != len(src):
        raise ValueError("repeated axis in `source` argument")
    if len(set(dst)) != len(dst):
        raise ValueError("repeated axis in `destination` argument")
    order = [n for n in _range(a.ndim) if n not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return _np.transpose(a, order)


def rollaxis(a, axis, start=0):
    a = _arr(a)
    n = a.ndim
    axis = _axis(axis, n)
    if start < 0:
        start += n
    if not (0 <= start < n + 1):
        raise AxisError("'start' arg requires %d <= start < %d, but %d was passed in" % (-n, n + 1, start))
    if axis < start:
        start -= 1
    if axis == start:
        return a[...]
    axes = _list(_range(n))
    axes.remove(axis)
    axes.insert(start, axis)
    return _np.transpose(a, axes)


def _atleast(arys, fix):
    res = [fix(_np.asarray(a)) for a in arys]
    return res[0] if len(res) == 1 else res


def atleast_1d(*arys):
    return _atleast(arys, lambda a: _np.reshape(a, [1]) if a.ndim == 0 else a)


def atleast_2d(*arys):
    return _atleast(arys, lambda a: _np.reshape(a, [1, 1]) if a.ndim == 0 else (a[None, :] if a.ndim == 1 else a))


def _three(a):
    if a.ndim == 0:
        return _np.reshape(a, [1, 1, 1])
    if a.ndim == 1:
        return a[None, :, None]
    if a.ndim == 2:
        return a[:, :, None]
    return a


def atleast_3d(*arys):
    return _atleast(arys, _three)


def _broadcast_shape(shapes, names=None):
    """numpy's broadcast of several shapes (None dims stay unknown)."""
    nd = 0
    for s in shapes:
        nd = len(s) if len(s) > nd else nd
    out = [1] * nd
    for i, s in enumerate(shapes):
        s = [1] * (nd - len(s)) + _list(s)
        for d in _range(nd):
            if not _known(s[d]) or s[d] is None:
                if out[d] == 1:
                    out[d] = None
            elif s[d] != 1:
                if out[d] not in (1, None) and out[d] != s[d]:
                    return None
                out[d] = s[d]
    return out


def _shape_str(s):
    return "(" + ",".join(str(d) for d in s) + ("," if len(s) == 1 else "") + ")"


def broadcast_to(array, shape, subok=False):
    a = _arr(array)
    shape = [shape] if isinstance(shape, _int) else _list(shape)
    for d in shape:
        if _known(d) and d is not None and d < 0:
            raise ValueError("all elements of broadcast shape must be non-negative")
    s = _list(a.shape)
    ok = len(s) <= len(shape)
    if ok:
        for x, y in zip(s[::-1], shape[::-1]):
            if _known(x, y) and x is not None and y is not None and x != 1 and x != y:
                ok = False
    if not ok:
        raise ValueError("operands could not be broadcast together with remapped shapes [original->remapped]: %s  and "
                         "requested shape %s" % (_shape_str(s), _shape_str(shape)))
    return _op("BroadcastTo", [a, shape])


def broadcast_arrays(*args, subok=False):
    arrays = [_arr(a) for a in args]
    shape = _broadcast_shape([a.shape for a in arrays])
    if shape is None:
        raise ValueError("shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is between arg 0 "
                         "with shape %s and arg 1 with shape %s." % (_shape_str(arrays[0].shape), _shape_str(arrays[1].shape)))
    return [a if _list(a.shape) == shape else _op("BroadcastTo", [a, shape]) for a in arrays]


def column_stack(tup):
    arrays = []
    for v in tup:
        a = _np.asarray(v)
        if a.ndim < 2:
            a = _np.reshape(a, [-1, 1])
        arrays.append(a)
    return _np.concatenate(arrays, 1)


def dstack(tup):
    arrs = atleast_3d(*tup)
    if not isinstance(arrs, _list):
        arrs = [arrs]
    return _np.concatenate(arrs, 2)


def hsplit(ary, indices_or_sections):
    a = _arr(ary)
    if a.ndim == 0:
        raise ValueError("hsplit only works on arrays of 1 or more dimensions")
    return _np.split(a, indices_or_sections, 1 if a.ndim > 1 else 0)


def vsplit(ary, indices_or_sections):
    a = _arr(ary)
    if a.ndim < 2:
        raise ValueError("vsplit only works on arrays of 2 or more dimensions")
    return _np.split(a, indices_or_sections, 0)


def dsplit(ary, indices_or_sections):
    a = _arr(ary)
    if a.ndim < 3:
        raise ValueError("dsplit only works on arrays of 3 or more dimensions")
    return _np.split(a, indices_or_sections, 2)


def append(arr, values, axis=None):
    arr = _np.asarray(arr)
    if axis is None:
        if arr.ndim != 1:
            arr = ravel(arr)
        values = ravel(_np.asarray(values))
        axis = arr.ndim - 1
    return _np.concatenate((arr, values), axis)


def _ndmin(v, n):
    while v.ndim < n:
        v = v[None]
    return v


def insert(arr, obj, values, axis=None):
    arr = _np.asarray(arr)
    if axis is None:
        if arr.ndim != 1:
            arr = ravel(arr)
        axis = 0
    else:
        axis = _axis(axis, arr.ndim)
    n = arr.shape[axis]
    if isinstance(obj, slice):
        obj = _list(_range(*obj.indices(n)))
    scalar = isinstance(obj, _int) or (_tlens.is_ndarray(obj) and obj.ndim == 0)
    idx = _int_list(obj)
    for i in idx:
        if i < -n or i > n:
            raise IndexError("index %d is out of bounds for axis %d with size %d" % (i, axis, n))
    idx = [i + n if i < 0 else i for i in idx]
    v = _ndmin(_np.array(values).astype(arr.dtype), arr.ndim)
    if scalar:
        v = moveaxis(v, 0, axis)
        shape = _list(arr.shape)
        shape[axis] = v.shape[axis]
        v = broadcast_to(v, shape)
        return _np.concatenate([_range_along(arr, 0, idx[0], axis), v, _range_along(arr, idx[0], n, axis)], axis)
    shape = _list(arr.shape)
    shape[axis] = len(idx)
    v = broadcast_to(v, shape)
    # The new entries go before the old entry at each index (in the indices' sorted order).
    order = sorted(_range(len(idx)), key=lambda k: idx[k])
    parts, start = [], 0
    for k in order:
        parts.append(_range_along(arr, start, idx[k], axis))
        parts.append(_range_along(v, k, k + 1, axis))
        start = idx[k]
    parts.append(_range_along(arr, start, n, axis))
    return _np.concatenate(parts, axis)


def delete(arr, obj, axis=None):
    arr = _np.asarray(arr)
    if axis is None:
        if arr.ndim != 1:
            arr = ravel(arr)
        axis = 0
    else:
        axis = _axis(axis, arr.ndim)
    n = arr.shape[axis]
    if isinstance(obj, slice):
        start, stop, step = obj.indices(n)
        if step == 1:
            return _np.concatenate([_range_along(arr, 0, start, axis), _range_along(arr, stop if stop > start else start, n, axis)], axis)
        obj = _list(_range(start, stop, step))
    o = _np.asarray(obj)
    if o.dtype == _np.bool_:
        if o.ndim != 1 or o.shape[0] != n:
            raise ValueError("boolean array argument obj to delete must be one dimensional and match the axis length of %d" % n)
        keep = _np.logical_not(o)
    else:
        if o.size > 0 and not o.dtype.is_integer:
            raise IndexError("arrays used as indices must be of integer (or boolean) type")
        if o.size > 0:
            lo, hi = _int(_np.min(o)), _int(_np.max(o))
            if hi >= n or lo < -n:
                raise IndexError("index %d is out of bounds for axis %d with size %d" % (hi if hi >= n else lo, axis, n))
        if o.size > 0:
            flat = _np.reshape(o, [-1]).astype(_np.int64)
            flat = _op("SelectV2", [flat < 0, flat + n, flat])
            hits = _op("ScatterNd", [flat[:, None], _np.ones_like(flat), [n]])
            keep = hits == 0
        else:
            keep = _np.ones((n,), _np.bool_)
    where = _np.reshape(_op("Where", [keep]), [-1])
    r = _op("GatherV2", [arr, where, axis])
    # The kept count is static when the indices are: give the result that shape.
    ov = _values(_np.reshape(o, [-1]))
    if ov is None or not _known(n) or n is None:
        kept = None
    elif o.dtype == _np.bool_:
        kept = len([v for v in ov if not v])
    else:
        kept = n - len(set(v % n for v in (ov if isinstance(ov, _list) else [ov])))
    shape = _list(arr.shape)
    if kept is not None:
        shape[axis] = kept
        unknown = [d for d in shape if not _known(d) or d is None]
        if len(unknown) <= 1:
            r = _np.reshape(r, [-1 if (not _known(d) or d is None) else d for d in shape])
    return r


def resize(a, new_shape):
    a = _np.asarray(a)
    shape = [new_shape] if isinstance(new_shape, _int) else _list(new_shape)
    total = 1
    for d in shape:
        if d < 0:
            raise ValueError("all elements of `new_shape` must be non-negative")
        total *= d
    flat = ravel(a)
    if a.size == 0 or total == 0:
        return _np.zeros(shape, a.dtype)
    reps = -(-total // a.size)
    return _np.reshape(_np.tile(flat, reps)[:total], shape)


def take(a, indices, axis=None, out=None, mode="raise"):
    a = _np.asarray(a)
    if axis is None:
        a, axis = ravel(a), 0
    else:
        axis = _axis(axis, a.ndim)
    idx = _np.asarray(indices)
    if idx.size > 0 and not idx.dtype.is_integer:
        raise IndexError("arrays used as indices must be of integer (or boolean) type")
    n = a.shape[axis]
    if idx.dtype != _np.int64:
        idx = idx.astype(_np.int64)
    if mode == "wrap":
        idx = _op("FloorMod", [idx, _np.array(n, _np.int64)])
    elif mode == "clip":
        idx = _np.clip(idx, 0, n - 1)
    else:
        lo = _tlens.value(_np.min(idx)) if idx.size > 0 else 0
        hi = _tlens.value(_np.max(idx)) if idx.size > 0 else 0
        if idx.size > 0 and _known(n, lo, hi) and (hi >= n or lo < -n):
            bad = hi if hi >= n else lo
            raise IndexError("index %d is out of bounds for axis %d with size %d" % (bad, axis, n))
        if not _known(lo) or lo < 0:
            if not _known(n) or n is None:
                shape = _list(a.shape)
                return _typed(a.dtype, shape[:axis] + _list(idx.shape) + shape[axis + 1:])
            idx = _op("SelectV2", [idx < 0, idx + n, idx])
    return _op("GatherV2", [a, idx, axis])


def diagonal(a, offset=0, axis1=0, axis2=1):
    a = _np.asarray(a)
    if a.ndim < 2:
        raise ValueError("diag requires an array of at least two dimensions")
    i, j = _axis(axis1, a.ndim), _axis(axis2, a.ndim)
    if i == j:
        raise ValueError("axis1 and axis2 cannot be the same")
    rest = [d for d in _range(a.ndim) if d not in (i, j)]
    t = _np.transpose(a, rest + [i, j])
    if offset > 0:
        t = t[..., :, offset:]
    elif offset < 0:
        t = t[..., -offset:, :]
    return _op("MatrixDiagPart", [t])


def diag(v, k=0):
    v = _np.asarray(v)
    if v.ndim == 1:
        n = v.shape[0]
        m = _op("MatrixDiag", [v])
        if k == 0:
            return m
        p = k if k > 0 else -k
        pads = [[0, p], [p, 0]] if k > 0 else [[p, 0], [0, p]]
        return _op("PadV2", [m, pads, _np.array(0, v.dtype)], {"mode": "CONSTANT"})
    if v.ndim == 2:
        return diagonal(v, k)
    raise ValueError("Input must be 1- or 2-d.")


def trace(a, offset=0, axis1=0, axis2=1, dtype=None, out=None):
    return _np.sum(diagonal(a, offset, axis1, axis2), axis=-1, dtype=dtype)


def _tri_mask(m, k, lower):
    rows, cols = (m.shape[-2], m.shape[-1]) if m.ndim >= 2 else (m.shape[-1], m.shape[-1])
    i = _np.arange(rows)[:, None]
    j = _np.arange(cols)[None, :]
    return (j - i <= k) if lower else (j - i >= k)


def tril(m, k=0):
    m = _np.asarray(m)
    return _np.where(_tri_mask(m, k, True), m, _np.zeros((1,), m.dtype))


def triu(m, k=0):
    m = _np.asarray(m)
    return _np.where(_tri_mask(m, k, False), m, _np.zeros((1,), m.dtype))


def array_equiv(a1, a2):
    a, b = _np.asarray(a1), _np.asarray(a2)
    if _broadcast_shape([a.shape, b.shape]) is None:
        return False
    return bool(_np.all(a == b))
