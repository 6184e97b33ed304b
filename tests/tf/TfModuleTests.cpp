// The tensorflow / numpy modules: the same program text in abstract mode (types only) and
// concrete mode (values), TF1 graphs and TF2 eager code.
#include <filesystem>
#include <fstream>
#include <sstream>

#include "engine/runtime/PrintSink.h"
#include "lang/tf/exec/Agreement.h"
#include "TfTestSupport.h"

using namespace tlens;
using namespace tlens::tf;
using namespace tlens::tf::testing;
using interp::Mode;

static const char* kMlp = R"(
import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 784], name="x")
w = tf.Variable(tf.zeros([784, 256]), name="w")
h = tf.nn.relu(tf.matmul(x, w))
flat = tf.reshape(h, [-1, 16 * 16])
n = 7 * 7 * 64
conv_in = tf.reshape(x, [-1, 28, 28, 1])
y = tf.reduce_mean(h, axis=1)
s = tf.shape(x)[0]
)";

TEST_CASE("abstract mode gives TF1 graph tensors their static shapes and dtypes", "[tf]") {
  TfRun r = runTf(kMlp, Mode::Abstract);
  CHECK(r.diagnostics() == "");
  CHECK(r.type("x") == "float32[batch, 784]");
  CHECK(r.type("h") == "float32[batch, 256]");
  CHECK(r.type("flat") == "float32[batch, 256]");
  CHECK(r.type("conv_in") == "float32[batch, 28, 28, 1]");
  CHECK(r.type("y") == "float32[batch]");
  CHECK(r.type("s") == "int32[]");
}

TEST_CASE("concrete mode builds the same graph and names nodes like TensorFlow", "[tf]") {
  TfRun r = runTf(std::string(kMlp) + "name = h.name\n");
  REQUIRE(r.status == 0);
  CHECK(r.type("h") == "float32[batch, 256]");
  CHECK(r.repr("name") == "'Relu:0'");
}

TEST_CASE("a matmul with mismatched inner dimensions is a diagnostic with both shapes' origins", "[tf]") {
  const char* src = R"(import tensorflow as tf
a = tf.placeholder(tf.float32, [None, 3])
b = tf.Variable(tf.zeros([4, 5]))
c = tf.matmul(a, b)
d = tf.nn.relu(c)
)";
  TfRun r = runTf(src, Mode::Abstract);
  REQUIRE(r.interp->diagnostics().size() == 1);
  const auto& d = r.interp->diagnostics()[0];
  CHECK(d.message.find("Dimensions must be equal, but are 3 and 4") != std::string::npos);
  CHECK(d.start.line == 3);
  REQUIRE(d.related.size() == 2);
  CHECK(d.related[0].start.line == 1);
  CHECK(d.related[1].start.line == 2);

  TfRun c = runTf(src);
  CHECK(c.status == 1);
  CHECK(c.err.find("ValueError: Dimensions must be equal, but are 3 and 4") != std::string::npos);
  CHECK(c.err.find("line 4") != std::string::npos);
}

TEST_CASE("an unknown value never produces a diagnostic", "[tf]") {
  TfRun r = runTf(R"(import tensorflow as tf
import sys
n = int(sys.argv[1]) if len(sys.argv) > 1 else unknown_thing()
a = tf.placeholder(tf.float32, [None, n])
b = tf.zeros([5, 6])
c = tf.matmul(a, b)
d = tf.reshape(c, [-1, n])
)", Mode::Abstract);
  CHECK(r.diagnostics().find("shape-error") == std::string::npos);
}

TEST_CASE("Session.run computes values and returns numpy arrays in the fetch structure", "[tf]") {
  TfRun r = runTf(R"(import tensorflow as tf
a = tf.constant([[1.0, 2.0], [3.0, 4.0]])
b = tf.placeholder(tf.float32, [2, 2])
c = tf.matmul(a, b)
v = tf.Variable(tf.ones([2]))
inc = tf.assign_add(v, [1.0, 2.0])
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    out = sess.run({"c": c, "pair": [c, inc]}, feed_dict={b: [[1, 0], [0, 1]]})
    after = sess.run(v)
print(out["c"].tolist(), out["pair"][1].tolist(), after.tolist(), type(after).__name__)
)");
  REQUIRE(r.status == 0);
  CHECK(r.out == "[[1.0, 2.0], [3.0, 4.0]] [2.0, 3.0] [2.0, 3.0] ndarray\n");
}

TEST_CASE("a feed of the wrong shape: TensorFlow's ValueError, and a diagnostic before running", "[tf]") {
  const char* src = R"(import tensorflow as tf
import numpy as np
x = tf.placeholder(tf.float32, [None, 19], name="x")
y = x * 2.0
data = np.zeros((19,))
with tf.Session() as sess:
    sess.run(y, feed_dict={x: data})
)";
  TfRun c = runTf(src);
  CHECK(c.status == 1);
  CHECK(c.err.find("ValueError: Cannot feed value of shape (19,) for Tensor 'x:0', which has shape '(?, 19)'") !=
        std::string::npos);
  TfRun a = runTf(src, Mode::Abstract);
  CHECK(a.diagnostics().find("main.py:7:5: error: Cannot feed value of shape (19,) for Tensor 'x:0', which has shape '(?, 19)' [feed-shape]") !=
        std::string::npos);
}

TEST_CASE("check-numerics names the first node that produced -inf and its input's zeros", "[tf]") {
  TfOptions o;
  o.checkNumerics = true;
  TfRun r = runTf(R"(import tensorflow as tf
y = tf.nn.softmax(tf.constant([[0.0, 200.0]]), name="softmax")
with tf.name_scope("cross_entropy"):
    loss = -tf.reduce_sum(tf.log(y))
sess = tf.Session()
sess.run(loss)
)", Mode::Concrete, std::nullopt, o);
  CHECK(r.status == 1);
  CHECK(r.err.find("Node cross_entropy/Log (Log) on /cpu:0 produced 1 -Inf") != std::string::npos);
  CHECK(r.err.find("created at main.py:4:") != std::string::npos);
  CHECK(r.err.find("zeros=1") != std::string::npos);
}

TEST_CASE("eager TF2 code runs ops now and GradientTape differentiates through variables", "[tf]") {
  TfRun r = runTf(R"(import tensorflow as tf
w = tf.Variable([[2.0], [3.0]])
x = tf.constant([[1.0, 4.0]])
with tf.GradientTape() as tape:
    y = tf.reduce_sum(tf.matmul(x, w) ** 2)
g = tape.gradient(y, w)
print(y.numpy(), g.numpy().tolist())
)");
  REQUIRE(r.status == 0);
  CHECK(r.out == "196.0 [[28.0], [112.0]]\n");
  TfRun a = runTf(R"(import tensorflow as tf
w = tf.Variable([[2.0], [3.0]])
x = tf.constant([[1.0, 4.0]])
with tf.GradientTape() as tape:
    y = tf.reduce_sum(tf.matmul(x, w) ** 2)
g = tape.gradient(y, w)
)", Mode::Abstract);
  CHECK(a.type("g") == "float32[2, 1]");
  CHECK(a.type("y") == "float32[]");
}

TEST_CASE("numpy arrays follow numpy's dtypes and promotion", "[tf][numpy]") {
  TfRun r = runTf(R"(import numpy as np
a = np.zeros((2, 3))
b = np.array([1, 2, 3])
c = a + b
d = b / 2
e = np.random.rand(4, 5).astype(np.float32)
f = e.reshape(-1)
g = np.argmax(e, axis=1)
print(a.shape, a.dtype, b.dtype, c.dtype, d.dtype, e.dtype, f.shape, g.shape, g.dtype)
)");
  REQUIRE(r.status == 0);
  CHECK(r.out == "(2, 3) float64 int64 float64 float64 float32 (20,) (4,) int64\n");
  TfRun a = runTf(R"(import numpy as np
e = np.random.rand(4, 5).astype(np.float32)
f = e.reshape(-1)
)", Mode::Abstract);
  CHECK(a.type("e") == "float32[4, 5]");
  CHECK(a.type("f") == "float32[20]");
}

TEST_CASE("abstract mode never runs kernels: tf.Print and Session.run print nothing", "[tf]") {
  std::vector<std::string> lines;
  PrintSink old = setPrintSink([&](const std::string& l) { lines.push_back(l); });
  TfRun r = runTf(R"(import tensorflow as tf
x = tf.constant([1.0, 2.0])
p = tf.Print(x, [x], "value: ")
sess = tf.Session()
v = sess.run(p)
while True:
    v = sess.run(p)
)", Mode::Abstract);
  setPrintSink(old);
  CHECK(lines.empty());
  CHECK(r.type("v") == "float32[2]");
}

TEST_CASE("the same program runs in concrete mode and prints through tf.Print", "[tf]") {
  std::vector<std::string> lines;
  PrintSink old = setPrintSink([&](const std::string& l) { lines.push_back(l); });
  TfRun r = runTf(R"(import tensorflow as tf
x = tf.constant([1.0, 2.0])
p = tf.Print(x, [x], "value: ")
sess = tf.Session()
v = sess.run(p)
)");
  setPrintSink(old);
  REQUIRE(lines.size() == 1);
  CHECK(lines[0] == "value: [1 2]");
}

TEST_CASE("every example agrees: abstract types are what concrete mode observes", "[tf][agreement]") {
  namespace fs = std::filesystem;
  int programs = 0;
  for (const auto& e : fs::directory_iterator(fs::path(TLENS_SOURCE_DIR) / "examples")) {
    if (e.path().extension() != ".py") continue;
    std::ifstream f(e.path());
    std::stringstream ss;
    ss << f.rdbuf();
    AgreementReport rep = checkAgreement(e.path().string(), ss.str());
    INFO(e.path().string() << ": " << rep.str() << "\n" << rep.concreteErrors);
    CHECK(rep.disagreements.empty());
    ++programs;
  }
  CHECK(programs >= 6);
}

TEST_CASE("tf.function traces once per input signature and replays through the eager context", "[tf][function]") {
  TfRun r = runTf(R"(import tensorflow as tf
v = tf.Variable(1.0)
traces = []

@tf.function
def step(x):
    traces.append(x.shape)
    v.assign_add(tf.reduce_sum(x))
    return x * v

a = step(tf.constant([1.0, 2.0]))
b = step(tf.constant([3.0, 4.0]))
c = step(tf.constant([[1.0]]))
w = tf.Variable(3.0)

@tf.function
def sq(x):
    return w * x * x

with tf.GradientTape() as tape:
    y = sq(tf.constant(2.0))
g = tape.gradient(y, w)

@tf.function
def branchy(x):
    if tf.reduce_sum(x) > 0:
        return x + 1.0
    return x - 1.0

d = branchy(tf.constant([1.0]))
print(len(traces), a.numpy().tolist(), b.numpy().tolist(), float(v.numpy()), float(g.numpy()), d.numpy().tolist())
)");
  INFO(r.err);
  REQUIRE(r.status == 0);
  // Two signatures ([2] and [1, 1]); assignments persist between calls; the tape sees the ops.
  CHECK(r.out == "2 [4.0, 8.0] [33.0, 44.0] 12.0 4.0 [2.0]\n");
}

TEST_CASE("tf.function replays what its results and stateful ops need and skips the rest", "[tf][function]") {
  const char* body = R"(
tf.random.set_seed(1)
counter = tf.Variable(0.0)

@tf.function
def f(x):
    unused = tf.exp(x) * 3.0         # nothing reads it: not replayed
    counter.assign_add(1.0)          # stateful and not returned: runs at every call
    noise = tf.random.uniform([2])   # a draw nobody reads still advances the random stream
    return tf.sqrt(x)

for i in range(3):
    y = f(tf.constant([4.0, 9.0]))
after = tf.random.uniform([1])
print(float(counter.numpy()), y.numpy().tolist(), after.numpy().tolist())
)";
  auto run = [&](const std::string& prefix, std::vector<TensorRecord>& records) {
    TfRun r;
    interp::InterpOptions o;
    o.timeBudgetMs = 0;
    o.out = [&r](std::string_view s) { r.out += s; };
    o.err = [&r](std::string_view s) { r.err += s; };
    r.interp = std::make_unique<interp::Interpreter>(o);
    TfOptions options;
    options.style = ApiStyle::Eager;
    options.execution = &kernelExecution();
    r.runtime = installTensorFlow(*r.interp, options);
    r.runtime->records = &records;
    r.status = r.interp->runSource("main.py", prefix + body);
    r.runtime->records = nullptr;
    return r;
  };
  auto replayed = [](const std::vector<TensorRecord>& records, const std::string& op) {
    int n = 0;
    for (const auto& rec : records) n += rec.opType == op && !rec.symbolic;
    return n;
  };
  std::vector<TensorRecord> traced, eager;
  TfRun t = run("import tensorflow as tf\n", traced);
  INFO(t.err);
  REQUIRE(t.status == 0);
  TfRun e = run("import tensorflow as tf\ntf.config.run_functions_eagerly(True)\n", eager);
  INFO(e.err);
  REQUIRE(e.status == 0);
  CHECK(replayed(traced, "Sqrt") == 3);
  CHECK(replayed(traced, "Exp") == 0);
  CHECK(replayed(eager, "Exp") == 3);
  // The same values as running the body as Python, the stream after the calls included.
  CHECK(t.out == e.out);
  CHECK(t.out.rfind("3.0 [2.0, 3.0] [", 0) == 0);
}

TEST_CASE("tf.TensorSpec types an input_signature, and abstract mode checks that function's body", "[tf][function]") {
  const char* src = R"(import tensorflow as tf
spec = tf.TensorSpec([None, 5], tf.float32, name="x")
text = (repr(spec), str(spec.dtype), spec.shape.as_list(), spec == tf.TensorSpec([None, 5], tf.float32, name="x"))

@tf.function(input_signature=[tf.TensorSpec([None, 5], tf.float32)])
def serve(x):
    return tf.matmul(x, tf.ones([4, 2]))
)";
  TfRun a = runTf(src, Mode::Abstract, ApiStyle::Eager);
  // Never called, still checked, with the signature's types.
  CHECK(a.diagnostics().find("7:12: error: Dimensions must be equal, but are 5 and 4 for 'MatMul' (op: 'MatMul') with "
                             "input shapes: [?,5], [4,2].") != std::string::npos);
  CHECK(a.diagnostics().find("not modelled") == std::string::npos);
  TfRun c = runTf(std::string(src) + "ok = tf.function(lambda x: x * 2.0, input_signature=[spec])(tf.ones([3, 5])).shape\n",
                  Mode::Concrete, ApiStyle::Eager);
  INFO(c.err);
  REQUIRE(c.status == 0);
  CHECK(c.repr("text") == "(\"TensorSpec(shape=(None, 5), dtype=tf.float32, name='x')\", \"<dtype: 'float32'>\", "
                          "[None, 5], True)");
  CHECK(c.repr("ok") == "TensorShape([3, 5])");
}

TEST_CASE("tf.Module finds its variables and submodules, and tf.Tensor and tf.Variable answer isinstance", "[tf]") {
  const char* src = R"(import numpy as np
import tensorflow as tf

class SampleLayer(tf.Module):
    def __init__(self, name=None):
        super().__init__(name=name)
        self.x = tf.Variable([[1.0, 3.0]], name="x_trainable")
        self.y = tf.Variable(2.0, trainable=False, name="y_non_trainable")

    def __call__(self, inputs):
        return self.x * inputs + self.y

class TwoLayers(tf.Module):
    def __init__(self):
        super().__init__()
        self.layers = [SampleLayer("layer_1"), SampleLayer("layer_2")]
        self.dense = tf.keras.layers.Dense(2)

model = TwoLayers()
out = model.layers[1](model.layers[0](tf.constant(1.0)))
names = [v.name for v in model.trainable_variables]
other = [v.name for v in model.non_trainable_variables]
subs = [m.name for m in model.submodules if isinstance(m, tf.Module)]
default_name = model.name
t, v = tf.constant(1.0), model.layers[0].x
checks = (isinstance(t, tf.Tensor), isinstance(v, tf.Tensor), isinstance(v, tf.Variable), isinstance(np.zeros(2), tf.Tensor),
          isinstance(model, tf.Module), v.trainable, model.layers[0].y.trainable)
try:
    tf.Module(name="not valid")
    bad = None
except ValueError as e:
    bad = str(e)
)";
  TfRun r = runTf(src, Mode::Concrete, ApiStyle::Eager);
  INFO(r.err);
  REQUIRE(r.status == 0);
  // TensorFlow 2 does not make eager variables' names unique; attributes are walked by sorted name.
  CHECK(r.repr("names") == "['x_trainable:0', 'x_trainable:0']");
  CHECK(r.repr("other") == "['y_non_trainable:0', 'y_non_trainable:0']");
  CHECK(r.repr("subs") == "['layer_1', 'layer_2']");
  CHECK(r.repr("default_name") == "'two_layers'");
  CHECK(r.repr("checks") == "(True, False, True, False, True, True, False)");
  CHECK(r.repr("bad") == "\"'not valid' is not a valid module name. Module names must be valid Python 3 identifiers.\"");
  CHECK(r.repr("out") == "<tf.Tensor: shape=(1, 2), dtype=float32, numpy=array([[ 5., 17.]], dtype=float32)>");
  TfRun a = runTf(src, Mode::Abstract, ApiStyle::Eager);
  CHECK(a.diagnostics() == "");
  CHECK(a.type("out") == "float32[1, 2]");
}

TEST_CASE("true division follows Python: integers divide to float64, a Python number takes the tensor's dtype", "[tf]") {
  TfRun r = runTf(R"(import tensorflow as tf
x = tf.constant([2.0, 4.0])
i = tf.constant([3, 4])
print((1 / x).numpy().tolist(), (i / 2).numpy().tolist(), (i / i).dtype, (x / 2).dtype)
)");
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.out == "[0.5, 0.25] [1.5, 2.0] <dtype: 'float64'> <dtype: 'float32'>\n");
}

TEST_CASE("tf.fill takes the value's own dtype (a float fills float32, an int int32)", "[tf]") {
  TfRun r = runTf(R"(
import tensorflow as tf
a = tf.fill([2, 3], 1.5)
b = tf.fill([2], 7)
c = tf.fill([2], float('inf'))
vals = [a.numpy().tolist(), b.numpy().tolist()]
)");
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.type("a") == "float32[2, 3]");
  CHECK(r.type("b") == "int32[2]");
  CHECK(r.type("c") == "float32[2]");
  CHECK(r.repr("vals") == "[[[1.5, 1.5, 1.5], [1.5, 1.5, 1.5]], [7, 7]]");
}

TEST_CASE("tensorflow.python's modules are the public API under TensorFlow's internal names", "[tf]") {
  const char* src = R"(import tensorflow as tf
from tensorflow.python.framework import ops, dtypes, tensor_shape
from tensorflow.python.ops import summary_ops_v2, math_ops, array_ops, nn_ops
from tensorflow.python.platform import gfile
from tensorflow.python.util import compat
from tensorflow.python.client import device_lib
ops.reset_default_graph()
x = tf.placeholder(dtypes.float32, tensor_shape.TensorShape([None, 3]))
y = nn_ops.relu(math_ops.matmul(x, array_ops.ones([3, 2])))
same = [summary_ops_v2.scalar is tf.summary.scalar, gfile.IsDirectory("/"), compat.as_bytes("a")]
devices = [(d.name, d.device_type) for d in device_lib.list_local_devices()]
)";
  TfRun r = runTf(src);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.type("y") == "float32[batch, 2]");
  CHECK(r.repr("same") == "[True, True, b'a']");
  CHECK(r.repr("devices").rfind("[('/device:CPU:0', 'CPU')", 0) == 0);
  TfRun a = runTf(src, Mode::Abstract);
  CHECK(a.diagnostics() == "");
  CHECK(a.type("y") == "float32[batch, 2]");
}

TEST_CASE("a TensorShape of an unknown value has unknown dimensions, not two of them", "[tf]") {
  TfRun a = runTf(R"(import tensorflow as tf
def compute_output_shape(input_shape):
    shape = tf.TensorShape(input_shape).as_list()
    batch, H, W, C = shape
    return H
)", Mode::Abstract);
  CHECK(a.diagnostics() == "");
}

TEST_CASE("a graph is one object: t.graph is tf.get_default_graph(), and a tensor knows its own graph", "[tf]") {
  // pkmital/tensorflow_tutorials 01_basics: assert z.graph is tf.get_default_graph().
  TfRun r = runTf(R"(import tensorflow as tf
z = tf.constant(1.0) * 2
same = z.graph is tf.get_default_graph() and tf.get_default_graph() is tf.get_default_graph()
g = tf.Graph()
with g.as_default():
    w = tf.constant(3.0)
    inner = w.graph is g and tf.get_default_graph() is g
other = w.graph is not z.graph and z.op.graph is z.graph
)", Mode::Concrete, ApiStyle::Graph);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("same") == "True");
  CHECK(r.repr("inner") == "True");
  CHECK(r.repr("other") == "True");
}
