// tf.cond and tf.case: in a graph both branches are built and only the selected one runs
// (Switch/Merge with dead tensors, as TensorFlow 1's control flow); gradients flow through the
// branch taken; eagerly the selected function is called. Values from TensorFlow 1.15.
#include "TfTestSupport.h"

using namespace tlens;
using namespace tlens::tf;
using namespace tlens::tf::testing;
using interp::Mode;

TEST_CASE("tf.cond runs only the branch its predicate selects", "[tf]") {
  TfRun r = runTf(R"(
import tensorflow as tf
x = tf.placeholder(tf.float32, [])
y = tf.constant(2.0)
out = tf.cond(tf.greater(x, y), lambda: tf.add(x, y), lambda: tf.subtract(x, y))
v = tf.Variable(0)
# Only the branch taken assigns: TensorFlow leaves v at 1 or 2, never both.
bump = tf.cond(x > 0, lambda: tf.assign(v, 1), lambda: tf.assign(v, 2))
pair = tf.cond(x > 0, lambda: (x * 2, 1), lambda: (x * 3, 0))
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    big = float(sess.run(out, {x: 5.0}))
    small = float(sess.run(out, {x: 1.0}))
    a = int(sess.run(bump, {x: 1.0}))
    after_pos = int(sess.run(v))
    b = int(sess.run(bump, {x: -1.0}))
    after_neg = int(sess.run(v))
    p = [float(q) for q in sess.run(pair, {x: -1.0})]
)", Mode::Concrete, ApiStyle::Graph);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("big") == "7.0");
  CHECK(r.repr("small") == "-1.0");
  CHECK(r.repr("a") == "1");
  CHECK(r.repr("after_pos") == "1");
  CHECK(r.repr("b") == "2");
  CHECK(r.repr("after_neg") == "2");
  CHECK(r.repr("p") == "[-3.0, 0.0]");
}

TEST_CASE("tf.case takes the first predicate that holds, else the default", "[tf]") {
  TfRun r = runTf(R"(
import tensorflow as tf
x = tf.placeholder(tf.float32, [])
y = tf.constant(1.0)
out = tf.case({tf.less(x, y): lambda: tf.add(x, y), tf.greater(x, y): lambda: tf.subtract(x, y)},
              default=lambda: tf.constant(0.0), exclusive=True)
with tf.Session() as sess:
    r = [float(sess.run(out, {x: v})) for v in (-1.0, 3.0, 1.0)]
)", Mode::Concrete, ApiStyle::Graph);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("r") == "[0.0, 2.0, 0.0]");
}

TEST_CASE("gradients flow through the branch tf.cond took", "[tf]") {
  // d/dw of cond(w > 0, w*w, 3*w) at w = 2 is 4, at w = -1 it is 3.
  TfRun r = runTf(R"(
import tensorflow as tf
w = tf.placeholder(tf.float32, [])
y = tf.cond(w > 0, lambda: w * w, lambda: 3.0 * w)
g = tf.gradients(y, w)[0]
v = tf.Variable(2.0)
loss = tf.cond(v > 0, lambda: v * v, lambda: -v) + v
train = tf.train.GradientDescentOptimizer(0.25).minimize(loss)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    gs = [float(sess.run(g, {w: 2.0})), float(sess.run(g, {w: -1.0}))]
    sess.run(train)
    trained = float(sess.run(v))
)", Mode::Concrete, ApiStyle::Graph);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("gs") == "[4.0, 3.0]");
  CHECK(r.repr("trained") == "0.75");  // 2 - 0.25 * (2 * 2 + 1)
}

TEST_CASE("tf.cond's static type is what both branches agree on", "[tf]") {
  TfRun r = runTf(R"(
import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 3])
p = tf.placeholder(tf.bool, [])
same = tf.cond(p, lambda: x * 2.0, lambda: x + 1.0)
mixed = tf.cond(p, lambda: tf.zeros([2, 3]), lambda: tf.zeros([5, 3]))
)", Mode::Abstract, ApiStyle::Graph);
  CHECK(r.diagnostics() == "");
  CHECK(r.type("same") == "float32[batch, 3]");
  CHECK(r.type("mixed") == "float32[?, 3]");
}

TEST_CASE("tf.cond's branches must return the same types", "[tf]") {
  TfRun r = runTf(R"(
import tensorflow as tf
p = tf.placeholder(tf.bool, [])
out = tf.cond(p, lambda: tf.constant(1), lambda: tf.constant(1.0))
)", Mode::Concrete, ApiStyle::Graph);
  CHECK(r.status != 0);
  CHECK(r.err.find("TypeError: Outputs of true_fn and false_fn must have the same type: int32, float32") !=
        std::string::npos);
}

TEST_CASE("tf.cond in eager code calls the selected function", "[tf]") {
  TfRun r = runTf(R"(
import tensorflow as tf
x = tf.constant(5.0)
calls = []
def t():
    calls.append("t")
    return x + 1
def f():
    calls.append("f")
    return x - 1
out = float(tf.cond(x > 2, t, f))
)", Mode::Concrete, ApiStyle::Eager);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("out") == "6.0");
  CHECK(r.repr("calls") == "['t']");
}

TEST_CASE("tf.while_loop in a graph unrolls a loop whose condition is known from constants", "[tf][while]") {
  TfRun r = runTf(R"(
import tensorflow as tf
def body(total, counter):
    return tf.add(total, tf.square(counter)), tf.add(counter, 1)
result = tf.while_loop(lambda total, counter: tf.less(counter, 100), body, [tf.constant(0), tf.constant(1)])
x = tf.placeholder(tf.float32, [3])
def step(i, ta, acc):
    acc = acc * 2.0 + x
    return i + 1, ta.write(i, acc), acc
_, ta, acc = tf.while_loop(lambda i, ta, acc: i < 4, step, [tf.constant(0), tf.TensorArray(tf.float32, size=4), tf.zeros([3])])
st = ta.stack()
g = tf.gradients(tf.reduce_sum(st), x)[0]
capped = tf.while_loop(lambda v: v < 1000, lambda v: v + 1, [tf.constant(0)], maximum_iterations=7)
with tf.Session() as sess:
    sums = sess.run(result)
    rows, grad = sess.run([st, g], {x: [1., 2., 3.]})
    rows = rows.tolist()
    grad = grad.tolist()
    capped = sess.run(capped)
# A condition known only when the graph runs: the loop is a While node the session runs
# (tests/tf/WhileLoopTests.cpp).
doubled = tf.while_loop(lambda v: tf.reduce_sum(v) < 10., lambda v: v * 2., [x])
with tf.Session() as sess:
    runtime_cond = sess.run(doubled, {x: [1., 2., 3.]}).tolist()
try:
    tf.while_loop(lambda v: v < 10, lambda v: tf.stack([v, v]), [tf.constant(1, name="c")])
except ValueError as e:
    shape_err = str(e)
try:
    tf.while_loop(lambda v: v < 10, lambda v: tf.cast(v, tf.float32), [tf.constant(1, name="d")])
except ValueError as e:
    dtype_err = str(e)
)", Mode::Concrete, ApiStyle::Graph);
  INFO(r.err);
  REQUIRE(r.status == 0);
  // TensorFlow 1.15: sum of i*i for i in 1..99, and the counter's last value.
  CHECK(r.repr("sums") == "[328350, 100]");
  CHECK(r.repr("rows") == "[[1.0, 2.0, 3.0], [3.0, 6.0, 9.0], [7.0, 14.0, 21.0], [15.0, 30.0, 45.0]]");
  CHECK(r.repr("grad") == "[26.0, 26.0, 26.0]");
  CHECK(r.repr("capped") == "7");
  CHECK(r.repr("runtime_cond") == "[2.0, 4.0, 6.0]");
  CHECK(r.repr("shape_err").find("Input tensor 'c:0' enters the loop with shape (), but has shape (2,) after one "
                                 "iteration.") != std::string::npos);
  CHECK(r.repr("dtype_err").find("Input tensor 'd:0' enters the loop with type int32, but has type float32 after "
                                 "1 iteration.") != std::string::npos);
}

TEST_CASE("tf.while_loop and tf.TensorArray run eagerly as Python loops", "[tf]") {
  TfRun r = runTf(R"(
import tensorflow as tf
n = tf.constant(5)
i, fact = tf.while_loop(lambda i, f: i <= n, lambda i, f: (i + 1, f * i), (tf.constant(1), tf.constant(1)))
ta = tf.TensorArray(tf.int32, size=0, dynamic_size=True)
for k in range(3):
    ta = ta.write(k, k * 10)
out = (int(fact), ta.stack().numpy().tolist(), int(ta.size()), int(ta.read(1)))
try:
    tf.TensorArray(tf.float32, size=2).write(2, 1.0)
except ValueError as e:
    err = str(e)
)");
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("out") == "(120, [0, 10, 20], 3, 10)");
  CHECK(r.repr("err") == "'Tried to write to index 2 but array is not resizeable and size is: 2'");
}
