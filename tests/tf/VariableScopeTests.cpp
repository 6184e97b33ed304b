// TF1 variable sharing: tf.variable_scope, tf.get_variable, reuse (True, tf.AUTO_REUSE,
// scope.reuse_variables()), scope objects, collections, and tf.layers on top of them. Expected
// names and messages are TensorFlow 1.x's (variable_scope.py).
#include "TfTestSupport.h"

using namespace tlens;
using namespace tlens::tf;
using namespace tlens::tf::testing;
using interp::Mode;

static const char* kSharing = R"(
import tensorflow as tf

def layer(x):
    w = tf.get_variable("w", [2, 3], initializer=tf.ones_initializer())
    return tf.matmul(x, w)

x = tf.placeholder(tf.float32, [None, 2])
with tf.variable_scope("net"):
    a = layer(x)
with tf.variable_scope("net", reuse=True):
    b = layer(x)
with tf.variable_scope("other") as scope:
    c = layer(x)
    scope.reuse_variables()
    d = layer(x)
with tf.variable_scope("auto", reuse=tf.AUTO_REUSE):
    e1 = tf.get_variable("v", [1])
with tf.variable_scope("auto", reuse=tf.AUTO_REUSE):
    e2 = tf.get_variable("v", [1])
with tf.variable_scope("a"):
    with tf.variable_scope("b"):
        nested = tf.get_variable("v", [1])
        scope_name = tf.get_variable_scope().name
with tf.variable_scope("captured") as captured:
    pass
with tf.variable_scope("elsewhere"):
    with tf.variable_scope(captured, reuse=tf.AUTO_REUSE):
        in_captured = tf.get_variable("v", [4])
with tf.variable_scope(None, default_name="blk"):
    blk0 = tf.get_variable("v", [1])
with tf.variable_scope(None, default_name="blk"):
    blk1 = tf.get_variable("v", [1])
with tf.variable_scope("reusing", reuse=True):
    with tf.variable_scope("inner"):
        inherited = tf.get_variable_scope().reuse
names = [v.name for v in tf.global_variables()]
ops = [a.name, b.name, c.name, d.name]
shared = e1 is e2
)";

TEST_CASE("variable scopes share variables made by get_variable, as in TensorFlow 1", "[tf]") {
  TfRun r = runTf(kSharing);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("names") ==
        "['net/w:0', 'other/w:0', 'auto/v:0', 'a/b/v:0', 'captured/v:0', 'blk/v:0', 'blk_1/v:0']");
  // Ops go into a fresh name scope each time a variable scope is entered; variables do not.
  CHECK(r.repr("ops") == "['net/MatMul:0', 'net_1/MatMul:0', 'other/MatMul:0', 'other/MatMul_1:0']");
  CHECK(r.repr("shared") == "True");
  CHECK(r.repr("scope_name") == "'a/b'");
  CHECK(r.repr("inherited") == "True");
  CHECK(r.type("in_captured") == "float32[4]");
}

TEST_CASE("variable scopes and get_variable give the same static types in abstract mode", "[tf]") {
  TfRun r = runTf(kSharing, Mode::Abstract);
  CHECK(r.diagnostics() == "");
  CHECK(r.type("a") == "float32[batch, 3]");
  CHECK(r.type("b") == "float32[batch, 3]");
  CHECK(r.type("nested") == "float32[1]");
  CHECK(r.type("in_captured") == "float32[4]");
}

TEST_CASE("get_variable refuses a second variable without reuse and a missing one with reuse", "[tf]") {
  const char* prefix = R"(
import tensorflow as tf
with tf.variable_scope("net"):
    w = tf.get_variable("w", [2, 3])
)";
  TfRun again = runTf(std::string(prefix) + "with tf.variable_scope('net'):\n    w2 = tf.get_variable('w', [2, 3])\n");
  CHECK(again.status != 0);
  CHECK(again.err.find("ValueError: Variable net/w already exists, disallowed. Did you mean to set reuse=True or "
                       "reuse=tf.AUTO_REUSE in VarScope?") != std::string::npos);

  TfRun missing = runTf(std::string(prefix) + "with tf.variable_scope('net', reuse=True):\n    v = tf.get_variable('v', [1])\n");
  CHECK(missing.status != 0);
  CHECK(missing.err.find("ValueError: Variable net/v does not exist, or was not created with tf.get_variable(). "
                         "Did you mean to set reuse=tf.AUTO_REUSE in VarScope?") != std::string::npos);

  TfRun shape = runTf(std::string(prefix) + "with tf.variable_scope('net', reuse=True):\n    w2 = tf.get_variable('w', [3, 3])\n");
  CHECK(shape.status != 0);
  CHECK(shape.err.find("ValueError: Trying to share variable net/w, but specified shape (3, 3) and found shape (2, 3).") !=
        std::string::npos);
}

TEST_CASE("a new graph starts with no shared variables and numbers its scopes afresh", "[tf]") {
  TfRun r = runTf(R"(
import tensorflow as tf
with tf.variable_scope("net"):
    w = tf.get_variable("w", [1])
k1 = tf.layers.dense(tf.placeholder(tf.float32, [None, 2]), 3).name
tf.reset_default_graph()
with tf.variable_scope("net"):
    w = tf.get_variable("w", [1])
k2 = tf.layers.dense(tf.placeholder(tf.float32, [None, 2]), 3).name
name = w.name
)");
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("name") == "'net/w:0'");
  CHECK(r.repr("k1") == "'dense/BiasAdd:0'");
  CHECK(r.repr("k2") == "'dense/BiasAdd:0'");
}

TEST_CASE("tf.layers name their variables per layer and share them with reuse", "[tf]") {
  TfRun r = runTf(R"(
import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 4])
h1 = tf.layers.dense(x, 8)
h2 = tf.layers.dense(h1, 8)
f1 = tf.layers.dense(x, 2, name="fc")
f2 = tf.layers.dense(x, 2, name="fc", reuse=True)
names = [v.name for v in tf.trainable_variables()]
fc_only = [v.name for v in tf.trainable_variables(scope="fc")]
)");
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("names") == "['dense/kernel:0', 'dense/bias:0', 'dense_1/kernel:0', 'dense_1/bias:0', "
                           "'fc/kernel:0', 'fc/bias:0']");
  CHECK(r.repr("fc_only") == "['fc/kernel:0', 'fc/bias:0']");
}

TEST_CASE("regularizers of get_variable collect their losses", "[tf]") {
  TfRun r = runTf(R"(
import tensorflow as tf
def l2(w):
    return tf.reduce_sum(w * w)
with tf.variable_scope("net", regularizer=l2):
    w = tf.get_variable("w", [2], initializer=tf.constant_initializer(3.0))
reg = tf.losses.get_regularization_loss()
n = len(tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES))
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    value = float(sess.run(reg))
)");
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("n") == "1");
  CHECK(r.repr("value") == "18.0");
}

TEST_CASE("minimize with a global_step trains and counts the steps", "[tf]") {
  // TensorFlow: three SGD steps of 0.1 on x*x from 3.0 give 3 * 0.8^3 = 1.536.
  TfRun r = runTf(R"(
import tensorflow as tf
x = tf.Variable(3.0)
gs = tf.Variable(0, trainable=False)
train = tf.train.GradientDescentOptimizer(0.1).minimize(x * x, global_step=gs)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for _ in range(3):
        sess.run(train)
    xv, step = sess.run([x, gs])
xv = round(float(xv), 4)
step = int(step)
)");
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("xv") == "1.536");
  CHECK(r.repr("step") == "3");
}

TEST_CASE("a native context manager can be entered and left by hand", "[tf]") {
  TfRun r = runTf(R"(
import tensorflow as tf
ns = tf.name_scope("outer")
entered = ns.__enter__()
c = tf.constant(1.0, name="c")
ns.__exit__(None, None, None)
d = tf.constant(1.0, name="d")
names = [entered, c.name, d.name]
)", Mode::Concrete, ApiStyle::Graph);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("names") == "['outer/', 'outer/c:0', 'd:0']");
}

TEST_CASE("abstract mode: a layer over an input dim the analysis does not know still makes its kernel with the default initializer", "[tf][abstract]") {
  // morvan's DQN: N_STATES from a gym environment the analysis cannot import. The glorot
  // initializer's float(fan_in + fan_out) needed the value, the kernel of the target network was
  // never made, and zip(t_params, e_params) paired a bias with a kernel: a false Assign error.
  TfRun a = runTf(R"(import tensorflow as tf
import gym
env = gym.make("CartPole-v0").unwrapped
n_states = env.observation_space.shape[0]
s = tf.placeholder(tf.float32, [None, n_states])
with tf.variable_scope("q"):
    q = tf.layers.dense(s, 10, tf.nn.relu, kernel_initializer=tf.random_normal_initializer(0, 0.1))
with tf.variable_scope("q_next"):
    q_next = tf.layers.dense(s, 10, tf.nn.relu, trainable=False)
t_params = tf.get_collection(tf.GraphKeys.GLOBAL_VARIABLES, scope="q_next")
e_params = tf.get_collection(tf.GraphKeys.GLOBAL_VARIABLES, scope="q")
ops = [tf.assign(t, e) for t, e in zip(t_params, e_params)]
kernel = t_params[0]
)", interp::Mode::Abstract, ApiStyle::Graph);
  CHECK(a.diagnostics() == "");
  CHECK(a.type("kernel") == "float32[?, 10]");
}
