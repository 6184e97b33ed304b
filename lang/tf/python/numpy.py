# numpy: arrays are tensorlens tensors with numpy semantics (numpy promotion, float64 and int64
# defaults), computed by the same op registry as TensorFlow (eagerly; in the language server only
# their shapes). Enough of numpy for what TensorFlow programs do with it: build inputs, reshape,
# reduce, compare, print.
import _tlens

_range = range
_builtin_round = round
_tuple = tuple
_abs = abs
_round = round
_max = max
_min = min
_sum = sum
_bool = bool
_float = float
_int = int
_any = any
_divmod = divmod

float16 = _tlens.dtype("float16", True)
float32 = _tlens.dtype("float32", True)
float64 = _tlens.dtype("float64", True)
float_ = float64
double = float64
int32 = _tlens.dtype("int32", True)
int64 = _tlens.dtype("int64", True)
int_ = int64
uint8 = _tlens.dtype("uint8", True)
bool_ = _tlens.dtype("bool", True)
# String arrays: one engine dtype (tf.string's byte strings); the array keeps numpy's kind
# ('<U' str, '|S' bytes, object).
object_ = _tlens.dtype("object", True)
str_ = _tlens.dtype("str", True)
unicode_ = str_
bytes_ = _tlens.dtype("bytes", True)
string_ = bytes_
newaxis = None
pi = 3.141592653589793
e = 2.718281828459045
inf = float("inf")
infty = inf
Inf = inf
# Aliases of the builtins that numpy before 1.24 still had (np.int, np.float, np.bool): old
# tutorials use them as dtypes.
int = _int
float = _float
bool = _bool
nan = float("nan")


def dtype(d):
    return _tlens.dtype(d, True)


def _op(op_type, inputs, attrs=None, unify=True):
    return _tlens.op(op_type, inputs, attrs, None, unify, True)


def _shape_list(shape):
    if isinstance(shape, int):
        return [shape]
    return list(shape)


def array(object, dtype=None, copy=True, ndmin=0):
    a = _tlens.constant(object, dtype, None, True)
    if not _tlens.is_ndarray(a):
        a = _tlens.to_ndarray(a)
    elif copy and a is object:
        # np.array(a) is a new array: writing into it leaves a alone (the buffer is shared until then).
        a = _tlens.op("Identity", [a], None, None, False, True)
    while a.ndim < ndmin:
        a = expand_dims(a, 0)
    return a


def asarray(a, dtype=None, order=None):
    return array(a, dtype, copy=False)


def _fill(shape, value, dtype):
    return _tlens.op("Fill", [_shape_list(shape), array(value, dtype)], None, None, False, True, "int32")


def zeros(shape, dtype=float64):
    return _fill(shape, 0, dtype)


def ones(shape, dtype=float64):
    return _fill(shape, 1, dtype)


def empty(shape, dtype=float64):
    return _fill(shape, 0, dtype)


def full(shape, fill_value, dtype=None):
    return _fill(shape, fill_value, dtype)


def zeros_like(a, dtype=None):
    r = _op("ZerosLike", [a])
    return r if dtype is None else r.astype(dtype)


def ones_like(a, dtype=None):
    r = _op("OnesLike", [a])
    return r if dtype is None else r.astype(dtype)


def eye(N, M=None, k=0, dtype=float64):
    M = N if M is None else M
    rows = [[1 if j - i == k else 0 for j in _range(M)] for i in _range(N)]
    return array(rows, dtype)


def identity(n, dtype=float64):
    return eye(n, dtype=dtype)


def arange(start, stop=None, step=1, dtype=None):
    if stop is None:
        start, stop = 0, start
    if dtype is None:
        dtype = float64 if _any(isinstance(v, float) for v in (start, stop, step)) else int64
    dtype = _tlens.dtype(dtype, True)
    if dtype not in (int32, int64, float32, float64, float16):
        # Range's types: other dtypes (uint8, bool) count in int64 or float64, then cast.
        wide = float64 if _any(isinstance(v, float) for v in (start, stop, step)) else int64
        return arange(start, stop, step, wide).astype(dtype)
    return _tlens.op("Range", [array(start, dtype), array(stop, dtype), array(step, dtype)], None, None, False, True)


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None):
    div = num - 1 if endpoint else num
    step = (stop - start) / div if div > 0 else nan
    vals = [start + i * step if div > 0 else _float(start) for i in _range(num)]
    if endpoint and num > 1:
        vals[-1] = _float(stop)
    r = array(vals, float64 if dtype is None else dtype) if num > 0 else zeros((0,), float64 if dtype is None else dtype)
    return (r, step) if retstep else r


def _arr(a):
    return a if _tlens.is_ndarray(a) else array(a)


def reshape(a, newshape, order="C"):
    return _tlens.op("Reshape", [_arr(a), _shape_list(newshape)], None, None, False, True, "int64")


def transpose(a, axes=None):
    a = _arr(a)
    if axes is None:
        n = a.ndim
        axes = [n - 1 - i for i in _range(n)]
    return _tlens.op("Transpose", [a, list(axes)], None, None, False, True, "int64")


def expand_dims(a, axis):
    return _tlens.op("ExpandDims", [_arr(a), axis], None, None, False, True, "int64")


def squeeze(a, axis=None):
    ax = [] if axis is None else ([axis] if isinstance(axis, int) else list(axis))
    return _tlens.op("Squeeze", [_arr(a)], {"squeeze_dims": ax}, None, False, True)


def _promoted(arrays):
    arrays = [array(a) for a in arrays]
    common = None
    for a in arrays:
        common = a.dtype if common is None else _tlens.promote_types(common, a.dtype)
    return [a if a.dtype == common else a.astype(common) for a in arrays]


def promote_types(type1, type2):
    return _tlens.promote_types(type1, type2)


def concatenate(arrays, axis=0):
    arrays = _promoted(arrays)
    if axis is None:
        arrays, axis = [reshape(a, [-1]) for a in arrays], 0
    return _tlens.op("ConcatV2", arrays + [axis], None, None, False, True, "int64")


def stack(arrays, axis=0):
    return _tlens.op("Pack", list(arrays), {"axis": axis}, None, True, True)


def vstack(tup):
    items = [a if a.ndim > 1 else reshape(a, [1, -1]) for a in (array(t) for t in tup)]
    return concatenate(items, 0)


def hstack(tup):
    items = [a if a.ndim > 0 else reshape(a, [1]) for a in (array(t) for t in tup)]
    return concatenate(items, 0 if items[0].ndim == 1 else 1)


def _reduce(op_type):
    def f(a, axis=None, dtype=None, out=None, keepdims=False):
        a = array(a) if not _tlens.is_ndarray(a) else a
        if dtype is not None:
            a = a.astype(dtype)
        elif op_type == "Mean" and not a.dtype.is_floating:
            a = a.astype(float64)
        elif op_type in ("Any", "All") and a.dtype != bool_:
            # numpy tests truth: np.any([0, 1]), (x > 0).astype(int).all().
            a = a != 0
        elif op_type in ("Sum", "Prod") and not a.dtype.is_floating and a.dtype.itemsize < 8:
            # numpy sums bools and small ints in the platform int (unsigned ones in uint64,
            # which the engine lacks: int64 here).
            a = a.astype(int64)
        ax = None if axis is None else ([axis] if isinstance(axis, int) else list(axis))
        return _tlens.op(op_type, [a], {"axis": ax, "keep_dims": keepdims}, None, False, True)
    return f


sum = _reduce("Sum")
mean = _reduce("Mean")
prod = _reduce("Prod")
max = _reduce("Max")
min = _reduce("Min")
amax = max
amin = min
any = _reduce("Any")
all = _reduce("All")


def _arg_reducible(a):
    # ArgMax/ArgMin take float, int32/int64 and uint8 elements; numpy takes bools too (as uint8:
    # the order is the same).
    if a.dtype.name == "bool":
        return a.astype("uint8")
    return a


def argmax(a, axis=None):
    a = array(a) if not _tlens.is_ndarray(a) else a
    a = _arg_reducible(a)
    if axis is None:
        a = reshape(a, [-1])
        axis = 0
    return _tlens.op("ArgMax", [a], {"axis": axis, "output_type": "int64"}, None, False, True)


def argmin(a, axis=None):
    a = array(a) if not _tlens.is_ndarray(a) else a
    a = _arg_reducible(a)
    if axis is None:
        a = reshape(a, [-1])
        axis = 0
    return _tlens.op("ArgMin", [a], {"axis": axis, "output_type": "int64"}, None, False, True)


def _unary(op_type, float_only=True):
    def f(x, out=None):
        x = array(x) if not _tlens.is_ndarray(x) else x
        if float_only and not x.dtype.is_floating:
            # numpy's smallest safe float: float16 for bool and uint8, float64 for wider ints.
            x = x.astype(float16 if x.dtype in (uint8, bool_) else float64)
        elif not x.dtype.is_floating and x.dtype not in (int32, int64) and x.dtype != bool_:
            # numpy keeps small and unsigned integer types (abs of uint8 is uint8, square wraps):
            # the kernels have int64, and the cast back wraps as numpy does.
            return _tlens.op(op_type, [x.astype(int64)], None, None, False, True).astype(x.dtype)
        return _tlens.op(op_type, [x], None, None, False, True)
    return f


exp = _unary("Exp")
log = _unary("Log")
log1p = _unary("Log1p")
sqrt = _unary("Sqrt")
tanh = _unary("Tanh")
sin = _unary("Sin")
cos = _unary("Cos")
floor = _unary("Floor")
ceil = _unary("Ceil")
abs = _unary("Abs", False)
absolute = abs
square = _unary("Square", False)
sign = _unary("Sign", False)
negative = _unary("Neg", False)
isnan = _unary("IsNan")
isinf = _unary("IsInf")
isfinite = _unary("IsFinite")


def round(a, decimals=0):
    if decimals == 0:
        return _unary("Round")(a)
    s = 10.0 ** decimals
    return _unary("Round")(array(a) * s) / s


around = round


def _binary(op_type):
    def f(x1, x2, out=None):
        return _op(op_type, [x1 if _tlens.is_ndarray(x1) else array(x1), x2])
    return f


add = _binary("Add")
subtract = _binary("Sub")
multiply = _binary("Mul")
divide = lambda a, b: array(a) / b
true_divide = divide
power = _binary("Pow")
maximum = _binary("Maximum")
minimum = _binary("Minimum")
equal = _binary("Equal")
not_equal = _binary("NotEqual")
less = _binary("Less")
greater = _binary("Greater")
logical_and = _binary("LogicalAnd")
logical_or = _binary("LogicalOr")


def logical_not(x, out=None):
    a = array(x)
    if a.dtype != bool_:
        a = a != 0
    return _tlens.op("LogicalNot", [a], None, None, False, True)


class _ColumnStack:
    """np.c_[a, b]: 1-d arrays become columns, all joined along the last axis."""

    def __getitem__(self, key):
        items = key if isinstance(key, _tuple) else (key,)
        arrays = []
        for it in items:
            a = array(it)
            arrays.append(reshape(a, [-1, 1]) if a.ndim < 2 else a)
        return concatenate(arrays, axis=-1)


class _RowConcat:
    """np.r_[a, b]: arrays and numbers joined along the first axis (no slice notation)."""

    def __getitem__(self, key):
        items = key if isinstance(key, _tuple) else (key,)
        arrays = []
        for it in items:
            if isinstance(it, slice):
                raise NotImplementedError("tensorlens: np.r_ takes arrays and numbers, not slices")
            a = array(it)
            arrays.append(reshape(a, [1]) if a.ndim == 0 else a)
        return concatenate(arrays, axis=0)


c_ = _ColumnStack()
r_ = _RowConcat()


def _np_shape(s):
    return "(" + ",".join("None" if d is None else str(d) for d in s) + ("," if len(s) == 1 else "") + ")"


def dot(a, b, out=None):
    a, b = array(a), array(b)
    if a.ndim == 0 or b.ndim == 0:
        return a * b
    # numpy's own check and message (multiarraymodule's "not aligned"): the last axis of a against
    # b's second-to-last (its only one when 1-D).
    bk = b.ndim - 2 if b.ndim >= 2 else 0
    ka, kb = a.shape[-1], b.shape[bk]
    if ka is not None and kb is not None and ka != kb:
        raise ValueError("shapes %s and %s not aligned: %d (dim %d) != %d (dim %d)" %
                         (_np_shape(a.shape), _np_shape(b.shape), ka, a.ndim - 1, kb, bk))
    if b.ndim > 2:
        # dot(a, b)[i, j, k, m] = sum(a[i, j, :] * b[k, :, m]): not matmul's broadcasting.
        return tensordot(a, b, ([a.ndim - 1], [b.ndim - 2]))
    if a.ndim == 1 and b.ndim == 1:
        return sum(a * b)
    if b.ndim == 1:
        return squeeze(matmul(a, expand_dims(b, 1)), -1)
    if a.ndim == 1:
        return squeeze(matmul(expand_dims(a, 0), b), 0)
    return matmul(a, b)


def matmul(a, b):
    a, b = array(a), array(b)
    if a.ndim > 2 or b.ndim > 2:
        return _op("BatchMatMulV2", [a, b])
    return _op("MatMul", [a, b])


def _values(a):
    """The values of ndarray `a` as nested lists, or None when they are not known (abstract mode)."""
    v = _tlens.value(a)
    return None if _tlens.is_unknown(v) else v


def nonzero(a):
    with _tlens.quiet():
        return _nonzero(a)


def _nonzero(a):
    a = array(a)
    flat = _values(reshape(a, [-1]))
    if flat is None:
        return _tuple(_tlens.typed(int64, [None], True) for _ in _range(a.ndim))
    shape = a.shape
    idx = [[] for _ in shape]
    for k, x in enumerate(flat):
        if x:
            for d in _range(len(shape) - 1, -1, -1):
                idx[d].append(k % shape[d])
                k //= shape[d]
    return _tuple(array(i, int64) if i else zeros((0,), int64) for i in idx)


def where(condition, x=None, y=None):
    if x is None and y is None:
        return nonzero(condition)
    if x is None or y is None:
        raise ValueError("either both or neither of x and y should be given")
    condition = array(condition)
    if condition.dtype != bool_:
        condition = condition != 0
    # x and y are promoted together (Python scalars weakly, NEP 50); the condition stays bool.
    arrays = _promoted([v for v in (x, y) if not isinstance(v, (int, float))])
    common = arrays[0].dtype if arrays else _promoted([x, y])[0].dtype
    for v in (x, y):
        if isinstance(v, (int, float)) and arrays:
            common = (zeros((), common) + v).dtype
    x, y = [array(v, common) for v in (x, y)]
    return _tlens.op("SelectV2", [condition, x, y], None, None, False, True)


def argwhere(a):
    return stack(nonzero(a), 1)


def argsort(a, axis=-1, kind=None, order=None):
    with _tlens.quiet():
        return _argsort(a, axis, kind, order)


def _argsort(a, axis=-1, kind=None, order=None):
    a = array(a)
    if axis is None:
        a, axis = reshape(a, [-1]), 0
    nd = a.ndim
    if nd == 0:
        return zeros((1,), int64)
    axis = axis % nd
    last = [i for i in _range(nd) if i != axis] + [axis]
    t = transpose(a, last)
    rows = _values(reshape(t, [-1, a.shape[axis]]))
    if rows is None:
        return _tlens.typed(int64, a.shape, True)
    out = [sorted(_range(len(r)), key=lambda i: r[i]) for r in rows]
    back = [0] * nd
    for i, d in enumerate(last):
        back[d] = i
    return transpose(reshape(array(out, int64) if out else zeros((0,), int64), list(t.shape)), back)


def sort(a, axis=-1, kind=None, order=None):
    a = asarray(a)
    if axis is None:
        a, axis = reshape(a, [-1]), 0
    if a.ndim == 0:
        raise AxisError(axis, 0)
    # Whole rows through TopKV2 (the engine's sort; NaN last as numpy puts it), not a Python sort.
    axis = _axis_of(axis, a.ndim)
    t, back = _move_last(a, axis)
    return transpose(_sorted_rows(t), back)


def take_along_axis(arr, indices, axis):
    with _tlens.quiet():
        return _take_along_axis(arr, indices, axis)


def _take_along_axis(arr, indices, axis):
    arr, indices = array(arr), array(indices)
    v, iv = _values(arr), _values(indices)
    if v is None or iv is None:
        return _tlens.typed(arr.dtype, indices.shape, True)
    return _take_along(arr, indices, axis % arr.ndim, v, iv)


def _take_along(arr, indices, axis, v, iv):
    nd = arr.ndim

    def at(x, path):
        for p in path:
            x = x[p]
        return x

    def build(ix, path):
        d = len(path)
        if d == nd:
            src = list(path)
            src[axis] = ix
            return at(v, src)
        return [build(ix[k], path + [k]) for k in _range(len(ix))]
    return array(build(iv, []), arr.dtype)


def unique(ar, return_index=False, return_inverse=False, return_counts=False, axis=None):
    with _tlens.quiet():
        return _unique(ar, return_index, return_inverse, return_counts, axis)


def _unique(ar, return_index=False, return_inverse=False, return_counts=False, axis=None):
    if axis is not None:
        raise NotImplementedError("tensorlens: np.unique's axis argument is not supported")
    a = reshape(array(ar, copy=False), [-1])
    flat = _values(a) if _tlens.is_abstract() else None
    if _tlens.is_abstract() and flat is None:
        u = _tlens.typed(a.dtype, [None], True)
        extras = [_tlens.typed(int64, [None], True) for f in (return_index, return_inverse, return_counts) if f]
        if return_inverse:
            extras[1 if return_index else 0] = _tlens.typed(int64, list(a.shape), True)
        return _tuple([u] + extras) if extras else u
    if flat is not None:
        return _unique_listed(a, flat, return_index, return_inverse, return_counts)
    u, extras = _unique_sorted(a, return_index, return_inverse, return_counts)
    return _tuple([u] + extras) if extras else u


def _unique_listed(a, flat, return_index, return_inverse, return_counts):
    """Abstract mode with known values (small constants): exact static results."""
    vals = sorted(set(flat))
    pos = {x: i for i, x in enumerate(vals)}
    first, counts = {}, [0] * len(vals)
    for i, x in enumerate(flat):
        first.setdefault(x, i)
        counts[pos[x]] += 1

    def ints(xs):
        return array(xs, int64) if xs else zeros((0,), int64)
    u = array(vals, a.dtype) if vals else zeros((0,), a.dtype)
    extras = []
    if return_index:
        extras.append(ints([first[x] for x in vals]))
    if return_inverse:
        extras.append(ints([pos[x] for x in flat]))
    if return_counts:
        extras.append(ints(counts))
    return _tuple([u] + extras) if extras else u


def _unique_sorted(a, return_index, return_inverse, return_counts):
    """np.unique of a 1-d array on whole-array ops: a stable ascending sort (TopKV2 over the
    reversed array, reversed back: equal values keep their order, NaN last), the starts of each
    run of equal values (NaNs are one run, as numpy 1.24's equal_nan), gathers and a scatter."""
    n = a.shape[0]
    if n == 0:
        e = zeros((0,), int64)
        return zeros((0,), a.dtype), [e for f in (return_index, return_inverse, return_counts) if f]
    src = a.astype(uint8) if a.dtype == bool_ else a
    vals, bidx = _tlens.op("TopKV2", [src[::-1], array(n, int32)], {"sorted": True}, None, False, True)
    s = vals[::-1].astype(a.dtype) if a.dtype == bool_ else vals[::-1]
    order = (n - 1) - bidx[::-1].astype(int64)
    new = s[1:] != s[:-1]
    if s.dtype.is_floating:
        new = new & logical_not(isnan(s[1:]) & isnan(s[:-1]))
    starts = concatenate([array([True]), new])
    pos = reshape(_tlens.op("Where", [starts], None, None, False, True), [-1])
    u = _tlens.op("GatherV2", [s, pos, 0], None, None, False, True)
    extras = []
    if return_index:
        extras.append(_tlens.op("GatherV2", [order, pos, 0], None, None, False, True))
    if return_inverse:
        gid = _tlens.op("Cumsum", [starts.astype(int64), 0], None, None, False, True) - 1
        extras.append(_tlens.op("ScatterNd", [order[:, None], gid, [n]], None, None, False, True, "int64"))
    if return_counts:
        extras.append(concatenate([pos[1:], array([n], int64)]) - pos)
    return u, extras


def clip(a, a_min, a_max, out=None):
    a = array(a)
    if a_min is not None:
        a = maximum(a, a_min)
    if a_max is not None:
        a = minimum(a, a_max)
    return a


def allclose(a, b, rtol=1e-05, atol=1e-08):
    a, b = array(a), array(b)
    return _bool(all(abs(a - b) <= atol + rtol * abs(b)))


def array_equal(a, b):
    a, b = array(a), array(b)
    if a.shape != b.shape:
        return False
    return _bool(all(equal(a, b)))


def tile(a, reps):
    a, reps = array(a), _shape_list(reps)
    for _ in _range(len(reps) - a.ndim):
        a = expand_dims(a, 0)
    reps = [1] * (a.ndim - len(reps)) + reps
    return _tlens.op("Tile", [a, reps], None, None, False, True, "int64")


def repeat(a, repeats, axis=None):
    a = array(a)
    if axis is None:
        a, axis = reshape(a, [-1]), 0
    n = a.shape[axis]
    reps = array(repeats, int64).tolist()
    if _tlens.is_unknown(n) or _tlens.is_unknown(reps):
        shape = list(a.shape)
        shape[axis] = None
        return _tlens.typed(a.dtype, shape, True)
    if isinstance(reps, int):
        reps = [reps] * n
    elif len(reps) == 1:
        reps = reps * n
    if len(reps) != n:
        raise ValueError("operands could not be broadcast together with shape (%d,) (%d,)" % (n, len(reps)))
    idx = [i for i in _range(n) for _ in _range(reps[i])]
    return _tlens.op("GatherV2", [a, array(idx, int64) if idx else zeros((0,), int64), axis], None, None, False, True, "int64")


def _take_range(a, start, stop, axis):
    return a[_tuple([slice(None)] * axis + [slice(start, stop)])]


def array_split(ary, indices_or_sections, axis=0):
    a = array(ary)
    axis = axis % a.ndim
    n = a.shape[axis]
    if isinstance(indices_or_sections, _int):
        sections = indices_or_sections
        if sections <= 0:
            raise ValueError("number sections must be larger than 0.")
        each, extras = _divmod(n, sections)
        sizes = [each + 1] * extras + [each] * (sections - extras)
        bounds = [0]
        for k in sizes:
            bounds.append(bounds[-1] + k)
    else:
        bounds = [0] + list(indices_or_sections) + [n]
    return [_take_range(a, bounds[i], bounds[i + 1], axis) for i in _range(len(bounds) - 1)]


def split(ary, indices_or_sections, axis=0):
    if isinstance(indices_or_sections, _int):
        n = array(ary).shape[axis]
        if not _tlens.is_unknown(n) and n % indices_or_sections:
            raise ValueError("array split does not result in an equal division")
    return array_split(ary, indices_or_sections, axis)


def roll(a, shift, axis=None):
    a = array(a)
    if axis is None:
        return reshape(roll(reshape(a, [-1]), shift, 0), list(a.shape))
    axis = axis % a.ndim
    n = a.shape[axis]
    if _tlens.is_unknown(n) or n == 0:
        return a
    k = shift % n
    if k == 0:
        return a
    return concatenate([_take_range(a, n - k, n, axis), _take_range(a, 0, n - k, axis)], axis)


def shape(a):
    return array(a).shape


def ndim(a):
    return array(a).ndim


def size(a):
    return array(a).size


def _pad_pairs(pad_width, ndim):
    """numpy's pad_width forms (n, (n,), (before, after), ((b0, a0), ...)) as one pair per axis."""
    pw = array(pad_width, int64).tolist()
    if _tlens.is_unknown(pw):
        return None
    if isinstance(pw, _int):
        return [[pw, pw]] * ndim
    if len(pw) == 1 and not isinstance(pw[0], list):
        return [[pw[0], pw[0]]] * ndim
    if len(pw) == 2 and not isinstance(pw[0], list):
        return [list(pw)] * ndim
    if len(pw) == 1:
        return [list(pw[0])] * ndim
    if len(pw) != ndim:
        raise ValueError("operands could not be broadcast together with remapped shapes [original->remapped]: (%d,2) and requested shape (%d,2)" % (len(pw), ndim))
    return [list(p) for p in pw]


def pad(array_, pad_width, mode="constant", constant_values=0, **kwargs):
    a = array(array_)
    if mode != "constant":
        raise NotImplementedError("tensorlens: np.pad supports mode='constant' only, not %r" % (mode,))
    pairs = _pad_pairs(pad_width, a.ndim)
    if pairs is None:
        return _tlens.typed(a.dtype, [None] * a.ndim, True)
    for p in pairs:
        if p[0] < 0 or p[1] < 0:
            raise ValueError("index can't contain negative values")
    if not isinstance(constant_values, (_int, _float)) and not _tlens.is_ndarray(constant_values):
        constant_values = array(constant_values).item()
    return _tlens.op("PadV2", [a, pairs, array(constant_values, a.dtype)], {"mode": "CONSTANT"}, None, False, True, "int64")


def meshgrid(*xi, copy=True, sparse=False, indexing="xy"):
    if indexing not in ("xy", "ij"):
        raise ValueError("Valid values for `indexing` are 'xy' and 'ij'.")
    xs = [reshape(array(x), [-1]) for x in xi]
    n = len(xs)
    out_shape = [x.shape[0] for x in xs]
    if indexing == "xy" and n > 1:
        out_shape[0], out_shape[1] = out_shape[1], out_shape[0]
    grids = []
    for i, x in enumerate(xs):
        shape = [1] * n
        axis = i
        if indexing == "xy" and n > 1 and i < 2:
            axis = 1 - i
        shape[axis] = -1
        g = reshape(x, shape)
        if not sparse:
            g = _tlens.op("BroadcastTo", [g, out_shape], None, None, False, True, "int64")
        grids.append(g)
    return grids


def _fspath(file):
    # A pathlib.Path (os.PathLike) is its file name, as numpy's own os.fspath.
    return file.__fspath__() if hasattr(type(file), "__fspath__") else file


def save(file, arr, allow_pickle=True, fix_imports=True):
    file = _fspath(file)
    if not isinstance(file, str):
        raise NotImplementedError("tensorlens: np.save writes to file names only")
    if not file.endswith(".npy"):
        file = file + ".npy"
    _tlens.save_npy(file, array(arr))


def load(file, mmap_mode=None, allow_pickle=False, fix_imports=True, encoding="ASCII"):
    file = _fspath(file)
    if not isinstance(file, str):
        raise NotImplementedError("tensorlens: np.load reads file names only")
    if file.endswith(".npz"):
        return NpzFile(file)
    return _tlens.load_npy(file)


def frombuffer(buffer, dtype=float, count=-1, offset=0):
    d = _tlens.dtype(dtype, True)
    raw = _tlens.array_to_bytes(zeros((1,), d))
    item = len(raw[0])
    data = buffer[offset:]
    if count >= 0:
        data = data[:count * item]
    if len(data) % item:
        raise ValueError("buffer size must be a multiple of element size")
    return _tlens.array_from_bytes(bytes(data), raw[1], (len(data) // item,))


def _from_pickle(raw, descr, shape, fortran=False):
    # pickle's ndarray state: the raw bytes (a latin-1 str from Python 2 pickles), a type string
    # ("<f4"), the shape, and whether the data is in Fortran order.
    if isinstance(raw, str):
        raw = raw.encode("latin1")
    if descr[-2:] in ("O8", "O4") or descr[1:2] in ("O", "U", "S", "V"):
        raise NotImplementedError("tensorlens: pickled numpy arrays of dtype %s are not supported" % descr)
    shape = tuple(shape)
    if fortran and len(shape) > 1:
        return transpose(_tlens.array_from_bytes(raw, descr, shape[::-1]))
    return _tlens.array_from_bytes(raw, descr, shape)


def _pickle_state(a):
    return _tlens.array_to_bytes(a)



def set_printoptions(precision=None, threshold=None, edgeitems=None, linewidth=None, suppress=None,
                     nanstr=None, infstr=None, formatter=None, sign=None, floatmode=None, *, legacy=None):
    _tlens.set_printoptions(precision, threshold, edgeitems, linewidth, suppress, nanstr, infstr,
                            formatter, sign, floatmode, legacy)


def get_printoptions():
    return _tlens.get_printoptions()


class printoptions:
    def __init__(self, *args, **kwargs):
        self._args = args
        self._kwargs = kwargs
        self._saved = None

    def __enter__(self):
        self._saved = get_printoptions()
        set_printoptions(*self._args, **self._kwargs)
        return get_printoptions()

    def __exit__(self, *exc):
        set_printoptions(**self._saved)
        return False


def array2string(a, max_line_width=None, precision=None, suppress_small=None, separator=" ", prefix="",
                 style=None, formatter=None, threshold=None, edgeitems=None, sign=None, floatmode=None,
                 suffix="", *, legacy=None):
    return _tlens.array2string(asarray(a), max_line_width, precision, suppress_small, separator, prefix,
                               formatter, threshold, edgeitems, sign, floatmode, suffix, legacy)


def array_str(a, max_line_width=None, precision=None, suppress_small=None):
    return _tlens.array_str(asarray(a), max_line_width, precision, suppress_small)


def array_repr(arr, max_line_width=None, precision=None, suppress_small=None):
    return _tlens.array_repr(asarray(arr), max_line_width, precision, suppress_small)


def format_float_positional(x, precision=None, unique=True, fractional=True, trim="k", sign=False,
                            pad_left=None, pad_right=None, min_digits=None):
    return _tlens.format_float_positional(x, precision, unique, fractional, trim, sign, pad_left,
                                          pad_right, min_digits)


def format_float_scientific(x, precision=None, unique=True, trim="k", sign=False, pad_left=None,
                            exp_digits=None, min_digits=None):
    return _tlens.format_float_scientific(x, precision, unique, trim, sign, pad_left, exp_digits,
                                          min_digits)


def float32_(x):
    return array(x, float32)


class _NdarrayMethods:
    def __abs__(self):
        return abs(self)

    def reshape(self, *shape, order="C"):
        if len(shape) == 1 and not isinstance(shape[0], int):
            shape = shape[0]
        return reshape(self, list(shape))

    def astype(self, dtype, copy=True):
        return _tlens.op("Cast", [self], {"DstT": _tlens.dtype(dtype, True)}, None, False, True)

    def mean(self, axis=None, dtype=None, keepdims=False):
        return mean(self, axis, dtype, keepdims=keepdims)

    def sum(self, axis=None, dtype=None, keepdims=False):
        return sum(self, axis, dtype, keepdims=keepdims)

    def max(self, axis=None, keepdims=False):
        return max(self, axis, keepdims=keepdims)

    def min(self, axis=None, keepdims=False):
        return min(self, axis, keepdims=keepdims)

    def prod(self, axis=None, dtype=None, keepdims=False):
        return prod(self, axis, dtype, keepdims=keepdims)

    def std(self, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
        return std(self, axis, dtype, ddof=ddof, keepdims=keepdims)

    def var(self, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
        return var(self, axis, dtype, ddof=ddof, keepdims=keepdims)

    def cumsum(self, axis=None, dtype=None, out=None):
        return cumsum(self, axis, dtype)

    def cumprod(self, axis=None, dtype=None, out=None):
        return cumprod(self, axis, dtype)

    def trace(self, offset=0, axis1=0, axis2=1, dtype=None, out=None):
        return trace(self, offset, axis1, axis2, dtype)

    def diagonal(self, offset=0, axis1=0, axis2=1):
        return diagonal(self, offset, axis1, axis2)

    def ptp(self, axis=None, out=None, keepdims=False):
        return ptp(self, axis, keepdims=keepdims)

    def take(self, indices, axis=None, out=None, mode="raise"):
        return take(self, indices, axis, mode=mode)

    def swapaxes(self, axis1, axis2):
        return swapaxes(self, axis1, axis2)

    def fill(self, value):
        if self.ndim == 0:
            raise NotImplementedError("tensorlens: fill() of a 0-d array")
        self[:] = value

    def searchsorted(self, v, side="left", sorter=None):
        return searchsorted(self, v, side, sorter)

    def __round__(self, ndigits=None):
        # numpy scalars (0-d arrays here) round as numpy's: round(np.float32(x)) is a Python int,
        # round(np.float32(x), 4) a float32. An array has no __round__, as in numpy.
        if self.ndim != 0:
            raise TypeError("type numpy.ndarray doesn't define __round__ method")
        if ndigits is None:
            return _builtin_round(self.item())
        return array(_builtin_round(self.item(), ndigits), self.dtype)

    def any(self, axis=None, keepdims=False):
        return any(self, axis, keepdims=keepdims)

    def all(self, axis=None, keepdims=False):
        return all(self, axis, keepdims=keepdims)

    def argmax(self, axis=None):
        return argmax(self, axis)

    def argmin(self, axis=None):
        return argmin(self, axis)

    def transpose(self, *axes):
        return transpose(self, None if not axes else (axes[0] if len(axes) == 1 else list(axes)))

    @property
    def T(self):
        return transpose(self)

    def flatten(self):
        return reshape(self, [-1])

    def ravel(self):
        return reshape(self, [-1])

    def squeeze(self, axis=None):
        return squeeze(self, axis)

    def copy(self, order="C"):
        return copy(self)

    def tolist(self):
        return _tlens.value(self)

    def tobytes(self, order="C"):
        return _tlens.array_to_bytes(self)[0]

    def tostring(self, order="C"):
        # numpy's deprecated name of tobytes (TFRecord tutorials write image.tostring()).
        return self.tobytes(order)

    def item(self, *args):
        v = _tlens.value(self)
        while isinstance(v, list):
            v = v[0]
        return v

    def dot(self, b):
        return dot(self, b)

    def argsort(self, axis=-1, kind=None, order=None):
        return argsort(self, axis)

    def sort(self, axis=-1, kind=None, order=None):
        self[:] = sort(self, axis)

    def repeat(self, repeats, axis=None):
        return repeat(self, repeats, axis)

    def nonzero(self):
        return nonzero(self)

    def clip(self, a_min=None, a_max=None):
        return clip(self, a_min, a_max)

    def round(self, decimals=0):
        return round(self, decimals)

    # numpy scalars (np.float32(1.0), np.sqrt(2.0), a.sum()) are 0-d arrays here: these make them
    # work as numbers in int(), float(), range() and list indices, with numpy's errors otherwise.
    def __float__(self):
        if self.size != 1:
            raise TypeError("only size-1 arrays can be converted to Python scalars")
        return _float(self.item())

    def __int__(self):
        if self.size != 1:
            raise TypeError("only size-1 arrays can be converted to Python scalars")
        return _int(self.item())

    def __index__(self):
        if self.ndim != 0:
            raise TypeError("only integer scalar arrays can be converted to a scalar index")
        if not self.dtype.is_integer:
            return None  # numpy's float scalars have no __index__: the caller's TypeError
        return _int(self.item())


_tlens.register("ndarray_methods", _NdarrayMethods)


class ndarray:
    """isinstance(x, np.ndarray) is answered by _tlens.is_ndarray. Called, it makes an array of
    `shape` (numpy leaves it uninitialised; here zeros): word2vec's np.ndarray(shape=(n,), dtype=np.int32)."""

    def __new__(cls, shape, dtype=float, buffer=None, offset=0, strides=None, order=None):
        if buffer is not None:
            n = 1
            for d in _shape_list(shape):
                n *= d
            return frombuffer(buffer, dtype, n, offset).reshape(shape)
        return empty(shape, float64 if dtype is _float else dtype)

    @classmethod
    def __tlens_subclasscheck__(cls, subclass):
        # An array's type is the interpreter's class numpy.ndarray (0-d arrays stand for numpy
        # scalars, whose types are named by their dtype and are no ndarrays, as in numpy).
        return getattr(subclass, "__name__", None) == "ndarray" and getattr(subclass, "__module__", None) == "numpy"


# The families in numpy's embedded submodules (lang/tf/python/numpy._*.py), re-exported here.
from numpy._util import AxisError, _axis as _axis_of, _move_last
from numpy._stats import _sorted_last as _sorted_rows
from numpy._types import *
from numpy._math import *
from numpy._shape import *
from numpy._stats import *
from numpy._products import *
from numpy._index import *
from numpy._io import *
