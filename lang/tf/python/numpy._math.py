# numpy._math: numpy's elementwise math beyond numpy.py's basics (trigonometric and hyperbolic
# functions, logarithms, rounding, floor division and remainders, comparisons, nan-aware extrema,
# bit operations, isclose, nan_to_num), each one engine op or a few over the whole array, with
# numpy's result dtypes: integer and bool inputs of float functions give float64 (float16 for
# uint8 and bool, as numpy's smallest safe float). numpy.py re-exports the public names.
import _tlens
import numpy as _np
from numpy._util import _arr, _op

_float = float
_int = int
_bool = bool


def _float_in(x):
    """x as numpy's float loop sees it: floats stay, bool/uint8 become float16, other ints float64."""
    x = _arr(x)
    if x.dtype.is_floating:
        return x
    return x.astype(_np.float16 if x.dtype in (_np.uint8, _np.bool_) else _np.float64)


def _ufunc(op_type):
    def f(x, out=None):
        return _op(op_type, [_float_in(x)])
    return f


tan = _ufunc("Tan")
arcsin = _ufunc("Asin")
arccos = _ufunc("Acos")
arctan = _ufunc("Atan")
sinh = _ufunc("Sinh")
cosh = _ufunc("Cosh")
arcsinh = _ufunc("Asinh")
arccosh = _ufunc("Acosh")
arctanh = _ufunc("Atanh")
expm1 = _ufunc("Expm1")
log2 = _ufunc("Log2")
log10 = _ufunc("Log10")
cbrt = _ufunc("Cbrt")
rint = _ufunc("Round")


def _pair(x1, x2):
    """x1 and x2 promoted together as numpy's binary ufuncs do (Python scalars weakly)."""
    a = x1 if _tlens.is_ndarray(x1) else None
    b = x2 if _tlens.is_ndarray(x2) else None
    if a is None and b is None:
        a, b = _np.array(x1), _np.array(x2)
    elif a is None:
        a = _np.array(x1) if not isinstance(x1, (_int, _float, _bool)) else _np.array(x1, _weak(x1, b.dtype))
    elif b is None:
        b = _np.array(x2) if not isinstance(x2, (_int, _float, _bool)) else _np.array(x2, _weak(x2, a.dtype))
    if a.dtype != b.dtype:
        t = _np.promote_types(a.dtype, b.dtype)
        a, b = a.astype(t), b.astype(t)
    return a, b


def _weak(v, other):
    """The dtype a Python scalar takes beside an array of dtype `other` (NEP 50's weak scalars)."""
    if isinstance(v, _bool):
        return other
    if isinstance(v, _int):
        return other if other != _np.bool_ else _np.int64
    return other if other.is_floating else _np.float64


def _float_pair(x1, x2):
    a, b = _pair(x1, x2)
    if not a.dtype.is_floating:
        t = _np.float16 if a.dtype in (_np.uint8, _np.bool_) else _np.float64
        a, b = a.astype(t), b.astype(t)
    return a, b


def arctan2(x1, x2, out=None):
    a, b = _float_pair(x1, x2)
    return _op("Atan2", [a, b])


def hypot(x1, x2, out=None):
    a, b = _float_pair(x1, x2)
    return _np.sqrt(a * a + b * b)


def exp2(x, out=None):
    x = _float_in(x)
    return _op("Pow", [_np.array(2, x.dtype), x])


def deg2rad(x, out=None):
    x = _float_in(x)
    return x * _np.array(_np.pi / 180, x.dtype)


def rad2deg(x, out=None):
    x = _float_in(x)
    return x * _np.array(180 / _np.pi, x.dtype)


radians = deg2rad
degrees = rad2deg


def trunc(x, out=None):
    x = _float_in(x)
    return _op("SelectV2", [x < 0, _np.ceil(x), _np.floor(x)])


fix = trunc


def fabs(x, out=None):
    return _np.abs(_float_in(x))


def reciprocal(x, out=None):
    x = _arr(x)
    if x.dtype == _np.bool_:
        x = x.astype(_np.int64)  # numpy has no bool loop: int8 there, int64 here
    return _op("Reciprocal", [x])


def _int_division(op_type, x1, x2):
    """FloorDiv / FloorMod with numpy's integer rule: a zero divisor gives 0 (numpy warns)."""
    a, b = _pair(x1, x2)
    if a.dtype == _np.bool_:
        a, b = a.astype(_np.int64), b.astype(_np.int64)
    if a.dtype.is_floating:
        return _op(op_type, [a, b])
    zero = b == 0
    safe = _op("SelectV2", [zero, _np.ones_like(b), b])
    r = _op(op_type, [a, safe])
    return _op("SelectV2", [zero, _np.zeros((), r.dtype), r])


def floor_divide(x1, x2, out=None):
    return _int_division("FloorDiv", x1, x2)


def remainder(x1, x2, out=None):
    return _int_division("FloorMod", x1, x2)


mod = remainder


def divmod(x1, x2, out1=None, out2=None):
    return floor_divide(x1, x2), remainder(x1, x2)


def fmod(x1, x2, out=None):
    """C's fmod: the remainder has the sign of x1."""
    a, b = _pair(x1, x2)
    r = remainder(a, b)
    fix_sign = (r != 0) & ((r < 0) != (a < 0))
    return _op("SelectV2", [fix_sign, r - b, r])


def _compare(op_type):
    def f(x1, x2, out=None):
        a, b = _pair(x1, x2)
        return _op(op_type, [a, b])
    return f


greater_equal = _compare("GreaterEqual")
less_equal = _compare("LessEqual")


def _bools(x):
    x = _arr(x)
    return x if x.dtype == _np.bool_ else x != 0


def logical_xor(x1, x2, out=None):
    return _op("NotEqual", [_bools(x1), _bools(x2)])


def fmax(x1, x2, out=None):
    a, b = _pair(x1, x2)
    if not a.dtype.is_floating:
        return _np.maximum(a, b)
    return _op("SelectV2", [_np.isnan(b), a, _op("SelectV2", [_np.isnan(a), b, _np.maximum(a, b)])])


def fmin(x1, x2, out=None):
    a, b = _pair(x1, x2)
    if not a.dtype.is_floating:
        return _np.minimum(a, b)
    return _op("SelectV2", [_np.isnan(b), a, _op("SelectV2", [_np.isnan(a), b, _np.minimum(a, b)])])


def signbit(x, out=None):
    x = _arr(x)
    if not x.dtype.is_floating:
        return x < 0
    one = _np.array(1, x.dtype)
    return (x < 0) | ((x == 0) & (one / x < 0))


def copysign(x1, x2, out=None):
    a, b = _float_pair(x1, x2)
    return _op("SelectV2", [signbit(b), -_np.abs(a), _np.abs(a)])


def logaddexp(x1, x2, out=None):
    a, b = _float_pair(x1, x2)
    m = _np.maximum(a, b)
    return _op("SelectV2", [a == b, a + _np.array(0.6931471805599453, a.dtype), m + _np.log1p(_np.exp(-_np.abs(a - b)))])


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    x, y = _float_pair(a, b)
    finite = _np.isfinite(x) & _np.isfinite(y)
    close = _np.abs(x - y) <= atol + rtol * _np.abs(y)
    r = _op("SelectV2", [finite, close, x == y])
    if equal_nan:
        r = r | (_np.isnan(x) & _np.isnan(y))
    return r


def _float_limits(dtype):
    if dtype == _np.float16:
        return 65504.0
    if dtype == _np.float32:
        return 3.4028234663852886e38
    return 1.7976931348623157e308


def nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None):
    x = _arr(x)
    if not x.dtype.is_floating:
        return x
    big = _float_limits(x.dtype)
    pos = _np.array(big if posinf is None else posinf, x.dtype)
    neg = _np.array(-big if neginf is None else neginf, x.dtype)
    x = _op("SelectV2", [_np.isnan(x), _np.array(nan, x.dtype), x])
    x = _op("SelectV2", [x == _np.inf, pos, x])
    return _op("SelectV2", [x == -_np.inf, neg, x])


def _bit_op(op_type, logical, name):
    def f(x1, x2, out=None):
        a, b = _pair(x1, x2)
        if a.dtype.is_floating:
            raise TypeError("ufunc '%s' not supported for the input types, and the inputs could not be safely coerced "
                            "to any supported types according to the casting rule ''safe''" % name)
        if a.dtype == _np.bool_:
            return _op(logical, [a, b])
        return _op(op_type, [a, b])
    return f


bitwise_and = _bit_op("BitwiseAnd", "LogicalAnd", "bitwise_and")
bitwise_or = _bit_op("BitwiseOr", "LogicalOr", "bitwise_or")
bitwise_xor = _bit_op("BitwiseXor", "NotEqual", "bitwise_xor")


def invert(x, out=None):
    x = _arr(x)
    if x.dtype.is_floating:
        raise TypeError("ufunc 'invert' not supported for the input types, and the inputs could not be safely coerced "
                        "to any supported types according to the casting rule ''safe''")
    if x.dtype == _np.bool_:
        return _op("LogicalNot", [x])
    return _op("Invert", [x])


bitwise_not = invert


def gcd(x1, x2, out=None):
    with _tlens.quiet():
        return _gcd(x1, x2)


def _gcd(x1, x2):
    a, b = _pair(x1, x2)
    if a.dtype.is_floating or a.dtype == _np.bool_:
        raise TypeError("ufunc 'gcd' not supported for the input types")
    a, b = _np.abs(a), _np.abs(b)
    shape = (a + b).shape
    if _tlens.is_unknown(_tlens.value(a)) or _tlens.is_unknown(_tlens.value(b)):
        return _tlens.typed(a.dtype, list(shape), True)  # abstract mode: the steps need values
    a = _op("BroadcastTo", [a, list(shape)])
    b = _op("BroadcastTo", [b, list(shape)])
    # Euclid's steps on the whole array: at most ~90 for int64.
    while True:
        nz = _tlens.value(_np.any(b != 0))
        if _tlens.is_unknown(nz) or nz is not True:
            break
        safe = _op("SelectV2", [b == 0, _np.ones_like(b), b])
        a, b = _op("SelectV2", [b == 0, a, b]), _op("SelectV2", [b == 0, b, _op("FloorMod", [a, safe])])
    return a


def lcm(x1, x2, out=None):
    a, b = _pair(x1, x2)
    g = gcd(a, b)
    safe = _op("SelectV2", [g == 0, _np.ones_like(g), g])
    return _np.abs(_op("FloorDiv", [a, safe]) * b)


def real(val):
    return _arr(val)


def imag(val):
    return _np.zeros_like(_arr(val))


def angle(z, deg=False):
    z = _float_in(z)
    r = _op("SelectV2", [z < 0, _np.array(180.0 if deg else _np.pi, z.dtype), _np.zeros_like(z)])
    return r


def iscomplexobj(x):
    return False


def isreal(x):
    return _np.ones_like(_arr(x), dtype=_np.bool_)
