# The cases of tests/tf/NumpyPrintTests.cpp: snippets whose expected output is what numpy 1.24
# (Debian's python3-numpy) prints. Regenerate with gen_numpy_print_tests.py after editing.
# 'tf' groups run under CPython with tfshim/ on the path: a stand-in for TensorFlow's eager
# tensors whose str/repr are TF's own formulas (ops.py numpy_text) over real numpy.

GROUPS = []


def group(name, cases, tf=False):
    GROUPS.append({'name': name, 'cases': cases, 'tf': tf})


group('float64 arrays print with numpy\'s maxprec digits, sign space and column padding', [
    ('the issue\'s 2-d example', 'import numpy as np\nprint(np.array([[0.68, -0.959, -0.133], [0.705, 0.88, 0.968]]))'),
    ('widths differ left and right of the point', 'import numpy as np\nprint(np.array([1.5, 2.25, 100.]))'),
    ('precision 8 rounds and trims', 'import numpy as np\nprint(np.array([[1.123456789, 2.]]))'),
    ('repr with a negative', 'import numpy as np\nprint(repr(np.array([1., -2.5])))'),
    ('whole numbers keep the point', 'import numpy as np\nprint(np.array([1., 2., 3.]))\nprint(repr(np.array([0., 10., -3.])))'),
    ('one third and friends', 'import numpy as np\nprint(np.array([1/3, 2/3, 1.]))\nprint(np.array([0.1, 0.2, 0.30000000000000004]))'),
    ('negative zero', 'import numpy as np\nprint(np.array([-0.0, 1.]))\nprint(repr(np.array([-0.0])))'),
    ('linspace', 'import numpy as np\nprint(np.linspace(0, 1, 5))\nprint(repr(np.linspace(-1, 1, 7)))'),
    ('arange of floats', 'import numpy as np\nprint(np.arange(0.0, 1.0, 0.1))'),
    ('values just below 1e8 stay positional', 'import numpy as np\nprint(np.array([99999999., 1.5]))'),
    ('column of differing lengths', 'import numpy as np\nprint(np.array([[1.5], [22.25], [-333.125]]))'),
    ('rounding at the eighth digit carries', 'import numpy as np\nprint(np.array([0.999999999, 1.5]))\nprint(np.array([9.999999999]))'),
])

group('float32 and float16 arrays use their own precision\'s shortest digits', [
    ('float32 thirds', 'import numpy as np\nprint(np.array([1/3, 2/3], dtype=np.float32))'),
    ('float32 repr has its dtype', 'import numpy as np\nprint(repr(np.array([1., 2.], dtype=np.float32)))'),
    ('float32 0.1 is 0.1', 'import numpy as np\nprint(np.array([0.1, 0.2, 0.7], dtype=np.float32))'),
    ('float32 division', 'import numpy as np\nprint(repr(np.arange(10, dtype=np.float32) / 7))'),
    ('float16 values', 'import numpy as np\nprint(np.array([0.1, 0.2, 1000.5, -3.3], dtype=np.float16))'),
    ('float16 repr', 'import numpy as np\nprint(repr(np.array([1.5, 65504.], dtype=np.float16)))'),
    ('float16 large whole numbers', 'import numpy as np\nprint(np.array([32768., 1.], dtype=np.float16))'),
    ('astype float32', 'import numpy as np\nprint(np.array([3.14159265358979, 2.718281828]).astype(np.float32))'),
])

group('numpy switches to scientific notation as numpy does', [
    ('a tiny value', 'import numpy as np\nprint(np.array([1e-05, 1.]))'),
    ('a huge value', 'import numpy as np\nprint(np.array([1e8, 1.]))\nprint(np.array([123456789.0]))'),
    ('a ratio over 1000', 'import numpy as np\nprint(np.array([0.1, 100.01]))\nprint(np.array([1., 1000.]))'),
    ('float32 0.0001 is below 1e-4', 'import numpy as np\nprint(np.array([0.0001], dtype=np.float32))\nprint(np.array([0.0001]))'),
    ('float16 divides in its own precision', 'import numpy as np\nprint(np.array([0.1, 100.01], dtype=np.float16))\nprint(np.array([3., 3001.], dtype=np.float16))'),
    ('mantissas pad to the longest', 'import numpy as np\nprint(np.array([1e-5, 1.5, 2.25e10]))'),
    ('three-digit exponents', 'import numpy as np\nprint(np.array([1e-100, 1.]))\nprint(np.array([1e300, -2e-300]))'),
    ('negative scientific', 'import numpy as np\nprint(repr(np.array([-1e-7, 3e-7, 1.])))'),
    ('2-d scientific', 'import numpy as np\nprint(np.array([[1e-6, 2e-6], [3.5, 4e5]]))'),
    ('scientific float32', 'import numpy as np\nprint(repr(np.array([1e-10, 1.], dtype=np.float32)))'),
    ('all zeros', 'import numpy as np\nprint(np.zeros(3))\nprint(repr(np.zeros((2, 2), dtype=np.float32)))'),
    ('zeros and a tiny value', 'import numpy as np\nprint(np.array([0., 1e-9]))'),
])

group('nan and inf pad their columns', [
    ('nan and inf', 'import numpy as np\nprint(np.array([np.nan, np.inf]))'),
    ('nan, -inf and a number', 'import numpy as np\nprint(np.array([np.nan, -np.inf, 1.5]))'),
    ('nan beside scientific', 'import numpy as np\nprint(np.array([np.nan, 1e-5]))'),
    ('repr with nan', 'import numpy as np\nprint(repr(np.array([1., np.nan, 2.5])))'),
    ('float32 inf', 'import numpy as np\nprint(repr(np.array([np.inf, -1.], dtype=np.float32)))'),
    ('2-d with nan', 'import numpy as np\nprint(np.array([[np.nan, 1.], [2., -np.inf]]))'),
])

group('integer and bool arrays pad to their widest value', [
    ('int64 arange', 'import numpy as np\nprint(np.arange(12))\nprint(repr(np.arange(5)))'),
    ('negative ints', 'import numpy as np\nprint(np.array([-1, 20, -300]))'),
    ('int32 repr has its dtype', 'import numpy as np\nprint(repr(np.array([1, 2, 3], dtype=np.int32)))'),
    ('uint8 image rows', 'import numpy as np\nprint(np.array([[0, 128, 255], [3, 4, 5]], dtype=np.uint8))\nprint(repr(np.array([7, 255], dtype=np.uint8)))'),
    ('2-d ints', 'import numpy as np\nprint(np.arange(12).reshape(3, 4) * 7)'),
    ('big ints', 'import numpy as np\nprint(np.array([10**12, -5]))'),
    ('bools', 'import numpy as np\nprint(np.array([True, False]))\nprint(repr(np.array([False, True, True])))'),
    ('2-d bools from a comparison', 'import numpy as np\nprint(np.arange(6).reshape(2, 3) > 2)'),
    ('argmax and sum results', 'import numpy as np\nx = np.array([[1, 5, 2], [7, 0, 3]])\nprint(np.argmax(x, axis=1), x.sum(axis=0))'),
])

group('numpy scalars print as numpy prints them', [
    ('float32 scalars', 'import numpy as np\nprint(np.float32(0.1), repr(np.float32(1e-5)), np.float32(2.5e20), repr(np.float32(1.0)))'),
    ('float64 scalars', 'import numpy as np\nprint(np.float64(0.1) + np.float64(0.2), repr(np.float64(1e16)), np.float64(123456789012345678.))'),
    ('float16 scalars', 'import numpy as np\nprint(np.float16(0.1), repr(np.float16(1e-4)), np.float16(32768))'),
    ('int and bool scalars', 'import numpy as np\nprint(np.int32(7), repr(np.int64(-3)), np.uint8(255), np.bool_(True))'),
    ('an element of an array', 'import numpy as np\na = np.array([1.5, 2.25], dtype=np.float32)\nprint(a[0], repr(a[1]), a.sum())'),
    ('reductions', 'import numpy as np\nx = np.array([0.1, 0.2, 0.3])\nprint(x.mean(), np.max(x), x.sum())'),
    ('scalar nan and inf', 'import numpy as np\nprint(np.float32(np.nan), np.float64(-np.inf), repr(np.float32(np.inf)))'),
    ('float32 0.0001 is printed as 1e-04', 'import numpy as np\nprint(np.float32(0.0001), np.float64(0.0001))'),
])

group('empty arrays print as [] with their shape and dtype in repr', [
    ('empty float64', 'import numpy as np\nprint(np.array([]))\nprint(repr(np.array([])))'),
    ('empty 2-d', 'import numpy as np\nprint(repr(np.zeros((0, 3))))\nprint(np.zeros((0, 3)))'),
    ('empty inner axis', 'import numpy as np\nprint(repr(np.zeros((2, 0))))'),
    ('empty int32', 'import numpy as np\nprint(repr(np.zeros(0, dtype=np.int32)))'),
    ('empty float32 3-d', 'import numpy as np\nprint(repr(np.zeros((1, 0, 2), dtype=np.float32)))'),
    ('empty bool', 'import numpy as np\nprint(repr(np.array([], dtype=np.bool_)))'),
])

group('arrays of three and more axes separate their blocks with blank lines', [
    ('3-d ints', 'import numpy as np\nprint(np.arange(24).reshape(2, 3, 4))'),
    ('3-d float repr', 'import numpy as np\nprint(repr(np.arange(8.).reshape(2, 2, 2) / 4))'),
    ('4-d', 'import numpy as np\nprint(np.arange(16).reshape(2, 2, 2, 2))'),
    ('single-element axes', 'import numpy as np\nprint(np.ones((1, 1, 3)))\nprint(repr(np.ones((1, 1), dtype=np.float32)))'),
    ('3-d float32 repr', 'import numpy as np\nprint(repr(np.arange(12, dtype=np.float32).reshape(3, 2, 2) - 5.5))'),
])

group('long rows wrap at 75 columns and align under array(', [
    ('long float64 row', 'import numpy as np\nprint(np.arange(30) / 7)'),
    ('long float64 repr', 'import numpy as np\nprint(repr(np.arange(30) / 7))'),
    ('float32 repr puts the dtype on its own line', 'import numpy as np\nprint(repr(np.arange(30, dtype=np.float32) / 7))'),
    ('int row', 'import numpy as np\nprint(np.arange(100))'),
    ('int32 repr whose dtype still fits', 'import numpy as np\nprint(repr(np.arange(20, dtype=np.int32)))\nprint(repr(np.arange(23, dtype=np.int32)))'),
    ('wide 2-d rows', 'import numpy as np\nprint(np.arange(40).reshape(2, 20) / 3)'),
    ('wide 2-d repr', 'import numpy as np\nprint(repr(np.arange(40, dtype=np.float32).reshape(2, 20) / 3))'),
])

group('arrays over 1000 elements are summarised with ...', [
    ('arange 2000', 'import numpy as np\nprint(np.arange(2000))\nprint(repr(np.arange(2000)))'),
    ('1001 floats', 'import numpy as np\nprint(np.arange(1001) / 4)'),
    ('2-d 100x100', 'import numpy as np\nprint(np.arange(10000).reshape(100, 100))'),
    ('2-d float32 repr', 'import numpy as np\nprint(repr(np.arange(10000, dtype=np.float32).reshape(100, 100) / 3))'),
    ('3-d summarised', 'import numpy as np\nprint(np.arange(2 * 20 * 30).reshape(2, 20, 30))'),
    ('exactly 1000 is not summarised', 'import numpy as np\nprint(np.arange(1000).reshape(10, 100)[0])\nprint(np.arange(1000).reshape(10, 100)[:2, :3])'),
    ('summary uses the corner values for widths', 'import numpy as np\na = np.ones(3000)\na[1500] = 123456.\nprint(a)'),
    ('mnist-like image row', 'import numpy as np\nx = np.zeros((28, 28), dtype=np.uint8)\nx[5:8, 10:14] = 255\nprint(x[4:9])'),
])

group('np.set_printoptions changes how later arrays print', [
    ('precision', 'import numpy as np\nnp.set_printoptions(precision=3)\nprint(np.array([1.23456789, 2.]))\nprint(np.array([1/3], dtype=np.float32))'),
    ('suppress', 'import numpy as np\nnp.set_printoptions(suppress=True)\nprint(np.array([1e-10, 1.5, 1000.5]))\nprint(np.array([1e-5, 1.]))'),
    ('precision and suppress', 'import numpy as np\nnp.set_printoptions(precision=3, suppress=True)\nprint(np.array([1e-10, 1.23456, 1000.5]))'),
    ('threshold', 'import numpy as np\nnp.set_printoptions(threshold=5)\nprint(np.arange(10))\nprint(np.arange(5))'),
    ('threshold inf', 'import numpy as np\nimport sys\nnp.set_printoptions(threshold=np.inf)\nprint(np.arange(1100)[-3:])\nnp.set_printoptions(threshold=sys.maxsize)\nprint(len(str(np.arange(1100))))'),
    ('edgeitems', 'import numpy as np\nnp.set_printoptions(threshold=10, edgeitems=2)\nprint(np.arange(20))\nprint(np.arange(36).reshape(6, 6))'),
    ('linewidth', 'import numpy as np\nnp.set_printoptions(linewidth=30)\nprint(np.arange(20))\nprint(repr(np.arange(12, dtype=np.int32)))'),
    ('floatmode fixed', 'import numpy as np\nnp.set_printoptions(floatmode="fixed", precision=4)\nprint(np.array([1., 2.5, 1/3]))'),
    ('floatmode unique', 'import numpy as np\nnp.set_printoptions(floatmode="unique")\nprint(np.array([1/3, 0.1]))'),
    ('floatmode maxprec_equal', 'import numpy as np\nnp.set_printoptions(floatmode="maxprec_equal")\nprint(np.array([1.5, 2.25, 3.]))'),
    ('sign plus', 'import numpy as np\nnp.set_printoptions(sign="+")\nprint(np.array([1., -2.5, 0.]))\nprint(np.array([np.nan, 1.]))'),
    ('sign space', 'import numpy as np\nnp.set_printoptions(sign=" ")\nprint(np.array([1., 2.5]))\nprint(np.array([1., -2.5]))'),
    ('nanstr and infstr', 'import numpy as np\nnp.set_printoptions(nanstr="NaN", infstr="Inf")\nprint(np.array([np.nan, -np.inf, 1.]))'),
    ('formatter for floats', 'import numpy as np\nnp.set_printoptions(formatter={"float": lambda x: "%.2f" % x})\nprint(np.array([1.2345, 2.]))\nnp.set_printoptions()\nprint(np.array([1.2345, 2.]))'),
    ('formatter for ints and all', 'import numpy as np\nnp.set_printoptions(formatter={"int": lambda x: hex(x)})\nprint(np.arange(3))\nnp.set_printoptions(formatter={"all": lambda x: "<" + str(x) + ">"})\nprint(np.array([1.5, 2.]), np.array([True]))'),
    ('get_printoptions', 'import numpy as np\nprint(np.get_printoptions())\nnp.set_printoptions(precision=4, linewidth=100)\no = np.get_printoptions()\nprint(o["precision"], o["linewidth"], o["threshold"])'),
    ('printoptions as a context', 'import numpy as np\nwith np.printoptions(precision=2, suppress=True):\n    print(np.array([1.23456, 1e-9]))\nprint(np.array([1.23456, 1e-9]))'),
    ('bad options raise as numpy does', 'import numpy as np\nfor kw in ({"floatmode": "x"}, {"sign": "*"}, {"threshold": float("nan")}, {"precision": 1.5}):\n    try:\n        np.set_printoptions(**kw)\n    except (ValueError, TypeError) as e:\n        print(type(e).__name__, e)'),
    ('precision of eager tensors follows numpy', 'import numpy as np\nnp.set_printoptions(precision=2)\nprint(np.array([[1.23456, 2.]], dtype=np.float32))'),
])

group('np.array2string, array_str, array_repr and format_float_* agree with numpy', [
    ('array2string separator', 'import numpy as np\nprint(np.array2string(np.array([1., 2., 3.]), separator=", "))'),
    ('array2string overrides', 'import numpy as np\nprint(np.array2string(np.array([1.23456, 2.]), precision=2))\nprint(np.array2string(np.arange(100), max_line_width=40, threshold=20, edgeitems=2))'),
    ('array2string prefix', 'import numpy as np\nprint("x = " + np.array2string(np.arange(30) / 3, prefix="x = "))'),
    ('array_str and array_repr', 'import numpy as np\nprint(np.array_str(np.array([1.5, 2.])), np.array_repr(np.array([1, 2], dtype=np.int32)))\nprint(np.array_repr(np.array([1e-6, 4e-7, 2., 3.]), precision=6, suppress_small=True))'),
    ('format_float_positional', 'import numpy as np\nprint(np.format_float_positional(np.float32(3.14159265)), np.format_float_positional(np.float16(0.3)), np.format_float_positional(np.float16(0.3), unique=False, precision=10))\nprint(np.format_float_positional(0.5, precision=0), np.format_float_positional(2.5, precision=0, trim="-"))'),
    ('format_float_scientific', 'import numpy as np\nprint(np.format_float_scientific(np.float32(np.pi)), np.format_float_scientific(1.23e24, exp_digits=4))\nprint(np.format_float_scientific(np.float32(1.23e24), unique=False, precision=15))'),
    ('str() and format of arrays in text', 'import numpy as np\na = np.array([0.5, 1.])\nprint("a = %s" % a, "a = {}".format(a), "a = " + str(a))'),
    ('lists of arrays use repr', 'import numpy as np\nprint([np.array([1., 2.]), np.array([3], dtype=np.int32)])\nprint((np.float32(0.5), np.int64(2)))'),
])

group('eager tensors and variables print their numpy value as TensorFlow does', [
    ('a 2-d tensor', 'import tensorflow as tf\na = tf.constant([[1., 2.], [3., 4.]])\nprint(a)\nprint(repr(a))'),
    ('a 1-d tensor', 'import tensorflow as tf\nprint(tf.constant([1, 2, 3]))\nprint(repr(tf.constant([1.5, 2.])))'),
    ('scalars', 'import tensorflow as tf\nprint(tf.constant(1.5))\nprint(repr(tf.constant(0.1)), repr(tf.constant(True)), repr(tf.constant(7)))'),
    ('variables', 'import tensorflow as tf\nv = tf.Variable([1., 2.])\nprint(v)\nprint(repr(tf.Variable([[1., 2.], [3., 4.]])))\nprint(tf.Variable(3.0))'),
    ('numpy() of a tensor', 'import tensorflow as tf\nprint(tf.constant([[0.5, -1.25]]).numpy())'),
    ('float64 and int64 tensors', 'import tensorflow as tf\nimport numpy as np\nprint(repr(tf.constant(np.array([1., 2.]))))\nprint(tf.constant(np.array([[1, 2]])))'),
    ('a tiny value switches the tensor to scientific', 'import tensorflow as tf\nprint(tf.constant([1e-5, 1.]))'),
    ('a long tensor wraps', 'import tensorflow as tf\nimport numpy as np\nprint(tf.constant(np.arange(40, dtype=np.float32) / 3))'),
], tf=True)
