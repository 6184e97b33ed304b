# A stand-in for TensorFlow's eager tensors and variables, used only by gen_numpy_print_tests.py
# (TensorFlow cannot be installed here): their str and repr follow TF 2's python/framework/ops.py
# (_EagerTensorBase.__str__/__repr__, numpy_text, value_text) and resource_variable_ops'
# BaseResourceVariable.__repr__, over real numpy, which formats the values.
import numpy as np

float16, float32, float64 = np.float16, np.float32, np.float64
int32, int64, uint8, bool = np.int32, np.int64, np.uint8, np.bool_


def _numpy_text(value, is_repr=False):
    text = repr(value) if is_repr else str(value)
    if "\n" in text:
        text = "\n" + text
    return text


def _shape_str(shape):
    if len(shape) == 1:
        return "(%d,)" % shape[0]
    return "(%s)" % ", ".join(str(d) for d in shape)


def _as_array(value, dtype):
    a = np.asarray(value)
    if dtype is not None:
        return a.astype(dtype)
    if a.dtype == np.float64 and not isinstance(value, np.ndarray):
        return a.astype(np.float32)
    if a.dtype == np.int64 and not isinstance(value, np.ndarray):
        return a.astype(np.int32)
    return a


class Tensor:
    def __init__(self, array):
        self._array = array

    def _numpy(self):
        return self._array[()] if self._array.shape == () else self._array

    def numpy(self):
        return self._numpy()

    def __str__(self):
        return "tf.Tensor(%s, shape=%s, dtype=%s)" % (
            _numpy_text(self._numpy()), _shape_str(self._array.shape), self._array.dtype.name)

    def __repr__(self):
        return "<tf.Tensor: shape=%s, dtype=%s, numpy=%s>" % (
            _shape_str(self._array.shape), self._array.dtype.name, _numpy_text(self._numpy(), is_repr=True))


def constant(value, dtype=None):
    return Tensor(_as_array(value, dtype))


_variables = [0]


class Variable:
    def __init__(self, initial_value, dtype=None):
        self._array = _as_array(initial_value, dtype)
        n = _variables[0]
        _variables[0] += 1
        self.name = "Variable:0" if n == 0 else "Variable_%d:0" % n

    def __repr__(self):
        value = self._array[()] if self._array.shape == () else self._array
        return "<tf.Variable '%s' shape=%s dtype=%s, numpy=%s>" % (
            self.name, _shape_str(self._array.shape), self._array.dtype.name, _numpy_text(value, is_repr=True))
