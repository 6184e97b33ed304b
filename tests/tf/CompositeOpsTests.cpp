// TF1 API built from existing ops in the embedded tensorflow.py: tf.losses with weights and
// reductions (added to the LOSSES collection), streaming tf.metrics over local variables,
// boolean_mask, confusion_matrix, count_nonzero, reduce_logsumexp, clip_by_global_norm,
// map_fn/scan (unrolled), nce_loss. Expected values worked by hand from TF's definitions.
#include "TfTestSupport.h"

using namespace tlens;
using namespace tlens::tf;
using namespace tlens::tf::testing;
using interp::Mode;

namespace {
const char* kFeed = R"(
import numpy as np
import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 3])
y = tf.placeholder(tf.int64, [None])
feed = {x: np.array([[1., 2., 0.5], [-1., 0., 3.], [2., 1., 0.]], np.float32), y: np.array([1, 2, 1])}
)";
}

TEST_CASE("tf.losses weigh, reduce and collect as TensorFlow 1 does", "[tf][losses]") {
  TfRun r = runTf(std::string(kFeed) + R"(
l1 = tf.losses.sparse_softmax_cross_entropy(y, x)
l2 = tf.losses.huber_loss(tf.ones_like(x), x, weights=2.0)
l3 = tf.losses.absolute_difference(tf.zeros_like(x), x, reduction=tf.losses.Reduction.SUM)
total = tf.losses.get_total_loss()
n = len(tf.losses.get_losses())
with tf.Session() as s:
    vals = [round(float(v), 3) for v in s.run([l1, l2, l3, total], feed)]
)", Mode::Concrete, ApiStyle::Graph);
  INFO(r.err);
  REQUIRE(r.status == 0);
  // xent rows 0.4644, 0.0659, 1.4076; huber sum 5.125 * 2 over 9 nonzero weights; |x| summed.
  CHECK(r.repr("vals") == "[0.646, 1.139, 10.5, 12.285]");
  CHECK(r.repr("n") == "3");
}

TEST_CASE("tf.metrics stream over local variables and reset with their initializer", "[tf][metrics]") {
  TfRun r = runTf(std::string(kFeed) + R"(
pred = tf.argmax(x, 1)
acc, acc_op = tf.metrics.accuracy(labels=y, predictions=pred)
rec, rec_op = tf.metrics.recall(labels=tf.equal(y, 1), predictions=tf.equal(pred, 1))
mean, mean_op = tf.metrics.mean(x)
with tf.Session() as s:
    s.run(tf.local_variables_initializer())
    first = [round(float(v), 4) for v in s.run([acc_op, rec_op, mean_op], feed)]
    s.run([acc_op, rec_op, mean_op], {x: [[0., 0., 1.]], y: [2]})
    after = [round(float(v), 4) for v in s.run([acc, rec, mean])]
    s.run(tf.local_variables_initializer())
    reset = float(s.run(acc))
names = sorted(v.name for v in tf.local_variables())[:2]
)", Mode::Concrete, ApiStyle::Graph);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("first") == "[0.6667, 0.5, 0.9444]");
  CHECK(r.repr("after") == "[0.75, 0.5, 0.7917]");  // 3 of 4; recall unchanged; (8.5 + 1) / 12
  CHECK(r.repr("reset") == "0.0");
  CHECK(r.repr("names") == "['accuracy/count:0', 'accuracy/total:0']");
}

TEST_CASE("composites of existing ops compute TensorFlow's values and gradients", "[tf][composites]") {
  TfRun r = runTf(std::string(kFeed) + R"(
pred = tf.argmax(x, 1)
cm = tf.confusion_matrix(y, pred, num_classes=3)
bm = tf.boolean_mask(x, x[:, 0] > 0)
g = tf.gradients(tf.reduce_sum(bm), x)[0]
cn = tf.count_nonzero(x > 0)
lse = tf.reduce_logsumexp(x, axis=1)
clipped, norm = tf.clip_by_global_norm([x, 2 * x], 1.0)
mp = tf.map_fn(lambda row: row * 2, tf.constant([[1., 2.], [3., 4.]]))
sc = tf.scan(lambda a, b: a + b, tf.constant([1, 2, 3, 4]))
w = tf.Variable(tf.random_normal([10, 3], seed=1))
b = tf.Variable(tf.zeros([10]))
nce = tf.nn.nce_loss(w, b, tf.reshape(y, [-1, 1]), x, num_sampled=4, num_classes=10)
with tf.Session() as s:
    s.run(tf.global_variables_initializer())
    out = s.run([cm, bm, g, cn, lse, norm, mp, sc, nce], feed)
cm_, bm_, g_, cn_, mp_, sc_ = [v.tolist() for v in (out[0], out[1], out[2], out[3], out[6], out[7])]
lse_ = [round(float(v), 4) for v in out[4]]
norm_ = round(float(out[5]), 4)
nce_shape = out[8].shape
)", Mode::Concrete, ApiStyle::Graph);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("cm_") == "[[0, 0, 0], [1, 1, 0], [0, 0, 1]]");
  CHECK(r.repr("bm_") == "[[1.0, 2.0, 0.5], [2.0, 1.0, 0.0]]");
  CHECK(r.repr("g_") == "[[1.0, 1.0, 1.0], [0.0, 0.0, 0.0], [1.0, 1.0, 1.0]]");
  CHECK(r.repr("cn_") == "6");
  CHECK(r.repr("lse_") == "[2.4644, 3.0659, 2.4076]");
  CHECK(r.repr("norm_") == "10.0623");  // sqrt(5 * 20.25)
  CHECK(r.repr("mp_") == "[[2.0, 4.0], [6.0, 8.0]]");
  CHECK(r.repr("sc_") == "[1, 3, 6, 10]");
  CHECK(r.repr("nce_shape") == "(3,)");
}
