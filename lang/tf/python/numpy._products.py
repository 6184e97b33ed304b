# numpy._products: products and polynomials: outer, inner, kron, tensordot, einsum (pairwise
# contractions as transposes, reshapes and BatchMatMulV2, never a broadcast of all operands),
# cross, convolve / correlate, vander, polyval and polyfit (least squares through np.linalg).
# numpy.py re-exports the public names.
import _tlens
import numpy as _np
from numpy._util import _axis, _op, _known

_int = int
_range = range
_list = list
_tuple = tuple


def _promote2(a, b):
    a, b = _np.asarray(a), _np.asarray(b)
    if a.dtype != b.dtype:
        t = _np.promote_types(a.dtype, b.dtype)
        a, b = a.astype(t), b.astype(t)
    return a, b


def _prod(xs):
    p = 1
    for x in xs:
        p *= x
    return p


def outer(a, b, out=None):
    a, b = _promote2(a, b)
    return _np.reshape(a, [-1, 1]) * _np.reshape(b, [1, -1])


def tensordot(a, b, axes=2):
    a, b = _promote2(a, b)
    if isinstance(axes, _int):
        if axes < 0:
            raise ValueError("negative dimensions are not allowed")
        axes_a = _list(_range(a.ndim - axes, a.ndim))
        axes_b = _list(_range(0, axes))
    else:
        axes_a, axes_b = axes
        axes_a = [axes_a] if isinstance(axes_a, _int) else _list(axes_a)
        axes_b = [axes_b] if isinstance(axes_b, _int) else _list(axes_b)
    if len(axes_a) != len(axes_b):
        raise ValueError("shape-mismatch for sum")
    axes_a = [_axis(x, a.ndim) for x in axes_a]
    axes_b = [_axis(x, b.ndim) for x in axes_b]
    for i, j in zip(axes_a, axes_b):
        if _known(a.shape[i], b.shape[j]) and a.shape[i] != b.shape[j]:
            raise ValueError("shape-mismatch for sum")
    free_a = [d for d in _range(a.ndim) if d not in axes_a]
    free_b = [d for d in _range(b.ndim) if d not in axes_b]
    k = _prod([a.shape[d] for d in axes_a])
    at = _np.reshape(_np.transpose(a, free_a + axes_a), [-1, k])
    bt = _np.reshape(_np.transpose(b, axes_b + free_b), [k, -1])
    r = _np.matmul(at, bt)
    return _np.reshape(r, [a.shape[d] for d in free_a] + [b.shape[d] for d in free_b])


def inner(a, b):
    a, b = _promote2(a, b)
    if a.ndim == 0 or b.ndim == 0:
        return a * b
    if a.shape[-1] != b.shape[-1]:
        raise ValueError("shapes %s and %s not aligned: %d (dim %d) != %d (dim %d)" % (
            _tuple(a.shape), _tuple(b.shape), a.shape[-1], a.ndim - 1, b.shape[-1], b.ndim - 1))
    return tensordot(a, b, ([-1], [-1]))


def kron(a, b):
    a, b = _promote2(a, b)
    nd = a.ndim if a.ndim > b.ndim else b.ndim
    a = _np.reshape(a, [1] * (nd - a.ndim) + _list(a.shape))
    b = _np.reshape(b, [1] * (nd - b.ndim) + _list(b.shape))
    # a[i, None, j, None] * b[None, k, None, l] -> reshape (i*k, j*l)
    ea = _np.reshape(a, [x for d in a.shape for x in (d, 1)])
    eb = _np.reshape(b, [x for d in b.shape for x in (1, d)])
    return _np.reshape(ea * eb, [a.shape[i] * b.shape[i] for i in _range(nd)])


def cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    if axis is not None:
        axisa = axisb = axisc = axis
    a, b = _promote2(a, b)
    a = _np.moveaxis(a, axisa, -1)
    b = _np.moveaxis(b, axisb, -1)
    na, nb = a.shape[-1], b.shape[-1]
    if na not in (2, 3) or nb not in (2, 3):
        raise ValueError("incompatible dimensions for cross product\n(dimension must be 2 or 3)")
    a0, a1 = a[..., 0], a[..., 1]
    b0, b1 = b[..., 0], b[..., 1]
    if na == 2 and nb == 2:
        return a0 * b1 - a1 * b0
    a2 = a[..., 2] if na == 3 else _np.zeros_like(a0)
    b2 = b[..., 2] if nb == 3 else _np.zeros_like(b0)
    if na == 2 or nb == 2:
        if na == 2 and nb == 2:
            return a0 * b1 - a1 * b0
    c = _np.stack([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0], -1)
    return _np.moveaxis(c, -1, axisc)


def convolve(a, v, mode="full"):
    a, v = _promote2(_np.ravel(a), _np.ravel(v))
    if a.shape[0] == 0:
        raise ValueError("a cannot be empty")
    if v.shape[0] == 0:
        raise ValueError("v cannot be empty")
    if v.shape[0] > a.shape[0]:
        a, v = v, a
    return _correlate(a, v[::-1], mode)


def correlate(a, v, mode="valid"):
    a, v = _promote2(_np.ravel(a), _np.ravel(v))
    if a.shape[0] < v.shape[0]:
        r = _correlate(v, a, mode)
        return r[::-1]
    return _correlate(a, v, mode)


def _correlate(a, v, mode):
    """numpy's correlate of a (length n) with v (length m <= n): shifted slices, one per tap of v."""
    n, m = a.shape[0], v.shape[0]
    if mode == "full":
        left, right = m - 1, m - 1
    elif mode == "same":
        left, right = m // 2, m - 1 - m // 2
    elif mode == "valid":
        left, right = 0, 0
    else:
        raise ValueError("mode must be one of 'full', 'same', or 'valid' (got %r)" % (mode,))
    padded = _op("PadV2", [a, [[left, right]], _np.array(0, a.dtype)], {"mode": "CONSTANT"})
    length = n + left + right - m + 1
    out = None
    for k in _range(m):
        term = padded[k:k + length] * v[k]
        out = term if out is None else out + term
    return out


def vander(x, N=None, increasing=False):
    x = _np.asarray(x)
    if x.ndim != 1:
        raise ValueError("x must be a one-dimensional array or sequence.")
    n = x.shape[0] if N is None else N
    if n == 0:
        return _np.zeros((x.shape[0], 0), x.dtype)
    cols = _np.broadcast_to(x[:, None], [x.shape[0], n - 1]) if n > 1 else None
    ones = _np.ones((x.shape[0], 1), x.dtype)
    if cols is None:
        v = ones
    else:
        v = _np.concatenate([ones, _op("Cumprod", [cols, 1], {"exclusive": False, "reverse": False})], 1)
    return v if increasing else v[:, ::-1]


def polyval(p, x):
    p = _np.asarray(p)
    x = _np.asarray(x)
    y = _np.zeros_like(x)
    for k in _range(p.shape[0]):
        y = y * x + p[k]
    return y


def polyfit(x, y, deg, rcond=None, full=False, w=None, cov=False):
    if w is not None or cov:
        raise NotImplementedError("tensorlens: np.polyfit's w and cov arguments are not supported")
    order = _int(deg) + 1
    x = _np.asarray(x) + 0.0
    y = _np.asarray(y) + 0.0
    if deg < 0:
        raise ValueError("expected deg >= 0")
    if x.ndim != 1:
        raise TypeError("expected 1D vector for x")
    if x.size == 0:
        raise TypeError("expected non-empty vector for x")
    if y.ndim < 1 or y.ndim > 2:
        raise TypeError("expected 1D or 2D array for y")
    if x.shape[0] != y.shape[0]:
        raise TypeError("expected x and y to have same length")
    if rcond is None:
        rcond = x.shape[0] * 2.220446049250313e-16
    lhs = vander(x, order)
    scale = _np.sqrt(_np.sum(lhs * lhs, 0))
    lhs = lhs / scale
    c, resids, rank, s = _np.linalg.lstsq(lhs, y, rcond)
    c = (c.T / scale).T
    if full:
        return c, resids, rank, s, rcond
    return c


def einsum(*operands, out=None, optimize=False, **kwargs):
    if not operands or not isinstance(operands[0], str):
        raise NotImplementedError("tensorlens: np.einsum takes a subscripts string")
    subscripts = operands[0].replace(" ", "")
    arrays = [_np.asarray(a) for a in operands[1:]]
    if "->" in subscripts:
        lhs, rhs = subscripts.split("->")
    else:
        lhs, rhs = subscripts, None
    terms = lhs.split(",")
    if len(terms) != len(arrays):
        raise ValueError("more operands provided to einstein sum function than specified in the subscripts string"
                         if len(arrays) > len(terms) else
                         "fewer operands provided to einstein sum function than specified in the subscripts string")
    terms, ell = _expand_ellipsis(terms, arrays)
    if rhs is None:
        counts = {}
        for t in terms:
            for ch in t:
                counts[ch] = counts.get(ch, 0) + 1
        rhs = "".join(sorted(ch for ch in counts if counts[ch] == 1 and ch != "."))
        if "." in lhs:
            rhs = ell + rhs
    else:
        rhs = rhs.replace("...", ell)
    for t, a in zip(terms, arrays):
        if len(t) != a.ndim:
            raise ValueError("operand has more dimensions than subscripts given in einstein sum, but no '...' "
                             "ellipsis provided to broadcast the extra dimensions." if a.ndim > len(t) else
                             "einstein sum subscripts string contains too many subscripts for operand 0")
    for ch in rhs:
        if not any(ch in t for t in terms):
            raise ValueError("einstein sum subscripts string included output subscript '%s' which never appeared in an "
                             "input" % ch)
    common = arrays[0].dtype
    for a in arrays[1:]:
        common = _np.promote_types(common, a.dtype)
    ops = [(_diagonals(t, a.astype(common) if a.dtype != common else a)) for t, a in zip(terms, arrays)]
    t, a = ops[0]
    for k in _range(1, len(ops)):
        later = "".join(x[0] for x in ops[k + 1:]) + rhs
        t, a = _contract(t, a, ops[k][0], ops[k][1], later)
    # The last operand: sum the letters not in the output, then order them as the output asks.
    gone = [i for i, ch in enumerate(t) if ch not in rhs]
    if gone:
        a = _np.sum(a, _tuple(gone))
        t = "".join(ch for ch in t if ch in rhs)
    if t != rhs:
        a = _np.transpose(a, [t.index(ch) for ch in rhs])
    return a


_ELL = "0123456789"


def _expand_ellipsis(terms, arrays):
    """Each '...' as digits for the dims it stands for (right-aligned, as they broadcast), and the
    digits of the widest one."""
    out = []
    widest = 0
    for t, a in zip(terms, arrays):
        if "..." in t:
            n = a.ndim - (len(t) - 3)
            n = n if n > 0 else 0
            widest = n if n > widest else widest
            t = t.replace("...", _ELL[10 - n:] if n > 0 else "")
        out.append(t)
    return out, _ELL[10 - widest:] if widest else ""


def _diagonals(t, a):
    """A term with a repeated letter (ii, iij) reduced to its diagonal: each letter once."""
    while True:
        dup = None
        for i, ch in enumerate(t):
            j = t.find(ch, i + 1)
            if j >= 0:
                dup = (i, j)
                break
        if dup is None:
            return t, a
        i, j = dup
        a = _np.diagonal(a, 0, i, j)
        t = "".join(ch for k, ch in enumerate(t) if k not in (i, j)) + t[i]


def _contract(ta, a, tb, b, later):
    """Two operands as one: letters in both and kept later are batch dims, letters in both and not
    kept are summed by a matmul, letters of one operand only and not kept are summed first."""
    def presum(t, x, other):
        gone = [i for i, ch in enumerate(t) if ch not in later and ch not in other]
        if gone:
            x = _np.sum(x, _tuple(gone))
            t = "".join(ch for ch in t if ch in later or ch in other)
        return t, x
    ta, a = presum(ta, a, tb)
    tb, b = presum(tb, b, ta)
    batch = [ch for ch in ta if ch in tb and ch in later]
    summed = [ch for ch in ta if ch in tb and ch not in later]
    left = [ch for ch in ta if ch not in tb]
    right = [ch for ch in tb if ch not in ta]
    size = {}
    for t, x in ((ta, a), (tb, b)):
        for i, ch in enumerate(t):
            d = x.shape[i]
            if ch in size and size[ch] != d and size[ch] != 1 and d != 1:
                raise ValueError("operands could not be broadcast together with remapped shapes [original->remapped]")
            size[ch] = d if ch not in size or size[ch] == 1 else size[ch]
    at = _np.transpose(a, [ta.index(ch) for ch in batch + left + summed])
    bt = _np.transpose(b, [tb.index(ch) for ch in batch + summed + right])
    bs = [size[ch] for ch in batch]
    ls, ss, rs = _prod([size[ch] for ch in left]), _prod([size[ch] for ch in summed]), _prod([size[ch] for ch in right])
    at = _np.reshape(_np.broadcast_to(at, bs + [size[ch] for ch in left + summed]), bs + [ls, ss])
    bt = _np.reshape(_np.broadcast_to(bt, bs + [size[ch] for ch in summed + right]), bs + [ss, rs])
    r = _np.matmul(at, bt)
    r = _np.reshape(r, bs + [size[ch] for ch in left] + [size[ch] for ch in right])
    return "".join(batch + left + right), r
