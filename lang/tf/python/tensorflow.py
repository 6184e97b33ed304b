# tensorflow: TensorFlow's Python API over tensorlens' op registry (the native module _tlens).
# Every op goes through _tlens.op, which builds a graph node, runs a kernel eagerly, or (in the
# language server) only infers shapes. Signatures follow TensorFlow's so hovers, signature help
# and argument errors read like TensorFlow's.
import _tlens
import math as _math
import os as _os
import numpy as _np  # registers the ndarray methods of values Session.run returns

__version__ = "2.15.0-tensorlens"

_op = _tlens.op
# Builtins this module shadows (tf.range, tf.tuple, tf.bool, ...), captured first.
_range = range
_tuple = tuple
_slice = slice
_bool = bool


class _Namespace:
    def __init__(self, name, keras_module=None):
        self.__name__ = name
        self._keras_module = keras_module

    def __getattr__(self, attr):
        # Parts that live in their own embedded module, loaded on first use (tf.nn.rnn_cell.*,
        # tf.nn.dynamic_rnn, ... from tensorflow.contrib.rnn).
        # TF1's streaming metrics (tf.metrics.accuracy -> (value, update_op)) in graph programs.
        if self.__dict__.get("__name__") == "tensorflow.metrics" and _tlens.style() == "graph":
            m = metrics_v1.get(attr)
            if m is not None:
                return m
        # TF2's aliases of Keras (tf.optimizers.Adam, tf.initializers.GlorotUniform,
        # tf.losses.SparseCategoricalCrossentropy): names this namespace lacks, from keras.<module>.
        km = self.__dict__.get("_keras_module")
        if km is not None and not attr.startswith("__"):
            m = _keras_module(km)
            if m is not None and hasattr(m, attr):
                return getattr(m, attr)
        raise AttributeError("module '%s' has no attribute '%s'" % (self.__dict__.get("__name__"), attr))


def _rnn_module():
    import tensorflow.contrib.rnn as m
    return m


def _rnn_attr(name):
    return lambda self: getattr(_rnn_module(), name)


class _NnNamespace(_Namespace):
    """tf.nn: the RNN parts live in their own embedded module (tensorflow.contrib.rnn), loaded on
    first use. As properties they are members of tf.nn to completion and the analysis' lints."""
    rnn_cell = property(lambda self: _rnn_module())
    dynamic_rnn = property(_rnn_attr("dynamic_rnn"))
    static_rnn = property(_rnn_attr("static_rnn"))
    bidirectional_dynamic_rnn = property(_rnn_attr("bidirectional_dynamic_rnn"))
    static_bidirectional_rnn = property(_rnn_attr("static_bidirectional_rnn"))


def _keras_module(name):
    if name == "optimizers":
        import keras.optimizers as m
    elif name == "initializers":
        import keras.initializers as m
    elif name == "losses":
        import keras.losses as m
    elif name == "metrics":
        if _tlens.style() == "graph":
            return None  # TF1's tf.metrics are streaming metrics, not Keras'
        import keras.metrics as m
    elif name == "activations":
        import keras.activations as m
    else:
        return None
    return m


def _namespace(name, _keras_module=None, **members):
    ns = _Namespace(name, _keras_module)
    for k, v in members.items():
        setattr(ns, k, v)
    return ns


# --- dtypes ------------------------------------------------------------------------------------
float16 = _tlens.dtype("float16")
half = float16
float32 = _tlens.dtype("float32")
float64 = _tlens.dtype("float64")
double = float64
int32 = _tlens.dtype("int32")
int64 = _tlens.dtype("int64")
uint8 = _tlens.dtype("uint8")
bool = _tlens.dtype("bool")
string = _tlens.dtype("string")


def as_dtype(type_value):
    return _tlens.dtype(type_value)


dtypes = _namespace("tensorflow.dtypes", float16=float16, float32=float32, float64=float64, int32=int32,
                    int64=int64, uint8=uint8, bool=bool, string=string, as_dtype=as_dtype)
newaxis = None


# --- shapes ------------------------------------------------------------------------------------
class Dimension:
    def __init__(self, value):
        self.value = value

    def __int__(self):
        return self.value

    def __index__(self):
        return self.value

    def __repr__(self):
        return "Dimension(%s)" % self.value


class TensorShape:
    def __init__(self, dims):
        if dims is None:
            self._dims = None
        else:
            self._dims = [d if d is None else int(d) for d in dims]

    @property
    def ndims(self):
        return None if self._dims is None else len(self._dims)

    @property
    def rank(self):
        return self.ndims

    @property
    def dims(self):
        return None if self._dims is None else list(self._dims)

    def as_list(self):
        if self._dims is None:
            raise ValueError("as_list() is not defined on an unknown TensorShape.")
        return list(self._dims)

    def num_elements(self):
        if self._dims is None:
            return None
        n = 1
        for d in self._dims:
            if d is None:
                return None
            n *= d
        return n

    def is_fully_defined(self):
        return self._dims is not None and None not in self._dims

    def is_compatible_with(self, other):
        other = other if hasattr(other, "ndims") else TensorShape(other)
        if self._dims is None or other.ndims is None:
            return True
        dims = other.as_list()
        if len(dims) != len(self._dims):
            return False
        for a, b in zip(self._dims, dims):
            if a is not None and b is not None and a != b:
                return False
        return True

    def __len__(self):
        if self._dims is None:
            raise ValueError("Cannot take the length of shape with unknown rank.")
        return len(self._dims)

    def __iter__(self):
        if self._dims is None:
            raise ValueError("Cannot iterate over a shape with unknown rank.")
        return iter(self._dims)

    def __getitem__(self, key):
        if self._dims is None:
            return None
        if isinstance(key, _slice):
            return TensorShape(self._dims[key])
        return self._dims[key]

    def __eq__(self, other):
        if isinstance(other, TensorShape):
            return self._dims == other._dims
        if isinstance(other, (list, _tuple)):
            return self._dims == list(other)
        return False

    def __ne__(self, other):
        return not self.__eq__(other)

    def __repr__(self):
        if self._dims is None:
            return "TensorShape(None)"
        return "TensorShape(%s)" % list(self._dims)

    def __str__(self):
        if self._dims is None:
            return "<unknown>"
        # TF1 prints an unknown Dimension as "?", TF2 as None.
        unknown = "?" if _tlens.style() == "graph" else "None"
        inner = ", ".join(unknown if d is None else str(d) for d in self._dims)
        if len(self._dims) == 1:
            inner += ","
        return "(" + inner + ")"

    def concatenate(self, other):
        return TensorShape(self.as_list() + list(other))

    def merge_with(self, other):
        return self

    def with_rank(self, rank):
        return self


_tlens.register("TensorShape", TensorShape)


# --- errors ------------------------------------------------------------------------------------
class _OpError(Exception):
    def __init__(self, node_def=None, op=None, message=""):
        Exception.__init__(self, message)
        self.node_def = node_def
        self.op = op
        self.message = message



class InvalidArgumentError(_OpError):
    pass


class FailedPreconditionError(_OpError):
    pass


class ResourceExhaustedError(_OpError):
    pass


class OutOfRangeError(_OpError):
    pass


class UnimplementedError(_OpError):
    pass


class CancelledError(_OpError):
    pass


class NotFoundError(_OpError):
    pass


class InternalError(_OpError):
    pass


class DataLossError(_OpError):
    pass


class UnknownError(_OpError):
    pass


class DeadlineExceededError(_OpError):
    pass


class AlreadyExistsError(_OpError):
    pass


class PermissionDeniedError(_OpError):
    pass


class UnauthenticatedError(_OpError):
    pass


class AbortedError(_OpError):
    pass


class UnavailableError(_OpError):
    pass


# tf.errors' classes and their status codes (tensorflow/python/framework/errors_impl.py).
_ERROR_CODES = [("OK", 0, None), ("CANCELLED", 1, CancelledError), ("UNKNOWN", 2, UnknownError),
                ("INVALID_ARGUMENT", 3, InvalidArgumentError), ("DEADLINE_EXCEEDED", 4, DeadlineExceededError),
                ("NOT_FOUND", 5, NotFoundError), ("ALREADY_EXISTS", 6, AlreadyExistsError),
                ("PERMISSION_DENIED", 7, PermissionDeniedError), ("RESOURCE_EXHAUSTED", 8, ResourceExhaustedError),
                ("FAILED_PRECONDITION", 9, FailedPreconditionError), ("ABORTED", 10, AbortedError),
                ("OUT_OF_RANGE", 11, OutOfRangeError), ("UNIMPLEMENTED", 12, UnimplementedError),
                ("INTERNAL", 13, InternalError), ("UNAVAILABLE", 14, UnavailableError),
                ("DATA_LOSS", 15, DataLossError), ("UNAUTHENTICATED", 16, UnauthenticatedError)]
_errors_ns = {"OpError": _OpError}
for _name, _code, _cls in _ERROR_CODES:
    _errors_ns[_name] = _code
    if _cls is not None:
        _cls.error_code = _code
        _errors_ns[_cls.__name__] = _cls
errors = _namespace("tensorflow.errors", **_errors_ns)
_tlens.register("errors", errors)


# --- helpers -----------------------------------------------------------------------------------
def _axes(axis):
    if axis is None:
        return None
    if isinstance(axis, (list, _tuple)):
        return [int(a) for a in axis]
    return [axis]


def _dt(dtype):
    if dtype is None:
        return None
    return _tlens.dtype(dtype)


def _unary(op_type):
    def f(x, name=None):
        return _op(op_type, [x], None, name)
    f.__name__ = op_type.lower()
    return f


def _binary(op_type):
    def f(x, y, name=None):
        return _op(op_type, [x, y], None, name, True)
    f.__name__ = op_type.lower()
    return f


# --- tensors -----------------------------------------------------------------------------------
def is_tensor(x):
    return _tlens.is_tensor(x)


def constant(value, dtype=None, shape=None, name="Const"):
    t = _tlens.constant(value, dtype, name)
    if shape is not None:
        shape = [int(d) for d in (shape.as_list() if isinstance(shape, TensorShape) else list(shape))] \
            if not isinstance(shape, int) else [shape]
        n, m = t.shape.num_elements(), 1
        for d in shape:
            m *= d
        if n == 1:
            return fill(shape, reshape(t, []), name=None)
        if n is not None and n != m:
            if _tlens.graph_key() is None:
                raise TypeError("Eager execution of tf.constant with unsupported shape (value has %d elements, "
                                "shape is %s with %d elements)." % (n, _tuple(shape), m))
            if n > m:
                raise ValueError("Too many elements provided. Needed at most %d, but received %d" % (m, n))
            # TensorFlow 1's graph constants: the last element fills the remaining entries.
            flat = reshape(t, [-1])
            t = concat([flat, fill([m - n], flat[-1])], 0)
        return reshape(t, shape)
    return t


def convert_to_tensor(value, dtype=None, name=None, dtype_hint=None):
    if _tlens.is_tensor(value):
        if dtype is not None and value.dtype != dtype:
            raise ValueError("Tensor conversion requested dtype %s for Tensor with dtype %s: %r" % (dtype.name, value.dtype.name, value))
        return value
    if _tlens.is_ndarray(value):
        t = _tlens.to_tensor(value)
        return t if dtype is None else cast(t, dtype)
    return _tlens.constant(value, dtype if dtype is not None else dtype_hint, name)


def placeholder(dtype, shape=None, name=None):
    return _tlens.placeholder(dtype, shape, name)


def placeholder_with_default(input, shape, name=None):
    return identity(input, name=name)


def _variable(initial_value=None, trainable=True, name=None, dtype=None, validate_shape=True, shape=None,
              collections=None, use_resource=None, expected_shape=None, **kwargs):
    if callable(initial_value):
        with control_dependencies(None):
            initial_value = initial_value()
    return _tlens.variable(initial_value, name, trainable, dtype)


def _camel_to_snake(name):
    # TensorFlow's module naming: "SampleLayer" -> "sample_layer", "MLP2D" -> "mlp2d".
    out = ""
    for i in _range(len(name)):
        c = name[i]
        if c.isupper() and i > 0 and (name[i - 1].islower() or name[i - 1].isdigit()
                                      or (i + 1 < len(name) and name[i + 1].islower() and name[i - 1] != "_")):
            out += "_"
        out += c.lower()
    return out


def _is_module_like(x):
    return isinstance(x, Module) or (hasattr(x, "trainable_variables") and hasattr(x, "_inbound_nodes"))


def _module_leaves(value, out):
    # tf.nest's order: lists and tuples in order, dicts by sorted key.
    if isinstance(value, (list, _tuple)):
        for v in value:
            _module_leaves(v, out)
    elif isinstance(value, dict):
        for k in sorted(value.keys(), key=str):
            _module_leaves(value[k], out)
    else:
        out.append(value)


class Module:
    """tf.Module: a named container whose variables and submodules are found by walking its
    attributes (sorted by name, then the submodules found, breadth first), as TensorFlow does."""

    def __init__(self, name=None):
        if name is None:
            name = _camel_to_snake(type(self).__name__)
        elif not (isinstance(name, str) and name.isidentifier()):
            raise ValueError("'%s' is not a valid module name. Module names must be valid Python 3 identifiers." % (name,))
        self._name = name
        self._scope_name = name

    @property
    def name(self):
        return self._name

    @property
    def name_scope(self):
        return name_scope(self._scope_name)

    def _flatten(self, predicate, recursive=True):
        found, seen = [], {id(self): True}
        todo = [self]
        while todo:
            module, todo = todo[0], todo[1:]
            submodules = []
            attrs = vars(module) if isinstance(module, Module) else {}
            for key in sorted(attrs.keys()):
                leaves = []
                _module_leaves(attrs[key], leaves)
                for leaf in leaves:
                    if id(leaf) in seen:
                        continue
                    if predicate(leaf):
                        seen[id(leaf)] = True
                        found.append(leaf)
                    if _is_module_like(leaf) and not isinstance(leaf, Module):
                        # A Keras layer: its own weights.
                        seen[id(leaf)] = True
                        for w in leaf.weights:
                            if predicate(w) and id(w) not in seen:
                                seen[id(w)] = True
                                found.append(w)
                    elif recursive and isinstance(leaf, Module):
                        seen[id(leaf)] = True
                        submodules.append(leaf)
            todo = todo + submodules
        return _tuple(found)

    @property
    def variables(self):
        return self._flatten(lambda v: isinstance(v, Variable))

    @property
    def trainable_variables(self):
        return self._flatten(lambda v: isinstance(v, Variable) and v.trainable)

    @property
    def non_trainable_variables(self):
        return self._flatten(lambda v: isinstance(v, Variable) and not v.trainable)

    @property
    def submodules(self):
        return self._flatten(lambda m: _is_module_like(m))

    @classmethod
    def with_name_scope(cls, method):
        def wrapped(self, *args, **kwargs):
            with self.name_scope:
                return method(self, *args, **kwargs)
        wrapped.__name__ = getattr(method, "__name__", "method")
        return wrapped


# Classes for isinstance(): tf.Variable(...) constructs, tf.Tensor is never called directly.
Variable = _tlens.tensor_type("Variable", _variable)
Tensor = _tlens.tensor_type("Tensor")


def identity(input, name=None):
    return _op("Identity", [input], None, name)


def stop_gradient(input, name=None):
    return _op("StopGradient", [input], None, name)


def shape(input, name=None, out_type=None):
    return _op("Shape", [input], {"out_type": _dt(out_type)}, name)


def size(input, name=None, out_type=None):
    return _op("Size", [input], {"out_type": _dt(out_type)}, name)


def rank(input, name=None):
    return _op("Rank", [input], None, name)


def reshape(tensor, shape, name=None):
    return _op("Reshape", [tensor, shape], None, name, False, False, int32)


def broadcast_to(input, shape, name=None):
    return _op("BroadcastTo", [input, shape], None, name, False, False, int32)


def _shape_arg(shape):
    # TensorShape(n) is [n]: tf.zeros(300) is a vector, as in TensorFlow.
    if isinstance(shape, int) or (_tlens.is_ndarray(shape) and shape.ndim == 0):
        return [shape]
    return shape


def zeros(shape, dtype=float32, name=None):
    shape = _shape_arg(shape)
    return _op("Fill", [shape, _tlens.constant(0, dtype)], None, name, False, False, int32)


def ones(shape, dtype=float32, name=None):
    shape = _shape_arg(shape)
    return _op("Fill", [shape, _tlens.constant(1, dtype)], None, name, False, False, int32)


def fill(dims, value, name=None):
    # Literals take their own default dtypes: dims int32, a float value float32 (as TensorFlow).
    return _op("Fill", [dims, value], None, name)


def zeros_like(input, dtype=None, name=None, optimize=True):
    r = _op("ZerosLike", [input], None, name)
    return r if dtype is None else cast(r, dtype)


def ones_like(input, dtype=None, name=None, optimize=True):
    r = _op("OnesLike", [input], None, name)
    return r if dtype is None else cast(r, dtype)


def range(start, limit=None, delta=1, dtype=None, name="range"):
    if limit is None:
        start, limit = 0, start
    if dtype is None:
        dtype = float32 if any(isinstance(v, float) for v in (start, limit, delta)) else int32
    return _op("Range", [_tlens.constant(start, dtype), _tlens.constant(limit, dtype), _tlens.constant(delta, dtype)], None, name)


def transpose(a, perm=None, name="transpose", conjugate=False):
    if perm is None:
        r = a.shape.ndims
        if r is None:
            perm = _op("Sub", [_op("Sub", [rank(a), 1]), range(0, rank(a))], None, None, True)
        else:
            perm = [r - 1 - i for i in _range(r)]
    return _op("Transpose", [a, perm], None, name, False, False, int32)


def expand_dims(input, axis=None, name=None, dim=None):
    if axis is None:
        axis = dim
    return _op("ExpandDims", [input, axis], None, name, False, False, int32)


def squeeze(input, axis=None, name=None, squeeze_dims=None):
    if axis is None:
        axis = squeeze_dims
    return _op("Squeeze", [input], {"squeeze_dims": _axes(axis) if axis is not None else []}, name)


def one_hot(indices, depth, on_value=None, off_value=None, axis=None, dtype=None, name=None):
    dtype = float32 if dtype is None else dtype
    on = _tlens.constant(1 if on_value is None else on_value, dtype)
    off = _tlens.constant(0 if off_value is None else off_value, dtype)
    return _op("OneHot", [indices, _tlens.constant(depth, int32), on, off], {"axis": -1 if axis is None else axis}, name)


def eye(num_rows, num_columns=None, batch_shape=None, dtype=float32, name=None):
    # The identity as TensorFlow builds it for known sizes: ones on the diagonal of a one-hot.
    with name_scope(name, "eye"):
        cols = num_rows if num_columns is None else num_columns
        m = one_hot(range(0, num_rows), cols, dtype=dtype)
        if batch_shape:
            m = tile(reshape(m, [1] * len(batch_shape) + [num_rows, cols]), list(batch_shape) + [1, 1])
        return m


def concat(values, axis, name="concat"):
    values = list(values)
    return _op("ConcatV2", values + [_tlens.constant(axis, int32)], None, name, True)


def stack(values, axis=0, name="stack"):
    return _op("Pack", list(values), {"axis": axis}, name, True)


def unstack(value, num=None, axis=0, name="unstack"):
    if num is None:
        s = value.shape
        n = None if s.ndims is None else s[axis]
        if n is None:
            if _tlens.is_abstract():
                return [value[0]]
            raise ValueError("Cannot infer argument `num` from shape %s" % s)
        num = n
    r = _op("Unpack", [value], {"num": num, "axis": axis}, name)
    return list(r) if isinstance(r, _tuple) else [r]


def split(value, num_or_size_splits, axis=0, num=None, name="split"):
    if isinstance(num_or_size_splits, int):
        r = _op("Split", [_tlens.constant(axis, int32), value], {"num_split": num_or_size_splits}, name)
    else:
        sizes = list(num_or_size_splits)
        r = _op("SplitV", [value, _tlens.constant(sizes, int32), _tlens.constant(axis, int32)], {"num_split": len(sizes)}, name)
    return list(r) if isinstance(r, _tuple) else [r]


def tile(input, multiples, name=None):
    return _op("Tile", [input, multiples], None, name, False, False, int32)


def pad(tensor, paddings, mode="CONSTANT", constant_values=0, name=None):
    if constant_values != 0:
        return _op("PadV2", [tensor, paddings, constant_values], {"mode": mode}, name)
    return _op("Pad", [tensor, paddings], {"mode": mode}, name, False, False, int32)


def slice(input_, begin, size, name=None):
    return _op("Slice", [input_, begin, size], None, name, False, False, int32)


def strided_slice(input_, begin, end, strides=None, begin_mask=0, end_mask=0, ellipsis_mask=0, new_axis_mask=0,
                  shrink_axis_mask=0, var=None, name=None):
    if strides is None:
        strides = [1] * len(begin)
    return _op("StridedSlice", [input_, begin, end, strides],
               {"begin_mask": begin_mask, "end_mask": end_mask, "ellipsis_mask": ellipsis_mask,
                "new_axis_mask": new_axis_mask, "shrink_axis_mask": shrink_axis_mask}, name, False, False, int32)


def reverse(tensor, axis, name=None):
    # A stride -1 slice along each axis (StridedSlice, whose gradient TF also has).
    x = convert_to_tensor(tensor)
    r = x.shape.ndims
    if r is None:
        raise ValueError("tensorlens: tf.reverse needs the rank of its input to be known")
    axes = [a + r if a < 0 else a for a in ([axis] if isinstance(axis, int) else list(axis))]
    for a in axes:
        if a < 0 or a >= r:
            raise ValueError("'axis'[%d] = %d is out of valid range [%d, %d)" % (axes.index(a), a, -r, r))
    n = len(axes)
    if n == 0:
        return identity(x, name=name)
    mask = 0
    for i in _range(r):
        mask |= 1 << i
    strides = [-1 if i in axes else 1 for i in _range(r)]
    return strided_slice(x, [0] * r, [0] * r, strides, begin_mask=mask, end_mask=mask, name=name or "ReverseV2")


reverse_v2 = reverse


_reverse_fn = reverse  # for functions whose `reverse` argument hides it

def sequence_mask(lengths, maxlen=None, dtype=bool, name=None):
    with name_scope(name, "SequenceMask"):
        lengths = convert_to_tensor(lengths)
        if maxlen is None:
            maxlen = reduce_max(lengths)
        maxlen = cast(maxlen, lengths.dtype)
        m = less(range(0, maxlen, 1, dtype=lengths.dtype), expand_dims(lengths, -1))
        return m if dtype == bool else cast(m, dtype)


def reverse_sequence(input, seq_lengths, seq_axis=None, batch_axis=None, name=None, seq_dim=None, batch_dim=None):
    # Reverses the first seq_lengths[b] steps of each batch row b: a one-hot permutation of the
    # time steps per row, applied with a batched matmul (differentiable; O(T^2) per row).
    seq_axis = seq_dim if seq_axis is None else seq_axis
    batch_axis = (batch_dim if batch_dim is not None else 0) if batch_axis is None else batch_axis
    with name_scope(name, "ReverseSequence"):
        x = convert_to_tensor(input)
        r = x.shape.ndims
        if r is None or seq_axis is None:
            raise ValueError("tensorlens: tf.reverse_sequence needs seq_axis and the rank of its input")
        perm = [batch_axis, seq_axis] + [i for i in _range(r) if i != batch_axis and i != seq_axis]
        xt = transpose(x, perm)
        sh = shape(xt)
        t = sh[1]
        lens = cast(seq_lengths, int32)
        steps = range(0, t)
        lt = expand_dims(lens, 1)
        idx = where_v2(less(steps, lt), lt - 1 - steps, steps + zeros_like(lt))
        p = one_hot(idx, t, dtype=x.dtype if x.dtype.is_floating else float32)
        flat = reshape(xt, stack([sh[0], t, -1]))
        if not x.dtype.is_floating:
            flat = cast(flat, float32)
        y = matmul(p, flat)
        if not x.dtype.is_floating:
            y = cast(y, x.dtype)
        y = reshape(y, sh)
        inv = [0] * r
        for i, pi in enumerate(perm):
            inv[pi] = i
        return transpose(y, inv)


def gather(params, indices, validate_indices=None, axis=None, batch_dims=0, name=None):
    return _op("GatherV2", [params, indices, _tlens.constant(0 if axis is None else axis, int32)],
               {"batch_dims": batch_dims}, name, False, False, int32)


def cast(x, dtype, name=None):
    return _op("Cast", [x], {"DstT": _tlens.dtype(dtype)}, name)


def to_float(x, name="ToFloat"):
    return cast(x, float32, name)


def to_int32(x, name="ToInt32"):
    return cast(x, int32, name)


def to_int64(x, name="ToInt64"):
    return cast(x, int64, name)


# --- math --------------------------------------------------------------------------------------
add = _binary("Add")
subtract = _binary("Sub")
multiply = _binary("Mul")
realdiv = _binary("RealDiv")
floordiv = _binary("FloorDiv")
floor_div = floordiv
floormod = _binary("FloorMod")
mod = floormod
pow = _binary("Pow")
maximum = _binary("Maximum")
minimum = _binary("Minimum")
squared_difference = _binary("SquaredDifference")
equal = _binary("Equal")
not_equal = _binary("NotEqual")
less = _binary("Less")
less_equal = _binary("LessEqual")
greater = _binary("Greater")
greater_equal = _binary("GreaterEqual")
logical_and = _binary("LogicalAnd")
logical_or = _binary("LogicalOr")
logical_not = _unary("LogicalNot")
negative = _unary("Neg")
abs = _unary("Abs")
sign = _unary("Sign")
square = _unary("Square")
reciprocal = _unary("Reciprocal")
exp = _unary("Exp")
log = _unary("Log")
log1p = _unary("Log1p")
sqrt = _unary("Sqrt")
rsqrt = _unary("Rsqrt")
sin = _unary("Sin")
cos = _unary("Cos")
tanh = _unary("Tanh")
sigmoid = _unary("Sigmoid")
floor = _unary("Floor")
ceil = _unary("Ceil")
round = _unary("Round")
is_nan = _unary("IsNan")
is_inf = _unary("IsInf")
is_finite = _unary("IsFinite")


def divide(x, y, name=None):
    # math_ops.divide: x becomes a tensor (of y's dtype when y is one), then Python's x / y.
    if not _tlens.is_tensor(x):
        x = convert_to_tensor(x, dtype=y.dtype.base_dtype if _tlens.is_tensor(y) else None)
    return x / y


_TRUEDIV_TABLE = {"uint8": "float32", "int8": "float32", "uint16": "float32", "int16": "float32",
                  "int32": "float64", "int64": "float64"}


def _div_operands(x, y, hint):
    x = convert_to_tensor(x, name="x")
    if _tlens.is_tensor(y) or not hint:
        y = convert_to_tensor(y, dtype=None if hint else x.dtype.base_dtype, name="y")
    else:
        try:
            y = convert_to_tensor(y, dtype=x.dtype.base_dtype, name="y")
        except (TypeError, ValueError):
            y = convert_to_tensor(y, name="y")
    if x.dtype.base_dtype != y.dtype.base_dtype:
        raise TypeError("x and y must have the same dtype, got %r != %r" % (x.dtype.base_dtype, y.dtype.base_dtype))
    return x, y


def truediv(x, y, name=None):
    # math_ops._truediv_python3: same dtypes; integers are cast to float32 (8 and 16 bits) or
    # float64 (32 and 64 bits) first.
    x, y = _div_operands(x, y, True)
    to = _TRUEDIV_TABLE.get(x.dtype.base_dtype.name)
    if to is not None:
        x, y = cast(x, to), cast(y, to)
    return _op("RealDiv", [x, y], None, name or "truediv")


def div(x, y, name=None):
    # TF1's tf.div (math_ops._div_python2): Python 2 division, a floor division of integers.
    x, y = _div_operands(x, y, False)
    return _op("RealDiv" if x.dtype.is_floating else "FloorDiv", [x, y], None, name or "div")


def add_n(inputs, name=None):
    inputs = list(inputs)
    if not inputs and _tlens.is_abstract():
        # An empty list in the analysis is most often a collection filled by code it could not
        # follow (a module it could not import, an unknown branch): unknown, not an error.
        return _tlens.unknown()
    return _op("AddN", inputs, None, name, True)


def _where(select, condition, x, y, name):
    if x is None and y is None:
        return _op("Where", [condition], None, name)
    if x is None or y is None:
        raise ValueError("x and y must both be non-None or both be None.")
    return _op(select, [condition, x, y], None, name, True)


def where(condition, x=None, y=None, name=None):
    # TF1 programs get TensorFlow 1's tf.where (Select: a vector condition picks rows); TF2's
    # broadcasts (SelectV2).
    return _where("Select" if _tlens.style() == "graph" else "SelectV2", condition, x, y, name)


def where_v2(condition, x=None, y=None, name=None):
    return _where("SelectV2", condition, x, y, name)


def clip_by_value(t, clip_value_min, clip_value_max, name=None):
    return _op("ClipByValue", [t, clip_value_min, clip_value_max], None, name, True)


def matmul(a, b, transpose_a=False, transpose_b=False, adjoint_a=False, adjoint_b=False, a_is_sparse=False,
           b_is_sparse=False, output_type=None, name=None):
    ra = a.ndim if _tlens.is_tensor(a) or _tlens.is_ndarray(a) else 2
    rb = b.ndim if _tlens.is_tensor(b) or _tlens.is_ndarray(b) else 2
    if (ra is not None and ra > 2) or (rb is not None and rb > 2):
        return _op("BatchMatMulV2", [a, b], {"adj_x": transpose_a or adjoint_a, "adj_y": transpose_b or adjoint_b}, name, True)
    return _op("MatMul", [a, b], {"transpose_a": transpose_a or adjoint_a, "transpose_b": transpose_b or adjoint_b}, name, True)


def _reduce(op_type):
    def f(input_tensor, axis=None, keepdims=None, name=None, reduction_indices=None, keep_dims=None):
        if axis is None:
            axis = reduction_indices
        keep = keepdims if keepdims is not None else (keep_dims if keep_dims is not None else False)
        return _op(op_type, [input_tensor], {"axis": _axes(axis), "keep_dims": keep}, name)
    return f


reduce_sum = _reduce("Sum")
reduce_mean = _reduce("Mean")
reduce_prod = _reduce("Prod")
reduce_max = _reduce("Max")
reduce_min = _reduce("Min")
reduce_any = _reduce("Any")
reduce_all = _reduce("All")


def argmax(input, axis=None, name=None, dimension=None, output_type=int64):
    if axis is None:
        axis = dimension if dimension is not None else 0
    return _op("ArgMax", [input], {"axis": axis, "output_type": output_type}, name)


def argmin(input, axis=None, name=None, dimension=None, output_type=int64):
    if axis is None:
        axis = dimension if dimension is not None else 0
    return _op("ArgMin", [input], {"axis": axis, "output_type": output_type}, name)


def no_op(name=None):
    return group(name=name)


def group(*inputs, name=None):
    with control_dependencies([i for i in inputs if i is not None]):
        return _tlens.variables_initializer([], name if name is not None else "group_deps")


def tuple(tensors, name=None, control_inputs=None):
    return list(tensors)


# --- control flow ------------------------------------------------------------------------------


def _cond_leaves(x):
    # A branch's result as graph values made inside the branch (a Python number becomes a
    # constant there, so it is dead when the branch is not taken).
    if isinstance(x, (list, _tuple)):
        items = [_cond_leaves(v) for v in x]
        return items if isinstance(x, list) else _tuple(items)
    if isinstance(x, dict):
        return {k: _cond_leaves(v) for k, v in x.items()}
    if x is None:
        return x
    if is_tensor(x):
        # An identity inside the branch, as TensorFlow's cond does for values made outside it (a
        # variable, an input): the Merge then sees only values of the branch taken.
        return identity(x)
    if _tlens.is_operation(x):
        # As TensorFlow: an operation becomes a boolean tensor that depends on it.
        with control_dependencies([x]):
            return identity(constant(True))
    return convert_to_tensor(x)


def _cond_merge(t, f):
    if isinstance(t, (list, _tuple)) and isinstance(f, (list, _tuple)) and len(t) == len(f):
        items = [_cond_merge(a, b) for a, b in zip(t, f)]
        return items if isinstance(t, list) else _tuple(items)
    if isinstance(t, dict) and isinstance(f, dict) and sorted(t.keys()) == sorted(f.keys()):
        return {k: _cond_merge(t[k], f[k]) for k in t}
    if t is None and f is None:
        return None
    if is_tensor(t) and is_tensor(f):
        if t.dtype.base_dtype != f.dtype.base_dtype:
            raise TypeError("Outputs of true_fn and false_fn must have the same type: %s, %s" %
                            (t.dtype.base_dtype.name, f.dtype.base_dtype.name))
        return _op("Merge", [t, f])[0]
    raise ValueError("true_fn and false_fn arguments to tf.cond must have the same number, type, and "
                     "overall structure of return values.")


def cond(pred, true_fn=None, false_fn=None, strict=False, name=None, fn1=None, fn2=None):
    """tf.cond: in a graph, both branches are built and only the one `pred` selects runs (Switch
    and Merge); eagerly, the selected function is called."""
    true_fn = true_fn if true_fn is not None else fn1
    false_fn = false_fn if false_fn is not None else fn2
    if true_fn is None or not callable(true_fn):
        raise TypeError("true_fn must be callable.")
    if false_fn is None or not callable(false_fn):
        raise TypeError("false_fn must be callable.")
    if _tlens.graph_key() is None:
        return true_fn() if _bool(pred) else false_fn()
    with name_scope(name, "cond"):
        pred = convert_to_tensor(pred)
        if pred.dtype.base_dtype != bool:  # tf.bool (this module's `bool`)
            raise TypeError("pred must be a boolean tensor, but is %s" % pred.dtype.base_dtype.name)
        with _tlens.cond_branch(pred, True):
            t = _cond_leaves(true_fn())
        with _tlens.cond_branch(pred, False):
            f = _cond_leaves(false_fn())
        return _cond_merge(t, f)


def case(pred_fn_pairs, default=None, exclusive=False, strict=False, name="case"):
    """tf.case: the first pair whose predicate holds, else `default` (nested tf.conds)."""
    pairs = list(pred_fn_pairs.items()) if isinstance(pred_fn_pairs, dict) else list(pred_fn_pairs)
    for p in pairs:
        if not isinstance(p, (list, _tuple)) or len(p) != 2 or not callable(p[1]):
            raise TypeError("Each entry in pred_fn_pairs must be a 2-tuple of a predicate and a callable")
    if default is None:
        if not pairs:
            raise ValueError("pred_fn_pairs must not be empty when default is None")
        default = pairs[-1][1]
        pairs = pairs[:-1]

    def chain(i):
        if i == len(pairs):
            return default()
        return cond(pairs[i][0], pairs[i][1], lambda: chain(i + 1))

    with name_scope(name, "case"):
        return chain(0)


# --- nn ----------------------------------------------------------------------------------------
nn = _NnNamespace("tensorflow.nn")


def _nn_unary(op_type):
    def f(features, name=None):
        return _op(op_type, [features], None, name)
    return f


nn.relu = _nn_unary("Relu")
nn.relu6 = _nn_unary("Relu6")
nn.elu = _nn_unary("Elu")
nn.selu = _nn_unary("Selu")
nn.softplus = _nn_unary("Softplus")
nn.sigmoid = sigmoid
nn.tanh = tanh


def _leaky_relu(features, alpha=0.2, name=None):
    return _op("LeakyRelu", [features], {"alpha": float(alpha)}, name)


nn.leaky_relu = _leaky_relu


def _softmax(logits, axis=None, name=None, dim=None):
    if axis is None:
        axis = -1 if dim is None else dim
    return _op("Softmax", [logits], {"axis": axis}, name)


def _log_softmax(logits, axis=None, name=None, dim=None):
    if axis is None:
        axis = -1 if dim is None else dim
    return _op("LogSoftmax", [logits], {"axis": axis}, name)


nn.softmax = _softmax
nn.log_softmax = _log_softmax


def _softmax_xent(_sentinel=None, labels=None, logits=None, dim=-1, name=None, axis=None):
    if _sentinel is not None:
        raise ValueError("Only call `softmax_cross_entropy_with_logits` with named arguments (labels=..., logits=..., ...)")
    # As TensorFlow: the labels take the logits' dtype (float16 logits are computed in float32).
    logits = convert_to_tensor(logits)
    if logits.dtype.base_dtype == float16:
        logits = cast(logits, float32)
    labels = convert_to_tensor(labels)
    if labels.dtype.base_dtype != logits.dtype.base_dtype:
        labels = cast(labels, logits.dtype.base_dtype)
    if axis is None:
        axis = dim
    rank = logits.shape.ndims
    if rank is not None and axis not in (-1, rank - 1):
        # The class axis moves last, and the loss keeps the other axes in their order.
        axis = axis % rank
        perm = [i for i in _range(rank) if i != axis] + [axis]
        logits = transpose(logits, perm)
        labels = transpose(labels, perm)
    if rank == 2 and labels.shape.ndims == 2:
        return _op("SoftmaxCrossEntropyWithLogits", [logits, labels], None, name, True)[0]
    # Any other rank, of the logits or of the labels: the outer dimensions of both are flattened
    # into rows and the loss takes the logits' shape back, as TensorFlow's wrapper does
    # (nn_ops._flatten_outer_dims): labels=[one_hot] of shape [1, n, k] against [n, k] logits works.
    outer = shape(logits)[:-1]
    flat_logits = reshape(logits, [-1, shape(logits)[-1]])
    flat_labels = reshape(labels, [-1, shape(labels)[-1]])
    cost = _op("SoftmaxCrossEntropyWithLogits", [flat_logits, flat_labels], None, None, True)[0]
    cost = reshape(cost, outer, name=name)
    if rank is not None:
        cost.set_shape(logits.shape[:-1])
    return cost


def _sparse_softmax_xent(_sentinel=None, labels=None, logits=None, name=None):
    if _sentinel is not None:
        raise ValueError("Only call `sparse_softmax_cross_entropy_with_logits` with named arguments (labels=..., logits=..., ...)")
    logits = convert_to_tensor(logits)
    labels = convert_to_tensor(labels)
    lshape, gshape = labels.shape, logits.shape
    if lshape.ndims is not None and gshape.ndims is not None:
        if lshape.ndims != gshape.ndims - 1:
            raise ValueError("Rank mismatch: Rank of labels (received %s) should equal rank of logits minus 1 (received %s)." % (lshape.ndims, gshape.ndims))
        if not lshape.is_compatible_with(gshape[:-1]):
            raise ValueError("Shape mismatch: The shape of labels (received %s) should equal the shape of logits except for the last dimension (received %s)." % (lshape, gshape))
    if gshape.ndims == 2:
        # As TensorFlow's wrapper: rank-2 logits go to the op as they are, labels of unknown rank
        # too (a feed of [n, 1] labels then fails in the op: "labels must be 1-D").
        return _op("SparseSoftmaxCrossEntropyWithLogits", [logits, labels], None, name)[0]
    # Labels of rank r against logits of rank r + 1: rows of classes, then the labels' shape back
    # (TensorFlow's wrapper in nn_ops.py).
    flat_logits = reshape(logits, [-1, shape(logits)[-1]])
    flat_labels = reshape(labels, [-1])
    cost = _op("SparseSoftmaxCrossEntropyWithLogits", [flat_logits, flat_labels], None, None)[0]
    cost = reshape(cost, shape(labels), name=name)
    if lshape.ndims is not None:
        cost.set_shape(lshape)
    return cost


def _sigmoid_xent(_sentinel=None, labels=None, logits=None, name=None):
    if _sentinel is not None:
        raise ValueError("Only call `sigmoid_cross_entropy_with_logits` with named arguments (labels=..., logits=..., ...)")
    return _op("SigmoidCrossEntropyWithLogits", [labels, logits], None, name, True)


nn.softmax_cross_entropy_with_logits = _softmax_xent
nn.softmax_cross_entropy_with_logits_v2 = _softmax_xent
nn.sparse_softmax_cross_entropy_with_logits = _sparse_softmax_xent
nn.sigmoid_cross_entropy_with_logits = _sigmoid_xent


def _l2_loss(t, name=None):
    return _op("L2Loss", [t], None, name)


nn.l2_loss = _l2_loss


def _four(v, name):
    if isinstance(v, int):
        return [1, v, v, 1]
    v = list(v)
    if len(v) != 4 and _tlens.style() == "graph":
        # TF 1.x's ops take exactly 4 values; the op's shape function says so ("MaxPool requires
        # the ksize attribute to contain 4 values, but got: 2"). TF 2's tf.nn accepts 1 or 2.
        return v
    if len(v) == 1:
        return [1, v[0], v[0], 1]
    if len(v) == 2:
        return [1, v[0], v[1], 1]
    return v


def _conv2d(input, filters=None, strides=None, padding=None, use_cudnn_on_gpu=True, data_format="NHWC",
            dilations=None, name=None, filter=None):
    if filters is None:
        filters = filter
    attrs = {"strides": _four(strides, "strides"), "padding": padding, "data_format": data_format}
    if dilations is not None:
        attrs["dilations"] = _four(dilations, "dilations")
    return _op("Conv2D", [input, filters], attrs, name, True)


def _max_pool(value=None, ksize=None, strides=None, padding=None, data_format="NHWC", name=None, input=None):
    if value is None:
        value = input
    return _op("MaxPool", [value], {"ksize": _four(ksize, "ksize"), "strides": _four(strides, "strides"),
                                     "padding": padding, "data_format": data_format}, name)


def _avg_pool(value=None, ksize=None, strides=None, padding=None, data_format="NHWC", name=None, input=None):
    if value is None:
        value = input
    return _op("AvgPool", [value], {"ksize": _four(ksize, "ksize"), "strides": _four(strides, "strides"),
                                     "padding": padding, "data_format": data_format}, name)


def _bias_add(value, bias, data_format=None, name=None):
    return _op("BiasAdd", [value, bias], {"data_format": "NHWC" if data_format is None else data_format}, name, True)


def _dropout(x, keep_prob=None, noise_shape=None, seed=None, name=None, rate=None):
    if rate is None:
        if keep_prob is None:
            raise ValueError("dropout needs keep_prob or rate")
        rate = 1 - keep_prob if not _tlens.is_tensor(keep_prob) else subtract(1.0, keep_prob)
    with name_scope(name, "dropout"):
        shape_ = shape(x)
        u = _op("RandomUniform", [shape_], {"dtype": x.dtype, "seed": 0 if seed is None else seed})
        keep = greater_equal(u, rate)
        scale = divide(1.0, subtract(1.0, rate)) if _tlens.is_tensor(rate) else 1.0 / (1.0 - rate)
        out = multiply(multiply(x, scale), cast(keep, x.dtype))
        if noise_shape is None:
            _tlens.set_shape(out, x.shape)
        return out


def _moments(x, axes, shift=None, keepdims=False, name=None, keep_dims=None):
    mean = reduce_mean(x, axes, keepdims=True)
    variance = reduce_mean(squared_difference(x, stop_gradient(mean)), axes, keepdims=True)
    if not (keepdims or keep_dims):
        mean = squeeze(mean, axes)
        variance = squeeze(variance, axes)
    return mean, variance


def _batch_normalization(x, mean, variance, offset, scale, variance_epsilon, name=None):
    inv = rsqrt(add(variance, variance_epsilon))
    if scale is not None:
        inv = multiply(inv, scale)
    y = add(multiply(x, inv), negative(multiply(mean, inv)))
    return y if offset is None else add(y, offset)


def _embedding_lookup(params, ids, partition_strategy="mod", name=None, validate_indices=True, max_norm=None):
    return gather(params, ids, name=name)


def _conv1d(value=None, filters=None, stride=None, padding=None, use_cudnn_on_gpu=None, data_format=None, name=None,
            input=None, dilations=None):
    if value is None:
        value = input
    x = expand_dims(value, 1)
    f = expand_dims(filters, 0)
    s = stride if isinstance(stride, int) else list(stride)[0]
    y = _conv2d(x, f, [1, 1, s, 1], padding)
    return squeeze(y, [1], name=name)


nn.conv2d = _conv2d
nn.conv1d = _conv1d
nn.max_pool = _max_pool
nn.max_pool2d = _max_pool
nn.avg_pool = _avg_pool
nn.avg_pool2d = _avg_pool
nn.bias_add = _bias_add
nn.dropout = _dropout
nn.moments = _moments
nn.batch_normalization = _batch_normalization
nn.embedding_lookup = _embedding_lookup
nn.l2_normalize = lambda x, axis=None, epsilon=1e-12, name=None, dim=None: multiply(
    x, rsqrt(maximum(reduce_sum(square(x), axis if axis is not None else dim, keepdims=True), epsilon)), name=name)


def _sigmoid_nn(x, name=None):
    return sigmoid(x, name)


nn.sigmoid = _sigmoid_nn

# --- random ------------------------------------------------------------------------------------
random = _Namespace("tensorflow.random")


def _rng(op_type, shape, dtype, seed, name):
    return _op(op_type, [shape], {"dtype": float32 if dtype is None else dtype, "seed": 0 if seed is None else seed},
               name, False, False, int32)


def random_normal(shape, mean=0.0, stddev=1.0, dtype=float32, seed=None, name=None):
    with name_scope(name, "random_normal") as scope:
        r = _rng("RandomStandardNormal", shape, dtype, seed, None)
        if stddev != 1.0 or _tlens.is_tensor(stddev):
            r = multiply(r, stddev)
        if mean != 0.0 or _tlens.is_tensor(mean):
            r = add(r, mean)
        return r


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=float32, seed=None, name=None):
    with name_scope(name, "truncated_normal"):
        r = _rng("TruncatedNormal", shape, dtype, seed, None)
        if stddev != 1.0 or _tlens.is_tensor(stddev):
            r = multiply(r, stddev)
        if mean != 0.0 or _tlens.is_tensor(mean):
            r = add(r, mean)
        return r


def random_uniform(shape, minval=0, maxval=None, dtype=float32, seed=None, name=None):
    dtype = as_dtype(dtype)
    if dtype.is_integer:
        # TensorFlow's RandomUniformInt: integers in [minval, maxval), drawn here as the floor of a
        # float64 uniform scaled to the range (exact for ranges below 2**52).
        if maxval is None:
            raise ValueError("Must specify maxval for integer dtype %r" % (dtype,))
        with name_scope(name, "random_uniform"):
            r = _rng("RandomUniform", shape, float64, seed, None)
            lo = cast(minval, float64)
            return cast(floor(add(multiply(r, subtract(cast(maxval, float64), lo)), lo)), dtype)
    with name_scope(name, "random_uniform"):
        r = _rng("RandomUniform", shape, dtype, seed, None)
        if maxval is None:
            maxval = 1
        if maxval != 1 or minval != 0 or _tlens.is_tensor(maxval):
            r = add(multiply(r, subtract(maxval, minval) if _tlens.is_tensor(maxval) else float(maxval - minval)), minval)
        return r


def set_random_seed(seed):
    _tlens.set_seed(seed)


random.normal = random_normal
random.truncated_normal = truncated_normal
random.uniform = random_uniform
random.set_seed = set_random_seed
random.set_random_seed = set_random_seed

# --- scopes and graphs -------------------------------------------------------------------------


def name_scope(name, default_name=None, values=None):
    return _tlens.name_scope(name, default_name)


class _VarStore:
    """One graph's variables made by get_variable, and how often each variable scope was opened
    (variable_scope(default_name=...) numbers its scopes from these counts, as TensorFlow)."""

    def __init__(self, graph):
        self.graph = graph
        self.variables = {}
        self.scope_counts = {}
        self.collections = {}

    def open_scope(self, name):
        self.scope_counts[name] = self.scope_counts.get(name, 0) + 1
        # Re-opening a scope restarts the numbering of the scopes inside it.
        prefix = name + "/"
        for k in list(self.scope_counts):
            if k.startswith(prefix):
                self.scope_counts[k] = 0


_var_stores = []


def _var_store():
    g = _tlens.graph_key()
    if g is None:
        return None  # eager: every get_variable makes a new variable
    for st in _var_stores:
        if st.graph == g:
            return st
    st = _VarStore(g)
    _var_stores.append(st)
    return st


class VariableScope:
    """tf.VariableScope: a variable scope's name, reuse flag and defaults for get_variable."""

    def __init__(self, reuse, name="", initializer=None, regularizer=None, dtype=None, original_name_scope=""):
        self.name = name
        self.reuse = reuse
        self.initializer = initializer
        self.regularizer = regularizer
        self.dtype = dtype
        self.original_name_scope = original_name_scope

    def reuse_variables(self):
        self.reuse = True

    def set_initializer(self, initializer):
        self.initializer = initializer

    def set_regularizer(self, regularizer):
        self.regularizer = regularizer

    def set_dtype(self, dtype):
        self.dtype = dtype

    def get_variable(self, name, shape=None, dtype=None, initializer=None, regularizer=None, trainable=None,
                     collections=None, **kwargs):
        return _get_variable_in(self, name, shape, dtype, initializer, regularizer, trainable)

    def __repr__(self):
        return "<tf.VariableScope '%s'>" % self.name


_root_var_scope = VariableScope(False)
_var_scope_stack = [_root_var_scope]


def get_variable_scope():
    return _var_scope_stack[-1]


def _inherit_reuse(reuse, parent):
    if reuse is True or reuse == AUTO_REUSE:
        return reuse
    if parent.reuse is True or parent.reuse == AUTO_REUSE:
        return parent.reuse  # a scope inside a reusing scope reuses too
    return False


def _abs_name_scope(full):
    # A trailing slash re-enters a name scope as it is; "/" is the root.
    return _tlens.name_scope(full + "/" if full else "/")


class variable_scope:
    """tf.variable_scope: a name prefix for get_variable, with variable sharing (reuse=True,
    tf.AUTO_REUSE, scope.reuse_variables()) and a name scope for the ops made inside."""

    def __init__(self, name_or_scope=None, default_name=None, values=None, initializer=None, regularizer=None,
                 caching_device=None, partitioner=None, custom_getter=None, reuse=None, dtype=None,
                 use_resource=None, constraint=None, auxiliary_name_scope=True):
        if name_or_scope is None and default_name is None:
            raise TypeError("If default_name is None then name_or_scope is required")
        if not (reuse is None or reuse is True or reuse is False or reuse == AUTO_REUSE):
            raise ValueError("The reuse parameter must be True or False or None.")
        self._name_or_scope = name_or_scope
        self._default_name = default_name
        self._initializer = initializer
        self._regularizer = regularizer
        self._reuse = reuse
        self._dtype = dtype
        self._aux = auxiliary_name_scope
        self._ns = None
        self._scope = None

    def __enter__(self):
        parent = get_variable_scope()
        store = _var_store()
        given = self._name_or_scope
        if isinstance(given, VariableScope):
            # Re-entering a captured scope: its own name (not nested) and its name scope as it was.
            name = given.name
            reuse = True if self._reuse is True else (given.reuse if self._reuse is None else self._reuse)
            reuse = _inherit_reuse(reuse, parent)
            ns_name = given.original_name_scope
            initializer = self._initializer if self._initializer is not None else given.initializer
            regularizer = self._regularizer if self._regularizer is not None else given.regularizer
            dtype = self._dtype if self._dtype is not None else given.dtype
            self._ns = _abs_name_scope(ns_name[:-1] if ns_name.endswith("/") else ns_name) if self._aux else None
        else:
            if given is not None:
                base = str(given)
                name = parent.name + "/" + base if parent.name else base
            else:
                base = self._default_name
                name = parent.name + "/" + base if parent.name else base
                if store is not None:
                    i, unique = 0, name
                    while store.scope_counts.get(unique, 0) > 0:
                        i += 1
                        unique = name + "_" + str(i)
                    name = unique
                    base = name.rsplit("/", 1)[-1]
            reuse = _inherit_reuse(self._reuse, parent)
            initializer = self._initializer if self._initializer is not None else parent.initializer
            regularizer = self._regularizer if self._regularizer is not None else parent.regularizer
            dtype = self._dtype if self._dtype is not None else parent.dtype
            self._ns = _tlens.name_scope(base) if self._aux else None
        if store is not None:
            store.open_scope(name)
        ns = self._ns.__enter__() if self._ns is not None else (parent.original_name_scope)
        self._scope = VariableScope(reuse, name, initializer, regularizer, dtype, ns if ns else name + "/")
        _var_scope_stack.append(self._scope)
        return self._scope

    def __exit__(self, a, b, c):
        if _var_scope_stack and _var_scope_stack[-1] is self._scope:
            _var_scope_stack.pop()
        if self._ns is not None:
            self._ns.__exit__(a, b, c)
        return False


variable_op_scope = variable_scope
AUTO_REUSE = "AUTO_REUSE"


def _same_shape(a, b):
    if len(a) != len(b):
        return False
    for x, y in zip(a, b):
        if x is not None and y is not None and x != y:
            return False
    return True


def get_variable(name, shape=None, dtype=None, initializer=None, regularizer=None, trainable=None,
                 collections=None, caching_device=None, partitioner=None, validate_shape=True,
                 use_resource=None, custom_getter=None, constraint=None, **kwargs):
    return _get_variable_in(get_variable_scope(), name, shape, dtype, initializer, regularizer, trainable)


def _get_variable_in(scope, name, shape, dtype, initializer, regularizer, trainable):
    full = scope.name + "/" + name if scope.name else name
    store = _var_store()
    if dtype is None and (is_tensor(initializer) or _tlens.is_ndarray(initializer)):
        dtype = initializer.dtype.base_dtype  # a tensor initializer gives its own dtype
    if dtype is None:
        dtype = scope.dtype if scope.dtype is not None else float32
    if shape is not None and not isinstance(shape, (list, _tuple)):
        shape = shape.as_list() if hasattr(shape, "as_list") else [shape]
    if store is not None and full in store.variables:
        if scope.reuse is not True and scope.reuse != AUTO_REUSE:
            raise ValueError("Variable %s already exists, disallowed. Did you mean to set reuse=True or "
                             "reuse=tf.AUTO_REUSE in VarScope?" % full)
        found = store.variables[full]
        found_shape = found.shape.as_list()
        if shape is not None and not _same_shape(list(shape), found_shape):
            raise ValueError("Trying to share variable %s, but specified shape %s and found shape %s." %
                             (full, TensorShape(list(shape)), TensorShape(found_shape)))
        if _dt(dtype) != found.dtype.base_dtype:
            raise ValueError("Trying to share variable %s, but specified dtype %s and found dtype %s." %
                             (full, as_dtype(dtype).name, found.dtype.base_dtype.name))
        return found
    if store is not None and scope.reuse is True:
        raise ValueError("Variable %s does not exist, or was not created with tf.get_variable(). Did you mean "
                         "to set reuse=tf.AUTO_REUSE in VarScope?" % full)
    if initializer is None:
        initializer = scope.initializer
    if initializer is None:
        initializer = glorot_uniform_initializer() if _dt(dtype).is_floating else zeros_initializer()
    if not is_tensor(initializer) and not _tlens.is_ndarray(initializer) and hasattr(initializer, "__mro__"):
        initializer = initializer()  # a class given for an instance: tf.zeros_initializer
    parent = full.rsplit("/", 1)[0] if "/" in full else ""
    base = full.rsplit("/", 1)[-1]
    # As TF's init_scope: the initializer waits for no control dependency around get_variable.
    with _abs_name_scope(full), control_dependencies(None):
        with name_scope("Initializer"):
            if callable(initializer) and not is_tensor(initializer) and not _tlens.is_ndarray(initializer):
                if shape is None:
                    raise ValueError("Shape of a new variable (%s) must be fully defined, but instead was %s." %
                                     (full, None))
                value = initializer(list(shape), dtype=dtype)
            else:
                value = initializer
    with _abs_name_scope(parent):
        v = _tlens.variable(value, base, True if trainable is None else trainable, dtype)
    if store is not None:
        store.variables[full] = v
    reg = regularizer if regularizer is not None else scope.regularizer
    if reg is not None:
        with name_scope(full + "/Regularizer/"):
            loss = reg(v)
        if loss is not None:
            add_to_collection(GraphKeys.REGULARIZATION_LOSSES, loss)
    return v


def device(device_name):
    return _tlens.device(device_name)


def control_dependencies(control_inputs):
    return _tlens.control_dependencies(control_inputs)


def Graph():
    return _tlens.new_graph()


def get_default_graph():
    return _tlens.default_graph()


def reset_default_graph():
    _tlens.reset_default_graph()


def Session(target="", graph=None, config=None):
    return _tlens.session(graph, False, config is not None and config.allow_soft_placement)


def InteractiveSession(target="", graph=None, config=None):
    return _tlens.session(graph, True, config is not None and config.allow_soft_placement)


def get_default_session():
    return _tlens.default_session()


class ConfigProto:
    def __init__(self, log_device_placement=False, allow_soft_placement=False, device_count=None,
                 gpu_options=None, inter_op_parallelism_threads=0, intra_op_parallelism_threads=0, **kwargs):
        self.log_device_placement = log_device_placement
        if log_device_placement:
            _tlens.log_device_placement(True)
        self.allow_soft_placement = allow_soft_placement
        self.gpu_options = GPUOptions()


class GPUOptions:
    def __init__(self, allow_growth=False, per_process_gpu_memory_fraction=1.0, **kwargs):
        self.allow_growth = allow_growth
        self.per_process_gpu_memory_fraction = per_process_gpu_memory_fraction


def global_variables_initializer():
    return _tlens.global_variables_initializer()


initialize_all_variables = global_variables_initializer


def local_variables_initializer():
    return _tlens.variables_initializer(get_collection(GraphKeys.LOCAL_VARIABLES), "init_1")


def local_variables(scope=None):
    return get_collection(GraphKeys.LOCAL_VARIABLES, scope)


def variables_initializer(var_list, name="init"):
    return _tlens.variables_initializer(var_list, name)


def _scope_match(scope, name):
    # TensorFlow filters with re.match(scope, name); scopes are names in practice, so a prefix
    # test (with a trailing '$' or '.*' understood) gives the same answer.
    if scope.endswith("$"):
        return name == scope[:-1] or name.split(":")[0] == scope[:-1]
    if scope.endswith(".*"):
        scope = scope[:-2]
    return name.startswith(scope)


def _in_scope(variables, scope):
    if scope is None:
        return variables
    return [v for v in variables if _scope_match(scope, v.name)]


def global_variables(scope=None):
    return _in_scope(_tlens.variables(False), scope)


def trainable_variables(scope=None):
    return _in_scope(_tlens.variables(True), scope)


all_variables = global_variables


class GraphKeys:
    GLOBAL_VARIABLES = "variables"
    VARIABLES = "variables"
    TRAINABLE_VARIABLES = "trainable_variables"
    LOCAL_VARIABLES = "local_variables"
    METRIC_VARIABLES = "metric_variables"
    MODEL_VARIABLES = "model_variables"
    REGULARIZATION_LOSSES = "regularization_losses"
    LOSSES = "losses"
    SUMMARIES = "summaries"
    UPDATE_OPS = "update_ops"
    MOVING_AVERAGE_VARIABLES = "moving_average_variables"
    GLOBAL_STEP = "global_step"
    TRAIN_OP = "train_op"
    QUEUE_RUNNERS = "queue_runners"
    ACTIVATIONS = "activations"
    INIT_OP = "init_op"


def _collections():
    st = _var_store()
    return st.collections if st is not None else _eager_collections


_eager_collections = {}


def add_to_collection(name, value):
    _collections().setdefault(name, []).append(value)


def add_to_collections(names, value):
    for n in ([names] if isinstance(names, str) else names):
        add_to_collection(n, value)


def get_collection_ref(key):
    return _collections().setdefault(key, [])


def get_collection(key, scope=None):
    if key == GraphKeys.GLOBAL_VARIABLES:
        return global_variables(scope)
    if key == GraphKeys.TRAINABLE_VARIABLES:
        return trainable_variables(scope)
    items = list(_collections().get(key, []))
    if scope is None:
        return items
    return [x for x in items if not hasattr(x, "name") or _scope_match(scope, x.name)]


all_variables = global_variables


def gradients(ys, xs, grad_ys=None, name="gradients", colocate_gradients_with_ops=False, gate_gradients=False,
              aggregation_method=None, stop_gradients=None):
    return _tlens.gradients(ys, xs, grad_ys)


def GradientTape(persistent=False, watch_accessed_variables=True):
    return _tlens.tape(persistent)


def executing_eagerly():
    return not _tlens.building_graph()


def enable_eager_execution(config=None, device_policy=None, execution_mode=None):
    _tlens.set_style("eager")


def disable_eager_execution():
    _tlens.set_style("graph")


def disable_v2_behavior():
    _tlens.set_style("graph")


def enable_v2_behavior():
    _tlens.set_style("eager")


# --- printing and assertions -------------------------------------------------------------------


def Print(input_, data, message=None, first_n=None, summarize=None, name=None):
    return _op("Print", [input_] + list(data),
               {"message": "" if message is None else message, "first_n": -1 if first_n is None else first_n,
                "summarize": 3 if summarize is None else summarize}, name)


def print(*inputs, output_stream=None, summarize=3, sep=" ", end="\n", name=None):
    if _tlens.building_graph():
        tensors = [i for i in inputs if _tlens.is_tensor(i)]
        if tensors:
            return Print(tensors[0], tensors, " ".join(str(i) for i in inputs if not _tlens.is_tensor(i)))
        return no_op()
    parts = []
    for i in inputs:
        if _tlens.is_tensor(i) or _tlens.is_ndarray(i):
            parts.append(_tlens.summarize(i, summarize))
        else:
            parts.append(str(i))
    text = sep.join(parts) + end
    if output_stream is not None and "stdout" in str(output_stream):
        _tlens.write_stdout(text)
    else:
        _tlens.write_stderr(text)
    return None


def Assert(condition, data, summarize=None, name=None):
    data = list(data)
    texts = [d for d in data if isinstance(d, str)]
    tensors = [d for d in data if not isinstance(d, str)]
    if not _tlens.building_graph() and not _tlens.is_symbolic(condition):
        # Eager: check now, as TensorFlow does.
        if _tlens.is_abstract():
            return None
        if not _bool(_tlens.value(condition)):
            n = 3 if summarize is None else summarize
            parts = texts + [_tlens.summarize(t, n) if _tlens.is_tensor(t) or _tlens.is_ndarray(t) else str(t) for t in tensors]
            raise InvalidArgumentError(None, None, "assertion failed: [" + "] [".join(parts) + "]")
        return None
    return _op("Assert", [condition] + data, {"summarize": 3 if summarize is None else summarize}, name)


def check_numerics(tensor, message, name=None):
    return _op("CheckNumerics", [tensor], {"message": message}, name)


def _assert_cmp(op_fn, default_message):
    def f(x, y, data=None, summarize=None, message=None, name=None):
        cond = reduce_all(op_fn(x, y))
        msg = message if message is not None else default_message
        return Assert(cond, [msg] if data is None else data, summarize, name)
    return f


debugging = _Namespace("tensorflow.debugging")
debugging.Assert = Assert
debugging.check_numerics = check_numerics
debugging.is_nan = is_nan
debugging.is_inf = is_inf
debugging.is_finite = is_finite
debugging.assert_equal = _assert_cmp(equal, "Condition x == y did not hold")
debugging.assert_less = _assert_cmp(less, "Condition x < y did not hold")
debugging.assert_less_equal = _assert_cmp(less_equal, "Condition x <= y did not hold")
debugging.assert_greater = _assert_cmp(greater, "Condition x > y did not hold")
debugging.assert_greater_equal = _assert_cmp(greater_equal, "Condition x >= y did not hold")
debugging.assert_positive = lambda x, data=None, summarize=None, message=None, name=None: Assert(
    reduce_all(greater(x, 0)), [message if message is not None else "Condition x > 0 did not hold"], summarize, name)
debugging.assert_non_negative = lambda x, data=None, summarize=None, message=None, name=None: Assert(
    reduce_all(greater_equal(x, 0)), [message if message is not None else "Condition x >= 0 did not hold"], summarize, name)
debugging.assert_all_finite = lambda t, msg, name=None: check_numerics(t, msg, name)
debugging.set_log_device_placement = lambda enabled: _tlens.log_device_placement(enabled)
assert_equal = debugging.assert_equal
assert_less = debugging.assert_less
assert_greater = debugging.assert_greater
assert_positive = debugging.assert_positive


def _assert_shapes_stub(shapes, data=None, summarize=None, message=None, name=None):
    return no_op()


debugging.assert_shapes = _assert_shapes_stub

# --- tf.function -------------------------------------------------------------------------------
config = _Namespace("tensorflow.config")


def _run_functions_eagerly(run_eagerly):
    _tlens.functions_eagerly(run_eagerly)


config.run_functions_eagerly = _run_functions_eagerly
config.experimental_run_functions_eagerly = _run_functions_eagerly
config.functions_run_eagerly = lambda: _tlens.functions_eagerly()


# --- devices: what the program runs on (lang/tf/CoreModule.cpp "devices", engine/core/DeviceSet.h)
class PhysicalDevice:
    def __init__(self, name, device_type):
        self.name = name
        self.device_type = device_type

    def __eq__(self, other):
        return isinstance(other, PhysicalDevice) and other.name == self.name

    def __hash__(self):
        return hash(self.name)

    def __repr__(self):
        return "PhysicalDevice(name='" + self.name + "', device_type='" + self.device_type + "')"


class LogicalDevice:
    def __init__(self, name, device_type):
        self.name = name
        self.device_type = device_type

    def __eq__(self, other):
        return isinstance(other, LogicalDevice) and other.name == self.name

    def __hash__(self):
        return hash(self.name)

    def __repr__(self):
        return "LogicalDevice(name='" + self.name + "', device_type='" + self.device_type + "')"


class LogicalDeviceConfiguration:
    def __init__(self, memory_limit=None, experimental_priority=None, experimental_device_ordinal=None):
        self.memory_limit = memory_limit

    def __repr__(self):
        return "LogicalDeviceConfiguration(memory_limit=" + repr(self.memory_limit) + ")"


def _device_index(device, what):
    if isinstance(device, (PhysicalDevice, LogicalDevice)):
        kind = device.device_type
        index = int(device.name.split(":")[-1])
    else:
        text = str(device).upper().split("/")[-1].replace("DEVICE:", "")
        parts = text.split(":")
        kind = parts[0]
        index = int(parts[1]) if len(parts) > 1 and parts[1] else 0
    if kind not in ("CPU", "GPU"):
        raise ValueError("Unrecognized device: " + repr(device) + " (" + what + ")")
    return kind, index


def _list_physical_devices(device_type=None):
    return [PhysicalDevice("/physical_device:" + k + ":" + str(i), k) for (k, i, _d, _m, _v) in _tlens.devices(device_type)]


def _list_logical_devices(device_type=None):
    return [LogicalDevice("/device:" + k + ":" + str(i), k) for (k, i, _d, _m, _v) in _tlens.devices(device_type)]


def _set_logical_device_configuration(device, logical_devices):
    kind, index = _device_index(device, "set_logical_device_configuration")
    if logical_devices is None:
        return
    if kind == "CPU":
        if len(logical_devices) > 1:
            raise NotImplementedError("tensorlens has one CPU device; several logical CPUs are not modelled")
        return
    gpus = _tlens.devices("GPU")
    if index >= len(gpus):
        raise ValueError("Unrecognized device: " + repr(device))
    limits = [c.memory_limit for c in logical_devices if c.memory_limit is not None]
    limit = int(max(limits) * 1024 * 1024) if limits else 0
    if len(logical_devices) == 1 and not gpus[index][4]:
        _tlens.set_gpu_memory_limit(index, limit)   # a CUDA device with a memory limit
        return
    # Virtual GPUs: device `index` becomes len(logical_devices) GPUs of host memory.
    _tlens.set_virtual_gpus(len(gpus) - 1 + len(logical_devices), limit)


def _get_logical_device_configuration(device):
    kind, index = _device_index(device, "get_logical_device_configuration")
    for (k, i, _d, mem, _v) in _tlens.devices(kind):
        if i == index:
            return [LogicalDeviceConfiguration(memory_limit=mem // (1024 * 1024) if mem else None)]
    return None


def _set_visible_devices(devices, device_type=None):
    if isinstance(devices, (PhysicalDevice, LogicalDevice)):
        devices = [devices]
    if device_type is not None and device_type.upper() != "GPU":
        return
    gpus = [d for d in devices if d.device_type == "GPU"]
    _tlens.keep_gpus(len(gpus))


def _get_memory_info(device):
    kind, index = _device_index(device, "get_memory_info")
    return _tlens.memory_info(kind, index)


def _reset_memory_stats(device):
    kind, index = _device_index(device, "reset_memory_stats")
    _tlens.reset_memory_stats(kind, index)


def _get_device_details(device):
    kind, index = _device_index(device, "get_device_details")
    for (k, i, description, _m, _v) in _tlens.devices(kind):
        if i == index:
            return {"device_name": description} if k == "GPU" else {}
    return {}


config.list_physical_devices = _list_physical_devices
config.list_logical_devices = _list_logical_devices
config.get_visible_devices = _list_physical_devices
config.set_visible_devices = _set_visible_devices
config.set_logical_device_configuration = _set_logical_device_configuration
config.get_logical_device_configuration = _get_logical_device_configuration
config.LogicalDeviceConfiguration = LogicalDeviceConfiguration
config.PhysicalDevice = PhysicalDevice
config.LogicalDevice = LogicalDevice
config.set_soft_device_placement = lambda enabled: _tlens.soft_placement(enabled)
config.get_soft_device_placement = lambda: _tlens.soft_placement()
config.experimental = _Namespace("tensorflow.config.experimental")
config.experimental.set_memory_growth = lambda device, enable: None
config.experimental.get_memory_growth = lambda device: False
config.experimental.list_physical_devices = _list_physical_devices
config.experimental.list_logical_devices = _list_logical_devices
config.experimental.set_visible_devices = _set_visible_devices
config.experimental.get_visible_devices = _list_physical_devices
config.experimental.set_virtual_device_configuration = _set_logical_device_configuration
config.experimental.get_virtual_device_configuration = _get_logical_device_configuration
config.experimental.VirtualDeviceConfiguration = LogicalDeviceConfiguration
config.experimental.get_memory_info = _get_memory_info
config.experimental.reset_memory_stats = _reset_memory_stats
config.experimental.get_device_details = _get_device_details
config.experimental.set_device_policy = lambda device_policy: None

def _testing_module():
    import tensorflow._testing as m
    return m


class _TestNamespace(_Namespace):
    """tf.test: TestCase, main and get_temp_dir live in tensorflow._testing (over the embedded
    unittest), loaded on first use."""
    TestCase = property(lambda self: _testing_module().TestCase)
    main = property(lambda self: _testing_module().main)
    get_temp_dir = property(lambda self: _testing_module().get_temp_dir)


test = _TestNamespace("tensorflow.test")
test.is_built_with_cuda = lambda: _tlens.built_with_cuda()
test.is_built_with_gpu_support = test.is_built_with_cuda


def _is_gpu_available(cuda_only=False, min_cuda_compute_capability=None):
    return len(_tlens.devices("GPU")) > 0


def _gpu_device_name():
    gpus = _tlens.devices("GPU")
    return "/device:GPU:0" if gpus else ""


test.is_gpu_available = _is_gpu_available
test.gpu_device_name = _gpu_device_name


class TensorSpec:
    """The type of a tensor: shape (dims may be None), dtype and name (tf.function's
    input_signature, tf.data's element_spec)."""

    def __init__(self, shape, dtype=None, name=None):
        if dtype is None:
            dtype = float32
        self.shape = TensorShape(list(shape) if shape is not None and not isinstance(shape, TensorShape)
                                 else shape)
        self.dtype = as_dtype(dtype)
        self.name = name

    @classmethod
    def from_tensor(cls, tensor, name=None):
        return cls(tensor.shape, tensor.dtype, name)

    def is_compatible_with(self, other):
        return self.dtype == other.dtype and self.shape.is_compatible_with(other.shape)

    def __eq__(self, other):
        return (isinstance(other, TensorSpec) and self.dtype == other.dtype and self.name == other.name
                and repr(self.shape) == repr(other.shape))

    def __repr__(self):
        return "TensorSpec(shape=%s, dtype=%s, name=%s)" % (self.shape, repr(self.dtype), repr(self.name))


def _signature_tensor(spec):
    dims = spec.shape.as_list() if spec.shape.ndims is not None else None
    return _tlens.typed(spec.dtype, dims, False)


def function(func=None, input_signature=None, autograph=True, jit_compile=None, reduce_retracing=False,
             experimental_compile=None, experimental_relax_shapes=None):
    # Traced into a graph per input signature and replayed op by op (lang/tf/FunctionObj.h).
    def wrap(f):
        traced = _tlens.function(f)
        if input_signature is not None and _tlens.is_abstract():
            # The analysis checks the body once with the signature's types, whether or not the
            # program calls it with known inputs (a serving function often is not called).
            specs = list(input_signature)
            if all(isinstance(s, TensorSpec) for s in specs):
                f(*[_signature_tensor(s) for s in specs])

        def wrapper(*args, **kwargs):
            return traced(*args, **kwargs)
        wrapper.__name__ = getattr(f, "__name__", "function")
        wrapper.python_function = f
        concretes = {}

        def get_concrete_function(*args, **kwargs):
            key = _tuple([_signature_key(a) for a in args])
            c = concretes.get(key)
            if c is None:
                c = _ConcreteFunction(f, traced, args)
                concretes[key] = c
            return c
        wrapper.get_concrete_function = get_concrete_function
        return wrapper
    if func is None:
        return wrap
    return wrap(func)


def _signature_key(a):
    if is_tensor(a) or _tlens.is_ndarray(a) or isinstance(a, TensorSpec):
        return (as_dtype(a.dtype).name, _tuple(TensorShape(a.shape).as_list() if a.shape is not None else [None]))
    return ("py", repr(a))


class _ConcreteFunction:
    """tf.function(...).get_concrete_function(args): callable, with `graph`, the function traced
    on placeholders named after its parameters, its result under 'Identity' as in TensorFlow."""

    def __init__(self, f, traced, args):
        self._f = f
        self._traced = traced
        self._args = args
        self._graph = None
        self.structured_outputs = None

    def __call__(self, *args, **kwargs):
        return self._traced(*args, **kwargs)

    @property
    def graph(self):
        if self._graph is None:
            g = Graph()
            names = _tlens.param_names(self._f)
            with g.as_default():
                ins = []
                for i, a in enumerate(self._args):
                    n = names[i] if i < len(names) else "arg%d" % i
                    if isinstance(a, TensorSpec):
                        ins.append(placeholder(a.dtype, a.shape, name=n))
                    elif is_tensor(a) or _tlens.is_ndarray(a):
                        t = convert_to_tensor(a)
                        ins.append(placeholder(t.dtype, t.shape, name=n))
                    else:
                        ins.append(a)
                out = self._f(*ins)
                if is_tensor(out):
                    out = identity(out, name="Identity")
                self.structured_outputs = out
            self._graph = g
        return self._graph

    @property
    def inputs(self):
        return [op.outputs[0] for op in self.graph.get_operations() if op.type == "Placeholder"]

    @property
    def outputs(self):
        self.graph
        return [self.structured_outputs] if is_tensor(self.structured_outputs) else list(self.structured_outputs or [])


# --- train -------------------------------------------------------------------------------------
train = _Namespace("tensorflow.train")


class _Optimizer:
    _kind = "GradientDescent"

    def __init__(self, learning_rate=0.001, use_locking=False, name=None, **params):
        self._lr = learning_rate
        self._params = params
        self._name = name

    def minimize(self, loss, global_step=None, var_list=None, gate_gradients=1, aggregation_method=None,
                 colocate_gradients_with_ops=False, name=None, grad_loss=None, tape=None):
        if _tlens.graph_key() is None:
            # Eager execution (tf.enable_eager_execution, tfe): the gradients of a loss function.
            return self.apply_gradients(self.compute_gradients(loss, var_list), global_step, name)
        if callable(loss) and not _tlens.is_tensor(loss):
            loss = loss()
        op = _tlens.minimize(self._kind, loss, self._learning_rate(), self._params, var_list, self._name)
        return self._count_step(op, global_step)

    def _slot(self, var, name, init):
        slots = getattr(self, "_eager_slots", None)
        if slots is None:
            slots = self._eager_slots = {}
        key = (id(var), name)
        if key not in slots:
            slots[key] = Variable(fill(var.shape.as_list(), constant(init, var.dtype.base_dtype)), trainable=False,
                                  name=var.name.split(":")[0] + "/" + self.get_name() + ("_1" if name == "v2" else ""))
        return slots[key]

    def _eager_update(self, g, v, lr):
        # TensorFlow 1's update formulas (training_ops.cc), run eagerly.
        p = self._params
        lr = cast(lr, v.dtype.base_dtype)
        g = convert_to_tensor(g)
        if self._kind == "GradientDescent":
            assign_sub(v, lr * g)
        elif self._kind == "Momentum":
            a = self._slot(v, "momentum", 0.0)
            assign(a, a * p["momentum"] + g)
            assign_sub(v, lr * g + lr * p["momentum"] * a if p.get("use_nesterov") else lr * a)
        elif self._kind == "Adam":
            t = getattr(self, "_adam_t", None)
            if t is None:
                t = self._adam_t = {}
            t[id(v)] = t.get(id(v), 0) + 1
            b1, b2, eps = p["beta1"], p["beta2"], p["epsilon"]
            lr_t = lr * _math.sqrt(1.0 - b2 ** t[id(v)]) / (1.0 - b1 ** t[id(v)])
            m, v2 = self._slot(v, "m", 0.0), self._slot(v, "v2", 0.0)
            assign(m, m * b1 + g * (1.0 - b1))
            assign(v2, v2 * b2 + g * g * (1.0 - b2))
            assign_sub(v, lr_t * m / (sqrt(v2) + eps))
        elif self._kind == "RMSProp":
            ms, mom = self._slot(v, "rms", 1.0), self._slot(v, "momentum", 0.0)
            assign(ms, ms * p["decay"] + g * g * (1.0 - p["decay"]))
            assign(mom, mom * p["momentum"] + lr * g / sqrt(ms + p["epsilon"]))
            assign_sub(v, mom)
        elif self._kind == "Adagrad":
            acc = self._slot(v, "accumulator", p["initial_accumulator_value"])
            assign_add(acc, g * g)
            assign_sub(v, lr * g / sqrt(acc))
        elif self._kind == "Adadelta":
            acc, upd = self._slot(v, "accum", 0.0), self._slot(v, "accum_update", 0.0)
            rho, eps = p["rho"], p["epsilon"]
            assign(acc, acc * rho + g * g * (1.0 - rho))
            u = sqrt(upd + eps) / sqrt(acc + eps) * g
            assign(upd, upd * rho + u * u * (1.0 - rho))
            assign_sub(v, lr * u)
        else:
            raise NotImplementedError("tensorlens: tf.train.%sOptimizer runs in graphs only" % self._kind)

    def _learning_rate(self):
        lr = self._lr
        if callable(lr) and not _tlens.is_tensor(lr):
            lr = lr()
        if _tlens.is_tensor(lr) and lr.dtype.base_dtype not in (float16, float32, float64):
            lr = cast(lr, float32)
        return lr

    def _count_step(self, op, global_step):
        if global_step is not None and _tlens.is_variable(global_step):
            with control_dependencies([op]):
                return assign_add(global_step, 1)
        return op

    def compute_gradients(self, loss, var_list=None, gate_gradients=1, aggregation_method=None,
                          colocate_gradients_with_ops=False, grad_loss=None, **kwargs):
        if _tlens.graph_key() is None:
            if not callable(loss) or _tlens.is_tensor(loss):
                raise RuntimeError("`loss` passed to Optimizer.compute_gradients should be a function when eager "
                                   "execution is enabled.")
            with GradientTape() as tape:
                value = loss()
            vs = list(var_list) if var_list is not None else list(tape.watched_variables())
            if not vs:
                raise ValueError("No variables to optimize.")
            return list(zip(tape.gradient(value, vs, output_gradients=grad_loss), vs))
        if callable(loss) and not _tlens.is_tensor(loss):
            loss = loss()
        if var_list is None:
            var_list = trainable_variables()
        var_list = list(var_list)
        if not var_list:
            raise ValueError("No variables to optimize.")
        grads = gradients(loss, var_list, grad_ys=grad_loss)
        return [(g, v) for g, v in zip(grads, var_list)]

    def apply_gradients(self, grads_and_vars, global_step=None, name=None):
        pairs = [(g, v) for g, v in grads_and_vars]
        if _tlens.graph_key() is None:
            if not [g for g, v in pairs if g is not None]:
                raise ValueError("No gradients provided for any variable: %s." % ([v.name for g, v in pairs],))
            lr = self._learning_rate()
            for g, v in pairs:
                if g is not None:
                    self._eager_update(g, v, lr)
            if global_step is not None:
                assign_add(global_step, 1)
            return None
        op = _tlens.apply_gradients(self._kind, pairs, self._learning_rate(), self._params,
                                    name if name is not None else self._name)
        return self._count_step(op, global_step)

    def get_name(self):
        return self._name if self._name is not None else self._kind


class GradientDescentOptimizer(_Optimizer):
    _kind = "GradientDescent"

    def __init__(self, learning_rate, use_locking=False, name="GradientDescent"):
        _Optimizer.__init__(self, learning_rate, use_locking, name)


class MomentumOptimizer(_Optimizer):
    _kind = "Momentum"

    def __init__(self, learning_rate, momentum, use_locking=False, name="Momentum", use_nesterov=False):
        _Optimizer.__init__(self, learning_rate, use_locking, name, momentum=momentum, use_nesterov=1 if use_nesterov else 0)


class AdamOptimizer(_Optimizer):
    _kind = "Adam"

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-08, use_locking=False, name="Adam"):
        _Optimizer.__init__(self, learning_rate, use_locking, name, beta1=beta1, beta2=beta2, epsilon=epsilon)


class RMSPropOptimizer(_Optimizer):
    _kind = "RMSProp"

    def __init__(self, learning_rate, decay=0.9, momentum=0.0, epsilon=1e-10, use_locking=False, centered=False,
                 name="RMSProp"):
        _Optimizer.__init__(self, learning_rate, use_locking, name, decay=decay, momentum=momentum, epsilon=epsilon)


class AdagradOptimizer(_Optimizer):
    _kind = "Adagrad"

    def __init__(self, learning_rate, initial_accumulator_value=0.1, use_locking=False, name="Adagrad"):
        if initial_accumulator_value <= 0.0:
            raise ValueError("initial_accumulator_value must be positive: %s" % initial_accumulator_value)
        _Optimizer.__init__(self, learning_rate, use_locking, name, initial_accumulator_value=initial_accumulator_value)


class AdadeltaOptimizer(_Optimizer):
    _kind = "Adadelta"

    def __init__(self, learning_rate=0.001, rho=0.95, epsilon=1e-08, use_locking=False, name="Adadelta"):
        _Optimizer.__init__(self, learning_rate, use_locking, name, rho=rho, epsilon=epsilon)


train.AdagradOptimizer = AdagradOptimizer
train.AdadeltaOptimizer = AdadeltaOptimizer


# Learning-rate schedules (TF1's tf.train.*_decay): tensors of the global step.
def _decay_step(global_step, dtype):
    if global_step is None:
        raise ValueError("global_step is required for a learning rate decay.")
    return cast(global_step, dtype)


def exponential_decay(learning_rate, global_step, decay_steps, decay_rate, staircase=False, name=None):
    with name_scope(name, "ExponentialDecay"):
        lr = convert_to_tensor(learning_rate, name="learning_rate")
        dt = lr.dtype
        p = _decay_step(global_step, dt) / cast(decay_steps, dt)
        if staircase:
            p = floor(p)
        return multiply(lr, pow(cast(decay_rate, dt), p), name=name)


def inverse_time_decay(learning_rate, global_step, decay_steps, decay_rate, staircase=False, name=None):
    with name_scope(name, "InverseTimeDecay"):
        lr = convert_to_tensor(learning_rate, name="learning_rate")
        dt = lr.dtype
        p = _decay_step(global_step, dt) / cast(decay_steps, dt)
        if staircase:
            p = floor(p)
        return divide(lr, 1.0 + cast(decay_rate, dt) * p, name=name)


def natural_exp_decay(learning_rate, global_step, decay_steps, decay_rate, staircase=False, name=None):
    with name_scope(name, "NaturalExpDecay"):
        lr = convert_to_tensor(learning_rate, name="learning_rate")
        dt = lr.dtype
        p = _decay_step(global_step, dt) / cast(decay_steps, dt)
        if staircase:
            p = floor(p)
        return multiply(lr, exp(-cast(decay_rate, dt) * p), name=name)


def polynomial_decay(learning_rate, global_step, decay_steps, end_learning_rate=0.0001, power=1.0, cycle=False,
                     name=None):
    with name_scope(name, "PolynomialDecay"):
        lr = convert_to_tensor(learning_rate, name="learning_rate")
        dt = lr.dtype
        step = _decay_step(global_step, dt)
        steps = cast(decay_steps, dt)
        if cycle:
            steps = steps * maximum(ceil(step / steps), 1.0)
        else:
            step = minimum(step, steps)
        frac = 1.0 - step / steps
        return add((lr - end_learning_rate) * pow(frac, cast(power, dt)), cast(end_learning_rate, dt), name=name)


def piecewise_constant(x, boundaries, values, name=None):
    if len(values) != len(boundaries) + 1:
        raise ValueError("The length of boundaries should be 1 less than the length of values")
    with name_scope(name, "PiecewiseConstant"):
        x = convert_to_tensor(x)
        vals = [convert_to_tensor(v) for v in values]
        out = vals[-1]
        for b, v in reversed(list(zip(boundaries, vals[:-1]))):
            out = where_v2(less_equal(x, cast(b, x.dtype)), v, out)
        return out


def cosine_decay(learning_rate, global_step, decay_steps, alpha=0.0, name=None):
    with name_scope(name, "CosineDecay"):
        lr = convert_to_tensor(learning_rate, name="learning_rate")
        dt = lr.dtype
        step = minimum(_decay_step(global_step, dt), cast(decay_steps, dt))
        cosine = 0.5 * (1.0 + cos(3.141592653589793 * step / cast(decay_steps, dt)))
        return multiply(lr, (1.0 - alpha) * cosine + alpha, name=name)


train.exponential_decay = exponential_decay
train.inverse_time_decay = inverse_time_decay
train.natural_exp_decay = natural_exp_decay
train.polynomial_decay = polynomial_decay
train.piecewise_constant = piecewise_constant
train.cosine_decay = cosine_decay

train.Optimizer = _Optimizer
train.GradientDescentOptimizer = GradientDescentOptimizer
train.MomentumOptimizer = MomentumOptimizer
train.AdamOptimizer = AdamOptimizer
train.RMSPropOptimizer = RMSPropOptimizer


def _get_or_create_global_step(graph=None):
    return Variable(0, trainable=False, name="global_step", dtype=int64)


train.get_or_create_global_step = _get_or_create_global_step
train.get_global_step = _get_or_create_global_step


def _var_key(v):
    name = v.name
    return name[:-2] if name.endswith(":0") else name


def _write_checkpoint_files(path, keys, values):
    # TensorFlow's checkpoint writer creates the parent directory (saver.save(sess,
    # "model/model.ckpt") with no model/ yet works there).
    parent = _os.path.dirname(path)
    if parent and not _os.path.isdir(parent):
        _os.makedirs(parent)
    _tlens.write_checkpoint(path, keys, values)


def _keep_newest(kept, path, max_to_keep):
    """The checkpoints kept after saving `path`: the newest `max_to_keep` (all when None or 0);
    the files of the ones dropped are removed."""
    kept = [p for p in kept if p != path] + [path]
    while max_to_keep and len(kept) > max_to_keep:
        old = kept.pop(0)
        for suffix in (".index", ".data-00000-of-00001", ".meta"):
            if _os.path.exists(old + suffix):
                _os.remove(old + suffix)
    return kept


class _Saver:
    """tf.train.Saver: writes the variables to `<path>.index` and `<path>.data-00000-of-00001`
    (tensorlens' index format, see lang/tf/CheckpointFiles.h) and keeps TensorFlow's `checkpoint`
    state file, so latest_checkpoint() and restore() work across runs."""

    def __init__(self, var_list=None, reshape=False, sharded=False, max_to_keep=5, keep_checkpoint_every_n_hours=10000.0,
                 name=None, restore_sequentially=False, saver_def=None, builder=None, defer_build=False,
                 allow_empty=False, write_version=2, pad_step_number=False, save_relative_paths=False, filename=None,
                 **kwargs):
        if var_list is None:
            var_list = global_variables()
        if isinstance(var_list, dict):
            items = list(var_list.items())
        else:
            items = [(_var_key(v), v) for v in var_list]
        if not items and not allow_empty:
            raise ValueError("No variables to save")
        self._items = items
        self._max_to_keep = max_to_keep
        self._kept = []
        self._restore_ops = None
        self._graph = _tlens.graph_key()

    def save(self, sess, save_path, global_step=None, latest_filename=None, meta_graph_suffix="meta",
             write_meta_graph=True, write_state=True, strip_default_attrs=False, save_debug_info=False):
        if global_step is not None:
            step = global_step if isinstance(global_step, int) else int(sess.run(global_step))
            save_path = "%s-%d" % (save_path, step)
        values = [v for _, v in self._items]
        if _tlens.graph_key() is not None:
            values = sess.run(values)
        _write_checkpoint_files(save_path, [k for k, _ in self._items], values)
        if write_state:
            self._kept = _keep_newest(self._kept, save_path, self._max_to_keep)
            _write_checkpoint_state(_os.path.dirname(save_path), save_path, self._kept, latest_filename)
        return save_path

    def restore(self, sess, save_path):
        if save_path is None:
            raise ValueError("Can't load save_path when it is None.")
        stored = {}
        for key, value in _tlens.read_checkpoint(save_path):
            stored[key] = value
        for key, _ in self._items:
            if key not in stored:
                raise errors.NotFoundError(None, None, "Key %s not found in checkpoint" % key)
        if self._graph is not None and self._restore_ops is None:
            # The restore ops are built once (save/Assign...), at the first restore.
            with name_scope("save"):
                self._restore_ops = []
                for key, v in self._items:
                    ph = placeholder(v.dtype.base_dtype, v.shape, name="restore_" + key.replace("/", "_"))
                    self._restore_ops.append((ph, assign(v, ph)))
        if self._restore_ops is not None:
            feed = {}
            for (key, _), (ph, _) in zip(self._items, self._restore_ops):
                feed[ph] = stored[key]
            sess.run([op for _, op in self._restore_ops], feed_dict=feed)
        else:
            for key, v in self._items:
                v.assign(stored[key])
        return None

    def last_checkpoints(self):
        return list(self._kept)


def _write_checkpoint_state(directory, latest, paths, latest_filename=None):
    def rel(p):
        return _os.path.basename(p) if _os.path.dirname(p) == directory else p
    lines = ['model_checkpoint_path: "%s"' % rel(latest)]
    for p in paths:
        lines.append('all_model_checkpoint_paths: "%s"' % rel(p))
    with open(_os.path.join(directory, latest_filename or "checkpoint"), "w") as f:
        f.write("\n".join(lines) + "\n")


class _CheckpointState:
    def __init__(self, model_checkpoint_path, all_model_checkpoint_paths):
        self.model_checkpoint_path = model_checkpoint_path
        self.all_model_checkpoint_paths = all_model_checkpoint_paths


def _get_checkpoint_state(checkpoint_dir, latest_filename=None):
    path = _os.path.join(checkpoint_dir, latest_filename or "checkpoint")
    if not _os.path.exists(path):
        return None
    latest, every = None, []
    with open(path) as f:
        for line in f:
            key, _, value = line.partition(":")
            value = value.strip().strip('"')
            if not _os.path.isabs(value):
                value = _os.path.join(checkpoint_dir, value)
            if key.strip() == "model_checkpoint_path":
                latest = value
            elif key.strip() == "all_model_checkpoint_paths":
                every.append(value)
    return _CheckpointState(latest, every) if latest is not None else None


def _latest_checkpoint(checkpoint_dir, latest_filename=None):
    st = _get_checkpoint_state(checkpoint_dir, latest_filename)
    if st is None or not _os.path.exists(st.model_checkpoint_path + ".index"):
        return None
    return st.model_checkpoint_path


train.get_checkpoint_state = _get_checkpoint_state
train.latest_checkpoint = _latest_checkpoint
train.checkpoint_exists = lambda checkpoint_prefix: _os.path.exists(checkpoint_prefix + ".index")


train.Saver = _Saver


def _trackable_variables(prefix, obj, out, seen, depth=0):
    """(path, variable) pairs of what a tf.train.Checkpoint tracks under `obj`: variables, nested
    checkpoints, tf.Modules, Keras models and layers (their weights), optimizers (their
    variables), lists, tuples and dicts of these. Paths are built from attribute names and
    indexes, so the same program finds the same paths in another run."""
    if obj is None or depth > 12 or id(obj) in seen:
        return
    seen[id(obj)] = True
    if _tlens.is_variable(obj):
        out.append((prefix, obj))
        return
    if isinstance(obj, Checkpoint):
        for k in sorted(obj._tracked.keys()):
            _trackable_variables(prefix + k if not prefix else prefix + "/" + k, obj._tracked[k], out, seen, depth + 1)
        return
    if isinstance(obj, dict):
        for k in sorted(obj.keys(), key=str):
            _trackable_variables(prefix + "/" + str(k), obj[k], out, seen, depth + 1)
        return
    if isinstance(obj, (list, _tuple)):
        for i, o in enumerate(obj):
            _trackable_variables(prefix + "/" + str(i), o, out, seen, depth + 1)
        return
    vs = getattr(obj, "weights", None)
    if vs is None:
        vs = getattr(obj, "variables", None)
    if callable(vs):
        vs = vs()
    if vs is None:
        return
    for i, v in enumerate(vs):
        if _tlens.is_variable(v) and id(v) not in seen:
            seen[id(v)] = True
            # By position, as TensorFlow's object graph does (layer_with_weights-0/kernel): a second
            # model of the same architecture (its layers named dense_2, ...) restores the first's.
            out.append(("%s/%d" % (prefix, i), v))


class _CheckpointLoadStatus:
    def __init__(self, unmatched_objects, unused_keys):
        self._unmatched = unmatched_objects
        self._unused = unused_keys

    def assert_consumed(self):
        if self._unmatched or self._unused:
            raise AssertionError("Unresolved object in checkpoint: %s; objects not restored: %s"
                                 % (self._unused[:5], self._unmatched[:5]))
        return self

    def assert_existing_objects_matched(self):
        if self._unmatched:
            raise AssertionError("Objects not restored from the checkpoint: %s" % (self._unmatched[:5],))
        return self

    def assert_nontrivial_match(self):
        return self

    def expect_partial(self):
        return self

    def run_restore_ops(self, session=None):
        return None

    def initialize_or_restore(self, session=None):
        return None


class Checkpoint:
    """tf.train.Checkpoint(**objects): saves and restores the variables of the objects given
    (variables, Keras models and layers, optimizers, tf.Modules, nested checkpoints) into
    tensorlens' checkpoint files (those of tf.train.Saver), keyed by their paths from here. A
    restore sets the variables that exist then; TensorFlow's deferred restoration of variables made
    later (a model built after the restore) is not modelled: build the model first."""

    def __init__(self, root=None, **kwargs):
        tracked = dict(kwargs)
        if root is not None:
            tracked["root"] = root
        self._tracked = tracked
        self._saves = 0  # TensorFlow keeps it in a variable; it is saved and restored with the rest
        for k, v in tracked.items():
            setattr(self, k, v)

    @property
    def save_counter(self):
        return constant(self._saves, int64)

    def _pairs(self):
        out = []
        _trackable_variables("", self, out, {})
        return out

    def _session(self, session):
        if _tlens.graph_key() is None:
            return None
        s = session if session is not None else get_default_session()
        if s is None:
            raise ValueError("Unable to save or restore the checkpoint in a graph without a session: pass session= "
                             "or use it under `with sess.as_default():`")
        return s

    def write(self, file_prefix, session=None, options=None):
        pairs = self._pairs()
        s = self._session(session)
        values = [v for _, v in pairs]
        values = s.run(values) if s is not None else [v.numpy() for v in values]
        _write_checkpoint_files(file_prefix, [k for k, _ in pairs] + ["save_counter"],
                                values + [_np.array(self._saves, dtype=_np.int64)])
        return file_prefix

    def _count(self, session):
        self._saves += 1
        return self._saves

    def save(self, file_prefix, session=None, options=None):
        path = self.write("%s-%d" % (file_prefix, self._count(session)), session)
        d = _os.path.dirname(path) or "."
        st = _get_checkpoint_state(d)
        kept = [p for p in (st.all_model_checkpoint_paths if st else []) if p != path] + [path]
        _write_checkpoint_state(d, path, kept)
        return path

    def read(self, save_path, options=None):
        return self.restore(save_path)

    def restore(self, save_path, options=None):
        if save_path is None:
            return _CheckpointLoadStatus([], [])
        stored = {}
        for key, value in _tlens.read_checkpoint(save_path):
            stored[key] = value
        unmatched, used = [], {}
        s = None if _tlens.graph_key() is None else get_default_session()
        if "save_counter" in stored:
            self._saves = int(stored["save_counter"])
            used["save_counter"] = True
        for key, v in self._pairs():
            if key in stored:
                used[key] = True
                if s is not None:
                    s.run(assign(v, stored[key]))
                else:
                    v.assign(stored[key])
            else:
                unmatched.append(key)
        return _CheckpointLoadStatus(unmatched, [k for k in stored if k not in used])


class CheckpointManager:
    """tf.train.CheckpointManager: numbered saves of a Checkpoint in `directory`, the newest
    `max_to_keep` kept, and the `checkpoint` state file that latest_checkpoint reads."""

    def __init__(self, checkpoint, directory, max_to_keep, keep_checkpoint_every_n_hours=None,
                 checkpoint_name="ckpt", step_counter=None, checkpoint_interval=None, init_fn=None):
        self._checkpoint = checkpoint
        self._directory = directory
        self._max_to_keep = max_to_keep
        self._prefix = _os.path.join(directory, checkpoint_name)
        self._init_fn = init_fn
        st = _get_checkpoint_state(directory)
        self._kept = list(st.all_model_checkpoint_paths) if st else []

    @property
    def directory(self):
        return self._directory

    @property
    def checkpoints(self):
        return list(self._kept)

    @property
    def latest_checkpoint(self):
        return _latest_checkpoint(self._directory)

    def save(self, checkpoint_number=None, check_interval=True, options=None):
        n = self._checkpoint._count(None)
        if checkpoint_number is not None:
            n = int(checkpoint_number.numpy() if _tlens.is_tensor(checkpoint_number) else checkpoint_number)
        path = self._checkpoint.write("%s-%d" % (self._prefix, n))
        self._kept = _keep_newest(self._kept, path, self._max_to_keep)
        _write_checkpoint_state(self._directory, path, self._kept)
        return path

    def restore_or_initialize(self):
        if self.latest_checkpoint is not None:
            self._checkpoint.restore(self.latest_checkpoint)
            return self.latest_checkpoint
        if self._init_fn is not None:
            self._init_fn()
        return None


train.Checkpoint = Checkpoint
train.CheckpointManager = CheckpointManager


def _import_meta_graph(meta_graph_or_file, clear_devices=False, import_scope=None, **kwargs):
    # TensorFlow rebuilds the saved graph from the MetaGraphDef protobuf a Saver writes beside the
    # checkpoint; tensorlens' Saver writes no .meta file and cannot read TensorFlow's.
    raise NotImplementedError("tensorlens: tf.train.import_meta_graph(%r) cannot rebuild a graph from a MetaGraphDef "
                              "(tensorlens' Saver writes no .meta file); build the graph again in Python and call "
                              "tf.train.Saver().restore(sess, path)" % (meta_graph_or_file,))


train.import_meta_graph = _import_meta_graph


def assign(ref, value, validate_shape=None, use_locking=None, name=None):
    return _op("Assign", [ref, value], None, name, True)


def assign_add(ref, value, use_locking=None, name=None):
    return _op("AssignAdd", [ref, value], None, name, True)


def assign_sub(ref, value, use_locking=None, name=None):
    return _op("AssignSub", [ref, value], None, name, True)


class ExponentialMovingAverage:
    """tf.train.ExponentialMovingAverage: apply(var_list) makes a shadow variable per variable or
    tensor (named <name>/ExponentialMovingAverage, not trainable, in MOVING_AVERAGE_VARIABLES) and
    returns the op that moves each shadow towards its value: shadow -= (1 - decay) *
    (shadow - value), decay capped by (1 + num_updates) / (10 + num_updates) when num_updates is
    given. A variable's shadow starts at its value; a tensor's starts at zero and is debiased
    (divided by 1 - decay ** steps), as TensorFlow does."""

    def __init__(self, decay, num_updates=None, zero_debias=False, name="ExponentialMovingAverage"):
        self._decay = decay
        self._num_updates = num_updates
        self._zero_debias = zero_debias
        self._name = name
        self._averages = {}

    @property
    def name(self):
        return self._name

    def _key(self, var):
        # In a graph a variable is known by its name (tf.trainable_variables() gives other Python
        # objects for the same variables); eagerly by identity.
        if _tlens.graph_key() is not None and _tlens.is_symbolic(var):
            return var.name
        return id(var)

    def apply(self, var_list=None):
        if var_list is None:
            var_list = trainable_variables()
        var_list = list(var_list)
        for v in var_list:
            if v.dtype.base_dtype not in (float16, float32, float64):
                raise TypeError("The variables must be half, float, or double: %s" % v.name)
        updates = []
        with name_scope(self._name):
            decay = convert_to_tensor(self._decay, dtype=float32, name="decay")
            if self._num_updates is not None:
                n = cast(self._num_updates, float32)
                decay = minimum(decay, (1.0 + n) / (10.0 + n))
        for v in var_list:
            key = self._key(v)
            tensor_input = not _tlens.is_variable(v)
            base = v.name.split(":")[0]
            if key not in self._averages:
                with name_scope(None):
                    if tensor_input:
                        if not v.shape.is_fully_defined():
                            raise ValueError("ExponentialMovingAverage of a tensor needs its full shape, got %s"
                                             % v.shape)
                        avg = Variable(zeros(v.shape.as_list(), v.dtype.base_dtype), trainable=False,
                                       name=base + "/" + self._name)
                    else:
                        avg = Variable(v, trainable=False, name=base + "/" + self._name)
                add_to_collection(GraphKeys.MOVING_AVERAGE_VARIABLES, v)
                self._averages[key] = (v, avg, tensor_input or self._zero_debias)
            v_, avg, debias = self._averages[key]
            d = cast(decay, avg.dtype.base_dtype)
            with name_scope(base + "/" + self._name + "/AssignMovingAvg"):
                if debias:
                    biased = Variable(zeros_like(avg), trainable=False, name="biased")
                    steps = Variable(0.0, dtype=avg.dtype.base_dtype, trainable=False, name="local_step")
                    b = assign_sub(biased, (biased - v) * (1.0 - d))
                    k = assign_add(steps, 1.0)
                    updates.append(assign(avg, b / (1.0 - pow(d, k))))
                else:
                    updates.append(assign_sub(avg, (avg - v) * (1.0 - d)))
        return group(*updates, name=self._name)

    def average(self, var):
        entry = self._averages.get(self._key(var))
        return entry[1] if entry is not None else None

    def average_name(self, var):
        return var.name.split(":")[0] + "/" + self._name

    def variables_to_restore(self, moving_avg_variables=None):
        names = {}
        for v in global_variables():
            names[self.average_name(v) if self.average(v) is not None else v.name.split(":")[0]] = v
        return names


train.ExponentialMovingAverage = ExponentialMovingAverage


# --- initializers ------------------------------------------------------------------------------
class _Initializer:
    def __init__(self, **kw):
        self._kw = kw

    def __call__(self, shape, dtype=None, partition_info=None):
        return self._make(list(shape), float32 if dtype is None else dtype)


class zeros_initializer(_Initializer):
    def _make(self, shape, dtype):
        return zeros(shape, dtype)


class ones_initializer(_Initializer):
    def _make(self, shape, dtype):
        return ones(shape, dtype)


class constant_initializer(_Initializer):
    def __init__(self, value=0, dtype=None, verify_shape=False):
        self.value = value

    def _make(self, shape, dtype):
        # tf.constant's rules: a scalar fills, a list of the shape's size is reshaped (TF1 pads a
        # shorter one with its last element).
        return constant(self.value, dtype, shape)


class random_normal_initializer(_Initializer):
    def __init__(self, mean=0.0, stddev=1.0, seed=None, dtype=None):
        self.mean, self.stddev, self.seed = mean, stddev, seed

    def _make(self, shape, dtype):
        return random_normal(shape, self.mean, self.stddev, dtype, self.seed)


class truncated_normal_initializer(random_normal_initializer):
    def __init__(self, mean=0.0, stddev=1.0, seed=None, dtype=None):
        self.mean, self.stddev, self.seed = mean, stddev, seed

    def _make(self, shape, dtype):
        return truncated_normal(shape, self.mean, self.stddev, dtype, self.seed)


class random_uniform_initializer(_Initializer):
    def __init__(self, minval=0, maxval=None, seed=None, dtype=None):
        self.minval, self.maxval, self.seed = minval, maxval, seed

    def _make(self, shape, dtype):
        return random_uniform(shape, self.minval, 1.0 if self.maxval is None else self.maxval, dtype, self.seed)


def _fans(shape):
    if len(shape) < 1:
        return 1, 1
    if len(shape) == 1:
        return shape[0], shape[0]
    if len(shape) == 2:
        return shape[0], shape[1]
    receptive = 1
    for d in shape[:-2]:
        receptive *= d
    return shape[-2] * receptive, shape[-1] * receptive


def _known_fan(n):
    # A fan the analysis does not know (a dim of data it did not read): the variable must still be
    # made, and abstract mode computes no values, so any positive number serves.
    return 1.0 if _tlens.is_unknown(n) else float(n)


class glorot_uniform_initializer(_Initializer):
    def __init__(self, seed=None, dtype=None):
        self.seed = seed

    def _make(self, shape, dtype):
        fan_in, fan_out = _fans(shape)
        limit = (6.0 / max(1.0, _known_fan(fan_in + fan_out))) ** 0.5
        return random_uniform(shape, -limit, limit, dtype, self.seed)


class glorot_normal_initializer(_Initializer):
    def __init__(self, seed=None, dtype=None):
        self.seed = seed

    def _make(self, shape, dtype):
        fan_in, fan_out = _fans(shape)
        return truncated_normal(shape, 0.0, (2.0 / max(1.0, _known_fan(fan_in + fan_out))) ** 0.5, dtype, self.seed)


class he_normal_initializer(_Initializer):
    def __init__(self, seed=None):
        self.seed = seed

    def _make(self, shape, dtype):
        fan_in, fan_out = _fans(shape)
        return truncated_normal(shape, 0.0, (2.0 / max(1.0, _known_fan(fan_in))) ** 0.5, dtype, self.seed)


class variance_scaling_initializer(_Initializer):
    """TF1's VarianceScaling: scale / n with n the fan in, out or their mean; a truncated normal
    (TF1's "normal"), an untruncated normal or a uniform of that variance."""

    def __init__(self, scale=1.0, mode="fan_in", distribution="truncated_normal", seed=None, dtype=None):
        if scale <= 0.0:
            raise ValueError("`scale` must be positive float.")
        if mode not in ("fan_in", "fan_out", "fan_avg"):
            raise ValueError("Invalid `mode` argument:", mode)
        distribution = distribution.lower()
        if distribution not in ("normal", "uniform", "truncated_normal", "untruncated_normal"):
            raise ValueError("Invalid `distribution` argument:", distribution)
        self.scale = scale
        self.mode = mode
        self.distribution = distribution
        self.seed = seed

    def _make(self, shape, dtype):
        fan_in, fan_out = _fans(shape)
        n = {"fan_in": fan_in, "fan_out": fan_out, "fan_avg": (fan_in + fan_out) / 2.0}[self.mode]
        scale = self.scale / max(1.0, _known_fan(n))
        if self.distribution in ("normal", "truncated_normal"):
            # the stddev of a unit normal truncated at two stddevs is 0.8796...
            return truncated_normal(shape, 0.0, scale ** 0.5 / 0.87962566103423978, dtype, self.seed)
        if self.distribution == "untruncated_normal":
            return random_normal(shape, 0.0, scale ** 0.5, dtype, self.seed)
        limit = (3.0 * scale) ** 0.5
        return random_uniform(shape, -limit, limit, dtype, self.seed)


class lecun_normal_initializer(variance_scaling_initializer):
    def __init__(self, seed=None):
        variance_scaling_initializer.__init__(self, 1.0, "fan_in", "truncated_normal", seed)


class lecun_uniform_initializer(variance_scaling_initializer):
    def __init__(self, seed=None):
        variance_scaling_initializer.__init__(self, 1.0, "fan_in", "uniform", seed)


class he_uniform_initializer(variance_scaling_initializer):
    def __init__(self, seed=None):
        variance_scaling_initializer.__init__(self, 2.0, "fan_in", "uniform", seed)


initializers = _namespace("tensorflow.initializers", _keras_module="initializers", zeros=zeros_initializer, ones=ones_initializer,
                          constant=constant_initializer, random_normal=random_normal_initializer,
                          truncated_normal=truncated_normal_initializer, random_uniform=random_uniform_initializer,
                          glorot_uniform=glorot_uniform_initializer, glorot_normal=glorot_normal_initializer,
                          he_normal=he_normal_initializer, global_variables=global_variables_initializer,
                          variance_scaling=variance_scaling_initializer, he_uniform=he_uniform_initializer,
                          lecun_normal=lecun_normal_initializer, lecun_uniform=lecun_uniform_initializer)

# --- namespaces that mirror the top level ------------------------------------------------------
math = _Namespace("tensorflow.math")
for _n in ["add", "subtract", "multiply", "divide", "floordiv", "floormod", "pow", "maximum", "minimum",
           "squared_difference", "equal", "not_equal", "less", "less_equal", "greater", "greater_equal",
           "logical_and", "logical_or", "logical_not", "negative", "abs", "sign", "square", "reciprocal", "exp",
           "log", "log1p", "sqrt", "rsqrt", "sin", "cos", "tanh", "sigmoid", "floor", "ceil", "round", "is_nan",
           "is_inf", "is_finite", "reduce_sum", "reduce_mean", "reduce_prod", "reduce_max", "reduce_min",
           "reduce_any", "reduce_all", "argmax", "argmin", "add_n", "truediv", "realdiv"]:
    setattr(math, _n, globals()[_n])
math.softmax = nn.softmax
math.log_softmax = nn.log_softmax
math.softplus = nn.softplus
math.mod = floormod
math.invert_permutation = lambda x, name=None: _op("InvertPermutation", [x], None, name)
linalg = _Namespace("tensorflow.linalg")
linalg.matmul = matmul
linalg.eye = eye
linalg.transpose = transpose
image = _Namespace("tensorflow.image")
losses = _Namespace("tensorflow.losses", "losses")
optimizers = _Namespace("tensorflow.optimizers", "optimizers")
metrics = _Namespace("tensorflow.metrics", "metrics")
activations = _Namespace("tensorflow.activations", "activations")


def _regularization_losses(scope=None):
    return get_collection(GraphKeys.REGULARIZATION_LOSSES, scope)


def _regularization_loss(scope=None, name="total_regularization_loss"):
    items = _regularization_losses(scope)
    if not items:
        return constant(0.0)
    return add_n(items, name=name)


def _add_loss(loss, loss_collection=GraphKeys.LOSSES):
    if loss_collection:
        add_to_collection(loss_collection, loss)


def _total_loss(add_regularization_losses=True, name="total_loss", scope=None):
    items = get_collection(GraphKeys.LOSSES, scope)
    if add_regularization_losses:
        items = items + _regularization_losses(scope)
    if not items:
        raise ValueError("No losses found.")
    return add_n(items, name=name)


losses.get_regularization_losses = _regularization_losses
losses.get_regularization_loss = _regularization_loss
losses.add_loss = _add_loss
losses.get_losses = lambda scope=None, loss_collection=GraphKeys.LOSSES: get_collection(loss_collection, scope)
losses.get_total_loss = _total_loss

# --- TF1 losses with weights and reductions (tf.losses.*, losses_impl.py) -----------------------
class Reduction:
    NONE = "none"
    SUM = "weighted_sum"
    SUM_OVER_BATCH_SIZE = "weighted_sum_over_batch_size"
    MEAN = "weighted_mean"
    SUM_BY_NONZERO_WEIGHTS = "weighted_sum_by_nonzero_weights"
    SUM_OVER_NONZERO_WEIGHTS = SUM_BY_NONZERO_WEIGHTS

    @classmethod
    def all(cls):
        return (cls.NONE, cls.SUM, cls.MEAN, cls.SUM_OVER_BATCH_SIZE, cls.SUM_OVER_NONZERO_WEIGHTS,
                cls.SUM_BY_NONZERO_WEIGHTS)


def compute_weighted_loss(losses, weights=1.0, scope=None, loss_collection=GraphKeys.LOSSES,
                          reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    with name_scope(scope, "weighted_loss"):
        losses = convert_to_tensor(losses)
        dt = losses.dtype
        if dt != float32 and dt != float64 and dt != float16:
            losses = cast(losses, float32)
        weights = cast(convert_to_tensor(weights), losses.dtype)
        weighted = multiply(losses, weights)
        if reduction == Reduction.NONE:
            loss = weighted
        else:
            loss = reduce_sum(weighted)
            if reduction == Reduction.MEAN:
                loss = _safe_div(loss, reduce_sum(ones_like(losses) * weights))
            elif reduction in (Reduction.SUM_BY_NONZERO_WEIGHTS, Reduction.SUM_OVER_BATCH_SIZE):
                if reduction == Reduction.SUM_OVER_BATCH_SIZE:
                    present = cast(size(losses), losses.dtype)
                else:
                    present = reduce_sum(cast(not_equal(ones_like(losses) * weights, 0), losses.dtype))
                loss = _safe_div(loss, present)
        loss = cast(loss, dt) if loss.dtype != dt and dt in (float16, float32, float64) else loss
        if loss_collection:
            add_to_collection(loss_collection, loss)
        return loss


def _safe_div(num, den):
    return where_v2(greater(den, 0), num / where_v2(greater(den, 0), den, ones_like(den)), zeros_like(num))


def _as_float(x):
    x = convert_to_tensor(x)
    return x if x.dtype in (float16, float32, float64) else cast(x, float32)


def _mse(labels, predictions, weights=1.0, scope=None, loss_collection=GraphKeys.LOSSES,
         reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    with name_scope(scope, "mean_squared_error"):
        p = _as_float(predictions)
        return compute_weighted_loss(squared_difference(p, cast(labels, p.dtype)), weights, None, loss_collection,
                                     reduction)


def _absolute_difference(labels, predictions, weights=1.0, scope=None, loss_collection=GraphKeys.LOSSES,
                         reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    with name_scope(scope, "absolute_difference"):
        p = _as_float(predictions)
        return compute_weighted_loss(abs(p - cast(labels, p.dtype)), weights, None, loss_collection, reduction)


def _huber_loss(labels, predictions, weights=1.0, delta=1.0, scope=None, loss_collection=GraphKeys.LOSSES,
                reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    with name_scope(scope, "huber_loss"):
        p = _as_float(predictions)
        err = abs(p - cast(labels, p.dtype))
        quad = minimum(err, delta)
        lin = err - quad
        return compute_weighted_loss(0.5 * quad * quad + delta * lin, weights, None, loss_collection, reduction)


def _log_loss(labels, predictions, weights=1.0, epsilon=1e-7, scope=None, loss_collection=GraphKeys.LOSSES,
              reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    with name_scope(scope, "log_loss"):
        p = _as_float(predictions)
        y = cast(labels, p.dtype)
        l = -multiply(y, log(p + epsilon)) - multiply(1 - y, log(1 - p + epsilon))
        return compute_weighted_loss(l, weights, None, loss_collection, reduction)


def _hinge_loss(labels, logits, weights=1.0, scope=None, loss_collection=GraphKeys.LOSSES,
                reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    with name_scope(scope, "hinge_loss"):
        x = _as_float(logits)
        y = 2.0 * cast(labels, x.dtype) - 1.0
        return compute_weighted_loss(nn.relu(1.0 - y * x), weights, None, loss_collection, reduction)


def _cosine_distance(labels, predictions, axis=None, weights=1.0, scope=None, loss_collection=GraphKeys.LOSSES,
                     reduction=Reduction.SUM_BY_NONZERO_WEIGHTS, dim=None):
    axis = dim if axis is None else axis
    if axis is None:
        raise ValueError("You must specify 'axis'.")
    with name_scope(scope, "cosine_distance_loss"):
        p = _as_float(predictions)
        l = 1 - reduce_sum(multiply(p, cast(labels, p.dtype)), axis=(axis,), keepdims=True)
        return compute_weighted_loss(l, weights, None, loss_collection, reduction)


def _sigmoid_loss(multi_class_labels, logits, weights=1.0, label_smoothing=0, scope=None,
                  loss_collection=GraphKeys.LOSSES, reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    with name_scope(scope, "sigmoid_cross_entropy_loss"):
        x = _as_float(logits)
        y = cast(multi_class_labels, x.dtype)
        if label_smoothing > 0:
            y = y * (1 - label_smoothing) + 0.5 * label_smoothing
        return compute_weighted_loss(_sigmoid_xent(labels=y, logits=x), weights, None, loss_collection, reduction)


def _softmax_loss(onehot_labels, logits, weights=1.0, label_smoothing=0, scope=None,
                  loss_collection=GraphKeys.LOSSES, reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    with name_scope(scope, "softmax_cross_entropy_loss"):
        x = _as_float(logits)
        y = cast(onehot_labels, x.dtype)
        if label_smoothing > 0:
            n = cast(shape(y)[-1], x.dtype)
            y = y * (1 - label_smoothing) + label_smoothing / n
        return compute_weighted_loss(_softmax_xent(labels=y, logits=x), weights, None, loss_collection, reduction)


def _sparse_softmax_loss(labels, logits, weights=1.0, scope=None, loss_collection=GraphKeys.LOSSES,
                         reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    with name_scope(scope, "sparse_softmax_cross_entropy_loss"):
        return compute_weighted_loss(_sparse_softmax_xent(labels=labels, logits=logits), weights, None,
                                     loss_collection, reduction)


losses.Reduction = Reduction
losses.compute_weighted_loss = compute_weighted_loss
losses.mean_squared_error = _mse
losses.absolute_difference = _absolute_difference
losses.huber_loss = _huber_loss
losses.log_loss = _log_loss
losses.hinge_loss = _hinge_loss
losses.cosine_distance = _cosine_distance
losses.sigmoid_cross_entropy = _sigmoid_loss
losses.softmax_cross_entropy = _softmax_loss
losses.sparse_softmax_cross_entropy = _sparse_softmax_loss


# --- TF1 streaming metrics (tf.metrics.*: (value, update_op) over local variables) --------------
def _metric_variable(shape_, dtype, name):
    v = Variable(zeros(shape_, dtype), trainable=False, name=name, collections=[GraphKeys.LOCAL_VARIABLES])
    add_to_collection(GraphKeys.LOCAL_VARIABLES, v)
    add_to_collection(GraphKeys.METRIC_VARIABLES, v)
    return v


def _metric_weights(values, weights):
    if weights is None:
        return ones_like(values)
    return cast(weights, values.dtype) * ones_like(values)


def _streaming_mean(values, weights, name, default):
    # `values` may be a function, called inside the metric's scope.
    with variable_scope(name, default_name=default):
        if callable(values):
            values = values()
        values = _as_float(values)
        if values.dtype != float64:
            values = cast(values, float32)
        total = _metric_variable([], float32, "total")
        count = _metric_variable([], float32, "count")
        w = cast(_metric_weights(values, weights), float32)
        values = cast(values, float32)
        upd_total = assign_add(total, reduce_sum(values * w))
        upd_count = assign_add(count, reduce_sum(w))
        value = _safe_div(total, count)
        with control_dependencies([upd_total, upd_count]):
            update = _safe_div(identity(total), identity(count))
        return value, update


def _metric_mean(values, weights=None, metrics_collections=None, updates_collections=None, name=None):
    return _streaming_mean(values, weights, name, "mean")


def _metric_accuracy(labels, predictions, weights=None, metrics_collections=None, updates_collections=None,
                     name=None):
    def hits():
        p = convert_to_tensor(predictions)
        return cast(equal(p, cast(labels, p.dtype)), float32)
    return _streaming_mean(hits, weights, name, "accuracy")


def _metric_mse(labels, predictions, weights=None, metrics_collections=None, updates_collections=None, name=None):
    p = _as_float(predictions)
    return _streaming_mean(squared_difference(p, cast(labels, p.dtype)), weights, name, "mean_squared_error")


def _metric_mae(labels, predictions, weights=None, metrics_collections=None, updates_collections=None, name=None):
    p = _as_float(predictions)
    return _streaming_mean(abs(p - cast(labels, p.dtype)), weights, name, "mean_absolute_error")


def _metric_rmse(labels, predictions, weights=None, metrics_collections=None, updates_collections=None, name=None):
    v, u = _metric_mse(labels, predictions, weights, name=name or "root_mean_squared_error")
    return sqrt(v), sqrt(u)


def _metric_ratio(labels, predictions, weights, name, default, denominator):
    # precision: tp / (tp + fp); recall: tp / (tp + fn), over boolean labels and predictions.
    with variable_scope(name, default_name=default):
        p = cast(predictions, bool)
        l = cast(labels, bool)
        w = ones_like(cast(p, float32)) if weights is None else cast(weights, float32) * ones_like(cast(p, float32))
        tp_v = _metric_variable([], float32, "true_positives")
        other_v = _metric_variable([], float32, "false_positives" if denominator == "fp" else "false_negatives")
        tp = reduce_sum(cast(logical_and(p, l), float32) * w)
        if denominator == "fp":
            other = reduce_sum(cast(logical_and(p, logical_not(l)), float32) * w)
        else:
            other = reduce_sum(cast(logical_and(logical_not(p), l), float32) * w)
        u1 = assign_add(tp_v, tp)
        u2 = assign_add(other_v, other)
        value = _safe_div(tp_v, tp_v + other_v)
        with control_dependencies([u1, u2]):
            a, b = identity(tp_v), identity(other_v)
            update = _safe_div(a, a + b)
        return value, update


def _metric_precision(labels, predictions, weights=None, metrics_collections=None, updates_collections=None,
                      name=None):
    return _metric_ratio(labels, predictions, weights, name, "precision", "fp")


def _metric_recall(labels, predictions, weights=None, metrics_collections=None, updates_collections=None, name=None):
    return _metric_ratio(labels, predictions, weights, name, "recall", "fn")


def _metric_auc(labels, predictions, weights=None, num_thresholds=200, metrics_collections=None,
                updates_collections=None, curve="ROC", name=None, summation_method="trapezoidal", thresholds=None):
    # TF's confusion counts at num_thresholds thresholds, and the trapezoidal area under ROC or PR.
    with variable_scope(name, default_name="auc"):
        kepsilon = 1e-7
        ts = [(i + 1) * 1.0 / (num_thresholds - 1) for i in _range(num_thresholds - 2)]
        ts = [0.0 - kepsilon] + ts + [1.0 + kepsilon]
        p = reshape(cast(predictions, float32), [-1, 1])
        l = reshape(cast(labels, bool), [-1, 1])
        w = ones_like(p) if weights is None else reshape(cast(weights, float32), [-1, 1]) * ones_like(p)
        above = greater(p, constant(ts, float32))
        names = ["true_positives", "false_negatives", "true_negatives", "false_positives"]
        conds = [logical_and(above, l), logical_and(logical_not(above), l),
                 logical_and(logical_not(above), logical_not(l)), logical_and(above, logical_not(l))]
        vs, ups = [], []
        for n, c in zip(names, conds):
            v = _metric_variable([num_thresholds], float32, n)
            vs.append(v)
            ups.append(assign_add(v, reduce_sum(cast(c, float32) * w, 0)))

        def area(tp, fn, tn, fp):
            eps = 1e-6
            if curve == "PR":
                x = tp / (tp + fn + eps)
                y = (tp + eps) / (tp + fp + eps)
            else:
                x = fp / (fp + tn + eps)
                y = (tp + eps) / (tp + fn + eps)
            return reduce_sum((x[:num_thresholds - 1] - x[1:]) * (y[:num_thresholds - 1] + y[1:]) / 2.0)

        value = area(*vs)
        with control_dependencies(ups):
            update = area(*[identity(v) for v in vs])
        return value, update


metrics_v1 = {"accuracy": _metric_accuracy, "mean": _metric_mean, "mean_squared_error": _metric_mse,
              "mean_absolute_error": _metric_mae, "root_mean_squared_error": _metric_rmse,
              "precision": _metric_precision, "recall": _metric_recall, "auc": _metric_auc}


# --- composites of existing ops -----------------------------------------------------------------
def count_nonzero(input_tensor=None, axis=None, keepdims=None, dtype=int64, name=None, reduction_indices=None,
                  keep_dims=None, input=None):
    x = convert_to_tensor(input if input_tensor is None else input_tensor)
    axis = reduction_indices if axis is None else axis
    keep = True if (keepdims if keepdims is not None else keep_dims) else False
    with name_scope(name, "count_nonzero"):
        nz = cast(not_equal(x, zeros_like(x)), int64)
        return cast(reduce_sum(nz, axis=axis, keepdims=keep), dtype)


def reduce_logsumexp(input_tensor, axis=None, keepdims=False, name=None, reduction_indices=None, keep_dims=None):
    axis = reduction_indices if axis is None else axis
    keep = True if (keepdims or keep_dims) else False
    with name_scope(name, "ReduceLogSumExp"):
        x = convert_to_tensor(input_tensor)
        m = stop_gradient(reduce_max(x, axis=axis, keepdims=True))
        m = where_v2(is_finite(m), m, zeros_like(m))
        r = log(reduce_sum(exp(x - m), axis=axis, keepdims=True)) + m
        if not keep:
            r = squeeze(r, axis) if axis is not None else reshape(r, [])
        return r


def boolean_mask(tensor, mask, name="boolean_mask", axis=None):
    # The rows where mask holds: the mask's dimensions are flattened into one, Where gives the
    # indices of the true entries, GatherV2 takes them (so gradients flow to the kept rows).
    with name_scope(name):
        tensor = convert_to_tensor(tensor)
        mask = convert_to_tensor(mask)
        k = mask.shape.ndims
        if k is None:
            raise ValueError("Number of mask dimensions must be specified, even if some dimensions are None.  "
                             "E.g. shape=[None] is ok, but shape=None is not.")
        if k == 0:
            raise ValueError("mask cannot be scalar.")
        a = 0 if axis is None else axis
        ts = shape(tensor)
        lead = [ts[i] for i in _range(a)]
        flat = reshape(tensor, concat([ts[:a], [-1], ts[a + k:]], 0))
        idx = squeeze(where(reshape(mask, [-1])), [1])
        return gather(flat, idx, axis=a)


def clip_by_norm(t, clip_norm, axes=None, name=None):
    with name_scope(name, "clip_by_norm"):
        t = convert_to_tensor(t)
        l2sum = reduce_sum(t * t, axes, keepdims=True)
        pos = greater(l2sum, 0.0)
        l2norm = where_v2(pos, sqrt(where_v2(pos, l2sum, ones_like(l2sum))), l2sum)
        clip = cast(clip_norm, t.dtype)
        return identity(t * clip / maximum(l2norm, clip), name=name)


def global_norm(t_list, name=None):
    with name_scope(name, "global_norm"):
        parts = [reduce_sum(square(cast(t, float32))) for t in t_list if t is not None]
        return sqrt(add_n(parts), name="global_norm")


def clip_by_global_norm(t_list, clip_norm, use_norm=None, name=None):
    t_list = list(t_list)
    with name_scope(name, "clip_by_global_norm"):
        norm_ = global_norm(t_list) if use_norm is None else use_norm
        clip = cast(clip_norm, float32)
        scale = clip * minimum(1.0 / norm_, 1.0 / clip)
        out = [None if t is None else identity(t * cast(scale, t.dtype)) for t in t_list]
        return out, norm_


def norm(tensor, ord="euclidean", axis=None, keepdims=None, name=None, keep_dims=None):
    keep = True if (keepdims or keep_dims) else False
    with name_scope(name, "norm"):
        x = convert_to_tensor(tensor)
        if ord in ("euclidean", "fro", 2, 2.0):
            return sqrt(reduce_sum(x * x, axis=axis, keepdims=keep))
        if ord == 1:
            return reduce_sum(abs(x), axis=axis, keepdims=keep)
        if ord == _inf_value:
            return reduce_max(abs(x), axis=axis, keepdims=keep)
        p = cast(ord, x.dtype)
        return pow(reduce_sum(pow(abs(x), p), axis=axis, keepdims=keep), 1.0 / p)


_inf_value = float("inf")


def confusion_matrix(labels, predictions, num_classes=None, weights=None, dtype=int32, name=None):
    # counts[i, j]: how many examples of label i were predicted j (one-hot outer products).
    with name_scope(name, "confusion_matrix"):
        labels = cast(labels, int64)
        predictions = cast(predictions, int64)
        if num_classes is None:
            num_classes = maximum(reduce_max(labels), reduce_max(predictions)) + 1
        n = cast(num_classes, int32)
        lo = one_hot(cast(labels, int32), n, dtype=float64)
        po = one_hot(cast(predictions, int32), n, dtype=float64)
        if weights is not None:
            lo = lo * expand_dims(cast(weights, float64), 1)
        return cast(matmul(lo, po, transpose_a=True), dtype)


def map_fn(fn, elems, dtype=None, parallel_iterations=None, back_prop=True, swap_memory=False, infer_shape=True,
           name=None, fn_output_signature=None):
    # The loop is unrolled: the number of elements must be known when the graph is built.
    with name_scope(name, "map"):
        multi = isinstance(elems, (list, _tuple))
        seqs = [convert_to_tensor(e) for e in elems] if multi else [convert_to_tensor(elems)]
        n = seqs[0].shape[0] if seqs[0].shape.ndims is not None else None
        if n is None:
            if _tlens.graph_key() is None:
                raise NotImplementedError("tensorlens: map_fn needs the first dimension of elems (%s)" % seqs[0].shape)
            return _map_loop(fn, seqs, multi)
        cols = [unstack(s, num=int(n)) for s in seqs]
        outs = []
        for i in _range(int(n)):
            item = _tuple(c[i] for c in cols) if multi else cols[0][i]
            outs.append(fn(item))
        if outs and isinstance(outs[0], (list, _tuple)):
            return _tuple(stack([o[k] for o in outs]) for k in _range(len(outs[0])))
        return stack(outs)


def _map_loop(fn, seqs, multi):
    # map_fn over a first dimension known only when the graph runs: a graph loop that slices the
    # elements and stacks fn's results (engine/graph/Loops.h).
    n = shape(seqs[0], out_type=int32)[0]
    shape_of = [None]

    def body(params, elements):
        out = fn(_tuple(elements) if multi else elements[0])
        shape_of[0] = out
        flat = list(out) if isinstance(out, (list, _tuple)) else [out]
        return [params[0] + 1], [convert_to_tensor(o) for o in flat]

    _, stacked = _dynamic_loop(lambda params: less(params[0], n), body, [constant(0)], sliced=seqs)
    if isinstance(shape_of[0], (list, _tuple)):
        return _tuple(stacked)
    return stacked[0]


def _fold_loop(fn, x, initializer, keep_all):
    # scan / foldl over a first dimension known only when the graph runs: the accumulator is a
    # loop variable; scan also stacks it per iteration. Returns (final accumulator, stacked).
    if initializer is None:
        acc0 = x[0]
        x = x[1:]
    else:
        acc0 = convert_to_tensor(initializer)
    n = shape(x, out_type=int32)[0]

    def body(params, elements):
        acc = convert_to_tensor(fn(params[1], elements[0]), dtype=acc0.dtype)
        return [params[0] + 1, acc], ([acc] if keep_all else [])

    finals, stacked = _dynamic_loop(lambda params: less(params[0], n), body, [constant(0), acc0], sliced=[x])
    if not keep_all:
        return finals[1], None
    outs = stacked[0]
    if initializer is None:
        outs = concat([expand_dims(acc0, 0), outs], 0)
    return finals[1], outs


def _unknown_length(elems):
    if _tlens.graph_key() is None or isinstance(elems, (list, _tuple)):
        return False
    x = convert_to_tensor(elems)
    return x.shape.ndims is None or x.shape[0] is None


def get_static_value(tensor, partial=False):
    """tf.get_static_value: the value of `tensor` as a numpy array when it is known without
    running the program's inputs (an eager value, or a graph tensor computed only from constants),
    else None."""
    if not is_tensor(tensor):
        try:
            return _np.asarray(tensor)
        except Exception:
            return None
    if _tlens.graph_key() is None:
        return tensor.numpy()
    if _tlens.is_abstract():
        return None
    # A fresh session of the tensor's graph, without feeds and with no variable initialised: it
    # fails when the tensor depends on a placeholder or a variable.
    try:
        s = Session(graph=tensor.graph)
        try:
            return _np.asarray(s.run(tensor))
        finally:
            s.close()
    except Exception:
        return None


def _loop_structure(vs):
    return [v for v in vs]


def _loop_flatten(s):
    # The leaves of a loop_vars structure: lists, tuples, namedtuples and dicts (by sorted key).
    if isinstance(s, dict):
        out = []
        for k in sorted(s.keys()):
            out.extend(_loop_flatten(s[k]))
        return out
    if isinstance(s, (list, _tuple)) or (hasattr(s, "_fields") and hasattr(s, "__iter__")):
        out = []
        for x in s:
            out.extend(_loop_flatten(x))
        return out
    return [s]


def _loop_pack(structure, flat):
    it = iter(flat)

    def build(s):
        if isinstance(s, dict):
            d = {}
            for k in sorted(s.keys()):
                d[k] = build(s[k])
            return d
        if hasattr(s, "_fields") and hasattr(s, "__iter__"):
            return type(s)(*[build(x) for x in s])
        if isinstance(s, list):
            return [build(x) for x in s]
        if isinstance(s, _tuple):
            return _tuple(build(x) for x in s)
        return next(it)

    return build(structure)


def _loop_invariants(structure, invariants):
    # The shape invariant of each leaf (None: the leaf's own shape); a leaf's invariant is a
    # TensorShape or a list of dims.
    if invariants is None:
        return [None] * len(_loop_flatten(structure))
    if isinstance(structure, dict):
        out = []
        for k in sorted(structure.keys()):
            out.extend(_loop_invariants(structure[k], invariants[k]))
        return out
    if isinstance(structure, (list, _tuple)) or (hasattr(structure, "_fields") and hasattr(structure, "__iter__")):
        if isinstance(invariants, TensorShape) or len(invariants) != len(structure):
            raise ValueError("shape_invariants must have the same structure as loop_vars")
        out = []
        for x, inv in zip(structure, invariants):
            out.extend(_loop_invariants(x, inv))
        return out
    return [invariants if isinstance(invariants, TensorShape) else TensorShape(invariants)]


def _dynamic_loop(cond, body, loop_vars, invariants=None, sliced=(), name=None):
    """A loop the session runs (a While node, engine/graph/Loops.h): `loop_vars` is a flat list of
    tensors, `invariants` their shape invariants (None each: their shapes); `cond(params)` returns
    a scalar bool tensor and `body(params, elements)` returns (next values, emits), where
    `elements` are the `sliced` tensors' rows of the iteration. Returns (final values, emits
    stacked along a new first axis)."""
    if _tlens.tracing():
        # A tf.function trace replays its ops eagerly, without loop frames: this makes the
        # function run as Python (a Python loop), as before graph loops existed.
        raise NotImplementedError("tensorlens: a loop whose condition is known only at run time inside a "
                                  "tf.function runs as Python")
    inits = [convert_to_tensor(v) for v in loop_vars]
    sliced = [convert_to_tensor(x) for x in sliced]
    invariants = invariants if invariants is not None else [None] * len(inits)
    first = _tlens.graph_size()
    params = []
    for t, inv in zip(inits, invariants):
        if inv is not None and not inv.is_compatible_with(t.shape):
            raise ValueError("The shape invariant specified for %s is not compatible with the initial shape of the "
                             "loop variable. It enters the loop with shape %s, but the specified shape invariant "
                             "is %s." % (t.name, t.shape, inv))
        params.append(_tlens.loop_arg(t, inv))
    elements = [_tlens.loop_arg(x, None, True) for x in sliced]
    c = cond(params)
    c = convert_to_tensor(c)
    if c.dtype.base_dtype != bool:
        raise TypeError("The loop condition must be a boolean tensor, but is %s" % c.dtype.name)
    nxt, emits = body(params, elements)
    nxt = list(nxt)
    if len(nxt) != len(inits):
        raise ValueError("The two structures don't have the same number of elements.\n\nFirst structure "
                         "(%d elements): %s\n\nSecond structure (%d elements): %s" % (len(inits), inits, len(nxt), nxt))
    for k in _range(len(nxt)):
        o = nxt[k]
        if not is_tensor(o):
            o = convert_to_tensor(o, dtype=inits[k].dtype)
        if o.dtype.base_dtype != inits[k].dtype.base_dtype:
            raise ValueError("Input tensor '%s' enters the loop with type %s, but has type %s after 1 iteration." %
                             (inits[k].name, inits[k].dtype.name, o.dtype.name))
        inv = invariants[k] if invariants[k] is not None else inits[k].shape
        if not inv.is_compatible_with(o.shape) or (invariants[k] is None and o.shape.ndims != inits[k].shape.ndims):
            raise ValueError("Input tensor '%s' enters the loop with shape %s, but has shape %s after one iteration. "
                             "To allow the shape to vary across iterations, use the `shape_invariants` argument of "
                             "tf.while_loop to specify a less-specific shape." % (inits[k].name, inits[k].shape, o.shape))
        nxt[k] = o
    emits = [convert_to_tensor(e) for e in emits]
    outs = _tlens.while_node(first, inits, sliced, params + elements, [c], nxt, emits)
    return outs[:len(inits)], outs[len(inits):]


def while_loop(cond, body, loop_vars, shape_invariants=None, parallel_iterations=10, back_prop=True,
               swap_memory=False, name=None, maximum_iterations=None, return_same_structure=False):
    """tf.while_loop. Eagerly, a Python loop. In a graph, while the condition is known when the
    graph is built (computed from constants: `counter < 100` from tf.constant(1)) the loop is
    unrolled there; once it depends on a placeholder, a variable or any value known only when the
    graph runs, the rest of the loop becomes a While node that the session runs (engine/graph/
    Loops.h): any number of iterations, gradients through it, tensors captured from outside.
    Loop variables keep their dtypes and, without `shape_invariants`, their shapes, as TensorFlow
    checks."""
    if not callable(cond):
        raise TypeError("cond must be callable.")
    if not callable(body):
        raise TypeError("body must be callable.")
    single = not isinstance(loop_vars, (list, _tuple))
    if not single and len(loop_vars) == 0:
        raise ValueError("No loop variables provided")
    vs = [loop_vars] if single else list(loop_vars)
    vs = [convert_to_tensor(v) if not is_tensor(v) and isinstance(v, (int, float, _np.ndarray)) else v for v in vs]
    invariants = None
    if shape_invariants is not None:
        invariants = [shape_invariants] if single else list(shape_invariants)
    eager = _tlens.graph_key() is None
    first = list(vs)
    n = 0
    max_known = None
    if maximum_iterations is not None:
        max_known = get_static_value(maximum_iterations) if is_tensor(maximum_iterations) else maximum_iterations
    with name_scope(name, "while"):
        while True:
            if max_known is not None and n >= int(max_known):
                break
            p = cond(*vs)
            if eager:
                go = _bool(p)
            else:
                # A maximum known only at run time makes the loop one the session runs too.
                dynamic_max = maximum_iterations is not None and max_known is None
                known = None if dynamic_max else get_static_value(p) if is_tensor(p) else p
                if known is None:
                    if _tlens.is_abstract():
                        # Abstract mode: the While node gives the types of the results (no kernel
                        # runs); where it cannot be built, one pass of the body gives them.
                        if _all_tensors(vs):
                            try:
                                vs = _run_while_node(cond, body, vs, single, first, invariants, maximum_iterations, n)
                                break
                            except NotImplementedError:
                                pass
                        out = body(*vs)
                        vs = [out] if single else list(out)
                        break
                    vs = _run_while_node(cond, body, vs, single, first, invariants, maximum_iterations, n)
                    if not back_prop:
                        vs = _loop_pack(vs, [stop_gradient(v) if is_tensor(v) else v for v in _loop_flatten(vs)])
                    break
                go = _bool(known)
            if not go:
                break
            out = body(*vs)
            outs = [out] if single else (list(out) if isinstance(out, (list, _tuple)) else [out])
            if len(outs) != len(vs):
                raise ValueError("The two structures don't have the same number of elements.\n\nFirst structure "
                                 "(%d elements): %s\n\nSecond structure (%d elements): %s" % (len(vs), vs, len(outs), outs))
            nxt = []
            for i in _range(len(outs)):
                o = outs[i]
                if is_tensor(first[i]) and not is_tensor(o) and isinstance(o, (int, float, _np.ndarray)):
                    o = convert_to_tensor(o, dtype=first[i].dtype)
                if not eager and is_tensor(first[i]) and is_tensor(o):
                    if o.dtype.base_dtype != first[i].dtype.base_dtype:
                        raise ValueError("Input tensor '%s' enters the loop with type %s, but has type %s after 1 iteration." % (first[i].name, first[i].dtype.name, o.dtype.name))
                    inv = invariants[i] if invariants is not None else first[i].shape
                    inv = inv if isinstance(inv, TensorShape) else TensorShape(inv)
                    if not inv.is_compatible_with(o.shape) or (invariants is None and o.shape.ndims != first[i].shape.ndims):
                        raise ValueError("Input tensor '%s' enters the loop with shape %s, but has shape %s after one iteration. To allow the shape to vary across iterations, use the `shape_invariants` argument of tf.while_loop to specify a less-specific shape." % (first[i].name, first[i].shape, o.shape))
                nxt.append(o)
            vs = nxt
            n += 1
            if not eager and n > 100000:
                raise NotImplementedError("tensorlens: tf.while_loop in a graph is unrolled while its condition is known from constants; this one runs more than 100000 iterations")
    if single:
        return vs[0]
    if len(vs) == 1 and not return_same_structure and _tlens.style() == "graph":
        # TensorFlow 1: one loop variable in a list comes back alone (TF 2's while_loop_v2
        # returns the same structure).
        return vs[0]
    if isinstance(loop_vars, _tuple) and not hasattr(loop_vars, "_fields"):
        return _tuple(vs)
    if hasattr(loop_vars, "_fields"):
        return type(loop_vars)(*vs)
    return vs


def _all_tensors(vs):
    for v in _loop_flatten(vs):
        if not is_tensor(v) and not isinstance(v, TensorArray):
            return False
    return True


def _run_while_node(cond, body, vs, single, first, invariants, maximum_iterations, done):
    # The rest of a graph loop whose condition is known only when the graph runs: a While node.
    # `vs` are the loop variables after the `done` iterations unrolled so far.
    # TensorArrays among the loop variables are written once per iteration: their values are the
    # While node's emits, stacked after the loop (TensorArray._with_tail).
    flat_vs = _loop_flatten(vs)
    arrays = [k for k in _range(len(flat_vs)) if isinstance(flat_vs[k], TensorArray)]
    invs = _loop_invariants(first, invariants)
    leaves = [convert_to_tensor(flat_vs[k]) for k in _range(len(flat_vs)) if k not in arrays]
    invs = [invs[k] for k in _range(len(flat_vs)) if k not in arrays]
    counted = maximum_iterations is not None or len(arrays) > 0
    limit = None
    if counted:
        limit = None if maximum_iterations is None else cast(convert_to_tensor(maximum_iterations), int32) - done
        leaves = [constant(0)] + leaves
        invs = [None] + invs

    def unpack(params):
        rest = list(params[1:] if counted else params)
        flat = []
        for k in _range(len(flat_vs)):
            flat.append(_LoopTensorArray(flat_vs[k]) if k in arrays else rest.pop(0))
        return _loop_pack(vs, flat)

    def loop_cond(params):
        p = cond(*unpack(params))
        p = convert_to_tensor(p)
        if limit is not None:
            p = logical_and(less(params[0], limit), p)
        return p

    def loop_body(params, elements):
        out = body(*unpack(params))
        outs = [out] if single else (list(out) if isinstance(out, (list, _tuple)) else [out])
        flat = _loop_flatten(outs)
        if len(flat) != len(flat_vs):
            raise ValueError("The two structures don't have the same number of elements.\n\nFirst structure "
                             "(%d elements): %s\n\nSecond structure (%d elements): %s" % (len(flat_vs), vs, len(flat), outs))
        emits = []
        for k in arrays:
            ta = flat[k]
            if not isinstance(ta, _LoopTensorArray) or ta._written is None:
                raise NotImplementedError("tensorlens: a TensorArray that is a variable of a tf.while_loop whose condition "
                                          "is known only at run time must be written once per iteration")
            want = params[0] + ta._base._first_free()
            ok = equal(cast(convert_to_tensor(ta._index), int32), want)
            check = Assert(ok, ["tensorlens: a TensorArray in a graph loop is written at its first free index plus the iteration; index",
                                ta._index, "expected", want])
            with control_dependencies([check]):
                emits.append(identity(ta._written))
        nxt = [flat[k] for k in _range(len(flat)) if k not in arrays]
        nxt = [params[0] + 1] + nxt if counted else nxt
        return nxt, emits

    finals, stacked = _dynamic_loop(loop_cond, loop_body, leaves, invs)
    rest = list(finals[1:] if counted else finals)
    flat = []
    for k in _range(len(flat_vs)):
        flat.append(flat_vs[k]._with_tail(stacked[arrays.index(k)]) if k in arrays else rest.pop(0))
    return list(_loop_pack(vs, flat))


def _static_index(i, what):
    if isinstance(i, int):
        return i
    v = get_static_value(i)
    if v is None:
        raise NotImplementedError("tensorlens: TensorArray.%s needs an index known when the graph is built (tf.while_loop is unrolled)" % what)
    return int(v)


class TensorArray:
    """tf.TensorArray over a Python list of tensors: writes return a new TensorArray (TF's flow
    semantics) and take indices known when the graph is built. Elements known only when the graph
    runs (written by a graph loop, one per iteration, or unstacked from a tensor whose first
    dimension is unknown) follow the list as one stacked tensor, `_tail`; such an array is read
    with tf.gather, so its read and gather indices may be tensors."""

    def __init__(self, dtype, size=None, dynamic_size=None, clear_after_read=None, tensor_array_name=None,
                 handle=None, flow=None, infer_shape=True, element_shape=None, colocate_with_first_write_call=True,
                 name=None, _items=None, _tail=None):
        self._dtype = as_dtype(dtype)
        self._dynamic = _bool(dynamic_size)
        self._tail = _tail
        if _items is not None:
            self._items = _items
        else:
            n = 0
            if size is not None:
                known = size if isinstance(size, int) else get_static_value(size)
                if known is None and _tlens.graph_key() is not None:
                    # A size known only when the graph runs: the elements a graph loop writes.
                    self._dynamic = True
                else:
                    n = _static_index(size, "size")
            self._items = [None for k in _range(n)]
        self._element_shape = element_shape if element_shape is None or isinstance(element_shape, TensorShape) else TensorShape(element_shape)

    @property
    def dtype(self):
        return self._dtype

    @property
    def element_shape(self):
        if self._element_shape is not None:
            return self._element_shape
        for t in self._items:
            if t is not None:
                return t.shape
        if self._tail is not None and self._tail.shape.ndims is not None:
            return TensorShape(self._tail.shape.as_list()[1:])
        return TensorShape(None)

    def _copy(self, items, tail=None):
        ta = TensorArray(self._dtype, dynamic_size=self._dynamic, element_shape=self._element_shape, _items=items,
                         _tail=tail)
        return ta

    def size(self, name=None):
        if self._tail is not None:
            return len(self._items) + shape(self._tail, out_type=int32)[0]
        return constant(len(self._items), dtype=int32)

    def _first_free(self):
        k = 0
        while k < len(self._items) and self._items[k] is not None:
            k += 1
        return k

    def _with_tail(self, tail):
        # The array after a graph loop wrote `tail`'s rows, one per iteration, from the first free slot.
        if self._tail is not None:
            raise NotImplementedError("tensorlens: a TensorArray written by a graph loop cannot be written by a second one")
        return self._copy(list(self._items[:self._first_free()]), tail)

    def write(self, index, value, name=None):
        if self._tail is not None:
            raise NotImplementedError("tensorlens: a TensorArray whose elements a graph loop wrote cannot be written again")
        i = _static_index(index, "write")
        value = convert_to_tensor(value, dtype=self._dtype)
        if value.dtype.base_dtype != self._dtype.base_dtype:
            raise TypeError("TensorArray dtype is %s but Op is trying to write dtype %s" % (self._dtype.name, value.dtype.name))
        items = list(self._items)
        if i < 0:
            raise ValueError("Tried to write to index %d but array index must be non-negative" % i)
        if i >= len(items):
            if not self._dynamic:
                raise ValueError("Tried to write to index %d but array is not resizeable and size is: %d" % (i, len(items)))
            items = items + [None for k in _range(i + 1 - len(items))]
        if self._element_shape is not None and not self._element_shape.is_compatible_with(value.shape):
            raise ValueError("Could not write to TensorArray index %d because the value shape is %s which is incompatible with the TensorArray's inferred element shape: %s" % (i, value.shape, self._element_shape))
        items[i] = value
        return self._copy(items)

    def read(self, index, name=None):
        if self._tail is not None or (is_tensor(index) and get_static_value(index) is None):
            return gather(self.stack(), index)
        i = _static_index(index, "read")
        if i < 0 or i >= len(self._items):
            raise ValueError("Tried to read from index %d but array size is: %d" % (i, len(self._items)))
        t = self._items[i]
        if t is None:
            if self._element_shape is not None and self._element_shape.is_fully_defined():
                return zeros(self._element_shape.as_list(), self._dtype)
            raise ValueError("Could not read from TensorArray index %d.  Furthermore, the element shape is not fully defined: %s.  It is possible you are working with a resizeable TensorArray and stop_gradients is not allowing the gradients to be written.  If you set the full element_shape property on the forward TensorArray, the proper all-zeros tensor will be returned instead of incurring this error." % (i, self.element_shape))
        return t

    def _filled(self):
        out = []
        for k in _range(len(self._items)):
            out.append(self.read(k))
        return out

    def stack(self, name=None):
        items = self._filled()
        if self._tail is not None:
            return concat([stack(items), self._tail], 0) if items else self._tail
        if not items:
            shape = self._element_shape.as_list() if self._element_shape is not None and self._element_shape.ndims is not None else []
            return zeros([0] + shape, self._dtype)
        return stack(items)

    def gather(self, indices, name=None):
        idx = get_static_value(indices)
        if idx is None or self._tail is not None:
            return gather(self.stack(), indices)
        return stack([self.read(int(k)) for k in list(_np.asarray(idx).reshape(-1).tolist())])

    def concat(self, name=None):
        if self._tail is not None:
            st = self.stack()
            return reshape(st, concat([[-1], shape(st, out_type=int32)[2:]], 0))
        return concat(self._filled(), 0)

    def unstack(self, value, name=None):
        value = convert_to_tensor(value, dtype=self._dtype)
        if value.shape.ndims is None or value.shape[0] is None:
            if self._tail is not None or self._first_free() > 0:
                raise NotImplementedError("tensorlens: TensorArray.unstack of a tensor whose first dimension is unknown "
                                          "into an array that has elements")
            return self._copy([], value)
        n = int(value.shape[0])
        if not self._dynamic and len(self._items) > 0 and n > len(self._items):
            raise ValueError("Cannot unstack %d elements into a TensorArray of size %d" % (n, len(self._items)))
        items = unstack(value, num=n)
        rest = list(self._items[n:]) if len(self._items) > n else []
        return self._copy(items + rest)

    def scatter(self, indices, value, name=None):
        idx = get_static_value(indices)
        if idx is None:
            raise NotImplementedError("tensorlens: TensorArray.scatter needs indices known when the graph is built")
        ta = self
        parts = unstack(convert_to_tensor(value, dtype=self._dtype), num=len(list(_np.asarray(idx).reshape(-1).tolist())))
        k = 0
        for i in list(_np.asarray(idx).reshape(-1).tolist()):
            ta = ta.write(int(i), parts[k])
            k += 1
        return ta

    def identity(self):
        return self._copy(list(self._items), self._tail)


class _LoopTensorArray(TensorArray):
    """A TensorArray that is a variable of a graph loop, as its body sees it: it takes one write per
    iteration, at the loop's step (index = the array's first free slot + the iteration); the
    loop stacks the written values (an emit of the While node)."""

    def __init__(self, base, index=None, written=None):
        TensorArray.__init__(self, base._dtype, dynamic_size=True, element_shape=base._element_shape, _items=[])
        self._base = base
        self._index = index
        self._written = written

    def write(self, index, value, name=None):
        if self._written is not None:
            raise NotImplementedError("tensorlens: a TensorArray that is a variable of a tf.while_loop whose condition is "
                                      "known only at run time takes one write per iteration")
        value = convert_to_tensor(value, dtype=self._dtype)
        if value.dtype.base_dtype != self._dtype.base_dtype:
            raise TypeError("TensorArray dtype is %s but Op is trying to write dtype %s" % (self._dtype.name, value.dtype.name))
        if self._element_shape is not None and not self._element_shape.is_compatible_with(value.shape):
            raise ValueError("Could not write to TensorArray because the value shape is %s which is incompatible with the "
                             "TensorArray's inferred element shape: %s" % (value.shape, self._element_shape))
        return _LoopTensorArray(self._base, index, value)

    def _refuse(self, *args, **kwargs):
        raise NotImplementedError("tensorlens: a TensorArray that is a variable of a tf.while_loop whose condition is known "
                                  "only at run time can only be written inside the loop (one write per iteration); "
                                  "read it after the loop")

    read = _refuse
    stack = _refuse
    gather = _refuse
    concat = _refuse
    unstack = _refuse
    scatter = _refuse
    size = _refuse

    def mark_used(self):
        pass

    def close(self, name=None):
        return no_op()


def _unrolled_elems(elems, what):
    x = convert_to_tensor(elems)
    n = x.shape[0] if x.shape.ndims is not None else None
    if n is None:
        raise NotImplementedError("tensorlens: %s unrolls its loop, so the first dimension of elems (%s) must be "
                                  "known when the graph is built" % (what, x.shape))
    return unstack(x, num=int(n))


def scan(fn, elems, initializer=None, parallel_iterations=10, back_prop=True, swap_memory=False,
         infer_shape=True, reverse=False, name=None):
    with name_scope(name, "scan"):
        if _unknown_length(elems):
            x = convert_to_tensor(elems)
            x = _reverse_fn(x, [0]) if reverse else x
            outs = _fold_loop(fn, x, initializer, True)[1]
            return _reverse_fn(outs, [0]) if reverse else outs
        items = _unrolled_elems(elems, "scan")
        if reverse:
            items = items[::-1]
        if initializer is None:
            acc, items = items[0], items[1:]
            outs = [acc]
        else:
            acc, outs = initializer, []
        for x in items:
            acc = fn(acc, x)
            outs.append(acc)
        if reverse:
            outs = outs[::-1]
        return stack(outs)


def foldl(fn, elems, initializer=None, parallel_iterations=10, back_prop=True, swap_memory=False, name=None):
    with name_scope(name, "foldl"):
        if _unknown_length(elems):
            return _fold_loop(fn, convert_to_tensor(elems), initializer, False)[0]
        items = _unrolled_elems(elems, "foldl")
        acc = items.pop(0) if initializer is None else initializer
        for x in items:
            acc = fn(acc, x)
        return acc


def foldr(fn, elems, initializer=None, parallel_iterations=10, back_prop=True, swap_memory=False, name=None):
    with name_scope(name, "foldr"):
        if _unknown_length(elems):
            return _fold_loop(fn, _reverse_fn(convert_to_tensor(elems), [0]), initializer, False)[0]
        items = _unrolled_elems(elems, "foldr")[::-1]
        acc = items.pop(0) if initializer is None else initializer
        for x in items:
            acc = fn(acc, x)
        return acc


def _xw_plus_b(x, weights, biases, name=None):
    with name_scope(name, "xw_plus_b"):
        return nn.bias_add(matmul(x, weights), biases)


def _relu_layer(x, weights, biases, name=None):
    with name_scope(name, "relu_layer"):
        return nn.relu(nn.bias_add(matmul(x, weights), biases))


def _weighted_xent(targets=None, logits=None, pos_weight=None, name=None, labels=None):
    labels = targets if labels is None else labels
    with name_scope(name, "logistic_loss"):
        x = convert_to_tensor(logits)
        z = cast(labels, x.dtype)
        q = cast(pos_weight, x.dtype)
        l = 1 + (q - 1) * z
        return (1 - z) * x + l * (log1p(exp(-abs(x))) + nn.relu(-x))


def _log_uniform_candidates(num_sampled, range_max, seed=None):
    # TF's LogUniformCandidateSampler: P(k) = log((k+2)/(k+1)) / log(range_max+1), sampled with
    # replacement here (unique=True in TF samples without; the estimate stays unbiased for NCE).
    u = random_uniform([num_sampled], 0.0, 1.0, seed=seed)
    k = cast(floor(exp(u * _math_log(range_max + 1.0))), int64) - 1
    return minimum(maximum(k, 0), range_max - 1)


def _log_uniform_prob(ids, range_max):
    f = cast(ids, float32)
    return log((f + 2.0) / (f + 1.0)) / _math_log(range_max + 1.0)


def _math_log(v):
    import math as _m
    return _m.log(v)


def _sampled_logits(weights, biases, labels, inputs, num_sampled, num_classes, num_true, remove_accidental_hits,
                    seed, subtract_log_q):
    weights = weights if isinstance(weights, (list, _tuple)) else [weights]
    w = concat(list(weights), 0) if len(weights) > 1 else convert_to_tensor(weights[0])
    labels = cast(labels, int64)
    if labels.shape.ndims == 1:
        labels = expand_dims(labels, 1)
    flat_labels = reshape(labels, [-1])
    sampled = _log_uniform_candidates(num_sampled, num_classes, seed)
    true_w = nn.embedding_lookup(w, flat_labels)
    true_b = gather(biases, flat_labels)
    sampled_w = nn.embedding_lookup(w, sampled)
    sampled_b = gather(biases, sampled)
    dim = shape(true_w)[1:2]
    true_w = reshape(true_w, concat([[-1, num_true], dim], 0))
    true_logits = reduce_sum(multiply(expand_dims(inputs, 1), true_w), 2) + reshape(true_b, [-1, num_true])
    sampled_logits = matmul(inputs, sampled_w, transpose_b=True) + sampled_b
    if remove_accidental_hits:
        hits = cast(equal(expand_dims(labels, 2), reshape(sampled, [1, 1, -1])), sampled_logits.dtype)
        sampled_logits = sampled_logits - 1e9 * reduce_max(hits, 1)
    if subtract_log_q:
        true_logits = true_logits - log(num_sampled * _log_uniform_prob(labels, num_classes))
        sampled_logits = sampled_logits - log(num_sampled * _log_uniform_prob(sampled, num_classes))
    logits = concat([true_logits, sampled_logits], 1)
    out_labels = concat([ones_like(true_logits) / num_true, zeros_like(sampled_logits)], 1)
    return logits, out_labels


def _nce_loss(weights, biases, labels, inputs, num_sampled, num_classes, num_true=1, sampled_values=None,
              remove_accidental_hits=False, partition_strategy="mod", name="nce_loss"):
    with name_scope(name):
        logits, labels_ = _sampled_logits(weights, biases, labels, inputs, num_sampled, num_classes, num_true,
                                          remove_accidental_hits, None, True)
        xent = _sigmoid_xent(labels=labels_, logits=logits)
        return reduce_sum(xent, 1)


def _sampled_softmax_loss(weights, biases, labels, inputs, num_sampled, num_classes, num_true=1,
                          sampled_values=None, remove_accidental_hits=True, partition_strategy="mod",
                          name="sampled_softmax_loss", seed=None):
    with name_scope(name):
        logits, labels_ = _sampled_logits(weights, biases, labels, inputs, num_sampled, num_classes, num_true,
                                          remove_accidental_hits, seed, True)
        return _softmax_xent(labels=stop_gradient(labels_), logits=logits)


nn.xw_plus_b = _xw_plus_b
nn.relu_layer = _relu_layer
nn.weighted_cross_entropy_with_logits = _weighted_xent
nn.nce_loss = _nce_loss
nn.sampled_softmax_loss = _sampled_softmax_loss
nn.softsign = lambda features, name=None: divide(features, 1 + abs(features), name=name)
nn.swish = lambda features, name=None: multiply(features, sigmoid(features), name=name)
nn.silu = nn.swish
nn.log_sigmoid = lambda x, name=None: negative(nn.softplus(negative(x)), name=name)
nn.zero_fraction = lambda value, name=None: reduce_mean(cast(equal(value, zeros_like(value)), float32), name=name)
nn.l2_normalize = nn.l2_normalize
log_sigmoid = nn.log_sigmoid
math.log_sigmoid = nn.log_sigmoid
math.count_nonzero = count_nonzero
math.reduce_logsumexp = reduce_logsumexp
math.confusion_matrix = confusion_matrix
linalg.norm = norm

# --- tensor methods (attributes the native tensor does not answer) -----------------------------


def _slice_write(sliced, value, how):
    # v[0, 0].assign(x): the variable keeps its other elements; the sliced ones become x (or
    # x added/subtracted). StridedSliceGrad scatters into the variable's shape, as TF's
    # strided-slice assign does.
    spec = sliced._tlens_slice
    if spec is None:
        raise AttributeError("'%s' object has no attribute '%s'" % (type(sliced).__name__, how))
    var, b, e, s, masks = spec
    full = shape(var, out_type=int32)
    old = sliced
    value = cast(convert_to_tensor(value), var.dtype.base_dtype)
    if how == "assign_add":
        value = old + value
    elif how == "assign_sub":
        value = old - value
    value = value + zeros_like(old)
    placed = _op("StridedSliceGrad", [full, b, e, s, value], masks)
    mask = _op("StridedSliceGrad", [full, b, e, s, ones_like(old)], masks)
    return assign(var, var * (1 - mask) + placed)


class IndexedSlices:
    """tf.IndexedSlices: rows `indices` of a dense tensor of shape dense_shape, holding `values`."""

    def __init__(self, values, indices, dense_shape=None):
        self.values = convert_to_tensor(values)
        self.indices = convert_to_tensor(indices)
        self.dense_shape = None if dense_shape is None else convert_to_tensor(dense_shape)

    @property
    def dtype(self):
        return self.values.dtype

    @property
    def shape(self):
        return TensorShape(None) if self.dense_shape is None else TensorShape(get_static_value(self.dense_shape))

    def __repr__(self):
        return "IndexedSlices(indices=%s, values=%s%s)" % (self.indices, self.values, "" if self.dense_shape is None else ", dense_shape=%s" % self.dense_shape)


class _TensorMethods:
    def __abs__(self):
        return abs(self)

    def assign(self, value, use_locking=None, name=None, read_value=True):
        return _slice_write(self, value, "assign")

    def assign_add(self, delta, use_locking=None, name=None, read_value=True):
        return _slice_write(self, delta, "assign_add")

    def assign_sub(self, delta, use_locking=None, name=None, read_value=True):
        return _slice_write(self, delta, "assign_sub")

    # Variable.scatter_*: the variable with the indexed elements (scatter_nd_*) or rows
    # (scatter_update and friends, from a tf.IndexedSlices) replaced, increased or decreased.
    def _scatter(self, how, indices, updates):
        if not _tlens.is_variable(self):
            raise AttributeError("'%s' object has no attribute '%s'" % (type(self).__name__, how))
        if how.startswith("scatter_nd"):
            updates = _like(updates, self)
            if how == "scatter_nd_add":
                return assign(self, tensor_scatter_nd_add(self, indices, updates))
            if how == "scatter_nd_sub":
                return assign(self, tensor_scatter_nd_add(self, indices, -updates))
            return assign(self, tensor_scatter_nd_update(self, indices, updates))
        if not isinstance(indices, IndexedSlices):
            raise TypeError("sparse_delta is not IndexedSlices: %s" % (indices,))
        rows = expand_dims(convert_to_tensor(indices.indices), -1)
        return self._scatter("scatter_nd" + how[len("scatter"):], rows, indices.values)

    def scatter_nd_update(self, indices, updates, name=None):
        return self._scatter("scatter_nd_update", indices, updates)

    def scatter_nd_add(self, indices, updates, name=None):
        return self._scatter("scatter_nd_add", indices, updates)

    def scatter_nd_sub(self, indices, updates, name=None):
        return self._scatter("scatter_nd_sub", indices, updates)

    def scatter_update(self, sparse_delta, use_locking=False, name=None):
        return self._scatter("scatter_update", sparse_delta, None)

    def scatter_add(self, sparse_delta, use_locking=False, name=None):
        return self._scatter("scatter_add", sparse_delta, None)

    def scatter_sub(self, sparse_delta, use_locking=False, name=None):
        return self._scatter("scatter_sub", sparse_delta, None)

    def eval(self, feed_dict=None, session=None):
        if session is None:
            session = _tlens.default_session()
            if session is None:
                raise ValueError("Cannot evaluate tensor using `eval()`: No default session is registered. Use `with sess.as_default()` or pass an explicit session to `eval(session=sess)`")
        return session.run(self, feed_dict)

    def numpy(self):
        return _tlens.to_ndarray(self)

    def get_shape(self):
        return self.shape

    def set_shape(self, shape):
        _tlens.set_shape(self, shape)

    @property
    def op(self):
        return _OpView(self)

    @property
    def graph(self):
        g = _tlens.graph_of(self)
        return g if g is not None else get_default_graph()

    def __float__(self):
        return float(_tlens.value(self))

    def __int__(self):
        return int(_tlens.value(self))

    def __index__(self):
        return int(_tlens.value(self))

    def __array__(self):
        return _tlens.to_ndarray(self)


class _OpView:
    def __init__(self, t):
        self.name = t.name.split(":")[0] if _tlens.is_symbolic(t) else ""
        self.outputs = [t]
        self.graph = t.graph


class _VariableMethods(_TensorMethods):
    def assign(self, value, use_locking=None, name=None, read_value=True):
        return assign(self, value, name=name)

    def assign_add(self, delta, use_locking=None, name=None, read_value=True):
        return assign_add(self, delta, name=name)

    def assign_sub(self, delta, use_locking=None, name=None, read_value=True):
        return assign_sub(self, delta, name=name)

    def read_value(self):
        return identity(self)

    def value(self):
        return identity(self)

    @property
    def initializer(self):
        return variables_initializer([self])

    @property
    def initial_value(self):
        return self



_tlens.register("tensor_methods", _TensorMethods)
_tlens.register("variable_methods", _VariableMethods)


class NodeDef:
    def __init__(self, name, op, inputs, device):
        self.name = name
        self.op = op
        self.input = inputs
        self.device = device

    def __str__(self):
        lines = ['name: "%s"' % self.name, 'op: "%s"' % self.op]
        lines += ['input: "%s"' % i for i in self.input]
        if self.device:
            lines.append('device: "%s"' % self.device)
        return "\n".join(lines) + "\n"


class GraphDef:
    """Graph.as_graph_def(): the nodes' names, ops, inputs and devices (attributes are not
    included), printed in protobuf's text format as TensorFlow prints a GraphDef."""

    def __init__(self, nodes):
        self.node = nodes
        self.versions = _namespace("tensorflow.VersionDef", producer=27)

    def __str__(self):
        out = []
        for n in self.node:
            out.append("node {")
            for line in str(n).splitlines():
                out.append("  " + line)
            out.append("}")
        out.append("versions {")
        out.append("  producer: 27")
        out.append("}")
        return "\n".join(out) + "\n"

    __repr__ = __str__


class _GraphMethods:
    def as_graph_def(self, from_version=None, add_shapes=False):
        return GraphDef([NodeDef(*n) for n in _tlens.graph_nodes(self)])



_tlens.register("graph_methods", _GraphMethods)


def diag(diagonal, name=None):
    diagonal = convert_to_tensor(diagonal)
    n = diagonal.shape.as_list()[0] if diagonal.shape.ndims == 1 else None
    if n is None:
        raise NotImplementedError("tensorlens: tf.diag of a tensor that is not a vector of known length")
    return multiply(expand_dims(diagonal, 1), eye(n, dtype=diagonal.dtype), name=name)


def truncatediv(x, y, name=None):
    x = convert_to_tensor(x)
    y = convert_to_tensor(y, dtype=x.dtype)
    if x.dtype.is_floating:
        q = x / y
        return multiply(sign(q), floor(abs(q)), name=name)
    q = floordiv(x, y)
    fix = logical_and(not_equal(floormod(x, y), 0), not_equal(less(x, 0), less(y, 0)))
    return add(q, cast(fix, x.dtype), name=name)


def truncatemod(x, y, name=None):
    x = convert_to_tensor(x)
    y = convert_to_tensor(y, dtype=x.dtype)
    return subtract(x, truncatediv(x, y) * y, name=name)

# --- submodules loaded on first use ------------------------------------------------------------
# tf.keras, tf.compat, tf.layers, tf.contrib, tf.examples are separate embedded modules
# ("tensorflow.keras", ...), imported when first accessed.


# --- summaries (TensorBoard) -------------------------------------------------------------------
# TF1: summary ops in the graph return serialized Summary protos (as uint8 vectors, where
# TensorFlow has string scalars) and FileWriter writes them to a real events file. TF2: a default
# writer from create_file_writer, and tf.summary.scalar/histogram/image/audio/text write eagerly at
# a step (images, audio and text as TF2 writes them: string tensors with their TensorBoard
# plugin's metadata).
summary = _Namespace("tensorflow.summary")


class _FileWriter:
    def __init__(self, logdir, graph=None, max_queue=10, flush_secs=120, graph_def=None, filename_suffix=None,
                 session=None):
        self._logdir = logdir
        self._path = _tlens.events_open(logdir, filename_suffix or "")
        if graph is not None:
            self.add_graph(graph)

    def get_logdir(self):
        return self._logdir

    def add_graph(self, graph, global_step=None, graph_def=None):
        _tlens.events_write(self._path, graph, 0)

    def add_summary(self, summary, global_step=None):
        _tlens.events_write(self._path, summary, 0 if global_step is None else int(global_step))

    def flush(self):
        pass  # every event is written and flushed when added

    def close(self):
        pass

    def reopen(self):
        pass

    def __enter__(self):
        return self

    def __exit__(self, a, b, c):
        return False


def _summary_op(op_type, name, tensor, collections, attrs=None, sample_rate=None):
    with name_scope(name) as scope:
        tag = scope[:-1] if scope.endswith("/") else name
        a = {"tag": tag}
        if attrs:
            a.update(attrs)
        inputs = [convert_to_tensor(tensor)]
        if sample_rate is not None:
            inputs.append(convert_to_tensor(sample_rate, dtype=float32, name="sample_rate"))
        s = _op(op_type, inputs, a, op_type)
    for key in (collections if collections is not None else [GraphKeys.SUMMARIES]):
        add_to_collection(key, s)
    return s


class _SummaryWriter:
    """tf.summary.create_file_writer (TF2)."""

    def __init__(self, logdir):
        self._file = _FileWriter(logdir)
        self._step = None

    def as_default(self, step=None):
        return _DefaultWriter(self, step)

    def set_as_default(self, step=None):
        _summary_state["writer"] = self
        if step is not None:
            _summary_state["step"] = step

    def flush(self):
        pass

    def close(self):
        pass

    def init(self):
        pass


class _DefaultWriter:
    def __init__(self, writer, step):
        self._writer = writer
        self._step = step
        self._saved = None

    def __enter__(self):
        self._saved = (_summary_state.get("writer"), _summary_state.get("step"))
        _summary_state["writer"] = self._writer
        if self._step is not None:
            _summary_state["step"] = self._step
        return self._writer

    def __exit__(self, a, b, c):
        _summary_state["writer"], _summary_state["step"] = self._saved
        return False


_summary_state = {"writer": None, "step": None}


def _write_eager(kind, name, data, step):
    writer = _summary_state.get("writer")
    if writer is None:
        return False
    if step is None:
        step = _summary_state.get("step")
    if step is None:
        raise ValueError("No step set. Please specify one either through the `step` argument or through "
                         "tf.summary.experimental.set_step()")
    writer._file.add_summary(_tlens.summary_bytes(kind, name, data), int(step))
    return True


def _summary_scalar(name, tensor=None, collections=None, family=None, data=None, step=None, description=None):
    if _tlens.style() != "graph":
        return _write_eager("scalar", name, tensor if data is None else data, step)
    return _summary_op("ScalarSummary", name, tensor, collections)


def _summary_histogram(name, values=None, collections=None, family=None, data=None, step=None, buckets=None,
                       description=None):
    if _tlens.style() != "graph":
        return _write_eager("histogram", name, values if data is None else data, step)
    return _summary_op("HistogramSummary", name, values, collections)


def _summary_step(step):
    if step is None:
        step = _summary_state.get("step")
    if step is None:
        raise ValueError("No step set. Please specify one either through the `step` argument or through "
                         "tf.summary.experimental.set_step()")
    return int(step)


def _write_tensor_summary(name, tensor, plugin_name, description, step, plugin_content=""):
    # TF2's tf.summary.write of a string tensor with its plugin's SummaryMetadata.
    writer = _summary_state.get("writer")
    if writer is None:
        return False
    step = _summary_step(step)
    s = _op("TensorSummaryV2", [tensor], {"tag": name, "plugin_name": plugin_name, "plugin_content": plugin_content,
                                           "description": description or ""}, "TensorSummaryV2")
    writer._file.add_summary(s, step)
    return True


def _summary_image_v1(name, tensor, max_outputs=3, collections=None, family=None):
    return _summary_op("ImageSummary", name, tensor, collections, {"max_images": max_outputs})


def _summary_v2_data(kind, data, rank, layout, max_outputs):
    # TF2's image and audio summaries: the data as a tensor of the expected rank.
    data = convert_to_tensor(data)
    if data.shape.ndims is not None and data.shape.ndims != rank:
        raise ValueError("tf.summary.%s: `data` must have rank %d (%s), but has shape %s"
                         % (kind, rank, layout, data.shape))
    if max_outputs < 0:
        raise ValueError("tf.summary.%s: max_outputs must be non-negative, got %d" % (kind, max_outputs))
    return data


def _summary_image_v2(name, data, step=None, max_outputs=3, description=None):
    # TensorBoard's summary_v2.image: float data in [0, 1] scaled to uint8 (saturating, not
    # normalised), the first max_outputs images each encoded as a PNG, written as the string
    # tensor [width, height, png...] for the images plugin.
    if _summary_state.get("writer") is None:
        return False
    data = _summary_v2_data("image", data, 4, "[k, height, width, channels]", max_outputs)
    images = _convert_image_dtype(data, uint8, saturate=True)[:max_outputs]
    dims = images.shape.as_list() if images.shape.ndims is not None else [None] * 4
    if None in dims:
        return True  # the language server's abstract values: nothing is encoded or written
    encoded = [image.encode_png(images[i]) for i in _range(dims[0])]
    tensor = constant([str(dims[2]), str(dims[1])])
    if encoded:
        tensor = concat([tensor, stack(encoded)], 0)
    return _write_tensor_summary(name, tensor, "images", description, step)


def _summary_image(*args, **kwargs):
    """tf.summary.image: TF1's (name, tensor, max_outputs=3, collections=None, family=None) in a
    graph, TF2's (name, data, step=None, max_outputs=3, description=None) eagerly."""
    if _tlens.style() != "graph":
        return _summary_image_v2(*args, **kwargs)
    return _summary_image_v1(*args, **kwargs)


def _summary_audio_v1(name, tensor, sample_rate, max_outputs=3, collections=None, family=None):
    return _summary_op("AudioSummaryV2", name, tensor, collections, {"max_outputs": max_outputs}, sample_rate)


def _summary_audio_v2(name, data, sample_rate, step=None, max_outputs=3, encoding=None, description=None):
    # TensorBoard's summary_v2.audio: the first max_outputs clips each encoded as a 16-bit WAV,
    # written as the string tensor [k, 2] of (wav, label "") pairs for the audio plugin, whose
    # metadata says the encoding (AudioPluginData.encoding = WAV, 11).
    if encoding is None:
        encoding = "wav"
    if encoding != "wav":
        raise ValueError("Unknown encoding: %r" % encoding)
    if _summary_state.get("writer") is None:
        return False
    data = _summary_v2_data("audio", data, 3, "[k, frames, channels]", max_outputs)
    clips = data[:max_outputs]
    dims = clips.shape.as_list() if clips.shape.ndims is not None else [None] * 3
    if None in dims:
        return True  # the language server's abstract values: nothing is encoded or written
    rate = convert_to_tensor(sample_rate if _tlens.is_tensor(sample_rate) else int(sample_rate), dtype=int32)
    encoded = [audio.encode_wav(clips[i], rate) for i in _range(dims[0])]
    if encoded:
        tensor = transpose(stack([stack(encoded), constant([""] * len(encoded))]))
    else:
        tensor = reshape(constant([], dtype=string), [0, 2])
    return _write_tensor_summary(name, tensor, "audio", description, step, "\x10\x0b")


def _summary_audio(*args, **kwargs):
    """tf.summary.audio: TF1's (name, tensor, sample_rate, max_outputs=3, collections=None,
    family=None) in a graph, TF2's (name, data, sample_rate, step=None, max_outputs=3,
    encoding=None, description=None) eagerly."""
    if _tlens.style() != "graph":
        return _summary_audio_v2(*args, **kwargs)
    return _summary_audio_v1(*args, **kwargs)


def _check_text(tensor):
    tensor = convert_to_tensor(tensor)
    if tensor.dtype != string:
        raise ValueError("Expected tensor %s to have dtype string, got %s" % (tensor.name, tensor.dtype.name))
    return tensor


def _summary_text_v1(name, tensor, collections=None):
    return _summary_op("TensorSummaryV2", name, _check_text(tensor), collections, {"plugin_name": "text"})


def _summary_text_v2(name, data, step=None, description=None):
    if _summary_state.get("writer") is None:
        return False
    return _write_tensor_summary(name, _check_text(data), "text", description, step)


def _summary_text(*args, **kwargs):
    """tf.summary.text: TF1's (name, tensor, collections=None) in a graph, TF2's (name, data,
    step=None, description=None) eagerly; the TensorBoard text plugin's string tensor summary."""
    if _tlens.style() != "graph":
        return _summary_text_v2(*args, **kwargs)
    return _summary_text_v1(*args, **kwargs)


def _summary_merge(inputs, collections=None, name=None):
    s = _op("MergeSummary", list(inputs), None, name)
    for key in (collections or []):
        add_to_collection(key, s)
    return s


def _summary_merge_all(key=GraphKeys.SUMMARIES, scope=None, name=None):
    items = get_collection(key, scope)
    return _summary_merge(items, name=name) if items else None


summary.FileWriter = _FileWriter
summary.scalar = _summary_scalar
summary.histogram = _summary_histogram
summary.merge = _summary_merge
summary.merge_all = _summary_merge_all
summary.create_file_writer = _SummaryWriter
summary.image = _summary_image
summary.audio = _summary_audio
summary.text = _summary_text
summary.experimental = _namespace("tensorflow.summary.experimental",
                                  set_step=lambda step: _summary_state.__setitem__("step", step),
                                  get_step=lambda: _summary_state.get("step"))
train.SummaryWriter = _FileWriter


def tensordot(a, b, axes, name=None):
    """tf.tensordot: contracts `axes` of a with those of b (transpose, reshape, matmul, reshape,
    as TensorFlow computes it), with the static shape of the result where it is known."""
    a = convert_to_tensor(a)
    b = convert_to_tensor(b, dtype=a.dtype)
    ra, rb = a.shape.ndims, b.shape.ndims
    if ra is None or rb is None:
        raise NotImplementedError("tensorlens: tf.tensordot of tensors of unknown rank")
    if isinstance(axes, int):
        if axes < 0:
            raise ValueError("'axes' must be at least 0.")
        a_axes = list(_range(ra - axes, ra))
        b_axes = list(_range(axes))
    else:
        a_axes, b_axes = axes[0], axes[1]
        a_axes = [a_axes] if isinstance(a_axes, int) else list(a_axes)
        b_axes = [b_axes] if isinstance(b_axes, int) else list(b_axes)
    a_axes = [x % ra if ra else x for x in a_axes]
    b_axes = [x % rb if rb else x for x in b_axes]
    if len(a_axes) != len(b_axes):
        raise ValueError("Different number of contraction axes 'a' and 'b', %d != %d." % (len(a_axes), len(b_axes)))
    a_shape, b_shape = a.shape.as_list(), b.shape.as_list()
    for i, j in zip(a_axes, b_axes):
        if a_shape[i] is not None and b_shape[j] is not None and a_shape[i] != b_shape[j]:
            raise ValueError("Dimension %d in both shapes must be equal, but are %d and %d for 'Tensordot' with input "
                             "shapes: %s, %s." % (i, a_shape[i], b_shape[j], TensorShape(a_shape), TensorShape(b_shape)))
    free_a = [i for i in _range(ra) if i not in a_axes]
    free_b = [i for i in _range(rb) if i not in b_axes]
    with name_scope(name, "Tensordot"):
        sa, sb = shape(a), shape(b)
        inner = 1
        for i in a_axes:
            inner = inner * sa[i]
        a2 = reshape(transpose(a, free_a + a_axes), stack([-1, inner]))
        b2 = reshape(transpose(b, b_axes + free_b), stack([inner, -1]))
        out = matmul(a2, b2)
        dims = [sa[i] for i in free_a] + [sb[i] for i in free_b]
        result = reshape(out, stack(dims) if dims else [])
        result.set_shape([a_shape[i] for i in free_a] + [b_shape[i] for i in free_b])
        return result


def linspace(start, stop, num, name=None, axis=0):
    start = convert_to_tensor(start)
    stop = convert_to_tensor(stop, dtype=start.dtype)
    with name_scope(name, "LinSpace"):
        n = cast(num, start.dtype)
        step = (stop - start) / maximum(n - 1, 1)
        return start + cast(range(0, num), start.dtype) * step


lin_space = linspace
arg_min = argmin
arg_max = argmax


class _App:
    """tf.app (TF1): flags and run()."""

    def run(self, main=None, argv=None):
        import sys as _sys
        main = main if main is not None else _sys.modules["__main__"].main
        _sys.exit(main(argv if argv is not None else _sys.argv))


app = _App()


class _FlagValues:
    """tf.app.flags.FLAGS (TF1, absl's flags): each DEFINE_* sets the default, overridden by
    `--name=value` / `--name value` / `--[no]name` (booleans) on the command line."""

    def __init__(self):
        self._defs = {}

    def _from_argv(self, name, kind):
        import sys as _sys
        argv = list(_sys.argv[1:])
        found = None
        i = 0
        while i < len(argv):
            a = argv[i]
            if a == "--":
                break
            if a.startswith("-"):
                key, eq, val = a.lstrip("-").partition("=")
                if key == name:
                    if eq:
                        found = (val,)
                    elif kind is _bool:
                        found = ("true",)
                    elif i + 1 < len(argv):
                        found = (argv[i + 1],)
                        i += 1
                    else:
                        raise ValueError("Flag --%s needs a value" % name)
                elif kind is _bool and key == "no" + name and not eq:
                    found = ("false",)
            i += 1
        return found

    def _convert(self, name, kind, val):
        try:
            if kind is _bool:
                if isinstance(val, str):
                    if val.lower() in ("true", "t", "1"):
                        return True
                    if val.lower() in ("false", "f", "0"):
                        return False
                    raise ValueError(val)
                return _bool(val)
            if kind is list:
                return val.split(",") if isinstance(val, str) else list(val)
            return kind(val)
        except ValueError:
            raise ValueError("flag --%s=%s: could not convert it to %s" % (name, val, kind.__name__))

    def __call__(self, argv):
        return list(argv)

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        raise AttributeError("Flag --%s is not defined." % name)

    def __contains__(self, name):
        return name in self._defs

    def flag_values_dict(self):
        return dict([(k, getattr(self, k)) for k in self._defs])


class _Flags:
    def __init__(self):
        self.FLAGS = _FlagValues()

    def _define(self, kind, name, default, help):
        F = self.FLAGS
        if name in F._defs:
            raise Exception("The flag '%s' is defined twice." % name)  # absl's DuplicateFlagError
        F._defs[name] = (kind, help)
        given = F._from_argv(name, kind)
        value = given[0] if given is not None else default
        setattr(F, name, None if value is None else F._convert(name, kind, value))

    def DEFINE_string(self, name, default, help=None, **kwargs):
        self._define(str, name, default, help)

    def DEFINE_integer(self, name, default, help=None, lower_bound=None, upper_bound=None, **kwargs):
        self._define(int, name, default, help)

    def DEFINE_float(self, name, default, help=None, lower_bound=None, upper_bound=None, **kwargs):
        self._define(float, name, default, help)

    def DEFINE_boolean(self, name, default, help=None, **kwargs):
        self._define(_bool, name, default, help)

    DEFINE_bool = DEFINE_boolean

    def DEFINE_list(self, name, default, help=None, **kwargs):
        self._define(list, name, default, help)

    def DEFINE_enum(self, name, default, enum_values, help=None, **kwargs):
        self._define(str, name, default, help)

    def mark_flag_as_required(self, name, flag_values=None):
        pass

    def mark_flags_as_required(self, names, flag_values=None):
        pass


flags = _Flags()
app.flags = flags


class _Logging:
    """tf.logging (TF1): absl-style messages on stderr, "INFO:tensorflow:..." at or above the
    verbosity (WARN by default)."""
    DEBUG = 10
    INFO = 20
    WARN = 30
    WARNING = 30
    ERROR = 40
    FATAL = 50

    def __init__(self):
        self._level = 30

    def set_verbosity(self, v):
        self._level = int(v)

    def get_verbosity(self):
        return self._level

    def log(self, level, msg, *args):
        if level >= self._level:
            import sys as _sys
            names = {10: "DEBUG", 20: "INFO", 30: "WARNING", 40: "ERROR", 50: "FATAL"}
            _sys.stderr.write("%s:tensorflow:%s\n" % (names.get(level, "INFO"), (msg % args) if args else msg))

    def debug(self, msg, *args):
        self.log(10, msg, *args)

    def info(self, msg, *args):
        self.log(20, msg, *args)

    def warning(self, msg, *args):
        self.log(30, msg, *args)

    warn = warning

    def error(self, msg, *args):
        self.log(40, msg, *args)

    def fatal(self, msg, *args):
        self.log(50, msg, *args)

    def log_every_n(self, level, msg, n, *args):
        self.log(level, msg, *args)

    def log_first_n(self, level, msg, n, *args):
        self.log(level, msg, *args)


logging = _Logging()


def get_logger():
    """tf.get_logger (TF 2): the standard library's logger named 'tensorflow'."""
    import logging as _std_logging
    return _std_logging.getLogger("tensorflow")


def einsum(equation, *inputs, **kwargs):
    """tf.einsum: each operand is transposed to a common index order, broadcast-multiplied, and
    the indices missing from the output are summed (no `...`, no repeated index in one operand)."""
    name = kwargs.get("name")
    eq = equation.replace(" ", "")
    if "..." in eq:
        raise NotImplementedError("tensorlens: tf.einsum with '...' is not supported")
    lhs, arrow, out = eq.partition("->")
    subs = lhs.split(",")
    if len(subs) != len(inputs):
        raise ValueError("Invalid equation: %s. Expected %d inputs, got %d" % (equation, len(subs), len(inputs)))
    counts = {}
    order = []
    for s in subs:
        if len(set(s)) != len(s):
            raise NotImplementedError("tensorlens: tf.einsum with a repeated index in one operand (%s) is not supported" % s)
        for c in s:
            if c not in counts:
                order.append(c)
                counts[c] = 0
            counts[c] += 1
    if not arrow:
        out = "".join(sorted([c for c in order if counts[c] == 1]))
    for c in out:
        if c not in counts:
            raise ValueError("Invalid equation: %s. Output subscript %s does not appear in the inputs" % (equation, c))
    full = list(out) + [c for c in order if c not in out]
    with name_scope(name, "einsum"):
        xs = [convert_to_tensor(x) for x in inputs]
        dt = xs[0].dtype
        prod = None
        for s, x in zip(subs, xs):
            if x.shape.ndims is not None and x.shape.ndims != len(s):
                raise ValueError("Input %s has rank %d, but the equation gives it %d indices (%s)" % (x.name, x.shape.ndims, len(s), s))
            present = [c for c in full if c in s]
            perm = [s.index(c) for c in present]
            if perm != list(_range(len(s))):
                x = transpose(x, perm)
            for k in _range(len(full)):
                if full[k] not in s:
                    x = expand_dims(x, k)
            prod = x if prod is None else prod * cast(x, dt)
        extra = list(_range(len(out), len(full)))
        return reduce_sum(prod, axis=extra) if extra else prod


class _GFile:
    """tf.gfile / tf.io.gfile on the local file system."""

    def __init__(self):
        self.GFile = open
        self.Open = open
        self.FastGFile = open

    def Exists(self, path):
        return _os.path.exists(path)

    def IsDirectory(self, path):
        return _os.path.isdir(path)

    def MakeDirs(self, path):
        _os.makedirs(path, exist_ok=True)

    def MkDir(self, path):
        _os.mkdir(path)

    def ListDirectory(self, path):
        return _os.listdir(path)

    def Remove(self, path):
        _os.remove(path)

    def Glob(self, pattern):
        import glob as _glob
        return _glob.glob(pattern)

    exists = Exists
    isdir = IsDirectory
    makedirs = MakeDirs
    mkdir = MkDir
    listdir = ListDirectory
    remove = Remove
    glob = Glob


gfile = _GFile()


def matrix_determinant(input, name=None):
    return _op("MatrixDeterminant", [input], None, name)


def matrix_inverse(input, adjoint=False, name=None):
    return _op("MatrixInverse", [input], {"adjoint": adjoint}, name)


linalg.det = matrix_determinant
linalg.inv = matrix_inverse
linalg.diag = diag
linalg.tensordot = tensordot


def unique(x, out_idx=int32, name=None):
    y, idx = _op("Unique", [x], {"out_idx": out_idx}, name)
    return y, idx


# --- ops with kernels of their own: top_k, sort, cumsum, gather_nd/scatter, segments -----------
# (one block, appended: each wrapper calls one registry op, or composes them as TensorFlow does)
class _TopKV2:
    """(values, indices), as TensorFlow's namedtuple: unpackable, indexable, fetchable."""

    _fields = ("values", "indices")

    def __init__(self, values, indices):
        self.values = values
        self.indices = indices

    def __iter__(self):
        return iter((self.values, self.indices))

    def __len__(self):
        return 2

    def __getitem__(self, i):
        return (self.values, self.indices)[i]

    def __repr__(self):
        return "TopKV2(values=%r, indices=%r)" % (self.values, self.indices)


def top_k(input, k=1, sorted=True, name=None):
    values, indices = _op("TopKV2", [input, k], {"sorted": sorted}, name)
    return _TopKV2(values, indices)


def in_top_k(predictions, targets, k, name=None):
    # TF1's order is (predictions, targets, k); TF2's tf.math.in_top_k is (targets, predictions, k).
    # The two are told apart by dtype: predictions are float32, targets int32/int64.
    p, t = convert_to_tensor(predictions), convert_to_tensor(targets)
    if p.dtype.is_integer and t.dtype.is_floating:
        p, t = t, p
    return _op("InTopKV2", [p, t, k], None, name)


def _in_top_k_v2(targets, predictions, k, name=None):
    return in_top_k(predictions, targets, k, name)


def _last_axis_perm(x, axis):
    # The permutation that swaps `axis` with the last one (its own inverse), or None.
    r = x.shape.ndims
    if r is None:
        if axis == -1:
            return None
        raise NotImplementedError("tensorlens: sort and argsort along axis %d of a tensor of unknown rank" % (axis,))
    a = axis + r if axis < 0 else axis
    if a < 0 or a >= r:
        raise ValueError("axis %d is out of bounds for a tensor of rank %d" % (axis, r))
    if a == r - 1:
        return None
    perm = list(_range(r))
    perm[a], perm[r - 1] = perm[r - 1], perm[a]
    return perm


def _sort_or_argsort(values, axis, direction, return_argsort):
    if direction not in ("ASCENDING", "DESCENDING"):
        raise ValueError('Unknown direction "%s"' % (direction,))
    x = convert_to_tensor(values)
    perm = _last_axis_perm(x, axis)
    if perm is not None:
        x = transpose(x, perm)
    n = shape(x)[-1]
    ascending = direction == "ASCENDING"
    if ascending:
        x = negative(x)  # the largest of -x first; ties keep the lower index first
    vals, idx = top_k(x, n)
    out = idx if return_argsort else (negative(vals) if ascending else vals)
    if perm is not None:
        out = transpose(out, perm)
    return out


def sort(values, axis=-1, direction="ASCENDING", name=None):
    with name_scope(name, "sort"):
        return _sort_or_argsort(values, axis, direction, False)


def argsort(values, axis=-1, direction="ASCENDING", stable=False, name=None):
    with name_scope(name, "argsort"):
        return _sort_or_argsort(values, axis, direction, True)


def cumsum(x, axis=0, exclusive=False, reverse=False, name=None):
    return _op("Cumsum", [x, axis], {"exclusive": exclusive, "reverse": reverse}, name)


def cumprod(x, axis=0, exclusive=False, reverse=False, name=None):
    return _op("Cumprod", [x, axis], {"exclusive": exclusive, "reverse": reverse}, name)


def _reduce_variance(input_tensor, axis=None, keepdims=False, name=None):
    with name_scope(name, "reduce_variance"):
        x = convert_to_tensor(input_tensor)
        if not x.dtype.is_floating:
            raise TypeError("Input must be either real or complex. Received integer type %s." % x.dtype.name)
        means = reduce_mean(x, axis, keepdims=True)
        return reduce_mean(square(x - means), axis, keepdims=keepdims)


def _reduce_std(input_tensor, axis=None, keepdims=False, name=None):
    with name_scope(name, "reduce_std"):
        return sqrt(_reduce_variance(input_tensor, axis, keepdims))


def repeat(input, repeats, axis=None, name=None):
    """tf.repeat: each element (or slice along axis) repeated; repeats a number or one count per
    element, known when the graph is built."""
    with name_scope(name, "Repeat"):
        x = convert_to_tensor(input)
        if axis is None:
            x = reshape(x, [-1])
            axis = 0
        counts = repeats if isinstance(repeats, int) else get_static_value(convert_to_tensor(repeats))
        if counts is None:
            raise NotImplementedError("tensorlens: tf.repeat with repeats known only when the graph runs")
        rank = x.shape.ndims
        if axis < 0:
            axis += rank
        n = x.shape.as_list()[axis]
        counts = [int(counts)] * n if isinstance(counts, int) or getattr(counts, "ndim", 1) == 0 else [int(c) for c in list(counts)]
        if n is not None and len(counts) != n:
            raise InvalidArgumentError(None, None, "Dimensions must be equal, but are %d and %d for 'Repeat' with repeats of length %d" % (len(counts), n, len(counts)))
        index = []
        for i in _range(len(counts)):
            index.extend([i] * counts[i])
        return gather(x, constant(index, int32), axis=axis)


def gather_nd(params, indices, name=None, batch_dims=0):
    if batch_dims != 0:
        raise NotImplementedError("tensorlens: gather_nd with batch_dims != 0")
    return _op("GatherNd", [params, indices], None, name)


def scatter_nd(indices, updates, shape, name=None):
    return _op("ScatterNd", [indices, updates, shape], None, name)


def _like(value, ref):
    # Python numbers and lists take the dtype of the tensor or variable they update.
    if _tlens.is_tensor(value):
        return value
    return convert_to_tensor(value, dtype=ref.dtype)


def tensor_scatter_nd_update(tensor, indices, updates, name=None):
    t = convert_to_tensor(tensor)
    return _op("TensorScatterUpdate", [t, indices, _like(updates, t)], None, name)


def tensor_scatter_nd_add(tensor, indices, updates, name=None):
    t = convert_to_tensor(tensor)
    return _op("TensorScatterAdd", [t, indices, _like(updates, t)], None, name)


tensor_scatter_update = tensor_scatter_nd_update
tensor_scatter_add = tensor_scatter_nd_add


def scatter_update(ref, indices, updates, use_locking=True, name=None):
    return _op("ScatterUpdate", [ref, indices, _like(updates, ref)], {"use_locking": use_locking}, name)


def scatter_add(ref, indices, updates, use_locking=False, name=None):
    return _op("ScatterAdd", [ref, indices, _like(updates, ref)], {"use_locking": use_locking}, name)


def scatter_sub(ref, indices, updates, use_locking=False, name=None):
    return _op("ScatterSub", [ref, indices, _like(updates, ref)], {"use_locking": use_locking}, name)


def unsorted_segment_sum(data, segment_ids, num_segments, name=None):
    return _op("UnsortedSegmentSum", [data, segment_ids, num_segments], None, name)


def segment_sum(data, segment_ids, name=None):
    return _op("SegmentSum", [data, segment_ids], None, name)


def segment_mean(data, segment_ids, name=None):
    return _op("SegmentMean", [data, segment_ids], None, name)


def segment_max(data, segment_ids, name=None):
    return _op("SegmentMax", [data, segment_ids], None, name)


nn.top_k = top_k
nn.in_top_k = in_top_k
math.top_k = top_k
math.in_top_k = _in_top_k_v2
math.cumsum = cumsum
math.cumprod = cumprod
math.unsorted_segment_sum = unsorted_segment_sum
math.segment_sum = segment_sum
math.segment_mean = segment_mean
math.segment_max = segment_max
def _divide_no_nan(x, y, name=None):
    with name_scope(name, "div_no_nan"):
        x = convert_to_tensor(x)
        y = convert_to_tensor(y, dtype=x.dtype)
        zero = zeros_like(y)
        safe = where(equal(y, zero), ones_like(y), y)
        return where(equal(y, zero), zeros_like(x / safe), x / safe)


math.divide_no_nan = _divide_no_nan
div_no_nan = _divide_no_nan
math.reduce_variance = _reduce_variance
math.reduce_std = _reduce_std


def _lrn(input, depth_radius=5, bias=1, alpha=1, beta=0.5, name=None):
    return _op("LRN", [input], {"depth_radius": depth_radius, "bias": float(bias), "alpha": float(alpha),
                                "beta": float(beta)}, name)


def _rate_dilations(rate, dilations):
    if dilations is not None:
        return _four(dilations, "dilations")
    if rate is None:
        return [1, 1, 1, 1]
    return _four(rate, "dilations")


def _depthwise_conv2d(input, filter, strides, padding, rate=None, name=None, data_format=None, dilations=None):
    attrs = {"strides": _four(strides, "strides"), "padding": padding,
             "data_format": "NHWC" if data_format is None else data_format,
             "dilations": _rate_dilations(rate, dilations)}
    return _op("DepthwiseConv2dNative", [input, filter], attrs, name, True)


def _separable_conv2d(input, depthwise_filter, pointwise_filter, strides, padding, rate=None, name=None,
                      data_format=None, dilations=None):
    with name_scope(name, "separable_conv2d"):
        d = _depthwise_conv2d(input, depthwise_filter, strides, padding, rate, "depthwise", data_format, dilations)
        return _conv2d(d, pointwise_filter, [1, 1, 1, 1], "VALID", name="pointwise")


def _conv2d_transpose(value=None, filter=None, output_shape=None, strides=None, padding="SAME", data_format="NHWC",
                      name=None, input=None, filters=None, dilations=None):
    value = input if value is None else value
    filter = filters if filter is None else filter
    value, filter = convert_to_tensor(value), convert_to_tensor(filter)
    axis = 3 if data_format == "NHWC" else 1
    vs, fs = value.shape, filter.shape
    if vs.ndims == 4 and fs.ndims == 4 and vs[axis] is not None and fs[3] is not None and vs[axis] != fs[3]:
        raise ValueError("input channels does not match filter's input channels, %s != %s" % (vs[axis], fs[3]))
    if not _tlens.is_tensor(output_shape):
        output_shape = list(output_shape)
        if len(output_shape) != 4:
            raise ValueError("output_shape must have shape (4,), got (%d,)" % len(output_shape))
        oc = output_shape[axis]
        if fs.ndims == 4 and fs[2] is not None and isinstance(oc, int) and oc != fs[2]:
            raise ValueError("output_shape does not match filter's output channels, %s != %s" % (oc, fs[2]))
    attrs = {"strides": _four(strides, "strides"), "padding": padding, "data_format": data_format}
    if dilations is not None:
        attrs["dilations"] = _four(dilations, "dilations")
    with name_scope(name, "conv2d_transpose"):
        return _op("Conv2DBackpropInput", [output_shape, filter, value], attrs, None)


def _atrous_conv2d(value, filters, rate, padding, name=None):
    if rate < 1:
        raise ValueError("rate %s should be greater than or equal to 1" % (rate,))
    return _op("Conv2D", [value, filters], {"strides": [1, 1, 1, 1], "padding": padding, "data_format": "NHWC",
                                            "dilations": [1, rate, rate, 1]}, name, True)


nn.lrn = _lrn
nn.local_response_normalization = _lrn
nn.depthwise_conv2d = _depthwise_conv2d
nn.depthwise_conv2d_native = _depthwise_conv2d
nn.separable_conv2d = _separable_conv2d
nn.conv2d_transpose = _conv2d_transpose
nn.atrous_conv2d = _atrous_conv2d


# The convolutions' gradient ops as TF1 exposes them (the registry's api names for
# Conv2DBackprop* and DepthwiseConv2dNativeBackprop*; tests/tf/ApiNamesTests.cpp).
def _conv_attrs(strides, padding, data_format, dilations):
    return {"strides": _four(strides, "strides"), "padding": padding, "data_format": data_format,
            "dilations": _four(dilations, "dilations")}


def _conv2d_backprop_filter(input, filter_sizes, out_backprop, strides, padding, use_cudnn_on_gpu=True,
                            data_format="NHWC", dilations=[1, 1, 1, 1], name=None):
    return _op("Conv2DBackpropFilter", [input, filter_sizes, out_backprop],
               _conv_attrs(strides, padding, data_format, dilations), name)


def _conv2d_backprop_input(input_sizes, filter=None, out_backprop=None, strides=None, padding=None,
                           use_cudnn_on_gpu=True, data_format="NHWC", dilations=[1, 1, 1, 1], name=None, filters=None):
    filter = filters if filter is None else filter
    return _op("Conv2DBackpropInput", [input_sizes, filter, out_backprop],
               _conv_attrs(strides, padding, data_format, dilations), name)


def _depthwise_conv2d_backprop_filter(input, filter_sizes, out_backprop, strides, padding, data_format="NHWC",
                                      dilations=[1, 1, 1, 1], name=None):
    return _op("DepthwiseConv2dNativeBackpropFilter", [input, filter_sizes, out_backprop],
               _conv_attrs(strides, padding, data_format, dilations), name)


def _depthwise_conv2d_backprop_input(input_sizes, filter, out_backprop, strides, padding, data_format="NHWC",
                                     dilations=[1, 1, 1, 1], name=None):
    return _op("DepthwiseConv2dNativeBackpropInput", [input_sizes, filter, out_backprop],
               _conv_attrs(strides, padding, data_format, dilations), name)


def _fused_batch_norm(x, scale, offset, mean=None, variance=None, epsilon=0.001, data_format="NHWC",
                      is_training=True, name=None, exponential_avg_factor=1.0):
    # TensorFlow's wrapper: empty statistics in training (the batch's are used), both required
    # otherwise; epsilon at least cuDNN's minimum; returns (y, batch or running mean, variance).
    if mean is None or variance is None:
        if not is_training or exponential_avg_factor != 1.0:
            raise ValueError("Both 'mean' and 'variance' must be a 1D tensor when is_training is False "
                             "or exponential_avg_factor != 1.0.")
        mean = constant([], float32)
        variance = constant([], float32)
    outs = _op("FusedBatchNormV3", [x, scale, offset, mean, variance],
               {"epsilon": max(epsilon, 1.001e-5), "exponential_avg_factor": exponential_avg_factor,
                "data_format": data_format, "is_training": is_training}, name)
    return outs[0], outs[1], outs[2]


nn.conv2d_backprop_filter = _conv2d_backprop_filter
nn.conv2d_backprop_input = _conv2d_backprop_input
nn.depthwise_conv2d_backprop_filter = _depthwise_conv2d_backprop_filter
nn.depthwise_conv2d_backprop_input = _depthwise_conv2d_backprop_input
nn.fused_batch_norm = _fused_batch_norm
invert_permutation = math.invert_permutation


# tf.raw_ops: every registry op by its type, keyword arguments only, as TensorFlow generates them;
# derived from the registry (_tlens.op_signature), so it declares no name of its own.
class _RawOps:
    def __init__(self):
        self.__name__ = "tensorflow.raw_ops"

    def __getattr__(self, op_type):
        sig = None if op_type.startswith("_") else _tlens.op_signature(op_type)
        if sig is None:
            raise AttributeError("module 'tensorflow.raw_ops' has no attribute '%s'" % op_type)
        return _raw_op(op_type, sig[0], sig[1])


def _raw_op(op_type, inputs, attrs):
    def raw_op(*args, **kwargs):
        if args:
            raise TypeError("raw_ops.%s(...) only takes keyword args (possible keys: %s). Please pass these args "
                            "as kwargs instead." % (op_type, [n for n, _ in inputs] + attrs + ["name"]))
        name = kwargs.pop("name", None)
        values = []
        for input_name, variadic in inputs:
            if input_name not in kwargs:
                raise TypeError("%s missing required argument: '%s'" % (op_type, input_name))
            if variadic:
                values.extend(kwargs.pop(input_name))
            else:
                values.append(kwargs.pop(input_name))
        for k in kwargs:
            if k not in attrs:
                raise TypeError("%s got an unexpected keyword argument '%s'" % (op_type, k))
        return _op(op_type, values, kwargs, name)
    return raw_op


raw_ops = _RawOps()


def multinomial(logits, num_samples, seed=None, name=None, output_dtype=None):
    return _op("Multinomial", [logits, num_samples], {"seed": 0 if seed is None else seed,
                                                      "output_dtype": int64 if output_dtype is None else output_dtype},
               name)


def _categorical(logits, num_samples, dtype=None, seed=None, name=None):
    return multinomial(logits, num_samples, seed, name, dtype)


def random_shuffle(value, seed=None, name=None):
    return _op("RandomShuffle", [value], {"seed": 0 if seed is None else seed}, name)


random.categorical = _categorical
random.multinomial = multinomial
random.shuffle = random_shuffle


class _ResizeMethod:
    BILINEAR = "bilinear"
    NEAREST_NEIGHBOR = "nearest"
    BICUBIC = "bicubic"
    AREA = "area"
    LANCZOS3 = "lanczos3"
    LANCZOS5 = "lanczos5"
    GAUSSIAN = "gaussian"
    MITCHELLCUBIC = "mitchellcubic"


_resize_methods_v1 = {0: "bilinear", 1: "nearest", 2: "bicubic", 3: "area"}


def _resize(images, size, method, align_corners, half_pixel_centers, v1, name):
    method = _resize_methods_v1.get(method, method) if isinstance(method, int) else method
    with name_scope(name, "resize"):
        images = convert_to_tensor(images)
        r = images.shape.ndims
        if r is None:
            raise ValueError("'images' contains no shape.")
        if r not in (3, 4):
            raise ValueError("'images' must have either 3 or 4 dimensions.")
        if r == 3:
            images = expand_dims(images, 0)
        if not _tlens.is_tensor(size):
            size = list(size)
            if len(size) != 2:
                raise ValueError("'size' must be a 1-D Tensor of 2 elements: new_height, new_width")
        size = convert_to_tensor(size, dtype=int32)
        attrs = {"align_corners": align_corners, "half_pixel_centers": half_pixel_centers}
        if method == "bilinear":
            out = _op("ResizeBilinear", [images, size], attrs)
        elif method == "nearest":
            out = _op("ResizeNearestNeighbor", [images, size], attrs)
        else:
            raise NotImplementedError("tensorlens: tf.image.resize with method '%s'" % (method,))
        if not v1 and method == "bilinear" and out.dtype != float32:
            out = cast(out, float32)
        if r == 3:
            out = squeeze(out, [0])
        return out


def _resize_images(images, size, method=0, align_corners=False, preserve_aspect_ratio=False, name=None):
    if preserve_aspect_ratio:
        raise NotImplementedError("tensorlens: resize_images with preserve_aspect_ratio=True")
    return _resize(images, size, method, align_corners, False, True, name)


def _resize_v2(images, size, method="bilinear", preserve_aspect_ratio=False, antialias=False, name=None):
    if preserve_aspect_ratio:
        raise NotImplementedError("tensorlens: tf.image.resize with preserve_aspect_ratio=True")
    return _resize(images, size, method, False, True, False, name)


def _resize_bilinear(images, size, align_corners=False, name=None, half_pixel_centers=False):
    return _resize(images, size, "bilinear", align_corners, half_pixel_centers, True, name)


def _resize_nearest_neighbor(images, size, align_corners=False, name=None, half_pixel_centers=False):
    return _resize(images, size, "nearest", align_corners, half_pixel_centers, True, name)


def _image_rank(image):
    image = convert_to_tensor(image)
    r = image.shape.ndims
    if r is None:
        raise ValueError("'image' (shape %s) must have either 3 or 4 dimensions." % (image.shape,))
    if r not in (3, 4):
        raise ValueError("'image' (shape %s) must have either 3 or 4 dimensions." % (image.shape,))
    return image, r


def _flip_left_right(image):
    image, r = _image_rank(image)
    return reverse(image, [r - 2])


def _flip_up_down(image):
    image, r = _image_rank(image)
    return reverse(image, [r - 3])


def _random_flip(image, seed, flip):
    image, r = _image_rank(image)
    with name_scope(None, "random_flip"):
        u = random_uniform([] if r == 3 else [shape(image)[0], 1, 1, 1], 0, 1.0, seed=seed)
        return where_v2(less(u, 0.5), flip(image), image)


def _random_flip_left_right(image, seed=None):
    return _random_flip(image, seed, _flip_left_right)


def _random_flip_up_down(image, seed=None):
    return _random_flip(image, seed, _flip_up_down)


def _per_image_standardization(image):
    image, r = _image_rank(image)
    with name_scope(None, "per_image_standardization"):
        if image.dtype != float32 and image.dtype != float64 and image.dtype != float16:
            image = cast(image, float32)
        axes = [-1, -2, -3]
        num_pixels = cast(reduce_prod(shape(image)[-3:]), image.dtype)
        mean = reduce_mean(image, axes, keepdims=True)
        stddev = sqrt(reduce_mean(square(subtract(image, mean)), axes, keepdims=True))
        adjusted = maximum(stddev, rsqrt(num_pixels))
        return divide(subtract(image, mean), adjusted)


_image_max = {"uint8": 255, "int32": 2147483647, "int64": 9223372036854775807, "int16": 32767}


def _convert_image_dtype(image, dtype, saturate=False, name=None):
    image = convert_to_tensor(image)
    dtype = as_dtype(dtype)
    if image.dtype == dtype:
        return identity(image, name=name)
    with name_scope(name, "convert_image"):
        src_int, dst_int = not image.dtype.is_floating, not dtype.is_floating
        if src_int and dst_int:
            return cast(divide(cast(image, float64), float(_image_max[image.dtype.name])) * _image_max[dtype.name], dtype)
        if src_int:
            return multiply(cast(image, dtype), 1.0 / _image_max[image.dtype.name])
        if dst_int:
            scale = _image_max[dtype.name] + 0.5
            scaled = multiply(image, scale)
            if saturate:
                scaled = clip_by_value(scaled, 0.0 if dtype.name == "uint8" else -scale, float(_image_max[dtype.name]))
            return cast(scaled, dtype)
        return cast(image, dtype)


def random_crop(value, size, seed=None, name=None):
    with name_scope(name, "random_crop"):
        value = convert_to_tensor(value)
        if not _tlens.is_tensor(size):
            size = list(size)
            vs = value.shape
            if vs.ndims is not None:
                if len(size) != vs.ndims:
                    raise ValueError("Shapes must be equal rank, but are %d and %d" % (vs.ndims, len(size)))
                for d, s in zip(vs.as_list(), size):
                    if d is not None and isinstance(s, int) and s > d:
                        raise ValueError("Need value.shape >= size, got %s %s" % (vs.as_list(), size))
        size = convert_to_tensor(size, dtype=int32)
        limit = add(subtract(shape(value), size), 1)
        u = random_uniform(shape(size), 0, 1.0, seed=seed)
        offset = cast(floor(multiply(u, cast(limit, float32))), int32)
        return slice(value, offset, size)


image.ResizeMethod = _ResizeMethod
image.resize_images = _resize_images
image.resize = _resize_v2
image.resize_bilinear = _resize_bilinear
image.resize_nearest_neighbor = _resize_nearest_neighbor
image.flip_left_right = _flip_left_right
image.flip_up_down = _flip_up_down
image.random_flip_left_right = _random_flip_left_right
image.random_flip_up_down = _random_flip_up_down
image.per_image_standardization = _per_image_standardization
image.convert_image_dtype = _convert_image_dtype


def _encode_png(image, compression=-1, name=None):
    return _op("EncodePng", [convert_to_tensor(image)], {"compression": compression}, name)


image.encode_png = _encode_png


def _decode_png(contents, channels=0, dtype=uint8, name=None):
    return _op("DecodePng", [convert_to_tensor(contents, dtype=string)], {"channels": channels, "dtype": dtype}, name)


image.decode_png = _decode_png


def _encode_wav(audio, sample_rate, name=None):
    return _op("EncodeWav", [convert_to_tensor(audio), convert_to_tensor(sample_rate, dtype=int32)], None, name)


audio = _namespace("tensorflow.audio", encode_wav=_encode_wav)
image.random_crop = random_crop
random.crop = random_crop


def atan2(y, x, name=None):
    return _op("Atan2", [y, x], None, name, True)


def matrix_band_part(input, num_lower, num_upper, name=None):
    return _op("MatrixBandPart", [input, convert_to_tensor(num_lower, dtype=int64),
                                  convert_to_tensor(num_upper, dtype=int64)], None, name)


def matrix_diag(diagonal, name=None, k=0, num_rows=-1, num_cols=-1, padding_value=0, align="RIGHT_LEFT"):
    if k != 0 or num_rows != -1 or num_cols != -1 or padding_value != 0:
        raise NotImplementedError("tensorlens: tf.linalg.diag with k, num_rows, num_cols or padding_value")
    return _op("MatrixDiag", [diagonal], None, name)


def matrix_diag_part(input, name=None, k=0, padding_value=0, align="RIGHT_LEFT"):
    if k != 0:
        raise NotImplementedError("tensorlens: tf.linalg.diag_part with k != 0")
    return _op("MatrixDiagPart", [input], None, name)


def matrix_set_diag(input, diagonal, name=None, k=0, align="RIGHT_LEFT"):
    if k != 0:
        raise NotImplementedError("tensorlens: tf.linalg.set_diag with k != 0")
    t = convert_to_tensor(input)
    return _op("MatrixSetDiag", [t, _like(diagonal, t)], None, name)


def matrix_transpose(a, name="matrix_transpose", conjugate=False):
    a = convert_to_tensor(a)
    r = a.shape.ndims
    if r is None:
        raise ValueError("tensorlens: matrix_transpose needs a tensor of known rank")
    if r < 2:
        raise ValueError("Argument 'a' should be a (batch) matrix with rank >= 2.  Found: %s" % (a.shape,))
    return transpose(a, list(_range(r - 2)) + [r - 1, r - 2], name=name)


def bincount(arr, weights=None, minlength=None, maxlength=None, dtype=int32, name=None, axis=None,
             binary_output=False):
    with name_scope(name, "bincount"):
        arr = convert_to_tensor(arr, dtype=int32)
        n = size(arr)
        output_size = multiply(cast(greater(n, 0), int32), add(reduce_max(arr), 1))
        if minlength is not None:
            output_size = maximum(minlength, output_size)
        if maxlength is not None:
            output_size = minimum(maxlength, output_size)
        if weights is None:
            w = zeros([0], dtype=dtype)
        else:
            w = convert_to_tensor(weights)
        return _op("Bincount", [reshape(arr, [-1]), output_size, reshape(w, [-1]) if weights is not None else w])


math.atan2 = atan2
math.bincount = bincount
linalg.band_part = matrix_band_part
linalg.diag = matrix_diag
linalg.diag_part = matrix_diag_part
linalg.set_diag = matrix_set_diag
linalg.matrix_transpose = matrix_transpose
linalg.adjoint = matrix_transpose

# Elementwise functions TF1 has at the top level and in tf.math (math_ops / gen_math_ops).
tan = _unary("Tan")
asin = _unary("Asin")
acos = _unary("Acos")
atan = _unary("Atan")
sinh = _unary("Sinh")
cosh = _unary("Cosh")
asinh = _unary("Asinh")
acosh = _unary("Acosh")
atanh = _unary("Atanh")
expm1 = _unary("Expm1")
for _n in ["tan", "asin", "acos", "atan", "sinh", "cosh", "asinh", "acosh", "atanh", "expm1"]:
    setattr(math, _n, globals()[_n])


# Matrix decompositions and solves (linalg_ops.py; TF1's top-level names beside tf.linalg's).
def cholesky(input, name=None):
    return _op("Cholesky", [input], None, name)


def matrix_solve(matrix, rhs, adjoint=False, name=None):
    return _op("MatrixSolve", [matrix, rhs], {"adjoint": adjoint}, name)


def self_adjoint_eig(tensor, name=None):
    e, v = _op("SelfAdjointEigV2", [tensor], {"compute_v": True}, name)
    return e, v


def self_adjoint_eigvals(tensor, name=None):
    return _op("SelfAdjointEigV2", [tensor], {"compute_v": False}, name)[0]


def qr(input, full_matrices=False, name=None):
    q, r = _op("Qr", [input], {"full_matrices": full_matrices}, name)
    return q, r


def svd(tensor, full_matrices=False, compute_uv=True, name=None):
    s, u, v = _op("Svd", [tensor], {"compute_uv": compute_uv, "full_matrices": full_matrices}, name)
    return (s, u, v) if compute_uv else s


def cross(a, b, name=None):
    # gen_math_ops.cross: same shapes, innermost dimension 3 (Cross's shape function).
    a = convert_to_tensor(a)
    b = convert_to_tensor(b, dtype=a.dtype)
    sa, sb = a.shape, b.shape
    if sa.ndims is not None and sb.ndims is not None and sa.is_compatible_with(sb) is False:
        raise ValueError("Dimensions must be equal, but are %s and %s for 'Cross' with input shapes: %s, %s." %
                         (sa, sb, sa, sb))
    if sa.ndims is not None and (sa.ndims < 1 or (sa[-1] is not None and sa[-1] != 3)):
        raise ValueError("Dimension must be 3 but is %s for 'Cross' with input shapes: %s, %s." %
                         (sa[-1] if sa.ndims else 0, sa, sb))
    with name_scope(name, "Cross"):
        a0, a1, a2 = unstack(a, 3, axis=-1)
        b0, b1, b2 = unstack(b, 3, axis=-1)
        return stack([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0], axis=-1)


def trace(x, name=None):
    with name_scope(name, "Trace"):
        return reduce_sum(matrix_diag_part(x), [-1])


linalg.cholesky = cholesky
linalg.solve = matrix_solve
linalg.eigh = self_adjoint_eig
linalg.eigvalsh = self_adjoint_eigvals
linalg.qr = qr
linalg.svd = svd
linalg.cross = cross
linalg.trace = trace
linalg.l2_normalize = nn.l2_normalize


def dynamic_partition(data, partitions, num_partitions, name=None):
    out = _op("DynamicPartition", [data, partitions], {"num_partitions": num_partitions}, name)
    return list(out) if isinstance(out, _tuple) else [out]


def dynamic_stitch(indices, data, name=None):
    indices, data = list(indices), list(data)
    if len(indices) != len(data):
        raise ValueError("List argument 'data' to 'DynamicStitch' Op with length %d must match length %d of "
                         "argument 'indices'." % (len(data), len(indices)))
    return _op("DynamicStitch", indices + data, {"N": len(indices)}, name)


parallel_dynamic_stitch = dynamic_stitch


def _adjust_brightness(image, delta):
    image = convert_to_tensor(image)
    with name_scope(None, "adjust_brightness"):
        if image.dtype.is_floating:
            return add(image, cast(delta, image.dtype))
        return _convert_image_dtype(add(_convert_image_dtype(image, float32), delta), image.dtype, saturate=True)


def _adjust_contrast(images, contrast_factor):
    images = convert_to_tensor(images)
    with name_scope(None, "adjust_contrast"):
        x = images if images.dtype.is_floating else _convert_image_dtype(images, float32)
        mean = reduce_mean(x, [-3, -2], keepdims=True)
        out = add(multiply(subtract(x, mean), cast(contrast_factor, x.dtype)), mean)
        return out if images.dtype.is_floating else _convert_image_dtype(out, images.dtype, saturate=True)


def _random_brightness(image, max_delta, seed=None):
    if max_delta < 0:
        raise ValueError("max_delta must be non-negative.")
    return _adjust_brightness(image, random_uniform([], -max_delta, max_delta, seed=seed))


def _random_contrast(image, lower, upper, seed=None):
    if upper <= lower:
        raise ValueError("upper must be > lower.")
    if lower < 0:
        raise ValueError("lower must be non-negative.")
    return _adjust_contrast(image, random_uniform([], lower, upper, seed=seed))


def _resize_with_crop_or_pad(image, target_height, target_width):
    image, r = _image_rank(image)
    dims = image.shape.as_list()
    h, w = dims[r - 3], dims[r - 2]
    if h is None or w is None:
        raise NotImplementedError("tensorlens: resize_image_with_crop_or_pad needs a known height and width")
    if target_height <= 0:
        raise ValueError("target_height must be > 0.")
    if target_width <= 0:
        raise ValueError("target_width must be > 0.")
    with name_scope(None, "resize_image_with_crop_or_pad"):
        ch, cw = min(h, target_height), min(w, target_width)
        begin = [0] * r
        size = [-1] * r
        begin[r - 3], begin[r - 2] = (h - ch) // 2, (w - cw) // 2
        size[r - 3], size[r - 2] = ch, cw
        out = slice(image, begin, size)
        pads = [[0, 0] for _ in _range(r)]
        top, left = (target_height - ch) // 2, (target_width - cw) // 2
        pads[r - 3] = [top, target_height - ch - top]
        pads[r - 2] = [left, target_width - cw - left]
        return pad(out, pads)


def _central_crop(image, central_fraction):
    if central_fraction <= 0.0 or central_fraction > 1.0:
        raise ValueError("central_fraction must be within (0, 1]")
    image, r = _image_rank(image)
    if central_fraction == 1.0:
        return image
    dims = image.shape.as_list()
    h, w = dims[r - 3], dims[r - 2]
    if h is None or w is None:
        raise NotImplementedError("tensorlens: central_crop needs a known height and width")
    top = int((h - h * central_fraction) / 2)
    left = int((w - w * central_fraction) / 2)
    begin = [0] * r
    size = [-1] * r
    begin[r - 3], begin[r - 2] = top, left
    size[r - 3], size[r - 2] = h - 2 * top, w - 2 * left
    return slice(image, begin, size)


image.adjust_brightness = _adjust_brightness
image.adjust_contrast = _adjust_contrast
image.random_brightness = _random_brightness
image.random_contrast = _random_contrast
image.resize_image_with_crop_or_pad = _resize_with_crop_or_pad
image.resize_with_crop_or_pad = _resize_with_crop_or_pad
image.central_crop = _central_crop


def unsorted_segment_mean(data, segment_ids, num_segments, name=None):
    # TensorFlow's composite: the segment sums over the segment sizes (at least 1).
    with name_scope(name, "UnsortedSegmentMean"):
        data, ids = convert_to_tensor(data), convert_to_tensor(segment_ids)
        if data.shape.ndims is None or ids.shape.ndims is None:
            raise NotImplementedError("tensorlens: unsorted_segment_mean needs data and segment_ids of known rank")
        n = unsorted_segment_sum(ones_like(ids, dtype=data.dtype), ids, num_segments)
        n = reshape(maximum(n, 1), concat([shape(n), ones([data.shape.ndims - ids.shape.ndims], int32)], 0))
        return divide(unsorted_segment_sum(data, ids, num_segments), n)


math.unsorted_segment_mean = unsorted_segment_mean


# --- strings -----------------------------------------------------------------------------------
# tf.string tensors hold byte strings (str is encoded as UTF-8); Session.run and .numpy() give
# bytes, or numpy object arrays of bytes. The ops are in engine/ops/defs/StringOps.cpp.
def string_join(inputs, separator="", name=None):
    return _op("StringJoin", list(inputs), {"separator": separator}, name)


def as_string(input, precision=-1, scientific=False, shortest=False, width=-1, fill="", name=None):
    return _op("AsString", [input], {"precision": precision, "scientific": scientific, "shortest": shortest,
                                     "width": width, "fill": fill}, name)


def string_to_number(string_tensor, out_type=float32, name=None):
    return _op("StringToNumber", [string_tensor], {"out_type": as_dtype(out_type)}, name)


def _string_length(input, name=None, unit="BYTE"):
    return _op("StringLength", [input], {"unit": unit}, name)


def decode_csv(records, record_defaults, field_delim=",", use_quote_delim=True, name=None, na_value="",
               select_cols=None):
    if select_cols is not None:
        raise NotImplementedError("tensorlens: decode_csv's select_cols is not supported yet")
    defaults = []
    for i, d in enumerate(record_defaults):
        if _tlens.is_tensor(d) or _tlens.is_ndarray(d):
            defaults.append(d)
        elif isinstance(d, (list, _tuple)) and len(d) == 0:
            raise ValueError("tensorlens: an empty record default of field %d needs a dtype: pass tf.constant([], dtype)" % i)
        else:
            defaults.append(convert_to_tensor(d))
    r = _op("DecodeCSV", [records] + defaults,
            {"field_delim": field_delim, "use_quote_delim": use_quote_delim, "na_value": na_value}, name)
    return list(r) if isinstance(r, _tuple) else [r]


def decode_raw(input_bytes=None, out_type=None, little_endian=True, name=None, bytes=None):
    if input_bytes is None:
        input_bytes = bytes
    return _op("DecodeRaw", [input_bytes], {"out_type": as_dtype(out_type), "little_endian": little_endian}, name)


strings = _namespace("tensorflow.strings", join=string_join, as_string=as_string, to_number=string_to_number,
                     length=_string_length)
io = _Namespace("tensorflow.io")
io.decode_csv = decode_csv
io.decode_raw = decode_raw
io.encode_png = _encode_png
io.decode_png = _decode_png
io.gfile = gfile


# --- queues, readers, input producers, tf.train.Example, TFRecords ------------------------------
# Single-threaded and deterministic: see tensorflow._input_pipeline.
from tensorflow._input_pipeline import QueueBase, FIFOQueue, RandomShuffleQueue, PaddingFIFOQueue
from tensorflow._input_pipeline import ReaderBase, TextLineReader, WholeFileReader, TFRecordReader
from tensorflow._input_pipeline import FixedLenFeature, VarLenFeature, parse_single_example
import tensorflow._input_pipeline as _pipeline

queue = _namespace("tensorflow.queue", QueueBase=QueueBase, FIFOQueue=FIFOQueue,
                   RandomShuffleQueue=RandomShuffleQueue, PaddingFIFOQueue=PaddingFIFOQueue)
for _n in ["Coordinator", "QueueRunner", "add_queue_runner", "start_queue_runners", "input_producer",
           "string_input_producer", "range_input_producer", "slice_input_producer", "batch", "shuffle_batch",
           "Example", "Features", "Feature", "BytesList", "Int64List", "FloatList", "match_filenames_once"]:
    setattr(train, _n, getattr(_pipeline, _n))
train.queue_runner = _namespace("tensorflow.train.queue_runner", QueueRunner=_pipeline.QueueRunner,
                                add_queue_runner=_pipeline.add_queue_runner,
                                start_queue_runners=_pipeline.start_queue_runners)
io.FixedLenFeature = FixedLenFeature
io.VarLenFeature = VarLenFeature
io.parse_single_example = parse_single_example
io.TFRecordWriter = _pipeline.TFRecordWriter
io.TFRecordOptions = _pipeline.TFRecordOptions
io.tf_record_iterator = _pipeline.tf_record_iterator
