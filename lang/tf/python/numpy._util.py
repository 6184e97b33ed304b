# numpy._util: helpers shared by numpy's embedded submodules (numpy._math, numpy._shape, ...):
# argument normalisation with numpy's errors, and the typed unknowns abstract mode returns.
import _tlens
import numpy as _np

_int = int
_float = float
_range = range


class AxisError(ValueError, IndexError):
    """numpy.AxisError: an axis out of bounds (a ValueError and an IndexError, as numpy's)."""

    def __init__(self, axis, ndim=None, msg_prefix=None):
        if ndim is None:
            msg = axis
        else:
            msg = "axis %d is out of bounds for array of dimension %d" % (axis, ndim)
            if msg_prefix is not None:
                msg = "%s: %s" % (msg_prefix, msg)
        ValueError.__init__(self, msg)
        self.axis = axis
        self.ndim = ndim


def _arr(a, dtype=None):
    """a as an ndarray (arrays pass through unless a dtype is asked)."""
    if _tlens.is_ndarray(a) and dtype is None:
        return a
    return _np.array(a, dtype)


def _axis(axis, ndim, prefix=None):
    """axis in [0, ndim), with numpy's AxisError for one out of bounds."""
    axis = _int(axis)
    if axis < -ndim or axis >= ndim:
        raise AxisError(axis, ndim, prefix)
    return axis % ndim if ndim else 0


def _axes(axis, ndim):
    """An int or a tuple of ints as a sorted list of distinct axes in [0, ndim)."""
    if isinstance(axis, (list, tuple)):
        out = [_axis(a, ndim) for a in axis]
        if len(set(out)) != len(out):
            raise ValueError("duplicate value in 'axis'")
        return sorted(out)
    return [_axis(axis, ndim)]


def _op(op_type, inputs, attrs=None, literal_dtype="int64"):
    return _tlens.op(op_type, inputs, attrs, None, False, True, literal_dtype)


def _values(a):
    """The values of ndarray `a` as nested lists, or None when they are unknown (abstract mode)."""
    v = _tlens.value(a)
    return None if _tlens.is_unknown(v) else v


def _known(*xs):
    """Whether every Python value in xs is known (abstract mode may leave ints unknown)."""
    for x in xs:
        if _tlens.is_unknown(x):
            return False
    return True


def _typed(dtype, shape):
    return _tlens.typed(dtype, list(shape), True)


def _float_of(a):
    """numpy's float result type for a: float16/32/64 stay, everything else is float64."""
    return a.dtype if a.dtype.is_floating else _np.float64


def _as_float(a):
    a = _arr(a)
    return a if a.dtype.is_floating else a.astype(_np.float64)


def _int_list(v):
    """A Python int, sequence of ints or integer ndarray as a flat list of ints."""
    if _tlens.is_ndarray(v):
        v = _tlens.value(v)
    if isinstance(v, (list, tuple)):
        return [_int(x) for x in v]
    return [_int(v)]


def _move_last(a, axis):
    """a with `axis` moved to the end, and the permutation that moves it back."""
    nd = a.ndim
    perm = [i for i in _range(nd) if i != axis] + [axis]
    back = [0] * nd
    for i, d in enumerate(perm):
        back[d] = i
    return _np.transpose(a, perm), back


def _range_along(a, start, stop, axis):
    return a[tuple([slice(None)] * axis + [slice(start, stop)])]
