# numpy.linalg: norms, inverses, solves, determinants and decompositions on the engine's batched
# matrix ops (MatrixInverse, MatrixDeterminant, MatrixSolve, Cholesky, Qr, Svd, SelfAdjointEigV2),
# with numpy's argument checks, errors (LinAlgError) and dtypes: integer input computes in
# float64, float32 stays float32, float16 is refused. In abstract mode results are typed from
# the shapes alone. eig / eigvals return real arrays when the eigenvalues are real (numpy's too)
# and refuse complex ones (the engine has no complex dtype). Not here: tensorinv, tensorsolve.
import _tlens
import numpy as _np
from numpy._util import _axis, _op, _values, _known, _typed

_int = int
_float = float
_range = range
_tuple = tuple
_list = list


class LinAlgError(Exception):
    """Generic Python-exception-derived object raised by linalg functions."""


def _float_matrix(a):
    a = _np.asarray(a)
    if a.dtype == _np.float16:
        raise TypeError("array type float16 is unsupported in linalg")
    return a if a.dtype in (_np.float32, _np.float64) else a.astype(_np.float64)


def _stacked_2d(a):
    if a.ndim < 2:
        raise LinAlgError("%d-dimensional array given. Array must be at least two-dimensional" % a.ndim)


def _stacked_square(a):
    m, n = a.shape[-2], a.shape[-1]
    if _known(m, n) and m is not None and n is not None and m != n:
        raise LinAlgError("Last 2 dimensions of the array must be square")


def _square(a):
    a = _float_matrix(a)
    _stacked_2d(a)
    _stacked_square(a)
    return a


def _run(op_type, inputs, attrs, error):
    """An op whose kernel fails on a singular or indefinite matrix: numpy's LinAlgError then."""
    try:
        return _op(op_type, inputs, attrs)
    except Exception:
        raise LinAlgError(error)


def inv(a):
    a = _square(a)
    return _run("MatrixInverse", [a], None, "Singular matrix")


def det(a):
    a = _square(a)
    return _op("MatrixDeterminant", [a])


def slogdet(a):
    d = det(a)
    return _np.sign(d), _np.log(_np.abs(d))


def solve(a, b):
    a = _square(a)
    b = _np.asarray(b)
    b = b.astype(_np.promote_types(a.dtype, b.dtype)) if b.dtype != a.dtype else b
    if b.dtype != a.dtype:
        a = a.astype(b.dtype)
    vector = b.ndim == a.ndim - 1
    m = a.shape[-1]
    rows = b.shape[-1] if vector else (b.shape[-2] if b.ndim >= 2 else b.shape[-1])
    if _known(m, rows) and m is not None and rows is not None and m != rows:
        if vector:
            raise ValueError("solve1: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature "
                             "(m,m),(m)->(m) (size %d is different from %d)" % (rows, m))
        raise ValueError("solve: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature "
                         "(m,m),(m,n)->(m,n) (size %d is different from %d)" % (rows, m))
    bb = b[..., None] if vector else b
    batch = _batch_shape(a.shape[:-2], bb.shape[:-2])
    a2 = _op("BroadcastTo", [a, batch + _list(a.shape[-2:])]) if _list(a.shape[:-2]) != batch else a
    b2 = _op("BroadcastTo", [bb, batch + _list(bb.shape[-2:])]) if _list(bb.shape[:-2]) != batch else bb
    x = _run("MatrixSolve", [a2, b2], {"adjoint": False}, "Singular matrix")
    return x[..., 0] if vector else x


def _batch_shape(s1, s2):
    s1, s2 = _list(s1), _list(s2)
    n = len(s1) if len(s1) > len(s2) else len(s2)
    s1 = [1] * (n - len(s1)) + s1
    s2 = [1] * (n - len(s2)) + s2
    return [y if x == 1 else x for x, y in zip(s1, s2)]


def cholesky(a):
    a = _square(a)
    return _run("Cholesky", [a], None, "Matrix is not positive definite")


def qr(a, mode="reduced"):
    if mode not in ("reduced", "complete", "r", "raw"):
        raise ValueError("Unrecognized mode '%s'" % mode)
    if mode == "raw":
        raise NotImplementedError("tensorlens: np.linalg.qr's mode='raw' is not supported")
    a = _float_matrix(a)
    _stacked_2d(a)
    q, r = _op("Qr", [a], {"full_matrices": mode == "complete"})
    return r if mode == "r" else (q, r)


def svd(a, full_matrices=True, compute_uv=True, hermitian=False):
    a = _float_matrix(a)
    _stacked_2d(a)
    s, u, v = _op("Svd", [a], {"compute_uv": compute_uv, "full_matrices": full_matrices})
    if not compute_uv:
        return s
    return u, s, _np.swapaxes(v, -1, -2)


def _upper_to_lower(a, UPLO):
    if UPLO not in ("L", "U"):
        raise ValueError("UPLO argument must be 'L' or 'U'")
    if UPLO == "U":
        return _np.swapaxes(a, -1, -2)
    return a


def eigh(a, UPLO="L"):
    a = _upper_to_lower(_square(a), UPLO)
    return _op("SelfAdjointEigV2", [a], {"compute_v": True})


def eigvalsh(a, UPLO="L"):
    a = _upper_to_lower(_square(a), UPLO)
    return _op("SelfAdjointEigV2", [a], {"compute_v": False})[0]


def _real_eig(a):
    re, im, v = _op("RealEig", [a])
    if _tlens.value(_np.any(im != 0)) is True:
        raise NotImplementedError("tensorlens: np.linalg.eig of a matrix with complex eigenvalues (numpy returns "
                                  "complex128 arrays; tensorlens has no complex dtype)")
    return re, v


def eig(a):
    return _real_eig(_square(a))


def eigvals(a):
    return _real_eig(_square(a))[0]


def _eps(dtype):
    return 1.1920928955078125e-07 if dtype == _np.float32 else 2.220446049250313e-16


def pinv(a, rcond=1e-15, hermitian=False):
    a = _float_matrix(a)
    _stacked_2d(a)
    u, s, vt = svd(a, full_matrices=False)
    cutoff = _np.asarray(rcond, s.dtype)[..., None] * _np.max(s, -1, keepdims=True)
    large = s > cutoff
    safe = _op("SelectV2", [large, s, _np.ones_like(s)])
    inv_s = _op("SelectV2", [large, _np.ones_like(s) / safe, _np.zeros_like(s)])
    return _np.matmul(_np.swapaxes(vt, -1, -2), inv_s[..., None] * _np.swapaxes(u, -1, -2))


def lstsq(a, b, rcond="warn"):
    a = _float_matrix(a)
    b = _np.asarray(b)
    if a.ndim != 2:
        raise LinAlgError("%d-dimensional array given. Array must be two-dimensional" % a.ndim)
    vector = b.ndim == 1
    bb = (b[:, None] if vector else b).astype(_np.promote_types(a.dtype, b.dtype) if b.dtype.is_floating else a.dtype)
    a = a.astype(bb.dtype) if a.dtype != bb.dtype else a
    m, n = a.shape
    if bb.shape[0] != m:
        raise LinAlgError("Incompatible dimensions")
    if rcond is None:
        rcond = _eps(a.dtype) * (m if m > n else n)
    elif rcond == "warn" or rcond < 0:
        rcond = _eps(a.dtype)
    u, s, vt = svd(a, full_matrices=False)
    sv = _values(s)
    if sv is None:
        k = bb.shape[1]
        x = _typed(a.dtype, [n] if vector else [n, k])
        return x, _typed(a.dtype, [None]), _typed(_np.int64, []), s
    cut = rcond * (sv[0] if sv else 0.0)
    rank = len([v for v in sv if v > cut])
    inv_s = _np.array([1.0 / v if v > cut else 0.0 for v in sv], a.dtype) if sv else _np.zeros((0,), a.dtype)
    x = _np.matmul(_np.swapaxes(vt, -1, -2), inv_s[:, None] * _np.matmul(_np.swapaxes(u, -1, -2), bb))
    if rank == n and m > n:
        r = _np.matmul(a, x) - bb
        resid = _np.sum(r * r, 0)
    else:
        resid = _np.zeros((0,), a.dtype)
    return (x[:, 0] if vector else x), resid, rank, s


def matrix_rank(A, tol=None, hermitian=False):
    A = _np.asarray(A)
    if A.ndim < 2:
        return _int(not _np.all(A == 0))
    S = svd(A, compute_uv=False)
    if tol is None:
        m, n = A.shape[-2], A.shape[-1]
        tol = _np.max(S, -1, keepdims=True) * (m if m > n else n) * _eps(S.dtype)
    else:
        tol = _np.asarray(tol)[..., None]
    return _np.sum((S > tol).astype(_np.int64), -1)


def matrix_power(a, n):
    a = _np.asarray(a)
    _stacked_2d(a)
    _stacked_square(a)
    if not isinstance(n, _int):
        raise TypeError("exponent must be an integer")
    if n == 0:
        m = a.shape[-1]
        return _np.broadcast_to(_np.eye(m, dtype=a.dtype), a.shape)
    if n < 0:
        a = inv(a)
        n = -n
    result, z = None, a
    while n > 0:
        if n & 1:
            result = z if result is None else _np.matmul(result, z)
        n >>= 1
        if n:
            z = _np.matmul(z, z)
    return result


def cond(x, p=None):
    x = _float_matrix(x)
    _stacked_2d(x)
    if p is None or p == 2 or p == -2:
        s = svd(x, compute_uv=False)
        if p == -2:
            return s[..., -1] / s[..., 0]
        return s[..., 0] / s[..., -1]
    _stacked_square(x)
    return norm(x, p, axis=(-2, -1)) * norm(inv(x), p, axis=(-2, -1))


def multi_dot(arrays, *, out=None):
    arrays = [_np.asarray(a) for a in arrays]
    if len(arrays) < 2:
        raise ValueError("Expecting at least two arrays.")
    first, last = arrays[0], arrays[-1]
    if first.ndim == 1:
        arrays[0] = first[None, :]
    if last.ndim == 1:
        arrays[-1] = last[:, None]
    r = arrays[0]
    for a in arrays[1:]:
        r = _np.matmul(r, a)
    if first.ndim == 1 and last.ndim == 1:
        return r[0, 0]
    if first.ndim == 1:
        return r[0]
    if last.ndim == 1:
        return r[:, 0]
    return r


def norm(x, ord=None, axis=None, keepdims=False):
    x = _np.asarray(x)
    if not x.dtype.is_floating:
        x = x.astype(_np.float64)
    nd = x.ndim
    if axis is None:
        if ord is None or (ord in ("f", "fro") and nd == 2) or (ord == 2 and nd == 1):
            flat = _np.reshape(x, [-1])
            r = _np.sqrt(_np.dot(flat, flat))
            return _np.reshape(r, [1] * nd) if keepdims else r
        axis = _tuple(_range(nd))
    elif not isinstance(axis, (_tuple, _list)):
        axis = (axis,)
    axis = _tuple(axis)
    if len(axis) == 1:
        return _vector_norm(x, ord, _axis(axis[0], nd), keepdims)
    if len(axis) == 2:
        return _matrix_norm(x, ord, _axis(axis[0], nd), _axis(axis[1], nd), keepdims)
    raise ValueError("Improper number of dimensions to norm.")


def _vector_norm(x, ord, ax, keepdims):
    if isinstance(ord, str):
        raise ValueError("Invalid norm order '%s' for vectors" % ord)
    if ord == _np.inf:
        return _np.max(_np.abs(x), ax, keepdims=keepdims)
    if ord == -_np.inf:
        return _np.min(_np.abs(x), ax, keepdims=keepdims)
    if ord == 0:
        return _np.sum((x != 0).astype(x.dtype), ax, keepdims=keepdims)
    if ord == 1:
        return _np.sum(_np.abs(x), ax, keepdims=keepdims)
    if ord is None or ord == 2:
        return _np.sqrt(_np.sum(x * x, ax, keepdims=keepdims))
    p = _np.array(_float(ord), x.dtype)
    return _np.sum(_np.abs(x) ** p, ax, keepdims=keepdims) ** (_np.array(1, x.dtype) / p)


def _matrix_norm(x, ord, row, col, keepdims):
    if row == col:
        raise ValueError("Duplicate axes given.")
    if ord == 2 or ord == -2:
        m = _np.moveaxis(x, (row, col), (-2, -1))
        s = svd(m, compute_uv=False)
        r = _np.max(s, -1) if ord == 2 else _np.min(s, -1)
    elif ord in (1, -1):
        c = col - 1 if col > row else col
        s = _np.sum(_np.abs(x), row)
        r = _np.max(s, c) if ord == 1 else _np.min(s, c)
    elif ord in (_np.inf, -_np.inf):
        rr = row - 1 if row > col else row
        s = _np.sum(_np.abs(x), col)
        r = _np.max(s, rr) if ord == _np.inf else _np.min(s, rr)
    elif ord in (None, "fro", "f"):
        r = _np.sqrt(_np.sum(x * x, (row, col)))
    elif ord == "nuc":
        m = _np.moveaxis(x, (row, col), (-2, -1))
        r = _np.sum(svd(m, compute_uv=False), -1)
    else:
        raise ValueError("Invalid norm order for matrices.")
    if keepdims:
        shape = _list(x.shape)
        shape[row] = 1
        shape[col] = 1
        r = _np.reshape(r, shape)
    return r
