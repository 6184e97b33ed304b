# numpy._types: numpy's scalar type hierarchy as issubdtype sees it (generic > number > integer >
# signedinteger / unsignedinteger, number > inexact > floating), finfo and iinfo, result_type,
# isscalar and iterable, and the floating-point error state (errstate, seterr, geterr). The state
# is kept and reported as numpy does; tensorlens computes with IEEE results and never warns, so a
# 'raise' setting raises nothing. numpy.py re-exports the public names.
import _tlens
import numpy as _np

_int = int
_float = float
_bool = bool
_str = str


class generic:
    """numpy.generic: the root of numpy's scalar types (for issubdtype)."""


class number(generic):
    pass


class integer(number):
    pass


class signedinteger(integer):
    pass


class unsignedinteger(integer):
    pass


class inexact(number):
    pass


class floating(inexact):
    pass


class complexfloating(inexact):
    pass


class flexible(generic):
    pass


class character(flexible):
    pass


_ABSTRACT = {"generic": generic, "number": number, "integer": integer, "signedinteger": signedinteger,
             "unsignedinteger": unsignedinteger, "inexact": inexact, "floating": floating,
             "complexfloating": complexfloating, "flexible": flexible, "character": character}


def _parents(name):
    """The abstract types a concrete dtype (by name) belongs to."""
    if name.startswith("float"):
        return [floating, inexact, number, generic]
    if name.startswith("uint"):
        return [unsignedinteger, integer, number, generic]
    if name.startswith("int"):
        return [signedinteger, integer, number, generic]
    return [generic]


def _as_dtype(t):
    if t is _float:
        return _np.float64
    if t is _int:
        return _np.int64
    if t is _bool:
        return _np.bool_
    return _np.dtype(t)


def issubdtype(arg1, arg2):
    if not (isinstance(arg1, type) and issubclass(arg1, generic)):
        arg1 = _as_dtype(arg1)
    if isinstance(arg2, type) and issubclass(arg2, generic):
        if isinstance(arg1, type):
            return issubclass(arg1, arg2)
        return arg2 in _parents(arg1.name)
    if isinstance(arg1, type):
        return False
    return arg1 == _as_dtype(arg2)


def issctype(rep):
    try:
        _as_dtype(rep)
        return True
    except Exception:
        return False


class finfo:
    """Machine limits of a float type: eps, max, min, tiny, resolution, bits..."""

    _TABLE = {
        "float16": (16, 0.0009765625, 65504.0, 6.103515625e-05, 3, 0.001),
        "float32": (32, 1.1920928955078125e-07, 3.4028234663852886e38, 1.1754943508222875e-38, 6, 1e-06),
        "float64": (64, 2.220446049250313e-16, 1.7976931348623157e308, 2.2250738585072014e-308, 15, 1e-15),
    }

    def __init__(self, dtype):
        if _tlens.is_ndarray(dtype):
            dtype = dtype.dtype
        d = _as_dtype(dtype)
        if not d.is_floating:
            raise ValueError("data type <class 'numpy.%s'> not inexact" % d.name)
        bits, eps, big, tiny, precision, resolution = finfo._TABLE[d.name]
        self.dtype = d
        self.bits = bits
        self.eps = _np.array(eps, d)
        self.epsneg = _np.array(eps / 2, d)
        self.max = _np.array(big, d)
        self.min = _np.array(-big, d)
        self.tiny = _np.array(tiny, d)
        self.smallest_normal = self.tiny
        self.precision = precision
        self.resolution = _np.array(resolution, d)

    def __repr__(self):
        return "finfo(resolution=%s, min=%s, max=%s, dtype=%s)" % (self.resolution, self.min, self.max, self.dtype)

    def __str__(self):
        return self.__repr__()


class iinfo:
    """Machine limits of an integer type: min, max, bits."""

    def __init__(self, int_type):
        if _tlens.is_ndarray(int_type):
            int_type = int_type.dtype
        d = _as_dtype(int_type)
        if not d.is_integer:
            raise ValueError("Invalid integer data type %r." % d.kind)
        self.dtype = d
        self.bits = d.itemsize * 8
        # 2 ** 63 overflows tensorlens' 64-bit ints: the limits are built below it.
        half = 1 << (self.bits - 2)
        if d.kind == "u":
            self.min, self.max = 0, (half - 1) * 4 + 3
        else:
            self.max = (half - 1) * 2 + 1
            self.min = -self.max - 1
        self.kind = d.kind

    def __repr__(self):
        return "iinfo(min=%d, max=%d, dtype=%s)" % (self.min, self.max, self.dtype)

    def __str__(self):
        return self.__repr__()


def result_type(*arrays_and_dtypes):
    arrays, scalars = [], []
    for a in arrays_and_dtypes:
        if isinstance(a, (_int, _float, _bool)) and not isinstance(a, type):
            scalars.append(a)
        elif _tlens.is_ndarray(a):
            arrays.append(a.dtype)
        else:
            arrays.append(_as_dtype(a))
    if not arrays:
        arrays = [_np.asarray(s).dtype for s in scalars]
        scalars = []
    t = arrays[0]
    for d in arrays[1:]:
        t = _np.promote_types(t, d)
    for s in scalars:
        if isinstance(s, _float) and not isinstance(s, _bool) and not t.is_floating:
            t = _np.float64
        elif isinstance(s, _int) and not isinstance(s, _bool) and t == _np.bool_:
            t = _np.int64
    return t


def isscalar(element):
    """numpy scalars are 0-d arrays in tensorlens: those count as scalars too."""
    if isinstance(element, (_int, _float, _bool, _str, bytes)):
        return True
    return _tlens.is_ndarray(element) and element.ndim == 0


def iterable(y):
    if _tlens.is_ndarray(y):
        return y.ndim > 0
    try:
        iter(y)
    except TypeError:
        return False
    return True


_ERR = {"divide": "warn", "over": "warn", "under": "ignore", "invalid": "warn"}
_ERR_KINDS = ("ignore", "warn", "raise", "call", "print", "log")


def geterr():
    return dict(_ERR)


def seterr(all=None, divide=None, over=None, under=None, invalid=None):
    old = geterr()
    for name, v in (("divide", divide), ("over", over), ("under", under), ("invalid", invalid)):
        v = v if v is not None else all
        if v is None:
            continue
        if v not in _ERR_KINDS:
            raise KeyError(v)
        _ERR[name] = v
    return old


class errstate:
    """with np.errstate(divide='ignore'): the error state inside, restored after (also a decorator)."""

    def __init__(self, *, call=None, **kwargs):
        self.kwargs = kwargs
        self.old = None

    def __enter__(self):
        self.old = seterr(**self.kwargs)
        return self

    def __exit__(self, *exc):
        seterr(**self.old)
        return False

    def __call__(self, func):
        state = self

        def wrapper(*args, **kwargs):
            with errstate(**state.kwargs):
                return func(*args, **kwargs)
        return wrapper
