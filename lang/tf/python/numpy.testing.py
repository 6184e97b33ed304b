# numpy.testing: the assertions tests and tutorials use (assert_allclose, assert_array_equal,
# assert_equal, assert_array_almost_equal, assert_almost_equal, assert_array_less, assert_raises),
# raising AssertionError with numpy's report: the mismatched count and the largest differences.
import _tlens
import numpy as _np

_float = float
_int = int


def _arrays(actual, desired):
    return _np.asarray(actual), _np.asarray(desired)


def _shape_str(s):
    return "(" + ", ".join(str(d) for d in s) + ("," if len(s) == 1 else "") + ")"


def _fail(header, err_msg, x, y, remarks):
    """numpy's build_err_msg: the header, the message and remarks, then both arrays."""
    body = err_msg + "\n" + "\n".join(remarks)
    first = "\n" + header
    lines = [first]
    if "\n" not in body and len(body) < 79 - len(header):
        lines = [first + " " + body]
    else:
        lines.append(body)
    lines.append(" x: " + repr(x))
    lines.append(" y: " + repr(y))
    raise AssertionError("\n".join(lines))


def _compare(x, y, test, header, err_msg, equal_nan=True, diffs=True):
    if x.shape != y.shape and x.size != 1 and y.size != 1:
        _fail(header, err_msg, x, y, ["(shapes %s, %s mismatch)" % (_shape_str(x.shape), _shape_str(y.shape))])
    ok = test()
    if equal_nan and x.dtype.is_floating and y.dtype.is_floating:
        ok = ok | (_np.isnan(x) & _np.isnan(y))
    full = _np.broadcast_arrays(x, y)[0].shape
    ok = _np.broadcast_to(ok, full) if ok.shape != full else ok
    bad = _int(_np.sum(_np.logical_not(ok).astype(_np.int64)))
    if bad == 0:
        return
    total = ok.size
    extra = []
    if diffs and not x.dtype == _np.bool_:
        bad_mask = _np.logical_not(ok)
        d = _np.abs(x - y)
        d = _np.where(bad_mask, d, _np.zeros((), d.dtype))
        extra.append("Max absolute difference: " + _g(_np.max(d)))
        rel = d / _np.abs(y)
        rel = _np.where(bad_mask, rel, _np.zeros((), rel.dtype))
        extra.append("Max relative difference: " + _g(_np.max(rel)))
    pct = 100.0 * bad / total
    _fail(header, err_msg, x, y, ["Mismatched elements: %d / %d (%s%%)" % (bad, total, _pct(pct))] + extra)


def _g(v):
    return _np.array2string(v)


def _pct(p):
    s = "%.3g" % p
    return s


def assert_allclose(actual, desired, rtol=1e-07, atol=0, equal_nan=True, err_msg="", verbose=True):
    x, y = _arrays(actual, desired)
    xf = x if x.dtype.is_floating else x.astype(_np.float64)
    yf = y if y.dtype.is_floating else y.astype(_np.float64)
    _compare(x, y, lambda: _np.isclose(xf, yf, rtol=rtol, atol=atol, equal_nan=equal_nan), "Not equal to tolerance rtol=%s, atol=%s" % (_num(rtol), _num(atol)), err_msg, equal_nan)


def _num(v):
    return "%g" % v


def assert_array_equal(x, y, err_msg="", verbose=True, *, strict=False):
    a, b = _arrays(x, y)
    if strict and (a.shape != b.shape or a.dtype != b.dtype):
        _fail("Arrays are not equal", err_msg, a, b, ["(shapes %s, %s mismatch)" % (_shape_str(a.shape), _shape_str(b.shape))])
    _compare(a, b, lambda: a == b, "Arrays are not equal", err_msg)


def assert_equal(actual, desired, err_msg="", verbose=True):
    if isinstance(desired, dict):
        if not isinstance(actual, dict) or len(actual) != len(desired):
            raise AssertionError(repr(type(actual)) if not isinstance(actual, dict) else "%d != %d" % (len(actual), len(desired)))
        for k in desired:
            if k not in actual:
                raise AssertionError(repr(k))
            assert_equal(actual[k], desired[k], "key=%r\n%s" % (k, err_msg))
        return
    if isinstance(desired, (list, tuple)) and isinstance(actual, (list, tuple)):
        assert_equal(len(actual), len(desired), err_msg)
        for k in range(len(desired)):
            assert_equal(actual[k], desired[k], "item=%r\n%s" % (k, err_msg))
        return
    if _tlens.is_ndarray(actual) or _tlens.is_ndarray(desired):
        return assert_array_equal(actual, desired, err_msg)
    if actual == desired:
        return
    if isinstance(actual, _float) and isinstance(desired, _float) and actual != actual and desired != desired:
        return
    lines = ["", "Items are not equal:"]
    if err_msg:
        lines.append(err_msg)
    lines.append(" ACTUAL: " + repr(actual))
    lines.append(" DESIRED: " + repr(desired))
    raise AssertionError("\n".join(lines))


def assert_array_almost_equal(x, y, decimal=6, err_msg="", verbose=True):
    a, b = _arrays(x, y)
    af = a if a.dtype.is_floating else a.astype(_np.float64)
    bf = b if b.dtype.is_floating else b.astype(_np.float64)
    ok = lambda: (_np.abs(af - bf) < 1.5 * 10.0 ** (-decimal)) | ((af == bf) & _np.isinf(af))
    _compare(a, b, ok, "Arrays are not almost equal to %d decimals" % decimal, err_msg)


def assert_almost_equal(actual, desired, decimal=7, err_msg="", verbose=True):
    if _tlens.is_ndarray(actual) or _tlens.is_ndarray(desired) or isinstance(actual, (list, tuple)):
        return assert_array_almost_equal(actual, desired, decimal, err_msg)
    if abs(desired - actual) >= 1.5 * 10.0 ** (-decimal):
        lines = ["", "Arrays are not almost equal to %d decimals" % decimal]
        if err_msg:
            lines.append(err_msg)
        lines.append(" ACTUAL: " + repr(actual))
        lines.append(" DESIRED: " + repr(desired))
        raise AssertionError("\n".join(lines))


def assert_array_less(x, y, err_msg="", verbose=True):
    a, b = _arrays(x, y)
    _compare(a, b, lambda: a < b, "Arrays are not less-ordered", err_msg)


def assert_(val, msg=""):
    if not val:
        raise AssertionError(msg)


class _Raises:
    def __init__(self, exc):
        self.exc = exc

    def __enter__(self):
        return self

    def __exit__(self, et, ev, tb):
        if et is None:
            raise AssertionError("%s not raised" % self.exc.__name__)
        return issubclass(et, self.exc)


def assert_raises(exception_class, *args, **kwargs):
    if not args:
        return _Raises(exception_class)
    func = args[0]
    try:
        func(*args[1:], **kwargs)
    except exception_class:
        return
    raise AssertionError("%s not raised by %s" % (exception_class.__name__, getattr(func, "__name__", "function")))
