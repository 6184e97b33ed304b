// Abstract Session.run (lang/tf/AbstractRun.h): the fetched subgraph is typed again with the fed
// shapes, once per distinct run signature, and a failure is an error at the failing node's line.
#include <catch2/catch.hpp>

#include "lang/tf/AbstractRun.h"
#include "tests/tf/TfTestSupport.h"

using namespace tlens;
using namespace tlens::tf;
using namespace tlens::tf::testing;

namespace {

const char* kTrainingLoop = R"(import numpy as np
import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 784])
y_ = tf.placeholder(tf.float32, [None, 10])
W = tf.Variable(tf.zeros([784, 10]))
y = tf.matmul(x, W)
h = tf.reshape(y, [-1, 20])
loss = tf.reduce_mean(tf.square(y - y_))
train = tf.train.GradientDescentOptimizer(0.5).minimize(loss)
sess = tf.Session()
sess.run(tf.global_variables_initializer())
images = np.zeros((1000, 784), dtype=np.float32)
labels = np.zeros((1000, 10), dtype=np.float32)
for step in range(500):
    _, l = sess.run([train, loss], feed_dict={x: images[:50], y_: labels[:50]})
    out = sess.run(h, feed_dict={x: images[:50]})
)";

}  // namespace

TEST_CASE("a loop of runs is specialised once per distinct feed signature and reported once", "[tf][abstract-run]") {
  TfRun a = runTf(kTrainingLoop, interp::Mode::Abstract);
  // 50 rows of 10 are 500 values, 25 rows of 20.
  CHECK(a.diagnostics() == "");
  AbstractRunStats st = abstractRunStats(*a.runtime);
  // The initializer's run and the two runs in the loop: one signature each, whatever the count
  // of iterations.
  CHECK(st.signatures == 3);
  CHECK(st.inferred > 0);
  CHECK(st.inferred < 200);
  CHECK(st.visited >= st.inferred);
  CHECK(st.visited < 400);

  std::string odd = kTrainingLoop;
  odd.replace(odd.find("images[:50]}"), 12, "images[:51]}");
  TfRun b = runTf(odd, interp::Mode::Abstract);
  // 51 * 10 values do not reshape to rows of 20: one error at the reshape, however often the loop runs.
  CHECK(b.diagnostics() ==
        "main.py:7:5: error: Cannot reshape a tensor with 510 elements to shape [-1, 20] (the known dims have 20 "
        "elements, which does not divide 510) for 'Reshape' (op: 'Reshape') with input shapes: [51,10], [2]. [shape-error]\n");
  CHECK(abstractRunStats(*b.runtime).signatures == 3);
}

TEST_CASE("the run's result has the fed batch size", "[tf][abstract-run]") {
  TfRun a = runTf(R"(import numpy as np
import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 784])
W = tf.Variable(tf.zeros([784, 10]))
y = tf.nn.softmax(tf.matmul(x, W))
sess = tf.Session()
out = sess.run(y, feed_dict={x: np.zeros((32, 784))})
unknown = sess.run(y, feed_dict={x: np.zeros((int(input()), 784))})
)", interp::Mode::Abstract);
  CHECK(a.diagnostics() == "");
  CHECK(a.type("out") == "float32[32, 10]");
  CHECK(a.type("unknown") == "float32[batch, 10]");  // the static type: nothing more is known
}

TEST_CASE("a run's failure agrees with what the run raises in concrete mode", "[tf][abstract-run]") {
  const char* src = R"(import numpy as np
import tensorflow as tf
x = tf.placeholder(tf.float32, [None, None])
W = tf.Variable(tf.zeros([784, 10]))
y = tf.matmul(x, W)
sess = tf.Session()
sess.run(tf.global_variables_initializer())
out = sess.run(y, feed_dict={x: np.zeros((50, 785))})
)";
  TfRun a = runTf(src, interp::Mode::Abstract);
  TfRun c = runTf(src, interp::Mode::Concrete);
  const std::string msg = "Dimensions must be equal, but are 785 and 784 for 'MatMul' (op: 'MatMul') with input shapes: [50,785], [784,10].";
  CHECK(a.diagnostics() == "main.py:5:5: error: " + msg + " [shape-error]\n");
  CHECK(c.err.find(msg) != std::string::npos);
}

TEST_CASE("specialiseRun does not change the graph and stops at its node budget", "[tf][abstract-run]") {
  Graph g;
  Output x = g.op("Placeholder", {}, Attrs{{"dtype", DType::Float32}, {"shape", Shape{Dim::unknown(), Dim::known(4)}}});
  Output h = x;
  for (int i = 0; i < 10; ++i) h = g.op("Relu", {h});
  Output r = g.op("Reshape", {h, g.op("Const", {}, Attrs{{"value", Tensor::fromVector<int32_t>({-1, 3})}, {"dtype", DType::Int32}})});
  const std::string before = r.type().str();
  std::vector<AbstractFeed> feeds{{x, TensorType(DType::Float32, Shape{Dim::known(5), Dim::known(4)}), {}}};
  Specialisation s = specialiseRun({r}, {}, feeds, 1000);
  REQUIRE(s.failure);
  CHECK(s.failure->node == r.node);
  CHECK(s.inferred == 11);
  CHECK(s.visited == 12);  // ten Relus, the Const and the Reshape (the fed placeholder cuts the walk)
  CHECK(r.type().str() == before);  // the graph keeps its static types
  Specialisation cut = specialiseRun({r}, {}, feeds, 5);
  CHECK(cut.cutShort);
  CHECK(!cut.failure);
  CHECK(cut.inferred == 5);
  // Fed with a multiple of 3 elements: no failure, and the fetch's type has the run's batch.
  feeds[0].type.shape = Shape{Dim::known(6), Dim::known(4)};
  Specialisation ok = specialiseRun({r}, {}, feeds, 1000);
  CHECK(!ok.failure);
  REQUIRE(ok.fetches.size() == 1);
  CHECK(ok.fetches[0].str() == "float32[8, 3]");
}

TEST_CASE("feeds by name, of lists, of ints fed as shapes and of odd values are specialised or skipped, never a crash", "[tf][abstract-run]") {
  TfRun a = runTf(R"(import numpy as np
import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 3], name="x")
k = tf.placeholder(tf.int32, [2], name="k")
b = tf.placeholder(tf.bool, [], name="b")
y = tf.reshape(x, k)
z = tf.cond(b, lambda: y * 2, lambda: y)
w = tf.tile(x, tf.stack([k[0], 1]))
sess = tf.Session()
sess.run(z, feed_dict={"x:0": [[1, 2, 3], [4, 5, 6]], "k:0": [3, 2], "b:0": True})
sess.run([z, {"a": y, "b": (w,)}], {x: np.zeros((2, 3)), k: [2, 3], b: np.array(False)})
sess.run(y, {x: np.zeros((0, 3)), k: [0, 7]})
sess.run(y, {x: [[1, 2, 3], [4, 5]], k: [1, 1]})
sess.run(y, {x: np.zeros((10 ** 9, 3)), k: [3 * 10 ** 9, 1]})
sess.run(y, {x: x, k: [1, 1]})
sess.run(w, {x: np.zeros((2, 3)), k: [-5, 2]})
sess.run(z, {x: [[1, 2, 3], [4, 5, 6]], k: [4, 2], b: 1})
)", interp::Mode::Abstract);
  CHECK(a.diagnostics() ==
        "main.py:8:5: error: Expected multiples[0] >= 0, but got -5 for 'Tile' (op: 'Tile') with input shapes: [2,3], [2]. [shape-error]\n"
        "main.py:6:5: error: Cannot reshape a tensor with 6 elements to shape [4, 2] (8 elements) for 'Reshape' (op: 'Reshape') with "
        "input shapes: [2,3], [2]. [shape-error]\n");
  const auto& ds = a.interp->diagnostics();
  REQUIRE(ds.size() == 2);
  REQUIRE(!ds[1].related.empty());
  CHECK(ds[1].related[0].message == "raised by this run, which feeds 'x:0' of shape (2, 3), 'k:0' = [4 2], 'b:0' = 1");
}
