// Hovers on annotated fixtures and on the example programs.
#include <filesystem>
#include <fstream>
#include <sstream>

#include "lang/tf/TfRuntime.h"
#include "lsp/analysis/Render.h"
#include "tests/ExampleFiles.h"
#include "tests/lsp/LspTestSupport.h"

using namespace tlens::lsp;
using namespace tlens::lsp::test;

TEST_CASE("hover shows the static shape of a matmul result", "[lsp][hover]") {
  checkHovers(R"(import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 784], name="images")
w = tf.Variable(tf.zeros([784, 256]))
h = tf.nn.relu(tf.matmul(x, w))
# <- hover: float32[batch, 256]
#             ^ hover: float32[batch, 256]
#                       ^ hover: float32[batch, 256]
#                        ^ hover: float32[batch, 784]
n = 3 * 4
# <- hover: int = 12
dims = [784, 256]
# <- hover: list = [784, 256]
shape = h.shape
# <- hover: TensorShape = TensorShape([
)");
}

TEST_CASE("hover on a graph tensor names the node it creates, its device and the op's doc", "[lsp][hover]") {
  auto snap = analyzeFixture(R"(import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 784], name="images")
with tf.name_scope("fc1"):
    w = tf.Variable(tf.zeros([784, 256]))
    h = tf.nn.relu(tf.matmul(x, w))
)");
  REQUIRE(snap);
  auto hv = hover(*snap, {4, 4});  // h
  REQUIRE(hv);
  CHECK(hv->kind == ValueInfo::Kind::Tensor);
  CHECK(hv->node == "fc1/Relu");
  CHECK(hv->op == "Relu");
  CHECK(hv->device == "/cpu:0");
  CHECK(hv->type.find("256]") != std::string::npos);
  auto call = hover(*snap, {4, 18});  // the '(' of tf.nn.relu(...): the call
  REQUIRE(call);
  CHECK(!call->opSummary.empty());
  CHECK(call->present().find("fc1/Relu") != std::string::npos);
  CHECK(call->present().find("/cpu:0") != std::string::npos);
}

TEST_CASE("hover inside a function nobody calls shows what is known", "[lsp][hover]") {
  auto snap = analyzeFixture(R"(import tensorflow as tf
def layer(x):
    w = tf.zeros([3, 4])
    return w
)");
  REQUIRE(snap);
  auto hv = hover(*snap, {2, 4});
  REQUIRE(hv);
  CHECK(hv->type == "float32[3, 4]");
}

TEST_CASE("hover in a function called twice lists the shape from each call site", "[lsp][hover]") {
  auto snap = analyzeFixture(R"(import tensorflow as tf
def double(x):
    y = x * 2.0
    return y
a = double(tf.zeros([2, 3]))
b = double(tf.zeros([5, 7]))
)");
  REQUIRE(snap);
  auto hv = hover(*snap, {2, 4});
  REQUIRE(hv);
  REQUIRE(hv->types.size() == 2);
  CHECK(hv->types[0] == "float32[2, 3]");
  CHECK(hv->types[1] == "float32[5, 7]");
}

TEST_CASE("hover on a function shows its signature", "[lsp][hover]") {
  auto snap = analyzeFixture(R"(import tensorflow as tf
def dense(x, units=10):
    """A dense layer."""
    return x
y = dense(tf.zeros([2, 2]))
)");
  REQUIRE(snap);
  auto hv = hover(*snap, {4, 4});  // dense
  REQUIRE(hv);
  CHECK(hv->signature == "dense(x, units=10)");
  CHECK(hv->doc == "A dense layer.");
}

TEST_CASE("hover on nothing answers nothing", "[lsp][hover]") {
  auto snap = analyzeFixture("x = 1\n\n# a comment\n");
  REQUIRE(snap);
  CHECK(!hover(*snap, {1, 0}));
  CHECK(!hover(*snap, {2, 4}));
}

namespace {

using tlens::test::readFile;
std::vector<std::filesystem::path> examples() { return tlens::test::examplePaths(); }

bool buggyOnPurpose(const std::filesystem::path& p) {
  return p.filename() == "shape_bug.py" || p.filename() == "int_bias.py" || p.filename() == "tfdbg_nan.py";
}

}  // namespace

TEST_CASE("every correct example has zero diagnostics (hints aside)", "[lsp][examples]") {
  auto files = examples();
  REQUIRE(files.size() >= 5);
  for (const auto& p : files) {
    if (buggyOnPurpose(p)) continue;
    DYNAMIC_SECTION(p.filename().string()) {
      auto snap = analyzeFixture(readFile(p), p.string());
      REQUIRE(snap);
      std::string shown;
      for (const auto& d : diagnostics(*snap))
        if (d.severity < 4) shown += describe(d) + "\n";
      INFO(shown);
      CHECK(shown.empty());
    }
  }
}

TEST_CASE("the buggy examples report their bug", "[lsp][examples]") {
  std::string dir = std::string(TLENS_SOURCE_DIR) + "/examples/";
  auto shape = analyzeFixture(readFile(dir + "shape_bug.py"), dir + "shape_bug.py");
  auto ds = diagnostics(*shape);
  REQUIRE(!ds.empty());
  CHECK(ds[0].message.find("784") != std::string::npos);
  auto bias = analyzeFixture(readFile(dir + "int_bias.py"), dir + "int_bias.py");
  auto db = diagnostics(*bias);
  REQUIRE(!db.empty());
  CHECK(db[0].message.find("int32") != std::string::npos);
  auto nan = analyzeFixture(readFile(dir + "tfdbg_nan.py"), dir + "tfdbg_nan.py");
  auto dn = diagnostics(*nan);
  REQUIRE(dn.size() == 1);
  CHECK(dn[0].code == "log-softmax");
  CHECK(dn[0].range.start.line == 44);
}

TEST_CASE("every example has hovers with fully known tensor types", "[lsp][examples][hover]") {
  for (const auto& p : examples()) {
    DYNAMIC_SECTION(p.filename().string()) {
      auto snap = analyzeFixture(readFile(p), p.string());
      REQUIRE(snap);
      int known = 0;
      for (const ValueInfo& v : snap->values)
        if (v.kind == ValueInfo::Kind::Tensor && v.known) {
          ++known;
          auto h = hover(*snap, snap->file->positionOf(v.start));
          REQUIRE(h);
          CHECK(!h->present().empty());
        }
      CHECK(known > 0);
    }
  }
}

TEST_CASE("hover on a Keras model shows its layer table with output shapes and parameter counts", "[lsp][hover][keras]") {
  auto snap = analyzeFixture(R"(from tensorflow import keras
model = keras.Sequential([
    keras.layers.Dense(64, activation="relu", input_shape=(20,)),
    keras.layers.Dense(10),
])
model.compile(optimizer="adam", loss="mse")
)");
  REQUIRE(snap);
  auto hv = hover(*snap, {5, 0});
  REQUIRE(hv);
  INFO(hv->present());
  REQUIRE(hv->summaryRows.size() == 4);  // header, two layers, total
  CHECK(hv->summaryRows[1][1] == "(None, 64)");
  CHECK(hv->summaryRows[1][2] == "1344");
  CHECK(hv->summaryRows[2][1] == "(None, 10)");
  CHECK(hv->summaryRows[2][2] == "650");
  CHECK(hv->summaryRows[3][2] == "1994");
  CHECK(hv->present().find("| Layer (type) |") != std::string::npos);
}

TEST_CASE("a model's summary rows are reused while nothing reachable from it changed", "[lsp][hover][keras]") {
  // Render.cpp memoises the rows of `_tlens_summary_rows()` per model: a render with nothing
  // changed reuses them; adding a layer, building the model (shapes deep in its layers) or
  // replacing an attribute computes them anew, and the rows are then the new ones.
  using namespace tlens;
  interp::InterpOptions o;
  o.mode = interp::Mode::Abstract;
  o.timeBudgetMs = 0;
  o.analyzeUncalledFunctions = false;  // the functions below change the model when called
  interp::Interpreter in(o);
  tf::installTensorFlow(in);
  in.runSource("/model.py", R"(from tensorflow import keras
model = keras.Sequential([keras.layers.Dense(8)])
def grow():
    model.add(keras.layers.Dense(3))
def build():
    model.build((None, 4))
def rename():
    model.layers[0]._name = "first"
)");
  interp::Value model = in.mainModule()->get("model");
  REQUIRE(model);
  RenderCache cache;
  auto rows = [&] { return renderValue(in, model, cache).summaryRows; };
  auto first = rows();
  REQUIRE(first.size() == 3);  // header, Dense, total
  CHECK(first[1][1] == "?");   // not built: no output shape
  CHECK(rows() == first);
  CHECK(cache.summariesComputed == 1);
  CHECK(cache.summariesReused == 1);

  in.call(in.mainModule()->get("grow"), {});
  auto grown = rows();
  CHECK(cache.summariesComputed == 2);
  REQUIRE(grown.size() == 4);
  CHECK(grown[2][0].find("Dense") != std::string::npos);

  in.call(in.mainModule()->get("build"), {});
  auto built = rows();
  CHECK(cache.summariesComputed == 3);
  REQUIRE(built.size() == 4);
  CHECK(built[1][1] == "(None, 8)");
  CHECK(built[1][2] == "40");
  CHECK(built[2][1] == "(None, 3)");
  CHECK(rows() == built);
  CHECK(cache.summariesReused == 2);

  in.call(in.mainModule()->get("rename"), {});
  auto renamed = rows();
  CHECK(cache.summariesComputed == 4);
  CHECK(renamed[1][0].rfind("first (", 0) == 0);
}

TEST_CASE("hover shows a value as it was on its line: before a set_shape, before a list grows", "[lsp][hover]") {
  // Values that cannot change are rendered after the run (Collector.h); a tensor's set_shape
  // tells the collector first, so what was seen before it keeps its shape.
  checkHovers(R"(import tensorflow as tf
x = tf.placeholder(tf.float32, [None, None])
y = x
# <- hover: float32[batch, d1]
x.set_shape([None, 3])
z = x
# <- hover: float32[batch, 3]
sizes = [1, 2]
# <- hover: list = [1, 2]
sizes.append(3)
n = len(sizes)
# <- hover: int = 3
)");
}

TEST_CASE("hovers work below a statement that raised, inside the same block", "[lsp][hover]") {
  // The analysis goes on after an uncaught exception (issue 17, item 3); the names the failed
  // statement binds are unknown, not the values they held before it.
  checkHovers(R"(import tensorflow as tf
with tf.Session() as sess:
    n = 3
    n = int("ten")
    m = n
#   ^ hover: unknown
    x = tf.zeros([2, 5])
    y = tf.matmul(x, tf.zeros([5, 7]))
#   ^ hover: float32[2, 7]
)");
}
