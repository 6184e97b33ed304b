// tf.train beyond minimize(): compute_gradients/apply_gradients (gradient clipping), learning
// rates that are tensors (schedules of the global step, placeholders), Adagrad and Adadelta.
// Expected values worked by hand from TensorFlow's update formulas (training_ops.cc).
#include "TfTestSupport.h"

using namespace tlens;
using namespace tlens::tf;
using namespace tlens::tf::testing;
using interp::Mode;

TEST_CASE("apply_gradients applies clipped gradients with a decaying learning rate", "[tf][train]") {
  TfRun r = runTf(R"(
import tensorflow as tf
x = tf.Variable(3.0, name="x")
gs = tf.train.get_or_create_global_step()
lr = tf.train.exponential_decay(0.5, gs, 1, 0.5, staircase=True)
opt = tf.train.AdagradOptimizer(lr)
grads = opt.compute_gradients(x * x)
train = opt.apply_gradients([(tf.clip_by_value(g, -1.0, 1.0), v) for g, v in grads], global_step=gs)
with tf.Session() as s:
    s.run(tf.global_variables_initializer())
    for i in range(3):
        s.run(train)
    xv, step, rate = s.run([x, gs, lr])
out = [round(float(xv), 5), int(step), float(rate)]
names = [v.name for v in tf.global_variables()]
)", Mode::Concrete, ApiStyle::Graph);
  INFO(r.err);
  REQUIRE(r.status == 0);
  // accum from 0.1: x -= lr_t / sqrt(accum_t) with lr 0.5, 0.25, 0.125 and accum 1.1, 2.1, 3.1.
  CHECK(r.repr("out") == "[2.27976, 3, 0.0625]");
  CHECK(r.repr("names") == "['x:0', 'global_step:0', 'x/Adagrad:0']");
}

TEST_CASE("Adadelta and a fed learning rate follow TensorFlow's formulas", "[tf][train]") {
  TfRun r = runTf(R"(
import tensorflow as tf
w = tf.Variable([1.0, -2.0], name="w")
rate = tf.placeholder(tf.float32, [])
step = tf.train.AdadeltaOptimizer(rate, rho=0.5, epsilon=0.25).minimize(tf.reduce_sum(w * w))
with tf.Session() as s:
    s.run(tf.global_variables_initializer())
    s.run(step, {rate: 1.0})
    got = [round(float(v), 5) for v in s.run(w)]
slots = sorted(v.name for v in tf.global_variables())
)", Mode::Concrete, ApiStyle::Graph);
  INFO(r.err);
  REQUIRE(r.status == 0);
  // g = 2w; accum = 0.5 g^2; update = sqrt(0 + .25) / sqrt(accum + .25) * g.
  // w=1: g=2, accum=2, update=0.5/1.5*2=0.66667 -> 0.33333; w=-2: g=-4, accum=8, update=0.5/2.87228*-4=-0.69631 -> -1.30369
  CHECK(r.repr("got") == "[0.33333, -1.30369]");
  CHECK(r.repr("slots") == "['w/Adadelta:0', 'w/Adadelta_1:0', 'w:0']");
}

TEST_CASE("apply_gradients with no gradient at all is TensorFlow's ValueError", "[tf][train]") {
  TfRun r = runTf(R"(
import tensorflow as tf
x = tf.Variable(1.0, name="x")
tf.train.GradientDescentOptimizer(0.1).apply_gradients([(None, x)])
)", Mode::Concrete, ApiStyle::Graph);
  CHECK(r.status == 1);
  CHECK(r.err.find("ValueError: No gradients provided for any variable: [\"<tf.Variable 'x:0' shape=() dtype=float32_ref>\"].") !=
        std::string::npos);
}

TEST_CASE("learning-rate schedules are tensors of the global step", "[tf][train]") {
  TfRun r = runTf(R"(
import tensorflow as tf
gs = tf.Variable(10, trainable=False)
lrs = [tf.train.exponential_decay(1.0, gs, 4, 0.5), tf.train.inverse_time_decay(1.0, gs, 5, 0.5),
       tf.train.polynomial_decay(1.0, gs, 20, 0.0), tf.train.piecewise_constant(gs, [5, 15], [1.0, 0.5, 0.1]),
       tf.train.natural_exp_decay(1.0, gs, 10, 1.0, staircase=True)]
with tf.Session() as s:
    s.run(tf.global_variables_initializer())
    vals = [round(float(v), 5) for v in s.run(lrs)]
)", Mode::Concrete, ApiStyle::Graph);
  INFO(r.err);
  REQUIRE(r.status == 0);
  // 0.5^2.5, 1/(1+0.5*2), 1-10/20, boundaries (5, 15] -> 0.5, exp(-1)
  CHECK(r.repr("vals") == "[0.17678, 0.5, 0.5, 0.5, 0.36788]");
}

TEST_CASE("tf.train.ExponentialMovingAverage keeps shadow variables, debiased for tensors", "[tf][train]") {
  // pkmital/tensorflow_tutorials' batch_norm keeps moving averages of batch moments this way.
  const char* src = R"(import tensorflow as tf
w = tf.Variable(10.0, name="w")
x = tf.placeholder(tf.float32, [2])
m = tf.reduce_mean(x)
ema = tf.train.ExponentialMovingAverage(decay=0.9)
op = ema.apply([w, m])
avg_w, avg_m = ema.average(w), ema.average(m)
names = [avg_w.name, avg_m.name, ema.average_name(w)]
trainable = [v.name for v in tf.trainable_variables()]
step = tf.assign(w, 20.0)
with tf.Session() as s:
    s.run(tf.global_variables_initializer())
    s.run(step)
    s.run(op, {x: [1.0, 3.0]})
    first = [round(float(v), 4) for v in s.run([avg_w, avg_m])]
    s.run(op, {x: [5.0, 7.0]})
    second = [round(float(v), 4) for v in s.run([avg_w, avg_m])]
)";
  TfRun r = runTf(src, Mode::Concrete, ApiStyle::Graph);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("names") == "['w/ExponentialMovingAverage:0', 'Mean/ExponentialMovingAverage:0', 'w/ExponentialMovingAverage']");
  CHECK(r.repr("trainable") == "['w:0']");
  // w: 10 - 0.1 * (10 - 20) = 11, then 11.9. The mean (2, then 6) from zero, debiased:
  // 0.2 / 0.1 = 2, then (0.18 + 0.6) / 0.19 = 4.1053.
  CHECK(r.repr("first") == "[11.0, 2.0]");
  CHECK(r.repr("second") == "[11.9, 4.1053]");
  TfRun a = runTf(src, Mode::Abstract, ApiStyle::Graph);
  CHECK(a.diagnostics() == "");
  CHECK(a.type("avg_m") == "float32[]");
}

TEST_CASE("TF1 optimizers run eagerly with the graph kernels' formulas, and tf.contrib.eager's implicit gradients", "[tf][train]") {
  // chiphuyen/stanford-tensorflow-tutorials 04_linreg_eager: tfe.implicit_value_and_gradients
  // then tf.train.GradientDescentOptimizer(...).apply_gradients(...) with eager execution on.
  const std::string opts = R"(import tensorflow as tf
def make():
    return [tf.train.GradientDescentOptimizer(0.1), tf.train.MomentumOptimizer(0.1, 0.9),
            tf.train.MomentumOptimizer(0.1, 0.9, use_nesterov=True), tf.train.AdamOptimizer(0.1),
            tf.train.RMSPropOptimizer(0.1, momentum=0.5), tf.train.AdagradOptimizer(0.1),
            tf.train.AdadeltaOptimizer(1.0)]
)";
  TfRun graph = runTf(opts + R"(
out = []
for opt in make():
    w = tf.Variable([1.0, -2.0])
    step = opt.minimize(tf.reduce_sum(w * w * w))
    with tf.Session() as s:
        s.run(tf.global_variables_initializer())
        for _ in range(3):
            s.run(step)
        out.append([round(float(v), 5) for v in s.run(w)])
)", Mode::Concrete, ApiStyle::Graph);
  INFO(graph.err);
  REQUIRE(graph.status == 0);
  TfRun eager = runTf(opts + R"(
import tensorflow.contrib.eager as tfe
tfe.enable_eager_execution()
out = []
for opt in make():
    w = tfe.Variable([1.0, -2.0])
    grad_fn = tfe.implicit_value_and_gradients(lambda: tf.reduce_sum(w * w * w))
    for _ in range(3):
        value, grads = grad_fn()
        opt.apply_gradients(grads)
    out.append([round(float(v), 5) for v in w.numpy()])
names = [v.name for g, v in grads]
x = tf.constant(3.0)
dx = tfe.gradients_function(lambda a, b: a * a * b)(x, 2.0)
)");
  INFO(eager.err);
  REQUIRE(eager.status == 0);
  CHECK(eager.repr("out") == graph.repr("out"));
  CHECK(eager.repr("names").find("Variable") != std::string::npos);
  CHECK(eager.repr("dx").find("numpy=12.0") != std::string::npos);  // d(a*a*b)/da = 2ab
}

TEST_CASE("the global step is one variable: get_global_step finds it, create_global_step refuses a second", "[tf][train]") {
  // get_or_create_global_step made a new variable at each call (global_step_1, ...) and
  // get_global_step created one where TensorFlow gives None.
  TfRun r = runTf(R"(
import tensorflow as tf
before = tf.train.get_global_step()
gs = tf.train.get_or_create_global_step()
again = tf.train.get_or_create_global_step() is gs
found = tf.train.get_global_step() is gs
in_collection = tf.get_collection(tf.GraphKeys.GLOBAL_STEP) == [gs]
kind = (gs.name, gs.dtype.base_dtype.name, str(gs.shape), len(tf.trainable_variables()))
try:
    tf.train.create_global_step()
    second = None
except ValueError as e:
    second = str(e)
g2 = tf.Graph()
with g2.as_default():
    own = tf.Variable(0, name="global_step", trainable=False)
    by_name = tf.train.get_global_step().name == own.name
x = tf.Variable(1.0)
train = tf.train.GradientDescentOptimizer(0.1).minimize(x * x, global_step=tf.train.get_global_step())
with tf.Session() as s:
    s.run(tf.global_variables_initializer())
    s.run(train)
    s.run(train)
    step = int(s.run(gs))
)", Mode::Concrete, ApiStyle::Graph);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("before") == "None");
  CHECK(r.repr("again") == "True");
  CHECK(r.repr("found") == "True");
  CHECK(r.repr("in_collection") == "True");
  CHECK(r.repr("kind") == "('global_step:0', 'int64', '()', 0)");
  CHECK(r.repr("second") == "'\"global_step\" already exists.'");
  CHECK(r.repr("by_name") == "True");
  CHECK(r.repr("step") == "2");
}

TEST_CASE("tf.estimator: a model_fn trains, evaluates and predicts from its model_dir's checkpoints", "[tf][train]") {
  const std::string dir = freshTempDir("estimator");
  const std::string program = R"(
import numpy as np
import tensorflow as tf
def model_fn(features, labels, mode, params):
    w = tf.get_variable("w", [1], dtype=tf.float64)
    b = tf.get_variable("b", [1], dtype=tf.float64)
    y = w * features["x"] + b
    if mode == tf.estimator.ModeKeys.PREDICT:
        return tf.estimator.EstimatorSpec(mode, predictions={"y": y})
    loss = tf.reduce_sum(tf.square(y - labels))
    train = tf.train.GradientDescentOptimizer(params["rate"]).minimize(loss, global_step=tf.train.get_global_step())
    return tf.estimator.EstimatorSpec(mode=mode, predictions=y, loss=loss, train_op=train)
est = tf.estimator.Estimator(model_fn=model_fn, model_dir=")" + dir + R"(/linear", params={"rate": 0.01})
x = np.array([1., 2., 3., 4.])
y = np.array([0., -1., -2., -3.])
try:
    tf.estimator.inputs.numpy_input_fn({"x": x}, y)
    no_shuffle = None
except ValueError as e:
    no_shuffle = str(e)
try:
    est.evaluate(tf.estimator.inputs.numpy_input_fn({"x": x}, y, shuffle=False))
    untrained = None
except ValueError as e:
    untrained = str(e)
est.train(tf.estimator.inputs.numpy_input_fn({"x": x}, y, batch_size=4, num_epochs=None, shuffle=True), steps=800)
est.train(tf.estimator.inputs.numpy_input_fn({"x": x}, y, batch_size=4, num_epochs=None, shuffle=True), steps=200)
res = est.evaluate(tf.estimator.inputs.numpy_input_fn({"x": x}, y, batch_size=4, num_epochs=1, shuffle=False))
summary = (sorted(res), int(res["global_step"]), bool(res["loss"] < 1e-6))
preds = [round(float(p["y"]), 3) for p in est.predict(tf.estimator.inputs.numpy_input_fn({"x": np.array([5.0, 6.0])},
                                                                                          shuffle=False))]
newest = tf.train.latest_checkpoint(")" + dir + R"(/linear")

rng = np.random.RandomState(0)
X = rng.randn(300, 4).astype(np.float32)
labels = (X[:, 0] > 0).astype(np.int32) + (X[:, 1] > 0).astype(np.int32)
cols = [tf.feature_column.numeric_column("X", shape=[4])]
clf = tf.estimator.DNNClassifier(hidden_units=[16, 8], n_classes=3, feature_columns=cols,
                                 model_dir=")" + dir + R"(/dnn")
clf.train(tf.estimator.inputs.numpy_input_fn({"X": X}, labels, batch_size=50, num_epochs=20, shuffle=True))
ev = clf.evaluate(tf.estimator.inputs.numpy_input_fn({"X": X}, labels, shuffle=False))
learned = (sorted(ev), int(ev["global_step"]), bool(ev["accuracy"] > 0.8))
p = list(clf.predict(tf.estimator.inputs.numpy_input_fn({"X": X[:2]}, shuffle=False)))
shapes = (len(p), sorted(p[0]), p[0]["probabilities"].shape, p[0]["class_ids"].shape, p[0]["classes"].dtype.kind)
)";
  TfRun r = runTf(program, Mode::Concrete, ApiStyle::Graph);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("no_shuffle") == "'shuffle must be provided explicitly as boolean, it is recommended to set it as "
                                "True for training; got None'");
  CHECK(r.repr("untrained") == "'Could not find trained model in model_dir: " + dir + "/linear.'");
  CHECK(r.repr("summary") == "(['global_step', 'loss'], 1000, True)");
  CHECK(r.repr("preds") == "[-4.0, -5.0]");
  CHECK(r.repr("newest") == "'" + dir + "/linear/model.ckpt-1000'");
  CHECK(r.repr("learned") == "(['accuracy', 'average_loss', 'global_step', 'loss'], 120, True)");
  CHECK(r.repr("shapes") == "(2, ['class_ids', 'classes', 'logits', 'probabilities'], (3,), (1,), 'O')");  // string tensors fetch as object arrays of bytes

  TfRun a = runTf(program, Mode::Abstract, ApiStyle::Graph);
  CHECK(a.diagnostics() == "");
}
