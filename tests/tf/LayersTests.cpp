// tf.layers and tf.contrib.layers as TF1 programs use them: variables in the input's dtype under
// TF's names, batch normalization with moving averages updated through UPDATE_OPS and a training
// flag that may be a placeholder, transposed and 1-D convolutions, and variable initializers that
// never wait for the control dependencies around the layer (TF's init_scope).
#include "TfTestSupport.h"

using namespace tlens;
using namespace tlens::tf;
using namespace tlens::tf::testing;
using interp::Mode;

TEST_CASE("tf.layers make TF's variables and shapes", "[tf][layers]") {
  TfRun r = runTf(R"(
import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 8, 8, 3])
h = tf.layers.conv2d(x, 4, 3, padding="same", activation=tf.nn.relu)
h = tf.layers.batch_normalization(h, training=True)
up = tf.layers.conv2d_transpose(h, 2, 3, strides=2, padding="same")
valid = tf.layers.conv2d_transpose(x, 5, 3, strides=2)
s = tf.placeholder(tf.float64, [None, 10, 5])
c1 = tf.layers.conv1d(s, 6, 3)
p1 = tf.layers.max_pooling1d(c1, 2, 2)
fc = tf.contrib.layers.fully_connected(tf.layers.flatten(up), 3, normalizer_fn=tf.contrib.layers.batch_norm)
shapes = [str(t.shape) for t in (up, valid, c1, p1, fc)]
dtypes = [t.dtype.base_dtype.name for t in (c1, tf.global_variables("conv1d/kernel")[0])]
names = [v.name for v in tf.global_variables()]
trainable = len(tf.trainable_variables())
updates = len(tf.get_collection(tf.GraphKeys.UPDATE_OPS))
)", Mode::Concrete, ApiStyle::Graph);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("shapes") == "['(?, 16, 16, 2)', '(?, 17, 17, 5)', '(?, 8, 6)', '(?, 4, 6)', '(?, 3)']");
  CHECK(r.repr("dtypes") == "['float64', 'float64']");
  CHECK(r.repr("names") ==
        "['conv2d/kernel:0', 'conv2d/bias:0', 'batch_normalization/gamma:0', 'batch_normalization/beta:0', "
        "'batch_normalization/moving_mean:0', 'batch_normalization/moving_variance:0', 'conv2d_transpose/kernel:0', "
        "'conv2d_transpose/bias:0', 'conv2d_transpose_1/kernel:0', 'conv2d_transpose_1/bias:0', 'conv1d/kernel:0', "
        "'conv1d/bias:0', 'fully_connected/weights:0', 'fully_connected/BatchNorm/beta:0', "
        "'fully_connected/BatchNorm/moving_mean:0', 'fully_connected/BatchNorm/moving_variance:0']");
  CHECK(r.repr("trainable") == "12");
  CHECK(r.repr("updates") == "4");
}

TEST_CASE("batch normalization trains on batch statistics and infers with the moving averages", "[tf][layers]") {
  TfRun r = runTf(R"(
import numpy as np
import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 2])
training = tf.placeholder(tf.bool, [])
y = tf.layers.batch_normalization(x, momentum=0.5, training=training)
loss = tf.reduce_sum(y * y)
with tf.control_dependencies(tf.get_collection(tf.GraphKeys.UPDATE_OPS)):
    train = tf.train.AdamOptimizer(0.1).minimize(loss)
xv = np.array([[1.0, 10.0], [3.0, 30.0]], np.float32)
with tf.Session() as s:
    # Slots were made inside control_dependencies(UPDATE_OPS): their initializers must not need x.
    s.run(tf.global_variables_initializer())
    fresh = np.round(s.run(y, {x: xv, training: False}), 3).tolist()
    batch = np.round(s.run(y, {x: xv, training: True}), 4).tolist()
    s.run(train, {x: xv, training: True})
    mm = s.run(tf.global_variables("batch_normalization/moving_mean")[0]).tolist()
)", Mode::Concrete, ApiStyle::Graph);
  INFO(r.err);
  REQUIRE(r.status == 0);
  // batch mean 2, 20 and variance 1, 100: normalised to -1, +1 (epsilon 1e-3 aside)
  CHECK(r.repr("batch") == "[[-0.9994999766349792, -1.0], [0.9994999766349792, 1.0]]");
  CHECK(r.repr("mm") == "[1.0, 10.0]");  // 0.5 * 0 + 0.5 * batch mean, once
  // Before training the moving averages are 0 and 1: inference only divides by sqrt(1 + 1e-3).
  CHECK(r.repr("fresh") == "[[1.0, 9.994999885559082], [2.999000072479248, 29.985000610351562]]");
}

TEST_CASE("variance scaling initializers have the variance of their mode and distribution", "[tf][layers]") {
  TfRun r = runTf(R"(
import numpy as np
import tensorflow as tf
w = tf.get_variable("w", [100, 300], initializer=tf.variance_scaling_initializer(2.0, "fan_avg", "uniform", seed=1))
u = tf.get_variable("u", [400, 100], initializer=tf.contrib.layers.variance_scaling_initializer(seed=2))
with tf.Session() as s:
    s.run(tf.global_variables_initializer())
    a, b = s.run([w, u])
# uniform: limit sqrt(3 * 2 / 200); contrib: a truncated normal of variance 2 / fan_in (400)
stats = [round(float(np.abs(a).max()), 2), round(float(a.std()), 2), round(float(b.std()), 2)]
)", Mode::Concrete, ApiStyle::Graph);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("stats") == "[0.17, 0.1, 0.07]");
}

TEST_CASE("arg_scope sets default arguments of contrib and slim layers, and batch_norm takes a training placeholder", "[tf][layers]") {
  // hunkim/DeepLearningZeroToAll lab-10-7: arg_scope([fully_connected], normalizer_fn=batch_norm,
  // normalizer_params={'is_training': train_mode, 'updates_collections': None}).
  const char* src = R"(import numpy as np
import tensorflow as tf
from tensorflow.contrib.layers import fully_connected, batch_norm
from tensorflow.contrib.framework import arg_scope
slim = tf.contrib.slim
X = tf.placeholder(tf.float32, [None, 4])
train = tf.placeholder(tf.bool)
with arg_scope([fully_connected], activation_fn=None, biases_initializer=None,
               weights_initializer=tf.ones_initializer(), normalizer_fn=batch_norm,
               normalizer_params={'is_training': train, 'decay': 0.9, 'updates_collections': None}):
    h = fully_connected(X, 3, scope="h1")
    h2 = fully_connected(h, 2, normalizer_fn=None, scope="h2")
with slim.arg_scope([slim.fully_connected], activation_fn=tf.nn.relu) as sc:
    pass
with slim.arg_scope(sc):
    r = slim.repeat(X, 2, slim.fully_connected, 4, scope="fc")
names = sorted(v.op.name for v in tf.trainable_variables())
try:
    arg_scope([tf.matmul], a=1)
except ValueError as e:
    msg = str(e)
sess = tf.Session()
sess.run(tf.global_variables_initializer())
x = np.array([[1, 2, 3, 4], [3, 4, 5, 6]], dtype=np.float32)
trained = [round(v, 5) for v in sess.run(h, {X: x, train: True})[:, 0].tolist()]
inferred = [round(v, 4) for v in sess.run(h, {X: x, train: False})[0].tolist()]
)";
  TfRun r = runTf(src, Mode::Concrete, ApiStyle::Graph);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("names") == "['fc/fc_1/biases', 'fc/fc_1/weights', 'fc/fc_2/biases', 'fc/fc_2/weights', "
                           "'h1/BatchNorm/beta', 'h1/weights', 'h2/weights']");
  CHECK(r.repr("msg") == "'tensorflow.matmul is not decorated with @add_arg_scope'");
  // Rows sum to 10 and 18: normalised over the batch, -1 and 1 (less the epsilon's share).
  CHECK(r.repr("trained") == "[-0.99997, 0.99997]");  // +-4 / sqrt(16 + 0.001)
  // One update with decay 0.9: moving mean 1.4 (0.1 * 14), moving variance 0.9 + 0.1 * 16 = 2.5;
  // (10 - 1.4) / sqrt(2.5 + 0.001).
  CHECK(r.repr("inferred") == "[5.438, 5.438, 5.438]");
  TfRun a = runTf(src, Mode::Abstract, ApiStyle::Graph);
  CHECK(a.diagnostics() == "");
  CHECK(a.type("h2") == "float32[batch, 2]");
  CHECK(a.type("r") == "float32[batch, 4]");
}
