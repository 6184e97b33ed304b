// TensorFlow functions that tutorials use, checked against TensorFlow's documented results:
// tensordot, diag, truncatediv/truncatemod, tf.where with one argument and TF1's row-selecting
// tf.where, zeros of a scalar size, get_variable with a tensor initializer, Graph.as_graph_def.
#include "TfTestSupport.h"

using namespace tlens;
using namespace tlens::tf;
using namespace tlens::tf::testing;
using interp::Mode;

TEST_CASE("tensordot, diag and truncated division follow TensorFlow", "[tf]") {
  TfRun r = runTf(R"(
import numpy as np
import tensorflow as tf
a = tf.constant(np.arange(24, dtype=np.float32).reshape(2, 3, 4))
b = tf.constant(np.ones((4, 5), dtype=np.float32))
td = tf.tensordot(a, b, 1)
td2 = tf.tensordot(a, tf.ones([3, 4]), [[1, 2], [0, 1]])
d = tf.diag([1, 2, 3])
q = tf.truncatediv(tf.constant([-7, 7, -7]), tf.constant([2, 2, -2]))
m = tf.truncatemod(tf.constant([-7, 7]), tf.constant([2, -2]))
z = tf.zeros(3)
with tf.Session() as sess:
    tdv = sess.run(td)[1, 2].tolist()
    td2v = sess.run(td2).tolist()
    dv = sess.run(d).tolist()
    qv = sess.run(q).tolist()
    mv = sess.run(m).tolist()
    zv = sess.run(z).tolist()
)", Mode::Concrete, ApiStyle::Graph);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.type("td") == "float32[2, 3, 5]");
  CHECK(r.repr("tdv") == "[86.0, 86.0, 86.0, 86.0, 86.0]");  // 20 + 21 + 22 + 23
  CHECK(r.repr("td2v") == "[66.0, 210.0]");
  CHECK(r.repr("dv") == "[[1, 0, 0], [0, 2, 0], [0, 0, 3]]");
  CHECK(r.repr("qv") == "[-3, 3, 3]");
  CHECK(r.repr("mv") == "[-1, 1]");
  CHECK(r.repr("zv") == "[0.0, 0.0, 0.0]");
}

TEST_CASE("tf.where with one argument gives coordinates, and TF1's tf.where selects rows", "[tf]") {
  TfRun r = runTf(R"(
import tensorflow as tf
c = tf.where(tf.constant([[True, False], [True, True]]))
rows = tf.where(tf.constant([True, False]), tf.constant([[1, 2], [3, 4]]), tf.constant([[5, 6], [7, 8]]))
with tf.Session() as sess:
    cv = sess.run(c).tolist()
    rv = sess.run(rows).tolist()
)", Mode::Concrete, ApiStyle::Graph);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.type("c") == "int64[?, 2]");
  CHECK(r.repr("cv") == "[[0, 0], [1, 0], [1, 1]]");
  CHECK(r.repr("rv") == "[[1, 2], [7, 8]]");
}

TEST_CASE("get_variable takes a tensor as its initializer, and as_graph_def lists the nodes", "[tf]") {
  TfRun r = runTf(R"(
import tensorflow as tf
s = tf.get_variable("scalar", initializer=tf.constant(2))
m = tf.get_variable("matrix", initializer=tf.constant([[0, 1], [2, 3]]))
gd = tf.get_default_graph().as_graph_def()
names = [n.name for n in gd.node][:2]
text = str(gd)
)", Mode::Concrete, ApiStyle::Graph);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.type("s") == "int32[]");
  CHECK(r.type("m") == "int32[2, 2]");
  CHECK(r.repr("names") == "['Const', 'scalar']");
  CHECK(r.repr("text").find("node {\\n  name: \"scalar\"\\n  op: \"VariableV2\"") != std::string::npos);
}

TEST_CASE("tf.layers objects share their variables across calls, and TF2 aliases resolve to Keras", "[tf]") {
  TfRun r = runTf(R"(
import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 4])
layer = tf.layers.Dense(3, name="fc")
a = layer(x)
b = layer(x)
names = [v.name for v in tf.global_variables()]
own = [v.name for v in layer.trainable_variables]
kinds = [tf.initializers.GlorotUniform.__name__, tf.optimizers.Adam.__name__,
         tf.losses.SparseCategoricalCrossentropy.__name__, tf.arg_max.__name__]
with tf.Session() as sess:
    lin = sess.run(tf.linspace(0.0, 1.0, 5)).tolist()
try:
    tf.optimizers.NoSuchOptimizer
    missing = "found"
except AttributeError:
    missing = "AttributeError"
)", Mode::Concrete, ApiStyle::Graph);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("names") == "['fc/kernel:0', 'fc/bias:0']");
  CHECK(r.repr("own") == "['fc/kernel:0', 'fc/bias:0']");
  CHECK(r.type("b") == "float32[batch, 3]");
  CHECK(r.repr("kinds") == "['GlorotUniform', 'Adam', 'SparseCategoricalCrossentropy', 'argmax']");
  CHECK(r.repr("lin") == "[0.0, 0.25, 0.5, 0.75, 1.0]");
  CHECK(r.repr("missing") == "'AttributeError'");
}

TEST_CASE("tf.matrix_determinant and tf.linalg.inv", "[tf]") {
  TfRun r = runTf(R"(
import tensorflow as tf
m = tf.constant([[1.0, 2.0], [3.0, 4.0]])
d = tf.matrix_determinant(m)
inv = tf.linalg.inv(m)
with tf.Session() as sess:
    dv = round(float(sess.run(d)), 4)
    iv = [[round(float(x), 4) for x in row] for row in sess.run(inv).tolist()]
)", Mode::Concrete, ApiStyle::Graph);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.type("d") == "float32[]");
  CHECK(r.repr("dv") == "-2.0");
  CHECK(r.repr("iv") == "[[-2.0, 1.0], [1.5, -0.5]]");
}

TEST_CASE("TensorFlow ops given numpy arrays return tensors, in graphs and eagerly", "[tf]") {
  // Once a segfault: tf.Variable(<numpy array>) while building a graph, in `run` and `check`.
  const char* graphSrc = R"(
import numpy as np
import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 2])
A = tf.Variable(np.zeros((2, 3), dtype=np.float32))
y = tf.matmul(x, A)
c = tf.constant(np.ones((2, 2)))
kind = type(c).__name__
)";
  for (Mode mode : {Mode::Concrete, Mode::Abstract}) {
    TfRun r = runTf(graphSrc, mode, ApiStyle::Graph);
    INFO(r.err << r.diagnostics());
    REQUIRE(r.status == 0);
    CHECK(r.type("A") == "float32[2, 3]");
    CHECK(r.type("y") == "float32[batch, 3]");
    CHECK(r.type("c") == "float64[2, 2]");
  }
  TfRun eager = runTf(R"(
import numpy as np
import tensorflow as tf
p = tf.nn.softmax(np.array([[1.0, 1.0]], dtype=np.float32)).numpy().tolist()
t = tf.constant([1.0, 2.0])
mixed = (np.array([2.0, 2.0]) * t).dtype.name
)", Mode::Concrete, ApiStyle::Eager);
  INFO(eager.err);
  REQUIRE(eager.status == 0);
  CHECK(eager.repr("p") == "[[0.5, 0.5]]");
  CHECK(eager.repr("mixed") == "'float32'");  // the tensor's __rmul__ converts the array to its dtype
}

TEST_CASE("tf.unique gives the distinct values in order and each element's index", "[tf]") {
  TfRun r = runTf(R"(
import tensorflow as tf
x = tf.constant([5, 1, 5, 7, 1])
y, idx = tf.unique(x)
with tf.Session() as sess:
    yv, iv = sess.run([y, idx])
    out = [yv.tolist(), iv.tolist()]
)", Mode::Concrete, ApiStyle::Graph);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.type("y") == "int32[?]");
  CHECK(r.type("idx") == "int32[5]");
  CHECK(r.repr("out") == "[[5, 1, 7], [0, 1, 0, 2, 1]]");
}

TEST_CASE("tf.einsum agrees with numpy's einsum on contractions, transposes and sums", "[tf]") {
  TfRun r = runTf(R"(import numpy as np
import tensorflow as tf
a = np.arange(6, dtype=np.float32).reshape(2, 3); b = np.arange(12, dtype=np.float32).reshape(3, 4)
c = np.arange(30, dtype=np.float32).reshape(5, 2, 3); d = np.arange(60, dtype=np.float32).reshape(5, 3, 4)
out = []
for eq, ops in [("ij,jk->ik", (a, b)), ("bij,bjk->bik", (c, d)), ("ij->ji", (a,)), ("ij->", (a,)), ("ij,kj->ik", (a, a)), ("ij,jk", (a, b)), ("ij->j", (a,))]:
    x = tf.einsum(eq, *[tf.constant(o) for o in ops]).numpy()
    out.append((x.shape, x.reshape(-1).tolist()[:4]))
try:
    tf.einsum("ij,jk->ik", tf.constant(a))
except ValueError as e:
    err = str(e)
)");
  INFO(r.err);
  REQUIRE(r.status == 0);
  // numpy 1.24's np.einsum (/usr/bin/python3) on the same arrays.
  CHECK(r.repr("out") ==
        "[((2, 4), [20.0, 23.0, 26.0, 29.0]), ((5, 2, 4), [20.0, 23.0, 26.0, 29.0]), ((3, 2), [0.0, 3.0, 1.0, 4.0]), "
        "((), [15.0]), ((2, 2), [5.0, 14.0, 14.0, 50.0]), ((2, 4), [20.0, 23.0, 26.0, 29.0]), ((3,), [3.0, 5.0, 7.0])]");
  CHECK(r.repr("err").find("Expected 2 inputs, got 1") != std::string::npos);
}

TEST_CASE("tf.app.flags take defaults and command-line values, tf.logging writes at its verbosity", "[tf]") {
  TfRun r = runTf(R"(import sys
import tensorflow as tf
sys.argv = ["prog", "--epochs=5", "--fast", "--lr", "0.5"]
flags = tf.app.flags
flags.DEFINE_integer("epochs", 3, "n")
flags.DEFINE_float("lr", 0.1, "lr")
flags.DEFINE_boolean("fast", False, "f")
flags.DEFINE_string("name", "x", "s")
F = tf.flags.FLAGS
vals = (F.epochs, F.lr, F.fast, F.name)
try:
    F.missing
except AttributeError as e:
    err = str(e)
tf.logging.info("hidden")
tf.logging.set_verbosity(tf.logging.INFO)
tf.logging.info("shown %d", 3)
)");
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("vals") == "(5, 0.5, True, 'x')");
  CHECK(r.repr("err").find("missing") != std::string::npos);
  CHECK(r.err.find("hidden") == std::string::npos);
  CHECK(r.err.find("INFO:tensorflow:shown 3") != std::string::npos);
}

TEST_CASE("tf.random.uniform with an integer dtype draws integers in [minval, maxval)", "[tf]") {
  const char* src = R"(import tensorflow as tf
x = tf.random.uniform([1000], minval=3, maxval=7, dtype=tf.int32)
y = tf.random.uniform([2, 2], maxval=10, dtype=tf.int64)
try:
    tf.random.uniform([2], dtype=tf.int32)
    err = None
except ValueError as e:
    err = str(e)
)";
  TfRun r = runTf(std::string(src) + "seen = sorted(set(x.numpy().tolist()))\n", Mode::Concrete, ApiStyle::Eager);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.type("x") == "int32[1000]");
  CHECK(r.type("y") == "int64[2, 2]");
  CHECK(r.repr("seen") == "[3, 4, 5, 6]");
  CHECK(r.repr("err") == "'Must specify maxval for integer dtype tf.int32'");
  TfRun a = runTf(src, Mode::Abstract, ApiStyle::Eager);
  CHECK(a.diagnostics() == "");
  CHECK(a.type("x") == "int32[1000]");
}

TEST_CASE("tf.errors has every TensorFlow status class and code, each an OpError", "[tf]") {
  TfRun r = runTf(R"(import tensorflow as tf
names = ['CancelledError', 'UnknownError', 'InvalidArgumentError', 'DeadlineExceededError', 'NotFoundError',
         'AlreadyExistsError', 'PermissionDeniedError', 'ResourceExhaustedError', 'FailedPreconditionError',
         'AbortedError', 'OutOfRangeError', 'UnimplementedError', 'InternalError', 'UnavailableError',
         'DataLossError', 'UnauthenticatedError']
print([getattr(tf.errors, n).error_code for n in names])
print(all(issubclass(getattr(tf.errors, n), tf.errors.OpError) for n in names), tf.errors.OK, tf.errors.DEADLINE_EXCEEDED)
try:
    raise tf.errors.DeadlineExceededError(None, None, 'too slow')
except tf.errors.OpError as e:
    print(type(e).__name__, e.message, e.error_code)
)");
  INFO(r.err);
  CHECK(r.status == 0);
  CHECK(r.out == "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]\n"
                 "True 0 4\n"
                 "DeadlineExceededError too slow 4\n");
}

TEST_CASE("tf.train.import_meta_graph refuses with a NotImplementedError that says why and what to do", "[tf]") {
  TfRun r = runTf("import tensorflow as tf\n"
                  "try:\n"
                  "    tf.train.import_meta_graph('./model.ckpt.meta')\n"
                  "except NotImplementedError as e:\n"
                  "    msg = str(e)\n",
                  Mode::Concrete, ApiStyle::Graph);
  INFO(r.err);
  CHECK(r.status == 0);
  CHECK(r.repr("msg").find("cannot rebuild a graph from a MetaGraphDef") != std::string::npos);
  CHECK(r.repr("msg").find("Saver().restore") != std::string::npos);
}

TEST_CASE("Python ints become int32 tensors, int64 when one does not fit, and an explicit int32 refuses them", "[tf]") {
  // TensorFlow's py_seq_tensor.cc: ints infer int32 and fall back to int64; int32 asked for and
  // out of range is "Can't convert Python sequence with out-of-range integer to int32 Tensor."
  // Before, 2**40 went through a double and a float-to-int conversion C++ leaves undefined
  // (found by the analyser fuzzer under UBSan), and 2**60 + 1 lost its last bit.
  TfRun r = runTf(R"(
import tensorflow as tf
small = tf.constant([1, 2])
big = tf.constant([1, 2**40])
exact = tf.constant(2**60 + 1, dtype=tf.int64)
try:
    tf.constant([2**40], dtype=tf.int32)
    msg = "no error"
except ValueError as e:
    msg = str(e)
print(small.dtype.name, big.dtype.name, big.numpy().tolist(), exact.numpy() == 2**60 + 1, msg)
)");
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.out == "int32 int64 [1, 1099511627776] True Can't convert Python sequence with out-of-range integer to int32 Tensor.\n");
  TfRun a = runTf("import tensorflow as tf\nbig = tf.constant([1, 2**40])\nz = tf.zeros([90**6, 10**6])\n", Mode::Abstract);
  CHECK(a.type("big") == "int64[2]");
  CHECK(a.type("z") == "float32[531441000000, 1000000]");
}

TEST_CASE("tf.test.TestCase: a fresh graph per test, test sessions, array assertions and tf.test.main", "[tf]") {
  TfRun r = runTf(R"(
import io, re, unittest
import numpy as np
import tensorflow as tf
outer = tf.constant(1.0)
seen = []
class MathTest(tf.test.TestCase):
    def testSession(self):
        with self.test_session() as sess:
            a = tf.constant([1.0, 2.0])
            self.assertAllClose(sess.run(a + 1.0), [2.0, 3.0])
            self.assertAllEqual(a.eval(), np.array([1.0, 2.0]))
            self.assertShapeEqual(np.ones([4, 2]), tf.zeros([4, 2]))
            self.assertAllGreater(a, 0.5)
            seen.append(sess.graph is tf.get_default_graph())
    def testFreshGraph(self):
        seen.append((outer.graph is tf.get_default_graph(), len(tf.get_default_graph().get_operations())))
    def testWrong(self):
        with self.session():
            self.assertAllEqual(tf.constant([1, 2]), [1, 3])
    def testNear(self):
        self.assertNear(1.0, 1.05, 0.1)
        self.assertArrayNear([1.0, 2.0], [1.0, 2.0001], 1e-3)
        self.assertAllInRange(np.array([0.1, 0.5]), 0.0, 1.0)
        seen.append(float(self.evaluate(tf.constant(2.0))))
    def helper_not_a_test(self):
        seen.append("helper")
s = io.StringIO()
result = unittest.TextTestRunner(stream=s).run(unittest.TestLoader().loadTestsFromTestCase(MathTest))
counts = (result.testsRun, len(result.failures), len(result.errors))
failed = [str(t) for t, _ in result.failures]
try:
    tf.test.main(argv=["prog", "MathTest.testNear"])
    code = "no exit"
except SystemExit as e:
    code = e.code
)", Mode::Concrete, ApiStyle::Graph);
  INFO(r.err);
  REQUIRE(r.status == 0);
  // test_session is collected as a test, as unittest does in TensorFlow (calling it enters nothing).
  CHECK(r.repr("counts") == "(5, 1, 0)");
  CHECK(r.repr("failed") == "['testWrong (__main__.MathTest.testWrong)']");
  CHECK(r.repr("seen") == "[(False, 0), 2.0, True, 2.0]");
  CHECK(r.repr("code") == "False");
  CHECK_THAT(r.err, Catch::Contains("Ran 1 test in") && Catch::Contains("OK"));
}

TEST_CASE("tf.contrib.learn.preprocessing.VocabularyProcessor maps documents to padded int64 id rows as TF 1.x", "[tf]") {
  const std::string dir = (std::filesystem::temp_directory_path() / "tlens_vocab_test").string();
  std::filesystem::create_directories(dir);
  TfRun r = runTf(R"(
import numpy as np
import tensorflow as tf
from tensorflow.contrib import learn
docs = ["I like TensorFlow a lot", "i like cats", "cats like fish and fish like cats", "the HTTPServer isOK"]
vp = learn.preprocessing.VocabularyProcessor(6)
x = np.array(list(vp.fit_transform(docs)))
rows, dt, n = x.tolist(), str(x.dtype), len(vp.vocabulary_)
back = list(vp.reverse([x[1]]))
vp2 = tf.contrib.learn.preprocessing.VocabularyProcessor(4, min_frequency=1)
rows2 = np.array(list(vp2.fit_transform(docs))).tolist()
mapping = sorted(vp2.vocabulary_._mapping.items(), key=lambda kv: kv[1])
vp2.save(")" + dir + R"(/vocab.pkl")
vp3 = learn.preprocessing.VocabularyProcessor.restore(")" + dir + R"(/vocab.pkl")
again = list(vp3.transform(["cats like birds"]))[0].tolist()
)", Mode::Concrete, ApiStyle::Graph);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("rows") == "[[1, 2, 3, 4, 5, 6], [7, 2, 8, 0, 0, 0], [8, 2, 9, 10, 9, 2], [11, 12, 13, 14, 0, 0]]");
  CHECK(r.repr("dt") == "'int64'");
  CHECK(r.repr("n") == "15");
  CHECK(r.repr("back") == "['i like cats <UNK> <UNK> <UNK>']");
  // min_frequency=1 keeps words seen more than once, by descending count (like 5, cats 3, fish 2).
  CHECK(r.repr("rows2") == "[[0, 1, 0, 0], [0, 1, 2, 0], [2, 1, 3, 0], [0, 0, 0, 0]]");
  CHECK(r.repr("mapping") == "[('<UNK>', 0), ('like', 1), ('cats', 2), ('fish', 3)]");
  CHECK(r.repr("again") == "[2, 1, 0, 0]");
  std::filesystem::remove_all(dir);
}

TEST_CASE("six is embedded: six.moves' names, iteritems, string types, metaclass helpers, urllib offline", "[tf]") {
  // TF1-era programs (Google's word2vec_basic: `from six.moves import xrange, urllib`); in both
  // modes, without CPython.
  const char* src = R"(
import six
from six.moves import xrange, urllib, cPickle, reduce, zip
from six.moves.urllib.request import urlretrieve
import six.moves.urllib.parse as up
vals = [six.PY3, six.PY2, list(xrange(3)), reduce(lambda a, b: a + b, [1, 2, 3]), list(zip([1], [2]))]
more = [sorted(six.iteritems({"a": 1})), six.b("x"), six.ensure_str(b"y"), isinstance("s", six.string_types),
        up.urljoin("http://a/b/", "c"), list(six.moves.filterfalse(None, [0, 1, 2]))]
class M(six.with_metaclass(type, object)):
    pass
@six.add_metaclass(type)
class N(object):
    pass
names = (M.__name__, N.__name__, cPickle.loads(cPickle.dumps([1])))
try:
    urlretrieve("http://example.invalid/x.tgz", "x.tgz")
    err = "none"
except urllib.error.URLError as e:
    err = type(e).__name__
)";
  TfRun r = runTf(src, Mode::Concrete, ApiStyle::Graph);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("vals") == "[True, False, [0, 1, 2], 6, [(1, 2)]]");
  CHECK(r.repr("more") == "[[('a', 1)], b'x', 'y', True, 'http://a/b/c', [0]]");
  CHECK(r.repr("names") == "('M', 'N', [1])");
  CHECK(r.repr("err") == "'URLError'");
  TfRun a = runTf(src, Mode::Abstract, ApiStyle::Graph);
  CHECK(a.diagnostics() == "");
}

TEST_CASE("TensorShape's checks and merges are TensorFlow's, and tf.losses checks predictions against labels", "[tf]") {
  const char* src = R"(import tensorflow as tf
s = tf.TensorShape([None, 10])
merged = s.merge_with([32, None])
errs = []
for f in [lambda: s.merge_with([32, 5]), lambda: s.merge_with([1, 2, 3]), lambda: s.with_rank(3),
          lambda: s.assert_is_compatible_with(tf.TensorShape([None, 9])), lambda: s.assert_has_rank(1),
          lambda: s.with_rank_at_least(3), lambda: tf.TensorShape([None]).assert_is_fully_defined()]:
    try:
        f()
        errs.append("no error")
    except ValueError as e:
        errs.append(str(e))
loose = s.most_specific_compatible_shape([7, 10])
known = bool(tf.TensorShape([])), bool(tf.TensorShape(None))
x = tf.placeholder(tf.float32, [None, 13])
y = tf.placeholder(tf.float32, [None])
pred = tf.matmul(x, tf.Variable(tf.zeros([13, 1])))
ok = tf.losses.mean_squared_error(tf.expand_dims(y, 1), pred)
loss = tf.losses.mean_squared_error(y, pred)
)";
  TfRun r = runTf(src);
  CHECK(r.status == 1);
  CHECK(r.repr("merged") == "TensorShape([32, 10])");
  CHECK(r.repr("errs") == "['Shapes (?, 10) and (32, 5) are not compatible', 'Shapes (?, 10) and (1, 2, 3) are not compatible', "
                          "'Shape (?, 10) must have rank 3', 'Shapes (?, 10) and (?, 9) are incompatible', "
                          "'Shape (?, 10) must have rank 1', 'Shape (?, 10) must have rank at least 3', "
                          "'Shape (?,) is not fully defined']");
  CHECK(r.repr("loose") == "TensorShape([None, 10])");
  CHECK(r.repr("known") == "(True, False)");
  CHECK(r.err.find("ValueError: Shapes (?, 1) and (?,) are incompatible") != std::string::npos);
  CHECK(r.err.find("line 19") != std::string::npos);
  TfRun a = runTf(src, Mode::Abstract);
  INFO(a.diagnostics());
  CHECK(a.errorCount() == 1);
  CHECK(a.diagnostics().find(":19:") != std::string::npos);
}

TEST_CASE("tf.concat of one value checks its axis and returns the value, and TF 0.x's concat(axis, values) is make_tensor_proto's TypeError", "[tf]") {
  const char* src = R"(import tensorflow as tf
a = tf.placeholder(tf.float32, [None, 3])
b = tf.placeholder(tf.float32, [None, 4])
one = tf.concat(a, 1)
listed = tf.concat([b], 0)
c = tf.concat(1, [a, b])
)";
  TfRun r = runTf(src);
  CHECK(r.status == 1);
  CHECK(r.type("one") == "float32[batch, 3]");
  CHECK(r.type("listed") == "float32[batch, 4]");
  CHECK(r.err.find("TypeError: Expected int32, got list containing Tensors of type '_Message' instead.") != std::string::npos);
  TfRun a = runTf(src, Mode::Abstract);
  INFO(a.diagnostics());
  CHECK(a.errorCount() == 1);
  CHECK(a.diagnostics().find(":6:") != std::string::npos);
}

TEST_CASE("a shape error inside the user's own functions names the calls that led to it", "[tf]") {
  // A layer helper called in several places: the error's related locations say which call.
  const char* src = R"(import tensorflow as tf

def dense(x, n_in, n_out):
    w = tf.Variable(tf.zeros([n_in, n_out]))
    return tf.matmul(x, w)

def model(x):
    h = dense(x, 784, 128)
    return dense(h, 64, 10)

logits = model(tf.placeholder(tf.float32, [None, 784]))
)";
  TfRun a = runTf(src, Mode::Abstract);
  INFO(a.diagnostics());
  REQUIRE(a.errorCount() == 1);
  const auto& d = a.interp->diagnostics().front();
  CHECK(d.start.line + 1 == 5);
  std::vector<std::pair<int, std::string>> notes;
  for (const auto& r : d.related) notes.emplace_back(r.start.line + 1, r.message);
  REQUIRE(notes.size() >= 4);
  CHECK(notes[notes.size() - 2] == std::make_pair(9, std::string("in the call of 'dense' here")));
  CHECK(notes[notes.size() - 1] == std::make_pair(11, std::string("in the call of 'model' here")));
}

TEST_CASE("TF1's TensorShape indexes to Dimensions with a value, TF2's to ints", "[tf]") {
  // easy-tensorflow's embedding programs: `(x_test.shape[0], fc1.get_shape()[1].value)`.
  const char* program = R"(
import numpy as np
import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 5])
s = x.get_shape()
d = s[1]
v = d.value
r = repr(d)
text = "%s %d {}".format(d) % (d, d)
twice = x.shape[1] * 2
is_dim = isinstance(d, tf.Dimension)
dims = [e if e is None else e.value for e in s]
w = tf.get_variable("w", [s[1], 3])
z = np.zeros((d, 2)).shape
batch = s[0]
unknown = (batch.value, repr(batch), str(batch), "{}".format(batch), repr(batch * 2), batch == 3)
by_shape = x.shape[0]
like_shape = str(tf.placeholder(tf.float32, [s[0], s[1]]).shape)
try:
    int(batch)
    int_error = None
except TypeError as e:
    int_error = str(e)
)";
  TfRun r = runTf(program, Mode::Concrete, ApiStyle::Graph);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("v") == "5");
  CHECK(r.repr("r") == "'Dimension(5)'");
  CHECK(r.repr("text") == "'5 5 5'");
  CHECK(r.repr("twice") == "10");
  CHECK(r.repr("is_dim") == "True");
  CHECK(r.repr("dims") == "[None, 5]");
  CHECK(r.type("w") == "float32[5, 3]");
  CHECK(r.repr("z") == "(5, 2)");
  CHECK(r.repr("batch") == "Dimension(None)");
  CHECK(r.repr("unknown") == "(None, 'Dimension(None)', '?', '?', 'Dimension(None)', None)");
  CHECK(r.repr("by_shape") == "None");  // `.shape[i]` keeps None (see _UnknownDimension)
  CHECK(r.repr("like_shape") == "'(?, 5)'");
  CHECK(r.repr("int_error") == "\"int() argument must be a string, a bytes-like object or a real number, not 'NoneType'\"");

  TfRun a = runTf(program, Mode::Abstract, ApiStyle::Graph);
  CHECK(a.diagnostics() == "");

  TfRun eager = runTf(R"(
import tensorflow as tf
d = tf.zeros([2, 5]).shape[1]
kind = type(d).__name__
try:
    d.value
    err = None
except AttributeError as e:
    err = str(e)
)", Mode::Concrete, ApiStyle::Eager);
  INFO(eager.err);
  REQUIRE(eager.status == 0);
  CHECK(eager.repr("kind") == "'int'");
  CHECK(eager.repr("err") == "\"'int' object has no attribute 'value'\"");
}

TEST_CASE("tf.py_func runs Python on each run's values and checks its results' dtypes as TensorFlow does", "[tf]") {
  const char* program = R"(
import numpy as np
import tensorflow as tf
x = tf.placeholder(tf.float32, [None])
calls = []
def double(a):
    calls.append(a.dtype.name)
    return (a * 2).astype(np.float32)
y = tf.py_func(double, [x], tf.float32) + 1
two = tf.py_func(lambda a, b: [a + b, np.int64(len(a))], [x, x], [tf.float32, tf.int64])
wrong = tf.py_func(lambda a: a * 2.0, [tf.cast(x, tf.float64)], tf.float32)
count = tf.py_func(lambda a: [a, a], [x], [tf.float32])
with tf.Session() as sess:
    yv = sess.run(y, {x: [1, 2]}).tolist()
    tv = [v.tolist() for v in sess.run(two, {x: [1, 2]})]
    errors = []
    for t in (wrong, count):
        try:
            sess.run(t, {x: [1.0]})
        except tf.errors.InvalidArgumentError as e:
            errors.append(e.message)
static = str(y.shape)
)";
  TfRun r = runTf(program, Mode::Concrete, ApiStyle::Graph);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("yv") == "[3.0, 5.0]");
  CHECK(r.repr("tv") == "[[2.0, 4.0], 2]");
  CHECK(r.repr("calls") == "['float32']");
  CHECK(r.repr("errors") == "['0-th value returned by pyfunc_2 is double, but expects float', "
                            "'pyfunc_3 returns 2 values, but expects to see 1 values.']");
  CHECK(r.repr("static") == "'<unknown>'");

  TfRun a = runTf(program, Mode::Abstract, ApiStyle::Graph);
  CHECK(a.diagnostics() == "");

  TfRun e = runTf(R"(
import numpy as np
import tensorflow as tf
n = tf.numpy_function(lambda a: a * 2, [tf.constant([1, 2, 3])], tf.int32).numpy().tolist()
try:  # numpy sums int32 to int64, and TensorFlow does not cast a result
    tf.numpy_function(lambda a: a.sum(), [tf.constant([1, 2, 3])], tf.int32)
    summed = None
except tf.errors.InvalidArgumentError as err:
    summed = err.message
p = tf.py_function(lambda a: a * 2, [tf.constant([1.5])], tf.float32).numpy().tolist()
)", Mode::Concrete, ApiStyle::Eager);
  INFO(e.err);
  REQUIRE(e.status == 0);
  CHECK(e.repr("n") == "[2, 4, 6]");
  CHECK(e.repr("summed") == "'0-th value returned by pyfunc_1 is int64, but expects int32'");
  CHECK(e.repr("p") == "[3.0]");
}

TEST_CASE("SparseTensor, sparse_placeholder and to_dense: fed and fetched as TensorFlow's structures", "[tf]") {
  const char* program = R"(
import numpy as np
import tensorflow as tf
st = tf.SparseTensor(indices=[[0, 0], [1, 2]], values=[1.0, 2.0], dense_shape=[3, 4])
d = tf.sparse_tensor_to_dense(st)
sp = tf.sparse_placeholder(tf.float32, name="bow")
y = tf.sparse_tensor_dense_matmul(sp, tf.ones([4, 2]))
static = (str(st.shape), str(d.shape), st.dtype.name, sp.indices.name, str(sp.shape))
with tf.Session() as sess:
    dv = sess.run(d).tolist()
    v = sess.run(st)
    kind = type(v).__name__
    parts = (v.indices.tolist(), v.values.tolist(), v.dense_shape.tolist())
    yv = sess.run(y, {sp: tf.SparseTensorValue([[0, 1], [2, 3]], [3.0, 4.0], [3, 4])}).tolist()
    tv = sess.run(tf.sparse.to_dense(sp, -1.0), {sp: (np.array([[0, 1]]), np.array([5.0], np.float32), [2, 2])}).tolist()
)";
  TfRun r = runTf(program, Mode::Concrete, ApiStyle::Graph);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("static") == "('(3, 4)', '(3, 4)', 'float32', 'bow/indices:0', '<unknown>')");
  CHECK(r.repr("dv") == "[[1.0, 0.0, 0.0, 0.0], [0.0, 0.0, 2.0, 0.0], [0.0, 0.0, 0.0, 0.0]]");
  CHECK(r.repr("kind") == "'SparseTensorValue'");
  CHECK(r.repr("parts") == "([[0, 0], [1, 2]], [1.0, 2.0], [3, 4])");
  CHECK(r.repr("yv") == "[[3.0, 3.0], [0.0, 0.0], [4.0, 4.0]]");
  CHECK(r.repr("tv") == "[[-1.0, 5.0], [-1.0, -1.0]]");

  TfRun a = runTf(program, Mode::Abstract, ApiStyle::Graph);
  CHECK(a.diagnostics() == "");

  TfRun e = runTf(R"(
import tensorflow as tf
st = tf.SparseTensor(indices=[[0, 1]], values=[7], dense_shape=[2, 2])
ev = tf.sparse.to_dense(st).numpy().tolist()
)", Mode::Concrete, ApiStyle::Eager);
  INFO(e.err);
  REQUIRE(e.status == 0);
  CHECK(e.repr("ev") == "[[0, 7], [0, 0]]");
}

TEST_CASE("tf.get_logger is Python's 'tensorflow' logger", "[tf]") {
  TfRun r = runTf(R"(
import logging
import tensorflow as tf
logger = tf.get_logger()
logger.setLevel(logging.ERROR)
same = logger is logging.getLogger("tensorflow")
info = (logger.name, logger.level)
)", Mode::Concrete, ApiStyle::Eager);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("same") == "True");
  CHECK(r.repr("info") == "('tensorflow', 40)");
}
