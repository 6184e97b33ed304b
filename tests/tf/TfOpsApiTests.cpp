// The Python wrappers of ops with kernels of their own (tf.nn.top_k, tf.sort, tf.cumsum,
// tf.gather_nd, tf.scatter_update, segment sums, ...), one snippet per family, with values that
// TensorFlow gives for the same program, and the shape errors the checker reports.
#include "TfTestSupport.h"

using namespace tlens;
using namespace tlens::tf;
using namespace tlens::tf::testing;
using interp::Mode;

TEST_CASE("top_k, in_top_k, sort and argsort follow TensorFlow in a TF1 program", "[tf]") {
  TfRun r = runTf(R"(
import tensorflow as tf
x = tf.constant([[1., 4., 2., 4.], [3., 3., 0., -1.]])
top = tf.nn.top_k(x, k=2)
v, i = tf.nn.top_k(x, 3)
hit = tf.nn.in_top_k(x, [1, 2], 2)
s = tf.sort(x, axis=0, direction='DESCENDING')
a = tf.argsort(x)
loss = tf.reduce_sum(tf.nn.top_k(x * 3., 2).values)
g = tf.gradients(loss, x)[0]
with tf.Session() as sess:
    tv = sess.run(top)
    topv, topi = tv.values.tolist(), tv.indices.tolist()
    iv = sess.run(i).tolist()
    hv = sess.run(hit).tolist()
    sv = sess.run(s).tolist()
    av = sess.run(a).tolist()
    gv = sess.run(g).tolist()
)", Mode::Concrete, ApiStyle::Graph);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.type("v") == "float32[2, 3]");
  CHECK(r.type("i") == "int32[2, 3]");
  CHECK(r.type("hit") == "bool[2]");
  CHECK(r.repr("topv") == "[[4.0, 4.0], [3.0, 3.0]]");
  CHECK(r.repr("topi") == "[[1, 3], [0, 1]]");
  CHECK(r.repr("iv") == "[[1, 3, 2], [0, 1, 2]]");
  CHECK(r.repr("hv") == "[True, False]");
  CHECK(r.repr("sv") == "[[3.0, 4.0, 2.0, 4.0], [1.0, 3.0, 0.0, -1.0]]");
  CHECK(r.repr("av") == "[[0, 2, 1, 3], [3, 2, 0, 1]]");
  CHECK(r.repr("gv") == "[[0.0, 3.0, 0.0, 3.0], [3.0, 3.0, 0.0, 0.0]]");
}

TEST_CASE("cumsum, cumprod, gather_nd, scatter_nd and segment sums run eagerly with gradients", "[tf]") {
  TfRun r = runTf(R"(
import tensorflow as tf
cs = tf.cumsum([1, 2, 3], exclusive=True).numpy().tolist()
cr = tf.math.cumsum([[1., 2.], [3., 4.]], axis=1, reverse=True).numpy().tolist()
cp = tf.math.cumprod([1, 2, 3, 4]).numpy().tolist()
hit = tf.math.in_top_k([1, 2], [[1., 4., 2., 4.], [3., 3., 0., -1.]], 2).numpy().tolist()
sn = tf.scatter_nd([[4], [3], [1], [7]], [9, 10, 11, 12], [8]).numpy().tolist()
ts = tf.tensor_scatter_nd_add(tf.ones([4]), [[1], [1]], [5., 6.]).numpy().tolist()
us = tf.math.unsorted_segment_sum([[1, 2], [3, 4], [5, 6]], [1, 0, 1], 3).numpy().tolist()
sm = tf.math.segment_mean([1., 2., 6.], [0, 0, 2]).numpy().tolist()
v = tf.Variable([[1., 2.], [3., 4.]])
with tf.GradientTape() as t:
    y = tf.reduce_sum(tf.gather_nd(v, [[0, 1], [1, 0], [0, 1]]) * tf.constant([1., 2., 3.]))
gv = t.gradient(y, v).numpy().tolist()
)", Mode::Concrete);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("cs") == "[0, 1, 3]");
  CHECK(r.repr("cr") == "[[3.0, 2.0], [7.0, 4.0]]");
  CHECK(r.repr("cp") == "[1, 2, 6, 24]");
  CHECK(r.repr("hit") == "[True, False]");
  CHECK(r.repr("sn") == "[0, 11, 0, 10, 9, 0, 0, 12]");
  CHECK(r.repr("ts") == "[1.0, 12.0, 1.0, 1.0]");
  CHECK(r.repr("us") == "[[3, 4], [6, 8], [0, 0]]");
  CHECK(r.repr("sm") == "[1.5, 0.0, 6.0]");
  CHECK(r.repr("gv") == "[[0.0, 4.0], [2.0, 0.0]]");
}

TEST_CASE("scatter_update and scatter_add change rows of a TF1 variable", "[tf]") {
  TfRun r = runTf(R"(
import tensorflow as tf
w = tf.Variable(tf.zeros([3, 2]))
up = tf.scatter_update(w, [2, 0], [[1., 2.], [3., 4.]])
add = tf.scatter_add(w, [1, 1], [[5., 5.], [1., 1.]])
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    sess.run(up)
    sess.run(add)
    wv = sess.run(w).tolist()
)", Mode::Concrete, ApiStyle::Graph);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.type("up") == "float32[3, 2]");
  CHECK(r.repr("wv") == "[[3.0, 4.0], [6.0, 6.0], [1.0, 2.0]]");
}

TEST_CASE("the checker reports shape errors of these ops at the user's line", "[tf]") {
  TfRun r = runTf(R"(
import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 3])
ok = tf.nn.top_k(x, 2).values
bad = tf.nn.top_k(x, 5)
g = tf.gather_nd(tf.zeros([2, 3]), tf.zeros([5, 3], tf.int32))
)", Mode::Abstract, ApiStyle::Graph);
  const std::string d = r.diagnostics();
  INFO(d);
  CHECK(r.type("ok") == "float32[batch, 2]");
  CHECK_THAT(d, Catch::Contains("5:") && Catch::Contains("input must have last dimension >= k = 5 but is 3"));
  CHECK_THAT(d, Catch::Contains("6:") && Catch::Contains("indices.shape[-1] must be <= params.rank"));
}
