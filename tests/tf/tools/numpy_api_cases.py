# The cases of tests/tf/NumpyApiTests.cpp: numpy snippets whose expected output is what numpy 1.24
# (Debian's python3-numpy) prints. Each snippet runs after PRELUDE (numpy imported, and `err(f)`,
# which prints the exception type and message f raises). Regenerate with gen_numpy_api_tests.py
# after editing:  /usr/bin/python3 tests/tf/tools/gen_numpy_api_tests.py tests/tf/NumpyApiTests.cpp

PRELUDE = '''import numpy as np
def err(f):
    try:
        f()
        print("no error")
    except Exception as e:
        print(type(e).__name__ + ":", e)
'''

GROUPS = []


def group(name, cases):
    GROUPS.append({'name': name, 'cases': cases})


group('elementwise math has numpy\'s values and result dtypes', [
    ('trigonometric and hyperbolic', '''
x = np.array([0.0, 0.25, 0.5, 1.0])
print(repr(np.tan(x)), repr(np.arcsin(x)), repr(np.arccos(x)), repr(np.arctan(x)))
print(repr(np.sinh(x)), repr(np.cosh(x)), repr(np.arcsinh(x)), repr(np.arctanh(np.array([0.0, 0.5]))))
print(repr(np.arccosh(np.array([1.0, 2.0]))), repr(np.arctan2(np.array([1, -1]), np.array([-1, -1]))))
'''),
    ('integer and small inputs pick numpy\'s float type', '''
print(repr(np.tan(np.array([1, 2]))), repr(np.arcsin(np.array([1], dtype=np.uint8))), repr(np.sqrt(np.array([True, False]))))
print(repr(np.cosh(np.array([1.0], dtype=np.float32))), repr(np.log10(np.array([1, 10, 1000]))), repr(np.log2(np.array([1, 8, 1024]))))
print(np.log10(1000.0), np.log2(8), np.expm1(1e-10), np.cbrt(-27.0), np.exp2(3))
'''),
    ('rounding', '''
x = np.array([-2.5, -1.5, -0.5, 0.5, 1.5, 2.7])
print(repr(np.trunc(x)), repr(np.fix(x)), repr(np.rint(x)), repr(np.trunc(np.array([1, -2]))))
print(repr(np.deg2rad(np.array([0, 90, 180]))), repr(np.rad2deg(np.array([np.pi]))), repr(np.degrees(1.0)), repr(np.radians(180.0)))
'''),
    ('division, remainders and friends', '''
a = np.array([7, -7, 7, -7])
b = np.array([2, 2, -2, -2])
print(repr(np.floor_divide(a, b)), repr(np.mod(a, b)), repr(np.remainder(a, b)), repr(np.fmod(a, b)))
print(repr(np.floor_divide(a, np.array([0, 1, 0, 2]))), repr(np.mod(a, np.array([0, 1, 0, 2]))), repr(np.floor_divide(np.array([1.0, -1.0, 0.0]), 0.0)))
print(repr(np.divmod(a, 3)), repr(np.floor_divide(np.array([7.5, -7.5]), 2)), repr(np.mod(np.array([5.5, -5.5]), 2.0)))
print(repr(np.reciprocal(np.array([1.0, 2.0, 4.0]))), repr(np.hypot(np.array([3, 5]), np.array([4, 12]))))
print(repr(np.fmax(np.array([1.0, np.nan, 3.0]), np.array([np.nan, 2.0, 1.0]))), repr(np.fmin(np.array([1.0, np.nan]), np.array([np.nan, 2.0]))))
print(repr(np.copysign(np.array([1, -2, 3]), -1.0)), repr(np.signbit(np.array([-1.0, 0.0, -0.0, 2.0]))), repr(np.fabs(np.array([-1, 2]))))
print(repr(np.logaddexp(np.array([0.0, 1.0]), np.array([0.0, 2.0]))), repr(np.logaddexp(-np.inf, -np.inf)))
'''),
    ('comparisons and logic', '''
a = np.array([1, 2, 3])
print(repr(np.greater_equal(a, 2)), repr(np.less_equal(a, np.array([0, 2, 5]))), repr(np.logical_xor(a > 1, a < 3)))
print(repr(np.isclose(np.array([1.0, 1e-9, np.nan, np.inf]), np.array([1.0 + 1e-9, 0.0, np.nan, np.inf]))))
print(repr(np.isclose(np.array([np.nan]), np.array([np.nan]), equal_nan=True)), np.isclose(1.0, 1.1, atol=0.2))
print(repr(np.nan_to_num(np.array([np.nan, np.inf, -np.inf, 1.5]))), repr(np.nan_to_num(np.array([np.nan, np.inf], dtype=np.float32), nan=-1.0, posinf=9.0)))
'''),
    ('bit operations and integer functions', '''
a = np.array([12, 10, 7])
print(repr(np.bitwise_and(a, 6)), repr(np.bitwise_or(a, 1)), repr(np.bitwise_xor(a, 5)), repr(np.invert(np.array([0, 5], dtype=np.uint8))))
print(repr(np.invert(np.array([True, False]))), repr(np.bitwise_and(np.array([True, True]), np.array([True, False]))))
print(repr(np.gcd(np.array([12, 18, 0]), np.array([8, 27, 5]))), repr(np.lcm(np.array([4, 6]), np.array([6, 10]))))
err(lambda: np.bitwise_and(np.array([1.5]), 1))
'''),
])

group('shape functions follow numpy', [
    ('ravel, flip and rotations', '''
a = np.arange(6).reshape(2, 3)
print(repr(np.ravel(a)), repr(np.flip(a)), repr(np.flip(a, 1)), repr(np.fliplr(a)), repr(np.flipud(a)))
print(repr(np.rot90(a)), repr(np.rot90(a, 2)), repr(np.rot90(a, -1)), repr(np.rot90(a, axes=(1, 0))))
err(lambda: np.fliplr(np.arange(3)))
err(lambda: np.flip(a, 2))
'''),
    ('axes', '''
a = np.zeros((2, 3, 4))
print(np.swapaxes(a, 0, 2).shape, np.moveaxis(a, 0, -1).shape, np.moveaxis(a, [0, 1], [-1, -2]).shape, np.rollaxis(a, 2).shape, np.rollaxis(a, 2, 1).shape)
err(lambda: np.moveaxis(a, 3, 0))
err(lambda: np.swapaxes(a, 0, -4))
'''),
    ('atleast and broadcasting', '''
print(repr(np.atleast_1d(3)), repr(np.atleast_2d([1, 2])), np.atleast_3d(np.ones((2, 3))).shape, np.atleast_3d([1, 2]).shape)
print(repr(np.broadcast_to(np.array([1, 2, 3]), (2, 3))), [x.shape for x in np.broadcast_arrays(np.ones((2, 1)), np.ones(3))])
err(lambda: np.broadcast_to(np.array([1, 2, 3]), (4,)))
'''),
    ('stacks and splits', '''
a, b = np.array([1, 2]), np.array([3, 4])
print(repr(np.column_stack((a, b))), repr(np.dstack((a, b))), np.dstack((np.ones((2, 2)), np.ones((2, 2)))).shape)
x = np.arange(16.0).reshape(4, 4)
print([p.shape for p in np.hsplit(x, 2)], [p.tolist() for p in np.vsplit(x, [1, 3])], [p.shape for p in np.dsplit(np.ones((2, 2, 4)), 2)])
err(lambda: np.vsplit(np.arange(4), 2))
'''),
    ('append, insert, delete', '''
a = np.array([[1, 2], [3, 4]])
print(repr(np.append([1, 2], [[3, 4]])), repr(np.append(a, [[5, 6]], axis=0)), repr(np.append(np.array([1.5]), 2)))
print(repr(np.insert(np.array([1, 2, 3]), 1, 9)), repr(np.insert(a, 1, 5, axis=1)), repr(np.insert(a, 1, [7, 8], axis=0)))
print(repr(np.insert(np.array([1, 2, 3]), [0, 2], [7, 8])), repr(np.insert(np.array([1.5, 2.5]), 1, 3)))
print(repr(np.delete(np.arange(6), [0, 2])), repr(np.delete(a, 0, axis=1)), repr(np.delete(np.arange(5), slice(1, 3))), repr(np.delete(np.arange(4), -1)))
err(lambda: np.delete(np.arange(3), 5))
'''),
    ('resize, take, copies', '''
print(repr(np.resize(np.array([1, 2, 3]), (2, 4))), repr(np.take(np.array([4, 5, 6]), [0, -1, 1])))
a = np.arange(6).reshape(2, 3)
print(repr(np.take(a, [2, 0], axis=1)), repr(np.take(a, [5, 7], mode="wrap")), repr(np.take(a, [9], mode="clip")))
err(lambda: np.take(np.arange(3), [3]))
b = np.copy(a)
b[0, 0] = 100
c = np.array(a)
c[1, 1] = -1
print(a[0, 0], a[1, 1], b[0, 0], c[1, 1], repr(np.empty_like(a).shape), repr(np.full_like(a, 2.7)), repr(np.full_like(a, 1.5, dtype=np.float32)))
'''),
    ('diagonals and triangles', '''
a = np.arange(9).reshape(3, 3)
print(repr(np.diag(a)), repr(np.diag(a, 1)), repr(np.diag(a, -1)), repr(np.diag([1, 2])), repr(np.diag([1, 2], 1)))
print(repr(np.diagonal(np.arange(8).reshape(2, 2, 2))), np.trace(a), np.trace(a, 1), repr(np.trace(np.ones((2, 2), dtype=np.float32))))
print(repr(np.tril(a)), repr(np.triu(a, 1)), repr(np.tril(a, -1)), repr(np.triu(np.ones((2, 3)), -1)))
'''),
])

group('scans, differences and statistics have numpy\'s values and dtypes', [
    ('cumsum and cumprod along axes', '''
a = np.array([[1, 2, 3], [4, 5, 6]])
print(repr(np.cumsum(a)), repr(np.cumsum(a, axis=0)), repr(np.cumsum(a, axis=-1)), repr(np.cumprod(a, axis=1)))
print(repr(np.cumsum(np.array([True, True, False]))), repr(np.cumsum(np.array([1, 2], dtype=np.int32))), repr(np.cumsum([1.5, 2.5])))
print(repr(np.cumsum(a, dtype=np.float32)), repr(a.cumsum(1)), repr(a.cumprod()))
err(lambda: np.cumsum(a, axis=2))
'''),
    ('diff and gradient', '''
print(repr(np.diff([1, 4, 9, 16])), repr(np.diff([1, 4, 9, 16], n=2)), repr(np.diff(np.array([[1, 3], [2, 7]]), axis=0)))
print(repr(np.diff(np.array([True, False, False]))), repr(np.diff([1, 2], prepend=0, append=[5])))
print(repr(np.gradient(np.array([1.0, 2.0, 4.0, 7.0]))), repr(np.gradient(np.array([1, 4, 9, 16]), 2.0)))
print([repr(g) for g in np.gradient(np.array([[1.0, 2.0, 6.0], [3.0, 4.0, 5.0]]))])
print(repr(np.gradient(np.array([1.0, 4.0, 9.0]), np.array([0.0, 1.0, 3.0]))))
err(lambda: np.diff(np.array(5)))
'''),
    ('var and std with ddof', '''
a = np.array([[1, 2], [3, 5]])
print(np.var(a), np.std(a), np.var(a, ddof=1), repr(np.std(a, axis=0, ddof=1)), repr(np.var(a, axis=1, keepdims=True)))
print(repr(np.var(np.array([1.0, 2.0], dtype=np.float32))), a.std(ddof=1), repr(a.var(axis=0)))
'''),
    ('median, percentile and quantile', '''
a = np.array([[10, 7, 4], [3, 2, 1]])
print(np.median(a), repr(np.median(a, axis=0)), repr(np.median(a, axis=1)), repr(np.median(a, axis=1, keepdims=True)))
print(repr(np.median(np.array([1.0, 2.0, 3.0, 4.0], dtype=np.float32))), np.median(np.array([1.0, np.nan, 3.0])))
print(np.percentile(a, 50), repr(np.percentile(a, [25, 75])), repr(np.percentile(a, 40, axis=1)), repr(np.quantile(a, 0.3, axis=0)))
print(repr(np.percentile(np.array([1.0, 2.0, 3.0, 4.0], dtype=np.float32), 50)), repr(np.percentile(a, [10, 90], axis=1, keepdims=True)))
print(repr(np.percentile([1, 2, 3, 4], 40, method="lower")), repr(np.percentile([1, 2, 3, 4], 40, method="higher")), repr(np.percentile([1, 2, 3, 4], 50, method="nearest")), repr(np.percentile([1, 2, 3, 4], 40, method="midpoint")))
err(lambda: np.percentile([1, 2], 101))
err(lambda: np.quantile([1, 2], -0.5))
'''),
    ('average, ptp, count_nonzero', '''
a = np.array([[1, 2], [3, 4]])
print(np.average(a), repr(np.average(a, axis=0, weights=[1, 3])), repr(np.average([1, 2, 3], weights=[3, 1, 0], returned=True)))
print(np.ptp(a), repr(np.ptp(a, axis=1)), np.count_nonzero([0, 1, 2, 0]), repr(np.count_nonzero(a > 1, axis=0)))
err(lambda: np.average(a, weights=[1, 2]))
err(lambda: np.average([1, 2], weights=[0, 0]))
'''),
    ('bincount, searchsorted, digitize', '''
print(repr(np.bincount([0, 1, 1, 3])), repr(np.bincount([1, 1], minlength=4)), repr(np.bincount([0, 1, 1], weights=[0.5, 1.0, 2.0])))
print(repr(np.searchsorted([1, 2, 3, 4, 5], 3)), repr(np.searchsorted([1, 2, 3, 4, 5], 3, side="right")), repr(np.searchsorted([1, 2, 3], [[0, 2], [3, 9]])))
print(repr(np.searchsorted([1.0, 2.0, np.nan], [np.nan, 1.5])), repr(np.digitize([0.2, 6.4, 3.0, 1.6], [0.0, 1.0, 2.5, 4.0, 10.0])))
print(repr(np.digitize([1, 2, 3], [1, 2, 3], right=True)), repr(np.digitize([0.5, 2.5], [3, 2, 1])))
err(lambda: np.bincount([0, -1]))
err(lambda: np.bincount([0.5]))
err(lambda: np.digitize([1], [1, 3, 2]))
'''),
    ('histogram', '''
c, e = np.histogram([1, 2, 1, 4, 3, 2, 2])
print(repr(c), repr(e))
c, e = np.histogram(np.array([0.5, 1.5, 1.5, 2.5, 9.0]), bins=3, range=(0, 3))
print(repr(c), repr(e))
c, e = np.histogram([1, 2, 2, 3], bins=[0, 1, 2, 3])
print(repr(c), repr(e))
c, e = np.histogram([1, 2, 2, 3], bins=2, weights=[0.5, 1.0, 1.0, 2.0])
print(repr(c), repr(e))
c, e = np.histogram([1, 2, 2, 3], bins=[0, 2, 4], density=True)
print(repr(c), repr(e))
c, e = np.histogram(np.array([5, 5, 5]), bins=2)
print(repr(c), repr(e))
err(lambda: np.histogram([1, 2], bins=[2, 1]))
'''),
    ('interp and trapz', '''
print(repr(np.interp([0, 1, 1.5, 2.72, 3.14], [1, 2, 3], [3, 2, 0])), np.interp(2.5, [1, 2, 3], [3, 2, 0]))
print(repr(np.interp([0, 5], [1, 2, 3], [3, 2, 0], left=-1, right=99)))
print(np.trapz([1, 2, 3]), np.trapz([1, 2, 3], x=[4, 6, 8]), repr(np.trapz(np.array([[0, 1, 2], [3, 4, 5]]), axis=1)))
'''),
    ('cov and corrcoef', '''
x = np.array([[0, 2], [1, 1], [2, 0]]).T
print(repr(np.cov(x)), repr(np.cov([1, 2, 3], [1, 2, 4])), repr(np.cov(x, bias=True)), repr(np.cov(x.T, rowvar=False)))
print(repr(np.corrcoef(x)), repr(np.corrcoef([1, 2, 3, 4], [2, 4, 5, 9])), np.cov([1.0, 2.0, 4.0]))
'''),
    ('nan-aware reductions', '''
a = np.array([[1.0, np.nan], [3.0, 4.0]])
print(np.nansum(a), repr(np.nansum(a, axis=0)), np.nanmean(a), repr(np.nanmean(a, axis=1)), np.nanmax(a), np.nanmin(a))
print(repr(np.nanstd(a, axis=0)), np.nanvar(a), np.nanprod(a), repr(np.nancumsum(a)), np.nanargmax(a), np.nanargmin(a))
print(np.nanmedian(a), repr(np.nanmedian(a, axis=0)), repr(np.nanpercentile(a, 50, axis=1)), repr(np.nanmax(np.array([[np.nan], [1.0]]), axis=1)))
print(np.nansum(np.array([1, 2])), np.nanmean(np.array([1, 2])))
'''),
])

group('products and polynomials', [
    ('outer, inner, kron, tensordot', '''
print(repr(np.outer([1, 2], [3, 4, 5])), repr(np.outer(np.array([1.5]), np.array([2, 3]))), np.inner([1, 2], [3, 4]))
print(repr(np.inner(np.arange(4).reshape(2, 2), np.arange(4).reshape(2, 2))), repr(np.kron([1, 10], [1, 2, 3])), repr(np.kron(np.eye(2), np.ones((2, 2)))))
a, b = np.arange(6.0).reshape(2, 3), np.arange(6.0).reshape(3, 2)
print(repr(np.tensordot(a, b, axes=1)), float(np.tensordot(a, a, axes=([0, 1], [0, 1]))), np.tensordot(np.ones((2, 3, 4)), np.ones((3, 4, 5))).shape)
err(lambda: np.tensordot(a, a, axes=1))
'''),
    ('einsum', '''
a, b = np.arange(6.0).reshape(2, 3), np.arange(6.0).reshape(3, 2)
print(repr(np.einsum("ij,jk->ik", a, b)), repr(np.einsum("ij->ji", a)), np.einsum("ii", np.eye(3)), repr(np.einsum("ii->i", np.arange(4.0).reshape(2, 2))))
print(repr(np.einsum("i,i", [1.0, 2.0], [3.0, 4.0])), repr(np.einsum("i,j->ij", [1.0, 2.0], [3.0, 4.0])), repr(np.einsum("ij->", a)), repr(np.einsum("ij->j", a)))
x = np.arange(24.0).reshape(2, 3, 4)
y = np.arange(40.0).reshape(2, 4, 5)
print(repr(np.einsum("bij,bjk->bik", x, y).sum(axis=(1, 2))), np.einsum("...ij,...jk->...ik", x, y).shape, repr(np.einsum("ij,ij->i", a, a)))
print(repr(np.einsum("ij,jk,kl->il", a, b, np.eye(2))), repr(np.einsum("ij,jk", a, b)))
'''),
    ('cross and convolve', '''
print(repr(np.cross([1, 2, 3], [4, 5, 6])), int(np.cross([1, 2], [3, 4])), repr(np.cross(np.eye(3), np.ones(3))))
print(repr(np.convolve([1, 2, 3], [0, 1, 0.5])), repr(np.convolve([1, 2, 3], [0, 1, 0.5], "same")), repr(np.convolve([1, 2, 3], [0, 1, 0.5], "valid")))
print(repr(np.convolve([1, 2], [1, 2, 3, 4])), repr(np.correlate([1, 2, 3], [0, 1, 0.5])), repr(np.correlate([1, 2, 3], [0, 1, 0.5], "full")))
'''),
    ('vander, polyval, polyfit', '''
print(repr(np.vander([1, 2, 3])), repr(np.vander(np.array([1.0, 2.0]), 3, increasing=True)))
print(np.polyval([1, 2, 3], 2), repr(np.polyval([3, 0, 1], np.array([1, 2]))))
print(repr(np.round(np.polyfit([0, 1, 2, 3], [1, 3, 5, 7.1], 1), 6)), repr(np.round(np.polyfit([0.0, 1.0, 2.0, 3.0], [1.0, 2.0, 5.0, 10.0], 2), 6)))
'''),
])

group('np.linalg computes with numpy\'s dtypes and errors', [
    ('norm', '''
a = np.array([[1, 2], [3, 4]])
print(np.linalg.norm([3, 4]), repr(np.linalg.norm(np.array([3, 4], dtype=np.float32))), repr(np.linalg.norm(a)), repr(np.linalg.norm(a, axis=1)))
print(np.linalg.norm(a, 1), np.linalg.norm(a, np.inf), np.linalg.norm([1, -2, 3], 1), np.linalg.norm([1, -2, 3], np.inf), np.linalg.norm([1, 0, 3], 0))
print(repr(np.linalg.norm(a, axis=0, keepdims=True)), np.linalg.norm(a, "fro"), round(float(np.linalg.norm(a, 2)), 10), round(float(np.linalg.norm(a, "nuc")), 10), np.linalg.norm([1.0, 2.0], 3))
err(lambda: np.linalg.norm(a, 3))
err(lambda: np.linalg.norm([1, 2], "fro"))
'''),
    ('inv, det, solve', '''
a = np.array([[4.0, 7.0], [2.0, 6.0]])
print(repr(np.linalg.inv(a)), repr(np.linalg.inv(np.eye(2, dtype=np.float32))), round(float(np.linalg.det(a)), 12), round(float(np.linalg.det(np.array([[1, 2], [3, 4]]))), 12), np.linalg.det(np.ones((2, 3, 3))).shape)
print(repr(np.linalg.solve(a, [1.0, 2.0])), repr(np.linalg.solve(a, np.array([[1.0, 0.0], [0.0, 1.0]]))), [round(float(v), 12) for v in np.linalg.slogdet(a)])
print(repr(np.linalg.inv(np.array([[[1.0, 0.0], [0.0, 2.0]], [[2.0, 0.0], [0.0, 4.0]]]))))
err(lambda: np.linalg.inv(np.array([[1.0, 2.0], [2.0, 4.0]])))
err(lambda: np.linalg.inv(np.ones(3)))
err(lambda: np.linalg.inv(np.ones((2, 3))))
err(lambda: np.linalg.solve(np.eye(2), np.ones(3)))
err(lambda: np.linalg.inv(np.eye(2, dtype=np.float16)))
'''),
    ('decompositions', '''
a = np.array([[4.0, 2.0], [2.0, 3.0]])
L = np.linalg.cholesky(a)
print(repr(L), np.allclose(L @ L.T, a))
w, v = np.linalg.eigh(a)
print(repr(w), np.allclose(a @ v, v * w), repr(np.linalg.eigvalsh(a)))
m = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
u, s, vh = np.linalg.svd(m, full_matrices=False)
print(u.shape, repr(s), vh.shape, np.allclose((u * s) @ vh, m), np.linalg.svd(m)[0].shape, repr(np.linalg.svd(m, compute_uv=False)))
q, r = np.linalg.qr(m)
print(q.shape, r.shape, np.allclose(q @ r, m), np.allclose(np.abs(r), np.abs(np.array([[5.91607978, 7.43735744], [0.0, 0.82807867]]))), np.linalg.qr(m, mode="complete")[0].shape)
err(lambda: np.linalg.cholesky(np.array([[1.0, 2.0], [2.0, 1.0]])))
'''),
    ('eig of matrices with real eigenvalues', '''
for m in ([[2.0, 0.0], [0.0, 1.0]], [[4.0, 1.0], [2.0, 3.0]], [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 10.0]]):
    w, v = np.linalg.eig(np.array(m))
    print(repr(w), repr(np.abs(v)), np.allclose(np.array(m) @ v, v * w), repr(np.linalg.eigvals(m)))
print(np.linalg.eig(np.eye(2, dtype=np.float32))[0].dtype)
'''),
    ('pinv, lstsq, rank, power, cond', '''
m = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
print(repr(np.linalg.pinv(m)), repr(np.linalg.matrix_rank(np.ones((3, 3)))), np.linalg.matrix_rank(np.eye(3)), np.linalg.matrix_rank([1, 0]))
x, res, rank, sv = np.linalg.lstsq(np.array([[1.0, 1.0], [1.0, 2.0], [1.0, 3.0]]), np.array([1.0, 2.0, 2.0]), rcond=None)
print(repr(x), repr(res), rank, repr(sv))
print(repr(np.linalg.matrix_power(np.array([[1, 1], [1, 0]]), 5)), repr(np.linalg.matrix_power(np.array([[2.0, 0.0], [0.0, 4.0]]), -1)), repr(np.linalg.matrix_power(np.eye(2), 0)))
print(round(float(np.linalg.cond(np.array([[1.0, 2.0], [3.0, 4.0]]))), 8), repr(np.linalg.multi_dot([np.ones((2, 3)), np.ones((3, 4)), np.ones(4)])))
'''),
])

group('dtype objects, the type hierarchy and error state', [
    ('finfo and iinfo', '''
print(np.finfo(np.float32).eps, np.finfo(np.float64).eps, np.finfo(float).max, np.finfo(np.float32).tiny, np.finfo(np.float32).bits, np.finfo(np.float16).eps)
print(np.finfo(np.float32).max, np.finfo(np.float32).min, np.finfo(np.float32).dtype, np.finfo(np.float64).resolution, np.finfo(np.float32).precision)
print(repr(np.iinfo(np.int32)), np.iinfo(np.uint8).max, np.iinfo("int64").min, np.iinfo(np.int32).bits, np.iinfo(np.int64).dtype)
err(lambda: np.iinfo(np.float32))
err(lambda: np.finfo(np.int32))
'''),
    ('issubdtype and result_type', '''
print(np.issubdtype(np.float32, np.floating), np.issubdtype(np.int32, np.integer), np.issubdtype(np.uint8, np.signedinteger), np.issubdtype(np.uint8, np.unsignedinteger))
print(np.issubdtype(np.bool_, np.number), np.issubdtype(float, np.floating), np.issubdtype(np.float64, float), np.issubdtype(np.float32, float))
print(np.issubdtype(np.array([1]).dtype, np.number), np.issubdtype(np.array([1.0]).dtype, np.integer), np.issubdtype(np.floating, np.number), np.issubdtype(np.int64, np.inexact))
print(np.result_type(np.int32, np.float32), np.result_type(np.array([1], np.int32), 1.0), np.result_type(3, np.uint8), np.result_type(np.int64, np.uint8))
'''),
    ('isscalar, iterable, errstate', '''
print(np.isscalar(3), np.isscalar(2.5), np.isscalar([1]), np.isscalar("a"), np.iterable([1]), np.iterable(np.array(1)), np.iterable(3), np.iterable(np.arange(2)))
print(np.geterr())
old = np.seterr(all="ignore")
print(old, np.geterr())
np.seterr(**old)
with np.errstate(divide="ignore", invalid="raise"):
    print(np.geterr())
print(np.geterr())
err(lambda: np.seterr(divide="loud"))
'''),
])

group('index construction and set routines', [
    ('grids and index expressions', '''
print(repr(np.mgrid[0:3, 0:2]), repr(np.mgrid[0:1:0.25]), repr(np.ogrid[0:2, 0:3]), np.s_[1:3, ::2], np.index_exp[2])
print(repr(np.ix_([0, 1], [2, 3])), repr(np.indices((2, 3))), repr(np.fromfunction(lambda i, j: i + j, (2, 2))))
print(list(np.ndindex(2, 2)), [(i, int(v)) for i, v in np.ndenumerate(np.array([[1, 2]]))])
a = np.arange(12).reshape(3, 4)
print(repr(a[np.ix_([0, 2], [1, 3])]), repr(np.arange(5)[np.s_[1:4]]))
'''),
    ('triangle and diagonal indices', '''
print(repr(np.tril_indices(3)), repr(np.triu_indices(3, 1)), repr(np.diag_indices(2)), repr(np.triu_indices(2, 0, 3)))
a = np.zeros((3, 3))
np.fill_diagonal(a, 5)
print(repr(a))
b = np.arange(9).reshape(3, 3)
print(repr(b[np.triu_indices(3)]), repr(np.tri(3, 2)), repr(np.tril_indices_from(b, -1)))
'''),
    ('flat indices and sorting helpers', '''
print(np.unravel_index(5, (2, 3)), repr(np.unravel_index([1, 5], (2, 3))), repr(np.ravel_multi_index(([0, 1], [2, 1]), (2, 3))))
print(repr(np.flatnonzero([0, 1, 0, 2])), repr(np.lexsort(([1, 2, 1], [3, 1, 3]))), repr(np.partition([3, 1, 2, 5], 1)[1]), repr(np.sort(np.array([3, 1, 2, 5])[np.argpartition([3, 1, 2, 5], 2)[:2]])))
err(lambda: np.unravel_index(6, (2, 3)))
x = np.array([1, 2, 3, 4])
print(repr(np.select([x < 2, x > 3], [x * 10, x * 100], default=-1)), repr(np.piecewise(np.array([-1.0, 0.5, 2.0]), [np.array([-1.0, 0.5, 2.0]) < 0], [lambda v: -v, lambda v: v * 2])))
p = np.arange(5)
np.put(p, [0, 2], [-1, -2])
print(repr(p))
'''),
    ('sets', '''
print(repr(np.isin([1, 2, 3], [2, 5])), repr(np.isin(np.array([[1, 2], [3, 4]]), [4, 1], invert=True)), repr(np.in1d([1, 5], [5])))
print(np.unique(np.array([[1, 2], [2, 1]]), return_inverse=True), np.unique(np.array([np.nan, 1, np.nan, 0.5]), return_index=True, return_counts=True))
print(np.unique([3, 1, 2, 3, 1], return_index=True, return_inverse=True, return_counts=True), np.unique(np.array([True, False, True])), np.unique(np.array([], dtype=np.int64), return_counts=True))
print(repr(np.intersect1d([3, 1, 2], [2, 3, 4])), repr(np.union1d([3, 1], [2, 1])), repr(np.setdiff1d([3, 1, 2, 2], [2])), repr(np.setxor1d([1, 2, 3], [2, 3, 4])))
'''),
    ('spaced ranges', '''
print(repr(np.logspace(0, 2, 3)), repr(np.logspace(0, 3, 4, base=2)), repr(np.geomspace(1, 1000, 4)), repr(np.geomspace(-1, -100, 3)))
'''),
    ('vectorize', '''
f = np.vectorize(lambda a, b: a + b if a > b else a - b)
print(repr(f([1, 4], 2)), repr(np.vectorize(lambda x: x * 0.5)(np.array([[1, 2]]))), repr(np.vectorize(lambda x: x, otypes=[float])([1, 2])))
print(repr(np.vectorize(lambda x, k: x ** k, excluded={1})(np.arange(3), 2)))
'''),
    ('histogram2d', '''
h, xe, ye = np.histogram2d([0.1, 0.5, 0.9, 0.5], [0.2, 0.2, 0.8, 0.9], bins=2)
print(repr(h), repr(xe), repr(ye))
h, xe, ye = np.histogram2d([0, 1, 2], [0, 1, 2], bins=[2, 3], range=[[0, 2], [0, 3]])
print(repr(h), repr(xe), repr(ye))
h, xe, ye = np.histogram2d([0.5, 1.5], [0.5, 0.5], bins=[[0, 1, 2], [0, 1]], weights=[2.0, 3.0], density=True)
print(repr(h))
'''),
])

group('np.testing assertions pass and fail as numpy\'s', [
    ('passing assertions', '''
np.testing.assert_allclose([1.0, 2.0], [1.0, 2.0 + 1e-9])
np.testing.assert_array_equal(np.array([1, 2]), [1, 2])
np.testing.assert_equal({"a": [1, 2]}, {"a": [1, 2]})
np.testing.assert_array_almost_equal([1.0, 2.0], [1.0000001, 2.0])
np.testing.assert_almost_equal(1.0, 1.00000001)
np.testing.assert_array_less([1, 2], [2, 3])
print("ok")
'''),
    ('failing assertions raise AssertionError', '''
err(lambda: np.testing.assert_array_equal([1, 2, 3], [1, 2, 4]))
err(lambda: np.testing.assert_allclose([1.0, 2.0], [1.0, 2.5]))
err(lambda: np.testing.assert_equal(1, 2))
err(lambda: np.testing.assert_array_equal([1, 2], [1, 2, 3]))
'''),
])

group('text files', [
    ('savetxt and loadtxt round trip', '''
import os
p = "/tmp/tlens_numpy_api_case_%d.txt" % os.getpid()
np.savetxt(p, np.array([[1.5, 2.0], [3.0, 4.25]]))
print(open(p).read(), end="")
print(repr(np.loadtxt(p)))
np.savetxt(p, np.array([1, 2, 3]), fmt="%d", header="numbers")
print(open(p).read(), end="")
print(repr(np.loadtxt(p)), repr(np.loadtxt(p, dtype=int)))
with open(p, "w") as f:
    f.write("1,2,3\\n# comment\\n4,5,6\\n")
print(repr(np.loadtxt(p, delimiter=",")), repr(np.loadtxt(p, delimiter=",", usecols=(0, 2))), repr(np.loadtxt(p, delimiter=",", unpack=True)))
with open(p, "w") as f:
    f.write("# a b c\\n1,2,3\\n4,,6\\n")
print(repr(np.genfromtxt(p, delimiter=",")), repr(np.genfromtxt(p, delimiter=",", skip_header=2, filling_values=0)))
with open(p, "w") as f:
    f.write("1 x\\n")
err(lambda: np.loadtxt(p))
os.remove(p)
'''),
])

group('conversions out of a type\'s range give numpy\'s x86 answers, never undefined behaviour', [
    ('floats to integers', '''
x = np.array([1e10, -3e9, 40000.0, -1.0, np.nan, np.inf, 1e20, 300.7, -300.7])
print(x.astype(np.uint8).tolist())
print(x.astype(np.int32).tolist())
print(x.astype(np.int64).tolist())
print(x.astype(np.bool_).tolist())
print(np.array([2.5e9, -7.9], dtype=np.float32).astype(np.int32).tolist())
'''),
    ('python integers keep every bit', '''
print(np.array([2**60 + 1, -2**62 - 3]).tolist(), np.array(2**53 + 1).item())
print(np.array([300, -1, 256], dtype=np.uint8).tolist(), np.array([2**40, 5], dtype=np.int32).tolist())
print(np.array([2**60 + 1], dtype=np.int64).tolist())
'''),
])

group('argmax and argmin take bools', [
    ('bools and uint8', '''
b = np.array([0, 5, 15])
print(repr(np.argmax(b > 3)), repr(np.argmin(b > 3)), repr((b > 3).argmax()), repr(np.argmax(np.array([False, False]))))
print(repr(np.argmax(np.array([[True, False], [False, True]]), axis=0)), repr(np.argmin(np.array([3, 1, 2], dtype=np.uint8))))
'''),
])

group('slice assignment broadcasts the value to the selected region', [
    ('channels, rows and leading ones', '''
m = np.ones((5, 6, 3))
m[1:3, 2:4, :] = np.zeros((2, 2, 1))
print(m.sum())
def put(v):
    m[1:3, 2:4] = v
def put_row(v):
    m[0, 1:3] = v
for v in [np.zeros((2, 3)), np.zeros((1, 1, 2, 2, 3)), np.zeros((3, 2, 3))]:
    err(lambda: put(v))
err(lambda: put_row(np.zeros((4,))))
m[0, 1:3] = np.arange(3)
m[:, 0] = np.arange(3) * 2
print(m.sum(), m[4, 0].tolist(), m[0, 2].tolist())
'''),
    ('an ellipsis or a new axis in the key', '''
Y = np.zeros((2, 3, 4))
Y[..., 1] = np.arange(6).reshape(2, 3)
Y[0, ..., 2] = 7
Y[:, None, 0] = 5
Y[1, ...] += 1
print(Y.sum(), Y[1, 2].tolist(), Y[0, 1].tolist())
def put(k):
    Y[k] = 1
err(lambda: put((0, 0, 0, 0)))
err(lambda: put((Ellipsis, 0, Ellipsis)))
'''),
])

group('numpy scalars round as numpy\'s, and arrays do not', [
    ('round()', '''
print(repr(round(np.float32(2.123456), 4)), repr(round(np.float64(2.5))), repr(round(np.int64(7), -1)), repr(round(np.float32(3.7))))
x = round(np.float32(2.123456), 4)
print(x.dtype, type(round(np.float64(2.5))).__name__)
err(lambda: round(np.array([1.5, 2.5])))
'''),
    ('the sign of zero survives rounding', '''
print(repr(np.round(np.array([-0.4, -0.0, 0.4, -2.5, 2.5]))), repr(np.round(np.array([-0.0004, 0.0004]), 3)))
print(repr(np.round(np.array([-0.4], dtype=np.float32))), repr(np.rint(np.array([-0.2, -1.5]))))
'''),
])

group('shape errors are numpy\'s exceptions and messages', [
    ('dot, matmul and N-D dot', '''
a, b = np.zeros((100, 3)), np.zeros((100, 1))
err(lambda: np.dot(a, b))
err(lambda: a.dot(b))
err(lambda: np.matmul(a, b))
err(lambda: np.dot(np.zeros(3), np.zeros(4)))
err(lambda: np.dot(np.zeros((2, 3)), np.zeros(4)))
err(lambda: np.dot(np.zeros(3), np.zeros((4, 2))))
err(lambda: np.dot(np.zeros((2, 3, 4)), np.zeros((5, 2))))
x, y = np.arange(24.).reshape(2, 3, 4), np.arange(24.).reshape(3, 4, 2)
print(np.dot(x, y).shape, np.dot(x, y).sum(), np.dot(x, np.ones((4, 5))).shape)
'''),
    ('concatenate, stack, reshape, broadcasting', '''
a, b, c = np.zeros((100, 3)), np.zeros((100, 1)), np.zeros((4, 4))
err(lambda: np.concatenate([a, c]))
err(lambda: np.vstack([a, c]))
err(lambda: np.hstack([a, c]))
err(lambda: np.concatenate([a, np.zeros(3)]))
err(lambda: np.column_stack([np.zeros(3), np.zeros(4)]))
err(lambda: np.append(a, c, axis=0))
err(lambda: np.stack([a, b]))
err(lambda: a.reshape(7, 3))
err(lambda: a + c)
err(lambda: np.where(np.zeros(3) > 0, np.zeros(4), 0))
'''),
])

group('array-likes (lists, ranges) are converted as numpy converts them', [
    ('shape functions take lists', '''
x = np.array([3.0, 1.0, 2.0])
idx = np.array([2, 0])
print(repr(np.transpose([x[idx]])), repr(np.transpose([[1, 2, 3], [4, 5, 6]])))
print(repr(np.reshape([3.0, 1.0], (2, 1))), repr(np.expand_dims([1.5, 2.5], 0)), repr(np.squeeze([[1.5, 2.5]])))
'''),
    ('ranges are sequences of ints', '''
print(repr(np.array(range(3))), repr(np.asarray(range(1, 7, 2))), np.mean(range(4)), repr(np.array(range(0))))
np.random.seed(0)
print(repr(np.random.choice(range(10), 3, replace=False)), repr(np.sum(range(5))))
'''),
    ('any and all test truth', '''
print(np.any([0, 1]), np.all([0, 1]), np.all([2.5, -1.0]), repr(np.any(np.array([[0, 0], [0, 3]]), axis=0)))
print(np.array([1, 2]).all(), np.array([0.0, 0.0]).any(), np.any([]), np.all([]))
'''),
])

group('arange in any dtype', [
    ('small integer and bool dtypes count in a wide type, then cast', '''
print(repr(np.arange(5, dtype=np.uint8)), repr(np.arange(0, 3, dtype="uint8") * 100), repr(np.arange(2, dtype=bool)))
print(repr(np.arange(3, dtype=np.float32)), repr(np.arange(1.5, 4, dtype=np.uint8)), repr(np.arange(6, 0, -2, dtype=np.uint8)))
'''),
])

group('np.ndarray is the arrays\' type and makes arrays', [
    ('isinstance and issubclass', '''
a = np.zeros(2)
print(isinstance(a, np.ndarray), isinstance(np.float32(1), np.ndarray), isinstance([1], np.ndarray), isinstance(a, (list, np.ndarray)))
print(issubclass(type(a), np.ndarray), isinstance(a[0], np.ndarray), isinstance(a.reshape(1, 2), np.ndarray))
'''),
    ('the constructor', '''
b = np.ndarray(shape=(4), dtype=np.int32)
l = np.ndarray(shape=(4, 1), dtype=np.int32)
b[0] = 3
l[1, 0] = 7
print(b.shape, b.dtype, l.shape, l.dtype, b[0], l[1, 0], np.ndarray((2, 3)).dtype, isinstance(b, np.ndarray))
'''),
])
