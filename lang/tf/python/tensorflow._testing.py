# tf.test.TestCase and tf.test.main (tensorflow/python/framework/test_util.py, googletest.py):
# unittest's TestCase with TensorFlow's setUp (a fresh default graph, the default seeds), its
# sessions (test_session, session, cached_session: a session of the test's graph, made default
# while the block runs) and its array assertions over numpy. Loaded on first use of tf.test.*.
import math as _math
import random as _random
import sys as _sys
import unittest as _unittest

import _tlens
import numpy as _np
import tensorflow as _tf

_DEFAULT_GRAPH_SEED = 87654321


class _SessionContext:
    """What test_session() returns: entering makes a session of the graph (the default graph
    when none is given) and makes both default; calling test_session() alone does nothing, as
    TensorFlow's @contextmanager (unittest therefore runs test_session as a test that passes)."""

    def __init__(self, case, graph, config, cached):
        self._case = case
        self._graph = graph
        self._config = config
        self._cached = cached
        self._contexts = []

    def __enter__(self):
        g = self._graph if self._graph is not None else _tf.get_default_graph()
        sess = None
        if self._cached:
            prev = self._case._tlens_cached_session
            if prev is not None and prev.graph is g:
                sess = prev
        if sess is None:
            sess = _tf.Session(graph=g, config=self._config)
            if self._cached:
                self._case._tlens_cached_session = sess
        for c in (g.as_default(), sess.as_default()):
            c.__enter__()
            self._contexts.append(c)
        return sess

    def __exit__(self, exc_type, exc_value, tb):
        while self._contexts:
            self._contexts.pop().__exit__(exc_type, exc_value, tb)
        return False


class TestCase(_unittest.TestCase):
    def __init__(self, methodName="runTest"):
        _unittest.TestCase.__init__(self, methodName)
        self._tlens_cached_session = None
        self._tlens_tempdir = None

    def setUp(self):
        self._tlens_cached_session = None
        _random.seed(_DEFAULT_GRAPH_SEED)
        _np.random.seed(_DEFAULT_GRAPH_SEED)
        if not _tf.executing_eagerly():
            _tf.reset_default_graph()
        _tf.set_random_seed(_DEFAULT_GRAPH_SEED)

    def tearDown(self):
        pass

    def get_temp_dir(self):
        if self._tlens_tempdir is None:
            import tempfile
            self._tlens_tempdir = tempfile.mkdtemp()
        return self._tlens_tempdir

    def test_session(self, graph=None, config=None, use_gpu=False, force_gpu=False):
        return _SessionContext(self, graph, config, True)

    def cached_session(self, graph=None, config=None, use_gpu=False, force_gpu=False):
        return _SessionContext(self, graph, config, True)

    def session(self, graph=None, config=None, use_gpu=False, force_gpu=False):
        return _SessionContext(self, graph, config, False)

    def evaluate(self, tensors):
        if _tf.executing_eagerly():
            return _eager_values(tensors)
        sess = _tf.get_default_session()
        if sess is None:
            with self.test_session() as sess:
                return sess.run(tensors)
        return sess.run(tensors)

    def _GetNdArray(self, a):
        if _tlens_is_ndarray(a):
            return a
        if _tf.is_tensor(a) or isinstance(a, _tf.Variable):
            a = self.evaluate(a)
        return a if _tlens_is_ndarray(a) else _np.array(a)

    def _assert_shapes(self, a, b, msg):
        if a.shape != b.shape:
            raise self.failureException(self._formatMessage(
                msg, "%s != %s : Shape mismatch: expected %s, got %s." % (a.shape, b.shape, a.shape, b.shape)))

    def assertAllEqual(self, a, b, msg=None):
        a = self._GetNdArray(a)
        b = self._GetNdArray(b)
        if a.ndim != 0 and b.ndim != 0 or a.size != 1 or b.size != 1:
            self._assert_shapes(a, b, msg)
        _np.testing.assert_array_equal(a, b, err_msg="" if msg is None else msg)

    def assertAllClose(self, a, b, rtol=1e-6, atol=1e-6, msg=None):
        a = self._GetNdArray(a)
        b = self._GetNdArray(b)
        self._assert_shapes(a, b, msg)
        _np.testing.assert_allclose(a, b, rtol=rtol, atol=atol, err_msg="" if msg is None else msg)

    def assertAllCloseAccordingToType(self, a, b, rtol=1e-6, atol=1e-6, float_rtol=1e-6, float_atol=1e-6,
                                      half_rtol=1e-3, half_atol=1e-3, bfloat16_rtol=1e-2, bfloat16_atol=1e-2,
                                      msg=None):
        a = self._GetNdArray(a)
        b = self._GetNdArray(b)
        if a.dtype == _np.float32 or b.dtype == _np.float32:
            rtol, atol = max(rtol, float_rtol), max(atol, float_atol)
        if a.dtype == _np.float16 or b.dtype == _np.float16:
            rtol, atol = max(rtol, half_rtol), max(atol, half_atol)
        self.assertAllClose(a, b, rtol=rtol, atol=atol, msg=msg)

    def assertNotAllClose(self, a, b, **kwargs):
        try:
            self.assertAllClose(a, b, **kwargs)
        except AssertionError:
            return
        raise AssertionError("The two values are close at all elements")

    def assertShapeEqual(self, np_array, tf_tensor, msg=None):
        if not _tlens_is_ndarray(np_array):
            raise TypeError("np_array must be a Numpy ndarray or Numpy scalar")
        if not isinstance(tf_tensor, _tf.Tensor):
            raise TypeError("tf_tensor must be a Tensor")
        self.assertAllEqual(np_array.shape, tf_tensor.get_shape().as_list(), msg=msg)

    def assertNear(self, f1, f2, err, msg=None):
        self.assertTrue(f1 == f2 or _math.fabs(f1 - f2) <= err,
                        "%f != %f +/- %f%s" % (f1, f2, err, " (%s)" % msg if msg is not None else ""))

    def assertArrayNear(self, farray1, farray2, err, msg=None):
        self.assertEqual(len(farray1), len(farray2), msg=msg)
        for f1, f2 in zip(farray1, farray2):
            self.assertNear(float(f1), float(f2), err, msg=msg)

    def assertNDArrayNear(self, ndarray1, ndarray2, err, msg=None):
        self.assertTrue(float(_np.linalg.norm(self._GetNdArray(ndarray1) - self._GetNdArray(ndarray2))) < err, msg=msg)

    def assertAllGreater(self, a, comparison_target):
        self.assertGreater(_np.min(self._GetNdArray(a)), comparison_target)

    def assertAllLess(self, a, comparison_target):
        self.assertLess(_np.max(self._GetNdArray(a)), comparison_target)

    def assertAllGreaterEqual(self, a, comparison_target):
        self.assertGreaterEqual(_np.min(self._GetNdArray(a)), comparison_target)

    def assertAllLessEqual(self, a, comparison_target):
        self.assertLessEqual(_np.max(self._GetNdArray(a)), comparison_target)

    def assertAllInRange(self, target, lower_bound, upper_bound, open_lower_bound=False, open_upper_bound=False):
        t = self._GetNdArray(target)
        lo_ok = (t > lower_bound) if open_lower_bound else (t >= lower_bound)
        hi_ok = (t < upper_bound) if open_upper_bound else (t <= upper_bound)
        if not bool(_np.all(_np.logical_and(lo_ok, hi_ok))):
            raise AssertionError("%d of the %d element(s) are outside the range %s%s, %s%s" % (
                int(_np.sum(_np.logical_not(_np.logical_and(lo_ok, hi_ok)))), t.size,
                "(" if open_lower_bound else "[", lower_bound, upper_bound, ")" if open_upper_bound else "]"))

    def assertAllInSet(self, target, expected_set):
        t = self._GetNdArray(target).ravel().tolist()
        diff = set(t) - set(expected_set)
        if diff:
            raise AssertionError("%d unique element(s) are not in the set %s: %s" % (len(diff), expected_set, diff))

    def assertDTypeEqual(self, target, expected_dtype):
        arrays = target if isinstance(target, list) else [target]
        for arr in arrays:
            self.assertEqual(self._GetNdArray(arr).dtype, expected_dtype)

    def assertRaisesWithPredicateMatch(self, exception_type, expected_err_re_or_predicate):
        if callable(expected_err_re_or_predicate):
            return _PredicateContext(self, exception_type, expected_err_re_or_predicate)
        return self.assertRaisesRegex(exception_type, expected_err_re_or_predicate)

    def assertRaisesOpError(self, expected_err_re_or_predicate):
        return self.assertRaisesWithPredicateMatch(_tf.errors.OpError, expected_err_re_or_predicate)

    def assertStartsWith(self, actual, expected_start, msg=None):
        if not actual.startswith(expected_start):
            raise self.failureException(self._formatMessage(
                msg, "%r does not start with %r" % (actual, expected_start)))


class _PredicateContext:
    def __init__(self, case, exception_type, predicate):
        self._case = case
        self._type = exception_type
        self._predicate = predicate

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_value, tb):
        if exc_type is None:
            raise AssertionError("Exception of type %s not raised" % self._type)
        if not issubclass(exc_type, self._type) or not self._predicate(exc_value):
            raise AssertionError("Exception of type %s: %s" % (exc_type.__name__, exc_value))
        return True


def _eager_values(x):
    if isinstance(x, (list, tuple)):
        return type(x)(_eager_values(v) for v in x)
    if isinstance(x, dict):
        return {k: _eager_values(v) for k, v in x.items()}
    return x.numpy() if hasattr(x, "numpy") else x


def _tlens_is_ndarray(x):
    return _tlens.is_ndarray(x)


def main(argv=None):
    """tf.test.main: runs the TestCases of __main__ (unittest.main) and exits with its status."""
    return _unittest.main(argv=argv if argv is not None else _sys.argv)


def get_temp_dir():
    import tempfile
    global _temp_dir
    if _temp_dir is None:
        _temp_dir = tempfile.mkdtemp()
    return _temp_dir


_temp_dir = None
