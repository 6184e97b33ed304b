// tf.while_loop whose condition is known only when the graph runs, and dynamic_rnn over an
// unknown number of time steps: a While node the session runs (engine/graph/Loops.h), with
// gradients through it. Expected values are computed by hand or against the unrolled loop.
#include "TfTestSupport.h"

#include "engine/graph/Graph.h"

using namespace tlens;
using namespace tlens::tf;
using namespace tlens::tf::testing;
using interp::Mode;

TEST_CASE("tf.while_loop in a graph runs a loop whose condition is fed", "[tf][while]") {
  TfRun r = runTf(R"(
import collections
import tensorflow as tf
n = tf.placeholder(tf.int32, [])
scale = tf.placeholder(tf.float32, [])
i, acc = tf.while_loop(lambda i, acc: i < n, lambda i, acc: (i + 1, tf.concat([acc, [i * i]], 0)),
                       [tf.constant(0), tf.zeros([0], tf.int32)],
                       shape_invariants=[tf.TensorShape([]), tf.TensorShape([None])])
static = acc.shape.as_list()
Pair = collections.namedtuple("Pair", ["a", "b"])
def body(k, p):
    return k + 1, Pair(p.a * scale, (p.b[0] + p.a, p.b[1] - 1.0))
k, p = tf.while_loop(lambda k, p: k < n, body, (tf.constant(0), Pair(tf.constant(1.0), (tf.constant(0.0), tf.constant(10.0)))))
capped = tf.while_loop(lambda v: v < n, lambda v: v + 1, [tf.constant(0)], maximum_iterations=4)
m = tf.placeholder(tf.int32, [])
fed_cap = tf.while_loop(lambda v: v < 1000, lambda v: v + 1, [tf.constant(0)], maximum_iterations=m)
def outer(i, total):
    j, t = tf.while_loop(lambda j, t: j < i, lambda j, t: (j + 1, t + j), [tf.constant(0), total])
    return i + 1, t
_, nested = tf.while_loop(lambda i, t: i < n, outer, [tf.constant(0), tf.constant(0)])
def collatz(c, steps):
    return tf.cond(tf.equal(c % 2, 0), lambda: c // 2, lambda: 3 * c + 1), steps + 1
_, csteps = tf.while_loop(lambda c, s: c > 1, collatz, [n, 0])
with tf.Session() as sess:
    grown = sess.run(acc, {n: 5}).tolist()
    empty = sess.run(acc, {n: 0}).tolist()
    pv = [float(v) for v in sess.run([k, p.a, p.b[0], p.b[1]], {n: 3, scale: 2.0})]
    caps = [int(sess.run(capped, {n: v})) for v in (2, 9)] + [int(sess.run(fed_cap, {m: v})) for v in (0, 5)]
    nest = int(sess.run(nested, {n: 5}))
    cs = int(sess.run(csteps, {n: 27}))
kind = type(p).__name__
try:
    tf.while_loop(lambda v: v < n, lambda v: tf.stack([v, v]), [tf.constant(1, name="c")])
except ValueError as e:
    shape_err = str(e)
try:
    tf.while_loop(lambda v: v < n, lambda v: tf.cast(v, tf.float32), [tf.constant(1, name="d")])
except ValueError as e:
    dtype_err = str(e)
)", Mode::Concrete, ApiStyle::Graph);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("static") == "[None]");
  CHECK(r.repr("grown") == "[0, 1, 4, 9, 16]");
  CHECK(r.repr("empty") == "[]");
  CHECK(r.repr("pv") == "[3.0, 8.0, 7.0, 7.0]");
  CHECK(r.repr("kind") == "'Pair'");
  CHECK(r.repr("caps") == "[2, 4, 0, 5]");
  CHECK(r.repr("nest") == "10");  // sum of j for j < i < 5
  CHECK(r.repr("cs") == "111");   // Collatz steps from 27
  CHECK(r.repr("shape_err").find("Input tensor 'c:0' enters the loop with shape (), but has shape (2,) after one "
                                 "iteration.") != std::string::npos);
  CHECK(r.repr("dtype_err").find("Input tensor 'd:0' enters the loop with type int32, but has type float32 after "
                                 "1 iteration.") != std::string::npos);
}

TEST_CASE("gradients flow through a graph while_loop and train the variables its body uses", "[tf][while]") {
  // v_{k+1} = v_k * w + x from v_0 = 1: after 3 iterations v = w^3 + w^2 (x) + w x + x at x = 1,
  // so d/dw = 3w^2 + 2w + 1 and d/dx = w^2 + w + 1.
  TfRun r = runTf(R"(
import tensorflow as tf
n = tf.placeholder(tf.int32, [])
x = tf.placeholder(tf.float32, [3])
w = tf.Variable([1.0, 2.0, 3.0])
k, v = tf.while_loop(lambda k, v: k < n, lambda k, v: (k + 1, v * w + x), [0, tf.ones([3])])
gw, gx, g0 = tf.gradients(tf.reduce_sum(v), [w, x, n])
_, tripled = tf.while_loop(lambda k, t: k < n, lambda k, t: (k + 1, t * 3.0), [0, x])
gt = tf.gradients(tripled, x)[0]
target = tf.constant([1.5, 1.8, 2.4])
a = tf.Variable([0.1, 0.1, 0.1])
steps = tf.placeholder(tf.int32, [])
_, y = tf.while_loop(lambda i, y: i < steps, lambda i, y: (i + 1, y * a + 1.0), [0, tf.zeros([3])])
loss = tf.reduce_mean(tf.square(y - target))
train = tf.train.GradientDescentOptimizer(0.05).minimize(loss)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    vals = [r.tolist() for r in sess.run([v, gw, gx], {n: 3, x: [1., 1., 1.]})]
    zero = [r.tolist() for r in sess.run([v, gw, gx], {n: 0, x: [1., 1., 1.]})]
    g27 = sess.run(gt, {n: 3, x: [1., 2., 3.]}).tolist()
    losses = []
    for _ in range(40):
        l, _ = sess.run([loss, train], {steps: 4})
        losses.append(l)
decreasing = losses[-1] < losses[0] * 0.1 and all(b <= a for a, b in zip(losses, losses[1:]))
none_for_int = g0 is None
)", Mode::Concrete, ApiStyle::Graph);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("vals") == "[[4.0, 15.0, 40.0], [6.0, 17.0, 34.0], [3.0, 7.0, 13.0]]");
  CHECK(r.repr("zero") == "[[1.0, 1.0, 1.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]");
  CHECK(r.repr("g27") == "[27.0, 27.0, 27.0]");  // a body gradient that reads no body tensor
  CHECK(r.repr("decreasing") == "True");
  CHECK(r.repr("none_for_int") == "True");
}

TEST_CASE("dynamic_rnn over unknown time steps matches the unrolled loop, values and gradients", "[tf][rnn][while]") {
  TfRun r = runTf(R"(
import numpy as np
import tensorflow as tf
rng = np.random.RandomState(0)
data = rng.randn(2, 5, 3).astype(np.float32)
xk = tf.placeholder(tf.float32, [2, 5, 3])
xu = tf.placeholder(tf.float32, [None, None, 3])
lens = tf.placeholder(tf.int32, [None])
def flat(s):
    return [t for x in s for t in flat(x)] if isinstance(s, (tuple, list)) or hasattr(s, "_fields") else [s]
diffs = []
static = []
for make in (lambda: tf.nn.rnn_cell.BasicLSTMCell(4),
             lambda: tf.nn.rnn_cell.MultiRNNCell([tf.nn.rnn_cell.GRUCell(4), tf.nn.rnn_cell.BasicRNNCell(3)])):
    with tf.variable_scope(None, default_name="case"):
        cell = make()
        ok, sk = tf.nn.dynamic_rnn(cell, xk, sequence_length=lens, dtype=tf.float32)
        ou, su = tf.nn.dynamic_rnn(cell, xu, sequence_length=lens, dtype=tf.float32)
        static.append(ou.shape.as_list())
        vs = [v for v in tf.trainable_variables() if v.name.startswith(tf.get_variable_scope().name)]
        lk = tf.reduce_sum(ok * ok) + tf.add_n([tf.reduce_sum(s) for s in flat(sk)])
        lu = tf.reduce_sum(ou * ou) + tf.add_n([tf.reduce_sum(s) for s in flat(su)])
        diffs.append((ok, ou, tf.gradients(lk, vs + [xk]), tf.gradients(lu, vs + [xu]), len(vs)))
(fo, bo), (fs, bs) = tf.nn.bidirectional_dynamic_rnn(tf.nn.rnn_cell.GRUCell(3), tf.nn.rnn_cell.GRUCell(3), xu,
                                                     sequence_length=lens, dtype=tf.float32)
(fk, bk), _ = tf.nn.bidirectional_dynamic_rnn(tf.nn.rnn_cell.GRUCell(3), tf.nn.rnn_cell.GRUCell(3), xk,
                                              sequence_length=lens, dtype=tf.float32, scope="bk")
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    feed = {xk: data, xu: data, lens: [5, 3]}
    worst = []
    for ok, ou, gk, gu, nv in diffs:
        a, b, ga, gb = sess.run([ok, ou, gk, gu], feed)
        worst.append(max([float(np.abs(a - b).max())] + [float(np.abs(p - q).max()) for p, q in zip(ga, gb)]))
    nvars = [d[4] for d in diffs]
    shapes = [list(v.shape) for v in sess.run([fo, bo], {xu: data[:, :4], lens: [4, 2]})]
    bshape = bo.shape.as_list()
    short = sess.run(ou, {xu: data[:1, :2], lens: [2]}).shape
close = [w < 1e-5 for w in worst]
)", Mode::Concrete, ApiStyle::Graph);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("close") == "[True, True]");
  CHECK(r.repr("nvars") == "[2, 6]");
  CHECK(r.repr("static") == "[[None, None, 4], [None, None, 3]]");
  CHECK(r.repr("shapes") == "[[2, 4, 3], [2, 4, 3]]");
  CHECK(r.repr("bshape") == "[None, None, 3]");
  CHECK(r.repr("short") == "(1, 2, 3)");
}

TEST_CASE("a char-RNN over unknown time steps trains: its loss decreases", "[tf][rnn][while]") {
  TfRun r = runTf(R"(
import numpy as np
import tensorflow as tf
tf.set_random_seed(1)
text = "hello world, hello loops. " * 4
chars = sorted(set(text))
ids = np.array([chars.index(c) for c in text])
x = tf.placeholder(tf.int32, [None, None])
y = tf.placeholder(tf.int32, [None, None])
emb = tf.one_hot(x, len(chars))
cell = tf.nn.rnn_cell.BasicLSTMCell(16)
out, _ = tf.nn.dynamic_rnn(cell, emb, dtype=tf.float32, time_major=False)
logits = tf.layers.dense(out, len(chars))
loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
train = tf.train.AdamOptimizer(0.05).minimize(loss)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    losses = []
    for step in range(30):
        n = 6 + step % 5
        l, _ = sess.run([loss, train], {x: [ids[:n], ids[1:n + 1]], y: [ids[1:n + 1], ids[2:n + 2]]})
        losses.append(float(l))
learned = losses[-1] < losses[0] * 0.5
)", Mode::Concrete, ApiStyle::Graph);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("learned") == "True");
}

TEST_CASE("abstract mode types a fed while_loop and dynamic_rnn without running them", "[tf][while]") {
  TfRun r = runTf(R"(
import tensorflow as tf
n = tf.placeholder(tf.int32, [])
x = tf.placeholder(tf.float32, [None, None, 3])
_, acc = tf.while_loop(lambda i, a: i < n, lambda i, a: (i + 1, tf.concat([a, [1.0]], 0)),
                       [0, tf.zeros([0])], shape_invariants=[tf.TensorShape([]), tf.TensorShape([None])])
_, kept = tf.while_loop(lambda i, a: i < n, lambda i, a: (i + 1, a * 2.0), [0, x])
out, st = tf.nn.dynamic_rnn(tf.nn.rnn_cell.GRUCell(4), x, dtype=tf.float32)
forever = tf.while_loop(lambda v: tf.constant(True) & (n > 0), lambda v: v + 1, [0])
)", Mode::Abstract, ApiStyle::Graph);
  CHECK(r.diagnostics() == "");
  CHECK(r.type("acc") == "float32[?]");
  CHECK(r.type("kept") == "float32[batch, d1, 3]");
  CHECK(r.type("out") == "float32[batch, ?, 4]");
  CHECK(r.type("st") == "float32[batch, 4]");
  CHECK(r.type("forever") == "int32[]");
}

TEST_CASE("nodes inside a graph loop keep their creation lines", "[tf][while]") {
  TfRun r = runTf(R"(import tensorflow as tf
n = tf.placeholder(tf.int32, [])
def body(i, v):
    doubled = tf.multiply(v, 2.0, name="doubled")
    return i + 1, doubled
_, v = tf.while_loop(lambda i, v: i < n, body, [0, tf.ones([2])])
grad = tf.gradients(tf.reduce_sum(v), n)
)", Mode::Concrete, ApiStyle::Graph);
  INFO(r.err);
  REQUIRE(r.status == 0);
  Node* doubled = r.runtime->defaultGraph().find("while/doubled");
  REQUIRE(doubled != nullptr);
  CHECK(doubled->location.line == 4);
  Node* loop = r.runtime->defaultGraph().find("while/While");
  REQUIRE(loop != nullptr);
  CHECK(loop->location.line == 6);
}

TEST_CASE("TensorArrays in a fed while_loop: read at the step, written once per iteration", "[tf][while]") {
  // acc_t = w * acc_{t-1} + x_t, each acc_t written; d(sum of rows)/dx_t = sum of w^k for k < 4 - t.
  TfRun r = runTf(R"(
import numpy as np
import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 3])
n = tf.shape(x)[0]
inp = tf.TensorArray(tf.float32, size=n).unstack(x)
w = tf.Variable(2.0)
def body(t, acc, ta):
    acc = acc * w + inp.read(t)
    return t + 1, acc, ta.write(t, acc)
_, last, ta = tf.while_loop(lambda t, acc, ta: t < n, body, [0, tf.zeros([3]), tf.TensorArray(tf.float32, size=n)])
rows = ta.stack()
static = rows.shape.as_list()
gw, gx = tf.gradients(tf.reduce_sum(rows), [w, x])
backwards = tf.while_loop(lambda t, ta: t < n, lambda t, ta: (t + 1, ta.write(n - 1 - t, tf.zeros([3]))),
                          [0, tf.TensorArray(tf.float32, size=n)])[1].stack()
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    data = np.arange(12, dtype=np.float32).reshape(4, 3)
    out = [v.tolist() for v in sess.run([rows, ta.size(), ta.read(2), gw, gx], {x: data})]
    try:
        sess.run(backwards, {x: data})
    except tf.errors.InvalidArgumentError as e:
        refused = str(e)
)", Mode::Concrete, ApiStyle::Graph);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("static") == "[None, 3]");
  CHECK(r.repr("out") == "[[[0.0, 1.0, 2.0], [3.0, 6.0, 9.0], [12.0, 19.0, 26.0], [33.0, 48.0, 63.0]], 4, "
                         "[12.0, 19.0, 26.0], 132.0, [[15.0, 15.0, 15.0], [7.0, 7.0, 7.0], [3.0, 3.0, 3.0], "
                         "[1.0, 1.0, 1.0]]]");
  CHECK(r.repr("refused").find("a TensorArray in a graph loop is written at its first free index plus the "
                               "iteration; index] [3] [expected] [0]") != std::string::npos);
}

TEST_CASE("tf.Assert in a graph is an operation that control dependencies wait for", "[tf]") {
  TfRun r = runTf(R"(
import tensorflow as tf
n = tf.placeholder(tf.int32, [])
check = tf.Assert(tf.equal(n, 3), ["n is", n])
with tf.control_dependencies([check]):
    y = tf.identity(n)
kind = type(check).__name__
with tf.Session() as s:
    good = int(s.run(y, {n: 3}))
    try:
        s.run(y, {n: 2})
    except tf.errors.InvalidArgumentError as e:
        bad = str(e)
)", Mode::Concrete, ApiStyle::Graph);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("kind") == "'Operation'");
  CHECK(r.repr("good") == "3");
  CHECK(r.repr("bad").find("assertion failed: [n is] [2]") != std::string::npos);
}

TEST_CASE("map_fn, scan, foldl and foldr over an unknown first dimension run as graph loops", "[tf][while]") {
  TfRun r = runTf(R"(
import numpy as np
import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 3])
w = tf.Variable([1.0, 2.0, 3.0])
sq = tf.map_fn(lambda r: tf.reduce_sum(r * w), x)
pair = tf.map_fn(lambda r: (r[0], r * 2.0), x, dtype=(tf.float32, tf.float32))
cs = tf.scan(lambda a, r: a + r, x)
csr = tf.scan(lambda a, r: a + r, x, initializer=tf.zeros([3]), reverse=True)
fl = tf.foldl(lambda a, r: a * 2.0 + r, x)
fr = tf.foldr(lambda a, r: a * 2.0 + r, x, initializer=tf.zeros([3]))
g = tf.gradients(tf.reduce_sum(sq) + tf.reduce_sum(cs), [w, x])
static = [sq.shape.as_list(), pair[1].shape.as_list(), cs.shape.as_list()]
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    d = np.arange(6, dtype=np.float32).reshape(2, 3)
    vals = [v.tolist() if hasattr(v, "tolist") else [u.tolist() for u in v]
            for v in sess.run([sq, pair, cs, csr, fl, fr] + g, {x: d})]
    empty = sess.run(sq, {x: np.zeros([0, 3])}).shape
)", Mode::Concrete, ApiStyle::Graph);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("static") == "[[None], [None, 3], [None, 3]]");
  CHECK(r.repr("vals") == "[[8.0, 26.0], [[0.0, 3.0], [[0.0, 2.0, 4.0], [6.0, 8.0, 10.0]]], "
                          "[[0.0, 1.0, 2.0], [3.0, 5.0, 7.0]], [[3.0, 5.0, 7.0], [3.0, 4.0, 5.0]], [3.0, 6.0, 9.0], "
                          "[6.0, 9.0, 12.0], [3.0, 5.0, 7.0], [[3.0, 4.0, 5.0], [2.0, 3.0, 4.0]]]");
  CHECK(r.repr("empty") == "(0,)");
}

TEST_CASE("a while_loop on tensors inside tf.function still runs, as Python", "[tf][while]") {
  // tf.function replays its trace op by op eagerly, without loop frames: the trace falls back.
  TfRun r = runTf(R"(
import tensorflow as tf
@tf.function
def f(n):
    i, s = tf.while_loop(lambda i, s: i < n, lambda i, s: (i + 1, s + i), [tf.constant(0), tf.constant(0)])
    return s
out = [int(f(tf.constant(5))), int(f(tf.constant(3)))]
)");
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("out") == "[10, 3]");
}

TEST_CASE("gradients through nested graph loops, tf.cond in a body and pass-through variables", "[tf][while]") {
  TfRun r = runTf(R"(
import tensorflow as tf
n = tf.placeholder(tf.int32, [])
x = tf.placeholder(tf.float32, [])
outer_t = tf.constant(7.0)
_, a, b = tf.while_loop(lambda i, a, b: i < n, lambda i, a, b: (i + 1, a, outer_t), [0, x, x])
ga, gb = tf.gradients(a + b, x)[0], tf.gradients(b, x)[0]
# y_{i+1} = y_i * x^i + 1 from y_0 = x: after 3 steps x^4 + x^3 + x^2 + 1
def outer(i, y):
    _, z = tf.while_loop(lambda j, z: j < i, lambda j, z: (j + 1, z * x), [0, y])
    return i + 1, z + 1.0
_, y = tf.while_loop(lambda i, y: i < n, outer, [0, x])
gy = tf.gradients(y, x)[0]
# c = c * x while c < 10, else c + x: from 1 with x = 3 in 5 steps, x^3 + 2x
_, c = tf.while_loop(lambda i, c: i < n, lambda i, c: (i + 1, tf.cond(c < 10.0, lambda: c * x, lambda: c + x)),
                     [0, tf.constant(1.0)])
gc = tf.gradients(c, x)[0]
_, frozen = tf.while_loop(lambda i, v: i < n, lambda i, v: (i + 1, v * x), [0, x], back_prop=False)
no_grad = tf.gradients(frozen, x)[0] is None
with tf.Session() as s:
    passed = [float(v) for v in s.run([a, b, ga, gb], {n: 3, x: 2.0}) + s.run([a, b, ga, gb], {n: 0, x: 2.0})]
    nested = [float(v) for v in s.run([y, gy], {n: 3, x: 2.0})]
    conds = [float(v) for v in s.run([c, gc], {n: 5, x: 3.0})]
)", Mode::Concrete, ApiStyle::Graph);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("passed") == "[2.0, 7.0, 1.0, 0.0, 2.0, 2.0, 2.0, 1.0]");
  CHECK(r.repr("nested") == "[29.0, 48.0]");  // 4x^3 + 3x^2 + 2x at 2
  CHECK(r.repr("conds") == "[33.0, 29.0]");   // 3x^2 + 2 at 3
  CHECK(r.repr("no_grad") == "True");         // back_prop=False
}
