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

TEST_CASE("cumsum, cumprod, gather_nd, scatter_nd, segment sums and dynamic_partition/stitch run eagerly", "[tf]") {
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
um = tf.math.unsorted_segment_mean([[1., 2.], [3., 4.], [5., 6.]], [1, 0, 1], 3).numpy().tolist()
parts = [p.numpy().tolist() for p in tf.dynamic_partition([10, 20, 30, 40, 50], [0, 0, 1, 1, 0], 2)]
st = tf.dynamic_stitch([[0, 2], [1]], [[1., 3.], [2.]]).numpy().tolist()
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
  CHECK(r.repr("um") == "[[3.0, 4.0], [3.0, 4.0], [0.0, 0.0]]");
  CHECK(r.repr("parts") == "[[10, 20, 50], [30, 40]]");
  CHECK(r.repr("st") == "[1.0, 2.0, 3.0]");
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

TEST_CASE("lrn, depthwise, separable, transposed and atrous convolutions build and train in TF1", "[tf]") {
  TfRun r = runTf(R"(
import numpy as np
import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 8, 8, 3])
l = tf.nn.lrn(x, depth_radius=2, bias=1.0, alpha=0.001 / 9.0, beta=0.75)
dw = tf.Variable(tf.ones([3, 3, 3, 2]))
pw = tf.Variable(tf.ones([1, 1, 6, 4]))
d = tf.nn.depthwise_conv2d(x, dw, [1, 1, 1, 1], 'SAME')
s = tf.nn.separable_conv2d(x, dw, pw, [1, 2, 2, 1], 'SAME')
f = tf.Variable(tf.ones([3, 3, 5, 3]))
t = tf.nn.conv2d_transpose(x, f, [2, 16, 16, 5], [1, 2, 2, 1], 'SAME')
a = tf.nn.atrous_conv2d(x, tf.ones([3, 3, 3, 7]), 2, 'VALID')
loss = tf.reduce_sum(l) + tf.reduce_sum(s) + tf.reduce_sum(t)
step = tf.train.GradientDescentOptimizer(1e-4).minimize(loss)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    feed = {x: np.ones((2, 8, 8, 3), np.float32)}
    dv, tv, av = sess.run([d, t, a], feed)
    corner = tv[0, :3, :3, 0].tolist()
    dcenter = float(dv[0, 4, 4, 0])
    atrous = float(av[0, 0, 0, 0])
    sess.run(step, feed)
    pw_after = float(sess.run(pw)[0, 0, 0, 0])
try:
    tf.nn.conv2d_transpose(x, f, [2, 16, 16, 4], [1, 2, 2, 1], 'SAME')
except ValueError as e:
    err = str(e)
)", Mode::Concrete, ApiStyle::Graph);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.type("l") == "float32[batch, 8, 8, 3]");
  CHECK(r.type("d") == "float32[batch, 8, 8, 6]");
  CHECK(r.type("s") == "float32[batch, 4, 4, 4]");
  CHECK(r.type("t") == "float32[2, 16, 16, 5]");
  CHECK(r.type("a") == "float32[batch, 4, 4, 7]");
  CHECK(r.repr("corner") == "[[3.0, 3.0, 6.0], [3.0, 3.0, 6.0], [6.0, 6.0, 12.0]]");
  CHECK(r.repr("dcenter") == "9.0");
  CHECK(r.repr("atrous") == "27.0");
  CHECK(r.repr("pw_after") != "1.0");
  CHECK(r.repr("err") == "\"output_shape does not match filter's output channels, 4 != 5\"");
}

TEST_CASE("random.categorical and random.shuffle are seeded draws of the right shape", "[tf]") {
  TfRun r = runTf(R"(
import tensorflow as tf
tf.random.set_seed(3)
s = tf.random.categorical(tf.math.log([[0.5, 0.5], [0.01, 0.99]]), 5)
sure = tf.random.categorical([[0., -1e9], [-1e9, 0.]], 4, dtype=tf.int32).numpy().tolist()
perm = sorted(tf.random.shuffle(tf.range(10)).numpy().tolist())
)", Mode::Concrete);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.type("s") == "int64[2, 5]");
  CHECK(r.repr("sure") == "[[0, 0, 0, 0], [1, 1, 1, 1]]");
  CHECK(r.repr("perm") == "[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]");
}

TEST_CASE("tf.image resizes, flips, standardizes and crops as TensorFlow", "[tf]") {
  TfRun r = runTf(R"(
import numpy as np
import tensorflow as tf
img = tf.constant(np.arange(4, dtype=np.float32).reshape(1, 2, 2, 1))
half = tf.image.resize(img, [4, 4])[0, :, 0, 0].numpy().tolist()
legacy = tf.image.resize_images(img, (4, 4))[0, 0, :, 0].numpy().tolist()
corners = tf.image.resize_images(img, (3, 3), align_corners=True)[0, 1, :, 0].numpy().tolist()
near = tf.image.resize(tf.cast(img, tf.uint8), [4, 4], method=tf.image.ResizeMethod.NEAREST_NEIGHBOR)
small = tf.image.resize(np.zeros((5, 5, 3), np.uint8), [10, 7])
x = tf.constant(np.arange(12, dtype=np.float32).reshape(2, 2, 3))
flip = tf.image.flip_left_right(x)[:, :, 0].numpy().tolist()
rflip = tf.image.random_flip_left_right(x, seed=1)
std = tf.image.per_image_standardization(x)
mean = round(float(tf.reduce_mean(std)), 5)
conv = tf.image.convert_image_dtype(tf.constant([[[0, 51, 255]]], tf.uint8), tf.float32).numpy().tolist()
crop = tf.image.random_crop(tf.reshape(tf.range(100), [10, 10]), [3, 4])
c = crop.numpy()
rows_ok = bool((c[:, 1:] - c[:, :-1] == 1).all() and (c[1:, :] - c[:-1, :] == 10).all())
b = tf.constant(np.arange(16, dtype=np.float32).reshape(1, 4, 4, 1))
cp = tf.image.resize_with_crop_or_pad(b, 2, 6)[0, :, :, 0].numpy().tolist()
cc = tf.image.central_crop(b[0], 0.5)[:, :, 0].numpy().tolist()
ac = tf.image.adjust_contrast(b, 2.)[0, 0, :, 0].numpy().tolist()
ab = tf.image.adjust_brightness(tf.constant([[[10, 250]]], tf.uint8), 0.1).numpy().tolist()
rb = tf.image.random_contrast(tf.image.random_brightness(b, 0.5, seed=1), 0.2, 1.8)
)", Mode::Concrete);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("half") == "[0.0, 0.5, 1.5, 2.0]");
  CHECK(r.repr("legacy") == "[0.0, 0.5, 1.0, 1.0]");
  CHECK(r.repr("corners") == "[1.0, 1.5, 2.0]");
  CHECK(r.type("near") == "uint8[1, 4, 4, 1]");
  CHECK(r.type("small") == "float32[10, 7, 3]");
  CHECK(r.repr("flip") == "[[3.0, 0.0], [9.0, 6.0]]");
  CHECK(r.type("rflip") == "float32[2, 2, 3]");
  CHECK(r.repr("mean") == "0.0");
  CHECK(r.repr("conv") == "[[[0.0, 0.20000001788139343, 1.0]]]");  // float32 51 * (1 / 255), as TF
  CHECK(r.type("crop") == "int32[3, 4]");
  CHECK(r.repr("rows_ok") == "True");
  CHECK(r.repr("cp") == "[[0.0, 4.0, 5.0, 6.0, 7.0, 0.0], [0.0, 8.0, 9.0, 10.0, 11.0, 0.0]]");
  CHECK(r.repr("cc") == "[[5.0, 6.0], [9.0, 10.0]]");
  CHECK(r.repr("ac") == "[-7.5, -5.5, -3.5, -1.5]");
  CHECK(r.repr("ab") == "[[[35, 255]]]");
  CHECK(r.type("rb") == "float32[1, 4, 4, 1]");
}

TEST_CASE("band_part, diag, diag_part, set_diag, matrix_transpose, atan2 and bincount", "[tf]") {
  TfRun r = runTf(R"(
import numpy as np
import tensorflow as tf
a = tf.constant(np.arange(16, dtype=np.float32).reshape(4, 4))
upper = tf.linalg.band_part(a, 0, -1).numpy()[:, 0].tolist()
d = tf.linalg.diag([[1, 2], [3, 4]])
dp = tf.linalg.diag_part(a).numpy().tolist()
sd = tf.linalg.set_diag(a, [9, 9, 9, 9]).numpy()[1].tolist()
mt = tf.linalg.matrix_transpose(tf.zeros([2, 3, 4]))
at = round(float(tf.math.atan2(1.0, -1.0)), 6)
bc = tf.math.bincount([1, 1, 2, 5]).numpy().tolist()
bw = tf.math.bincount([1, 1, 2], minlength=5, weights=[0.5, 1., 2.]).numpy().tolist()
v = tf.Variable([[1., 2.], [3., 4.]])
with tf.GradientTape() as tape:
    y = tf.reduce_sum(tf.linalg.diag_part(v) * tf.constant([2., 3.]))
g = tape.gradient(y, v).numpy().tolist()
)", Mode::Concrete);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("upper") == "[0.0, 0.0, 0.0, 0.0]");
  CHECK(r.type("d") == "int32[2, 2, 2]");
  CHECK(r.repr("dp") == "[0.0, 5.0, 10.0, 15.0]");
  CHECK(r.repr("sd") == "[4.0, 9.0, 6.0, 7.0]");
  CHECK(r.type("mt") == "float32[2, 4, 3]");
  CHECK(r.repr("at") == "2.356194");
  CHECK(r.repr("bc") == "[0, 2, 1, 0, 0, 1]");
  CHECK(r.repr("bw") == "[0.0, 1.5, 2.0, 0.0, 0.0]");
  CHECK(r.repr("g") == "[[2.0, 0.0], [0.0, 3.0]]");
}

TEST_CASE("cross entropies take logits of any rank, as TensorFlow's Python wrappers do", "[tf]") {
  const char* src = R"(import numpy as np
import tensorflow as tf
logits = tf.placeholder(tf.float32, [None, None, 7])
labels = tf.placeholder(tf.int32, [None, None])
sparse = tf.nn.sparse_softmax_cross_entropy_with_logits(logits=logits, labels=labels)
dense = tf.nn.softmax_cross_entropy_with_logits(labels=tf.one_hot(labels, 7), logits=logits)
by_axis = tf.nn.softmax_cross_entropy_with_logits_v2(labels=tf.ones([7, 2]) / 7.0, logits=tf.zeros([7, 2]), axis=0)
g = tf.gradients(tf.reduce_mean(sparse), logits)[0]
with tf.Session() as sess:
    sv, dv, gv = sess.run([sparse, dense, g], {logits: np.zeros((2, 3, 7)), labels: [[1, 2, 3], [4, 5, 6]]})
    shapes = [sv.shape, dv.shape, gv.shape]
    first = round(float(sv[0, 0]), 5)
    same = bool(np.allclose(sv, dv))
    grad = round(float(gv[0, 0, 1]), 5)
    axis = [round(v, 5) for v in sess.run(by_axis).tolist()]
)";
  TfRun r = runTf(src, Mode::Concrete, ApiStyle::Graph);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.type("sparse") == "float32[batch, d1]");
  CHECK(r.repr("shapes") == "[(2, 3), (2, 3), (2, 3, 7)]");
  CHECK(r.repr("first") == "1.94591");  // log(7)
  CHECK(r.repr("same") == "True");
  CHECK(r.repr("grad") == "-0.14286");  // (softmax - one_hot) / 6 losses: (1/7 - 1) / 6
  CHECK(r.repr("axis") == "[1.94591, 1.94591]");
  TfRun a = runTf(src, Mode::Abstract, ApiStyle::Graph);
  CHECK(a.diagnostics() == "");
  CHECK(a.type("dense") == "float32[batch, d1]");
}

TEST_CASE("softmax cross entropy flattens labels of another rank than the logits", "[tf]") {
  // hunkim/DeepLearningZeroToAll lab-06-2 passes labels=tf.stop_gradient([Y_one_hot]): [1, n, 7]
  // labels against [n, 7] logits. TensorFlow's wrapper flattens the outer dimensions of both.
  const char* src = R"(import numpy as np
import tensorflow as tf
X = tf.placeholder(tf.float32, [None, 7])
Y = tf.placeholder(tf.int32, [None, 1])
one_hot = tf.reshape(tf.one_hot(Y, 7), [-1, 7])
cost = tf.nn.softmax_cross_entropy_with_logits_v2(logits=X, labels=tf.stop_gradient([one_hot]))
with tf.Session() as sess:
    c = sess.run(cost, {X: np.zeros((3, 7)), Y: [[0], [1], [2]]})
    shape = c.shape
    first = round(float(c[0]), 5)
    bad = sess.run(cost, {X: np.zeros((3, 7)), Y: [[0], [1]]})
)";
  TfRun r = runTf(src, Mode::Concrete, ApiStyle::Graph);
  CHECK(r.type("cost") == "float32[batch]");
  CHECK(r.repr("shape") == "(3,)");
  CHECK(r.repr("first") == "1.94591");
  CHECK(r.err.find("logits and labels must be broadcastable: logits_size=[3,7] labels_size=[2,7]") != std::string::npos);
  TfRun a = runTf(src, Mode::Abstract, ApiStyle::Graph);
  // The error is at the node's line (the run that feeds the mismatch is its related information).
  CHECK(a.diagnostics().find("main.py:6:8: error: logits and labels must be broadcastable") != std::string::npos);
}

TEST_CASE("a feed may be a list of numpy arrays, as np.asarray would stack them", "[tf]") {
  const char* src = R"(import numpy as np
import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 2, 3])
s = tf.reduce_sum(x, axis=[1, 2])
batch = [np.eye(3)[[0, 1]], np.eye(3)[[1, 2]] * 2]
with tf.Session() as sess:
    out = sess.run(s, {x: batch}).tolist()
    bad = sess.run(s, {x: [np.eye(3)[[0]]]})
)";
  TfRun r = runTf(src, Mode::Concrete, ApiStyle::Graph);
  CHECK(r.repr("out") == "[2.0, 4.0]");
  CHECK(r.err.find("ValueError: Cannot feed value of shape (1, 1, 3) for Tensor") != std::string::npos);
  TfRun a = runTf(src, Mode::Abstract, ApiStyle::Graph);
  CHECK(a.diagnostics().find("main.py:8:11: error: Cannot feed value of shape (1, 1, 3)") != std::string::npos);
}

TEST_CASE("sparse cross entropy with rank-2 logits passes labels of unknown rank to the op, as TensorFlow", "[tf]") {
  // ageron/handson-ml: y = tf.placeholder(tf.int32, shape=(None)) has no rank; feeding labels of
  // shape (50, 1) fails in the op ("Shape must be rank 1"), at the cross entropy's line.
  const char* src = R"(import numpy as np
import tensorflow as tf
X = tf.placeholder(tf.float32, [None, 3])
y = tf.placeholder(tf.int32, shape=(None))
xent = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=X)
with tf.Session() as sess:
    ok = sess.run(xent, {X: np.zeros((2, 3)), y: [0, 2]}).shape
    bad = sess.run(xent, {X: np.zeros((2, 3)), y: np.array([[0], [2]])})
)";
  TfRun r = runTf(src, Mode::Concrete, ApiStyle::Graph);
  CHECK(r.repr("ok") == "(2,)");
  CHECK(r.err.find("Shape must be rank 1 but is rank 2 for 'SparseSoftmaxCrossEntropyWithLogits'") != std::string::npos);
  TfRun a = runTf(src, Mode::Abstract, ApiStyle::Graph);
  CHECK(a.diagnostics().find("main.py:5:8: error: Shape must be rank 1 but is rank 2") != std::string::npos);
}

TEST_CASE("TF1's div, truediv and divide convert their operands as TensorFlow's math_ops", "[tf]") {
  // tf.div is Python 2 division (floor division of integers), tf.truediv casts int32 to float64
  // and int8/uint8 to float32 and refuses mixed dtypes, tf.divide is x / y on tensors.
  TfRun r = runTf(R"(
import tensorflow as tf
sess = tf.Session()
d = tf.div(3, 4)
t = tf.truediv(3, 4)
t8 = tf.truediv(tf.constant(3, tf.uint8), 2)
dv = tf.divide(3, 4)
vals = [sess.run(d), sess.run(t), sess.run(tf.div(-7, 2)), sess.run(tf.div(7.0, 2)), sess.run(dv)]
try:
    tf.truediv(tf.constant(1), tf.constant(2.0))
    err = "none"
except TypeError as e:
    err = str(e)
)", Mode::Concrete, ApiStyle::Graph);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.type("d") == "int32[]");
  CHECK(r.type("t") == "float64[]");
  CHECK(r.type("t8") == "float32[]");
  CHECK(r.type("dv") == "float64[]");
  CHECK(r.repr("vals") == "[0, 0.75, -4, 3.5, 0.75]");
  CHECK(r.repr("err") == "'x and y must have the same dtype, got tf.int32 != tf.float32'");
}

TEST_CASE("TF1's top-level linear algebra (cholesky, matrix_solve, self_adjoint_eig, svd, qr, cross, trace)", "[tf]") {
  TfRun r = runTf(R"(
import tensorflow as tf
A = tf.constant([[4.0, 2.0], [2.0, 3.0]], tf.float64)
L = tf.cholesky(A)
x = tf.matrix_solve(A, tf.constant([[1.0], [1.0]], tf.float64))
e, v = tf.self_adjoint_eig(A)
s = tf.svd(A, compute_uv=False)
q, rr = tf.qr(A)
c = tf.cross([1.0, 0.0, 0.0], [0.0, 1.0, 0.0])
cb = tf.cross(tf.zeros([4, 3]), tf.zeros([4, 3]))
tr = tf.trace(A)
tn = tf.tan(0.5)
with tf.Session() as sess:
    lv, xv, ev, sv, cv, tv = [sess.run(t).round(4).tolist() for t in (L, x, e, s, c, tr)]
try:
    tf.cross([1.0, 0.0], [0.0, 1.0])
    err = "none"
except ValueError as ex:
    err = str(ex)
)", Mode::Concrete, ApiStyle::Graph);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("lv") == "[[2.0, 0.0], [1.0, 1.4142]]");
  CHECK(r.repr("xv") == "[[0.125], [0.25]]");
  CHECK(r.repr("ev") == "[1.4384, 5.5616]");
  CHECK(r.repr("sv") == "[5.5616, 1.4384]");
  CHECK(r.repr("cv") == "[0.0, 0.0, 1.0]");
  CHECK(r.repr("tv") == "7.0");
  CHECK(r.type("v") == "float64[2, 2]");
  CHECK(r.type("q") == "float64[2, 2]");
  CHECK(r.type("cb") == "float32[4, 3]");
  CHECK(r.type("tn") == "float32[]");
  CHECK(r.err.empty());
  CHECK(r.repr("err").find("Dimension must be 3 but is 2") != std::string::npos);
}

TEST_CASE("TF 1's pools and convolutions take exactly 4 ksize and stride values, TF 2's tf.nn takes 1 or 2", "[tf]") {
  // A question-and-answer bug: tf.nn.max_pool(x, ksize=[2, 2], strides=[2, 2]) in a TF 1 program
  // fails in TensorFlow 1 (the op's shape function wants 4 values); tensorlens expanded the list
  // as TF 2 does, and the program ran.
  const char* src = R"(import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 28, 28, 1])
W = tf.Variable(tf.zeros([5, 5, 1, 8]))
try:
    tf.nn.max_pool(x, ksize=[2, 2], strides=[2, 2], padding="SAME")
except ValueError as e:
    pool = str(e)
try:
    tf.nn.conv2d(x, W, strides=[1, 1], padding="SAME")
except ValueError as e:
    conv = str(e)
ok = tf.nn.max_pool(x, ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding="SAME")
)";
  TfRun r = runTf(src, Mode::Concrete, ApiStyle::Graph);
  INFO(r.err);
  CHECK(r.repr("pool").find("MaxPool requires the stride attribute to contain 4 values, but got: 2") != std::string::npos);
  CHECK(r.repr("conv").find("requires the stride attribute to contain 4 values, but got: 2") != std::string::npos);
  TfRun a = runTf(std::string(src) + "bad = tf.nn.max_pool(x, ksize=[2, 2], strides=[2, 2], padding='SAME')\n", Mode::Abstract,
                  ApiStyle::Graph);
  CHECK(a.diagnostics().find("main.py:13:7: error: MaxPool requires the stride attribute to contain 4 values") == 0);
  TfRun e = runTf(R"(import tensorflow as tf
p = tf.nn.max_pool(tf.random.normal([2, 28, 28, 1]), ksize=[2, 2], strides=[2, 2], padding="SAME")
shape = list(p.shape)
)");
  CHECK(e.repr("shape") == "[2, 14, 14, 1]");
}

TEST_CASE("abstract mode: an integer tensor divided by a number the analysis does not know is a float64 tensor", "[tf]") {
  // YunYang1994's YOLOv3 train.py: (global_steps - warmup_steps) / (total_steps - warmup_steps) *
  // np.pi, the steps from a config module the analysis could not read. The quotient kept int64,
  // and the product with pi was a false dtype error.
  TfRun a = runTf(R"(import numpy as np
import tensorflow as tf
import cfgmod
g = tf.Variable(1, trainable=False, dtype=tf.int64)
w = cfgmod.A * 10
q = (g - w) / (cfgmod.B - w)
b = 1 + tf.cos(q * np.pi)
)", Mode::Abstract);
  CHECK(a.diagnostics() == "");
  CHECK(a.type("q").rfind("float64", 0) == 0);
}
