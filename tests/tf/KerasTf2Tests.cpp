// TF2 / tf.keras API that real tutorials use (ageron/handson-ml2, YunYang1994/TensorFlow2.0-Examples):
// Keras' loss functions on numpy inputs and their values, the layers those tutorials build
// models from, and the tf.data, tf.io and model-saving calls they make. Expected numbers are
// Keras' formulas evaluated by numpy 1.24.
#include "TfTestSupport.h"

using namespace tlens;
using namespace tlens::tf;
using namespace tlens::tf::testing;
using interp::Mode;

TEST_CASE("Keras loss functions take numpy arrays and give Keras' values", "[tf][keras][tf2]") {
  TfRun r = runTf(R"(import numpy as np
import tensorflow as tf
from tensorflow import keras
yt = np.array([[0., 1., 1.], [1., 0., 0.]])
yp = np.array([[0.2, 0.7, 0.9], [0.6, 0.3, -0.4]])
mse = keras.losses.mean_squared_error(yt, yp)
print(type(mse).__name__ if not tf.is_tensor(mse) else "tensor", mse.dtype.name)
print(np.round(mse.numpy(), 6))
print(np.round(keras.losses.msle(yt, np.abs(yp)).numpy(), 6))
print(np.round(keras.losses.squared_hinge(yt, yp).numpy(), 6))
print(np.round(keras.losses.hinge(yt, yp).numpy(), 6))
print(np.round(keras.losses.categorical_hinge(yt, yp).numpy(), 6))
print(np.round(keras.losses.log_cosh(yt, yp).numpy(), 6))
print(np.round(keras.losses.poisson(yt, np.abs(yp)).numpy(), 6))
print(np.round(keras.losses.cosine_similarity(yt, yp).numpy(), 6))
print(np.round(keras.losses.CosineSimilarity()(yt, yp).numpy(), 6))
print(np.round(keras.losses.get("msle")(yt, np.abs(yp)).numpy(), 6))
)");
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.out ==
        "tensor float64\n"
        "[0.046667 0.136667]\n"
        "[0.020762 0.07728 ]\n"
        "[0.513333 0.736667]\n"
        "[0.533333 0.766667]\n"
        "[0.  0.7]\n"
        "[0.023067 0.066749]\n"
        "[0.754012 0.603608]\n"
        "[-0.977356 -0.768221]\n"
        "-0.872788\n"
        "[0.020762 0.07728 ]\n");
}

TEST_CASE("PReLU, ELU, ThresholdedReLU, AlphaDropout and GaussianDropout compute Keras' formulas", "[tf][keras][tf2]") {
  TfRun r = runTf(R"(
import numpy as np
import tensorflow as tf
from tensorflow import keras
x = np.array([[-2.0, 3.0, -0.5]], dtype=np.float32)
p = keras.layers.PReLU(alpha_initializer=keras.initializers.Constant(0.25))
print(p(x).numpy(), p.count_params())
img = keras.layers.PReLU(shared_axes=[1, 2])
img.build(tf.TensorShape([None, 8, 8, 3]))
print(img.alpha.shape, img.count_params())
print(np.round(keras.layers.ELU(alpha=0.5)(x).numpy(), 6), keras.layers.ThresholdedReLU(theta=2.5)(x).numpy())
ad = keras.layers.AlphaDropout(0.2)
print(np.array_equal(ad(x).numpy(), x), np.array_equal(ad(x, training=False).numpy(), x))
tf.random.set_seed(1)
z = np.random.RandomState(0).randn(200, 500).astype(np.float32)
y = ad(z, training=True).numpy()
print(round(float(y.mean()), 1), round(float(y.std()), 1), round(float(np.mean(np.abs(y + 1.23616) < 1e-4)), 1))
g = keras.layers.GaussianDropout(0.5)(np.ones((100, 100), np.float32), training=True).numpy()
print(round(float(g.mean()), 1), round(float(g.std()), 1))
model = keras.models.Sequential([keras.layers.Dense(4, input_shape=[3]), keras.layers.PReLU(), keras.layers.AlphaDropout(0.1), keras.layers.Dense(1)])
model.compile(loss="mse", optimizer="sgd")
h = model.fit(np.ones((8, 3)), np.ones((8, 1)), epochs=2, verbose=0)
print(len(h.history["loss"]), model.count_params())
)");
  INFO(r.err);
  REQUIRE(r.status == 0);
  // AlphaDropout keeps mean 0 and deviation 1 and sets 20% of the units to SELU's saturation
  // value mapped by the affine correction (-1.23616 for rate 0.2).
  CHECK(r.out ==
        "[[-0.5    3.    -0.125]] 3\n"
        "(1, 1, 3) 3\n"
        "[[-0.432332  3.       -0.196735]] [[-0.  3. -0.]]\n"
        "True True\n"
        "-0.0 1.0 0.2\n"
        "1.0 1.0\n"
        "2 25\n");
}

TEST_CASE("TimeDistributed over sequences of unknown length", "[tf][keras][tf2]") {
  const char* src = R"(import numpy as np
import tensorflow as tf
from tensorflow import keras
model = keras.models.Sequential([
    keras.layers.SimpleRNN(20, return_sequences=True, input_shape=[None, 1]),
    keras.layers.TimeDistributed(keras.layers.Dense(10))
])
print(model.output_shape)
out = model(np.zeros((2, 7, 1), np.float32))
print(out.shape)
model.compile(loss="mse", optimizer="adam")
model.fit(np.zeros((4, 5, 1)), np.zeros((4, 5, 10)), epochs=1, verbose=0)
)";
  TfRun r = runTf(src);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.out == "(None, None, 10)\n(2, 7, 10)\n");
  TfRun a = runTf(src, Mode::Abstract);
  CHECK(a.diagnostics() == "");
  CHECK(a.type("out") == "float32[2, 7, 10]");
}

TEST_CASE("clone_model copies the architecture with new layers and fresh weights", "[tf][keras][tf2]") {
  TfRun r = runTf(R"(
import numpy as np
import tensorflow as tf
from tensorflow import keras
model_A = keras.models.Sequential([keras.layers.Flatten(input_shape=[4, 2]), keras.layers.Dense(3, activation="selu", kernel_initializer="lecun_normal"), keras.layers.Dense(1, activation="sigmoid")])
clone = keras.models.clone_model(model_A)
print(clone.name == model_A.name, [l.name for l in clone.layers] == [l.name for l in model_A.layers], clone.count_params())
print(all(a is not b for a, b in zip(clone.layers, model_A.layers)), clone.layers[1].activation.__name__)
clone.set_weights(model_A.get_weights())
x = np.random.rand(5, 4, 2)
print(np.allclose(clone.predict(x, verbose=0), model_A.predict(x, verbose=0)))
clone.layers[1].kernel.assign(tf.zeros([8, 3]))
print(np.abs(model_A.layers[1].kernel.numpy()).sum() > 0)
inp = keras.Input(shape=[3])
h = keras.layers.Dense(4, name="hid")(inp)
out = keras.layers.Concatenate()([inp, h])
fm = keras.Model(inp, out)
fc = keras.models.clone_model(fm)
print(fc.output_shape, [l.name for l in fc.layers], fc.count_params())
relu_clone = keras.models.clone_model(model_A, clone_function=lambda l: keras.layers.Dense(2) if isinstance(l, keras.layers.Dense) else l.__class__.from_config(l.get_config()))
print(relu_clone.count_params())
class Sub(keras.Model):
    def call(self, x):
        return x
try:
    keras.models.clone_model(Sub())
except ValueError as e:
    print(str(e)[:80])
)");
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.out ==
        "True True 31\n"
        "True selu\n"
        "True\n"
        "True\n"
        "(None, 7) ['input_2', 'hid', 'concatenate'] 16\n"
        "24\n"
        "Expected `model` argument to be a functional `Model` instance, but got a subclas\n");
}

TEST_CASE("LearningRateScheduler and ReduceLROnPlateau log lr, which History records", "[tf][keras][tf2]") {
  TfRun r = runTf(R"(
import numpy as np
import tensorflow as tf
from tensorflow import keras
model = keras.models.Sequential([keras.layers.Dense(1, input_shape=[2])])
model.compile(loss="mse", optimizer=keras.optimizers.SGD(learning_rate=0.01))
def exponential_decay_fn(epoch):
    return 0.01 * 0.1 ** (epoch / 20)
cb = keras.callbacks.LearningRateScheduler(exponential_decay_fn)
history = model.fit(np.ones((4, 2)), np.ones((4, 1)), epochs=3, callbacks=[cb], verbose=0)
print(sorted(history.history), [round(v, 6) for v in history.history["lr"]])
class Seen(keras.callbacks.Callback):
    def on_epoch_end(self, epoch, logs=None):
        print("seen", sorted(logs))
plateau = keras.callbacks.ReduceLROnPlateau(monitor="loss", factor=0.5, patience=1)
history = model.fit(np.ones((4, 2)), np.ones((4, 1)), epochs=1, callbacks=[plateau, Seen()], verbose=0)
print(sorted(history.history))
bad = keras.callbacks.LearningRateScheduler(lambda epoch: "x")
try:
    model.fit(np.ones((4, 2)), np.ones((4, 1)), epochs=1, callbacks=[bad], verbose=0)
except ValueError as e:
    print(e)
)");
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.out ==
        "['loss', 'lr'] [0.01, 0.008913, 0.007943]\n"
        "seen ['loss', 'lr']\n"
        "['loss', 'lr']\n"
        "The output of the \"schedule\" function should be float. Got: x\n");
}

TEST_CASE("an optimizer's learning rate is a variable that K.set_value and callbacks change", "[tf][keras][tf2]") {
  TfRun r = runTf(R"(
import numpy as np
import tensorflow as tf
from tensorflow import keras
K = keras.backend
opt = keras.optimizers.SGD(learning_rate=0.5)
print(opt.learning_rate)
print(float(K.get_value(opt.learning_rate)), float(opt.lr))
v = tf.Variable(1.0)
opt.apply_gradients([(tf.constant(1.0), v)])
K.set_value(opt.learning_rate, 0.25)
opt.apply_gradients([(tf.constant(1.0), v)])
opt.learning_rate = 0.125
opt.apply_gradients([(tf.constant(1.0), v)])
print(v.numpy(), opt.get_config()["learning_rate"])
@tf.function
def step():
    opt.apply_gradients([(tf.constant(1.0), v)])
step()
opt.learning_rate = 1.0
step()
print(v.numpy())
d = tf.Variable(np.float64(1.0))
keras.optimizers.Adam(0.1).apply_gradients([(tf.constant(1.0, tf.float64), d)])
print(round(float(d.numpy()), 4))
)");
  INFO(r.err);
  REQUIRE(r.status == 0);
  // The traced step reads the variable: the rate set after the trace applies (0.0 - 1.0).
  CHECK(r.out ==
        "<tf.Variable 'learning_rate:0' shape=() dtype=float32, numpy=0.5>\n"
        "0.5 0.5\n"
        "0.125 0.125\n"
        "-1.0\n"
        "0.9\n");
}

TEST_CASE("abstract mode: a boolean mask of unknown rank selects from a numpy array without an error", "[tf][numpy][tf2]") {
  // handson-ml2 ch08: X[X[:, 2] > X3D_inv[:, 2]] where X3D_inv comes from scikit-learn (unknown).
  TfRun a = runTf(R"(import json
import numpy as np
X = np.random.rand(60, 3)
Z = np.array(json.load(open("z.json")))
above = X[X[:, 2] > Z[:, 2]]
below = X[X[:, 2] <= Z]
)", Mode::Abstract);
  CHECK(a.diagnostics() == "");
  CHECK(a.type("above") == "float64<unknown>");
}

TEST_CASE("Keras' SGD, Adam and RMSprop, fused eagerly and in tf.function, give the values of their rules' separate ops", "[tf][keras][tf2]") {
  // apply_gradients runs plain SGD, Adam and plain RMSprop as fused kernels (_KerasSGDStep,
  // _KerasAdamMoments, ...); _update is the rule as separate ops. Every element must be identical.
  TfRun r = runTf(R"(
import numpy as np
import tensorflow as tf
from tensorflow import keras
K = keras.optimizers
for name, make, dt in [("Adam", K.Adam, tf.float32), ("Adam", K.Adam, tf.float64), ("RMSprop", K.RMSprop, tf.float32),
                       ("RMSprop", K.RMSprop, tf.float64), ("SGD", lambda lr: K.SGD(lr * 3), tf.float32)]:
    w0 = np.linspace(-1.0, 1.0, 70001).astype(dt.as_numpy_dtype)
    x, y, z = tf.Variable(w0), tf.Variable(w0), tf.Variable(w0)
    opt, opt2, ref = make(0.01), make(0.01), make(0.01)
    @tf.function
    def traced(g):
        opt2.apply_gradients([(g, y)])
    for i in range(3):
        g = tf.constant(np.sin(w0 * (i + 2.5)).astype(dt.as_numpy_dtype))
        opt.apply_gradients([(g, x)])
        traced(g)
        ref._update(g, z, ref.learning_rate if dt == tf.float32 else tf.cast(ref.learning_rate, dt))
        ref.iterations.assign_add(1)
    print(name, dt.name, np.array_equal(x.numpy(), z.numpy()), np.array_equal(y.numpy(), z.numpy()),
          all(np.array_equal(a.numpy(), b.numpy()) for a, b in zip(opt.variables(), ref.variables())), float(np.abs(x.numpy() - w0).max()) > 0.01)
)");
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.out ==
        "Adam float32 True True True True\nAdam float64 True True True True\n"
        "RMSprop float32 True True True True\nRMSprop float64 True True True True\n"
        "SGD float32 True True True True\n");
}

TEST_CASE("Nadam and Adamax follow Keras' rules, and the learning-rate schedules Keras' formulas", "[tf][keras][tf2]") {
  // Expected: the Keras 2.11+ update rules and schedules evaluated by numpy in float64.
  TfRun r = runTf(R"(
import numpy as np
import tensorflow as tf
from tensorflow import keras
for opt in [keras.optimizers.Nadam(learning_rate=0.1), keras.optimizers.Adamax(learning_rate=0.1)]:
    x = tf.Variable([1.0, -2.0])
    for i in range(3):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(x * x)
        opt.apply_gradients([(tape.gradient(loss, x), x)])
    print(type(opt).__name__, np.round(x.numpy(), 4))
S = keras.optimizers.schedules
pc = S.PiecewiseConstantDecay(boundaries=[5, 15], values=[0.01, 0.005, 0.001])
print([round(float(pc(s)), 4) for s in [0, 5, 6, 15, 16]])
pd = S.PolynomialDecay(0.1, 10, end_learning_rate=0.01, power=2.0)
print([round(float(pd(s)), 5) for s in [0, 5, 10, 20]])
it = S.InverseTimeDecay(0.1, 10, 0.5)
cd = S.CosineDecay(0.1, 10)
print(round(float(it(20)), 5), round(float(cd(5)), 5))
model = keras.models.Sequential([keras.layers.Dense(1, input_shape=[2])])
model.compile(loss="mse", optimizer=keras.optimizers.SGD(learning_rate=pc))
model.fit(np.ones((4, 2)), np.ones((4, 1)), epochs=2, verbose=0)
print(int(model.optimizer.iterations.numpy()))
try:
    S.PiecewiseConstantDecay([1, 2], [0.1])
except ValueError as e:
    print(str(e)[:60])
)");
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.out ==
        "Nadam [ 0.7547 -1.7497]\n"
        "Adamax [ 0.7155 -1.7076]\n"
        "[0.01, 0.01, 0.005, 0.005, 0.001]\n"
        "[0.1, 0.0325, 0.01, 0.01]\n"
        "0.05 0.05\n"
        "2\n"
        "The length of boundaries should be 1 less than the length of\n");
}

TEST_CASE("Keras backend functions (K.max, K.permute_dimensions, K.switch, ...) and tf.repeat, tf.math.reduce_std", "[tf][keras][tf2]") {
  TfRun r = runTf(R"(
import numpy as np
import tensorflow as tf
from tensorflow import keras
K = keras.backend
t = tf.constant([[1., 2., 3.], [4., 5., 6.]])
print(K.square(K.transpose(t)) + 10)
print(K.max(t).numpy(), K.min(t, axis=1).numpy(), K.prod(t).numpy(), np.round(K.std(t).numpy(), 4), np.round(K.var(t, axis=0).numpy(), 4))
print(K.maximum(t, 2.5).numpy().tolist(), K.not_equal(t, 2.0).numpy().tolist())
print(K.mean(K.equal(t, 2.0)).numpy(), K.any(t > 5).numpy(), K.all(t > 0).numpy())
print(K.permute_dimensions(tf.zeros([2, 3, 4]), (0, 2, 1)).shape, K.flatten(t).shape, K.batch_flatten(tf.zeros([2, 3, 4])).shape)
print(K.repeat_elements(t, 2, axis=1).numpy().tolist())
print(tf.repeat([1, 2], [2, 3]).numpy().tolist(), tf.repeat(t, 2).shape)
print(K.relu(tf.constant([-1.0, 3.0]), max_value=2.0).numpy(), K.sqrt(tf.constant([-4.0, 4.0])).numpy())
print(K.random_normal([2, 3]).shape, K.random_uniform([4]).dtype.name, K.ndim(t), K.dtype(t), K.ndim(np.zeros((2, 2, 2))))
print(np.round(K.binary_crossentropy(tf.constant([1.0, 0.0]), tf.constant([0.9, 0.2])).numpy(), 5))
print(K.switch(tf.constant(True), lambda: t, lambda: -t).numpy()[0].tolist(), K.switch(t > 3, t, -t).numpy()[0].tolist())
print(K.one_hot(tf.constant([0, 2]), 3).numpy().tolist(), K.l2_normalize(tf.constant([3.0, 4.0]), 0).numpy().tolist())
print(round(float(tf.math.reduce_std(t)), 4), round(float(tf.math.reduce_variance(t)), 4))
print(K.arange(3).numpy().tolist(), K.tile(tf.constant([1, 2]), 2).numpy().tolist())
)");
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.out ==
        "tf.Tensor(\n[[11. 26.]\n [14. 35.]\n [19. 46.]], shape=(3, 2), dtype=float32)\n"
        "6.0 [1. 4.] 720.0 1.7078 [2.25 2.25 2.25]\n"
        "[[2.5, 2.5, 3.0], [4.0, 5.0, 6.0]] [[True, False, True], [True, True, True]]\n"
        "0.16666667 True True\n"
        "(2, 4, 3) (6,) (2, 12)\n"
        "[[1.0, 1.0, 2.0, 2.0, 3.0, 3.0], [4.0, 4.0, 5.0, 5.0, 6.0, 6.0]]\n"
        "[1, 1, 2, 2, 2] (12,)\n"
        "[0. 2.] [0. 2.]\n"
        "(2, 3) float32 2 float32 3\n"
        "[0.10536 0.22314]\n"
        "[1.0, 2.0, 3.0] [-1.0, -2.0, -3.0]\n"
        "[[1.0, 0.0, 0.0], [0.0, 0.0, 1.0]] [0.6000000238418579, 0.800000011920929]\n"
        "1.7078 2.9167\n"
        "[0, 1, 2] [1, 2, 1, 2]\n");
}

TEST_CASE("Variable.scatter_nd_update and scatter_update with tf.IndexedSlices write into the variable", "[tf][tf2]") {
  TfRun r = runTf(R"(
import tensorflow as tf
v = tf.Variable([[1., 2., 3.], [4., 5., 6.]])
v.scatter_nd_update(indices=[[0, 0], [1, 2]], updates=[100., 200.])
print(v.numpy().tolist())
sparse_delta = tf.IndexedSlices(values=[[1., 2., 3.], [4., 5., 6.]], indices=[1, 0])
v.scatter_update(sparse_delta)
print(v.numpy().tolist())
v.scatter_add(tf.IndexedSlices(values=[[1., 1., 1.]], indices=[0]))
v.scatter_nd_sub([[1, 1]], [2.0])
print(v.numpy().tolist())
try:
    tf.constant([1.0]).scatter_nd_update([[0]], [2.0])
except AttributeError as e:
    print(e)
)");
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.out ==
        "[[100.0, 2.0, 3.0], [4.0, 5.0, 200.0]]\n"
        "[[4.0, 5.0, 6.0], [1.0, 2.0, 3.0]]\n"
        "[[5.0, 6.0, 7.0], [1.0, 0.0, 3.0]]\n"
        "'EagerTensor' object has no attribute 'scatter_nd_update'\n");
}

TEST_CASE("Precision, Recall and a user's Metric subclass keep Keras' variables, names and results", "[tf][keras][tf2]") {
  TfRun r = runTf(R"(
import numpy as np
import tensorflow as tf
from tensorflow import keras
precision = keras.metrics.Precision()
print(float(precision([0, 1, 1, 1, 0, 1, 0, 1], [1, 1, 0, 1, 0, 1, 0, 1])))
print(float(precision([0, 1, 0, 0, 1, 0, 1, 1], [1, 0, 1, 1, 0, 0, 0, 0])))
print([(v.shape.as_list(), v.numpy().tolist()) for v in precision.variables])
precision.reset_states()
print([v.numpy().tolist() for v in precision.variables])
recall = keras.metrics.Recall(thresholds=0.3)
print(float(recall([1, 1, 0], [0.2, 0.4, 0.9])))
print(float(tf.math.divide_no_nan(1.0, 0.0)), float(tf.math.divide_no_nan(1.0, 4.0)))
class HuberMetric(keras.metrics.Metric):
    def __init__(self, threshold=1.0, **kwargs):
        super().__init__(**kwargs)
        self.threshold = threshold
        self.total = self.add_weight("total", initializer="zeros")
        self.count = self.add_weight("count", initializer="zeros")
    def update_state(self, y_true, y_pred, sample_weight=None):
        err = tf.abs(y_true - y_pred)
        small = err < self.threshold
        metric = tf.where(small, tf.square(err) / 2, self.threshold * err - self.threshold ** 2 / 2)
        self.total.assign_add(tf.reduce_sum(metric))
        self.count.assign_add(tf.cast(tf.size(y_true), tf.float32))
    def result(self):
        return self.total / self.count
m = HuberMetric(2.)
print(float(m(tf.constant([[2.]]), tf.constant([[10.]]))), float(m(tf.constant([[0.], [5.]]), tf.constant([[1.], [9.25]]))))
print(len(m.variables), m.name)
m.reset_states()
print([float(v) for v in m.variables])
model = keras.models.Sequential([keras.layers.Dense(1, activation="sigmoid", input_shape=[2])])
model.compile(loss="binary_crossentropy", optimizer="sgd", metrics=[keras.metrics.Precision(), keras.metrics.Recall()])
h = model.fit(np.random.rand(8, 2), np.array([0, 1] * 4), epochs=1, verbose=0)
print(sorted(h.history))
)");
  INFO(r.err);
  REQUIRE(r.status == 0);
  // handson-ml2 ch12: precision 4/5, then 4/8 over both batches; the Huber metric 14, then 21/3.
  CHECK(r.out ==
        "0.800000011920929\n"
        "0.5\n"
        "[([1], [4.0]), ([1], [4.0])]\n"
        "[[0.0], [0.0]]\n"
        "0.5\n"
        "0.0 0.25\n"
        "14.0 7.0\n"
        "2 huber_metric\n"
        "[0.0, 0.0]\n"
        "['loss', 'precision', 'recall']\n");
}

TEST_CASE("weight constraints (max_norm, non_neg, ...) apply after each optimizer update and round-trip in configs", "[tf][keras][tf2]") {
  TfRun r = runTf(R"(
import numpy as np
import tensorflow as tf
from tensorflow import keras
layer = keras.layers.Dense(3, kernel_initializer=keras.initializers.Constant(2.0), kernel_constraint=keras.constraints.max_norm(1.))
model = keras.models.Sequential([keras.Input(shape=[4]), layer])
model.compile(loss="mse", optimizer=keras.optimizers.SGD(0.0))
model.fit(np.ones((2, 4)), np.ones((2, 3)), epochs=1, verbose=0)
print(np.round(np.sqrt((layer.kernel.numpy() ** 2).sum(axis=0)), 4))
w = tf.constant([[3.0, -1.0], [4.0, 0.5]])
print(np.round(keras.constraints.NonNeg()(w).numpy(), 3).tolist(), np.round(keras.constraints.UnitNorm()(w).numpy(), 3).tolist())
print(np.round(keras.constraints.MinMaxNorm(1.0, 2.0)(w).numpy(), 3).tolist())
print(keras.constraints.serialize(keras.constraints.max_norm(3.)), type(keras.constraints.get("non_neg")).__name__)
conv = keras.layers.Conv2D(2, 3, kernel_constraint="non_neg", kernel_initializer=keras.initializers.Constant(-1.0))
m2 = keras.models.Sequential([keras.Input(shape=[5, 5, 1]), conv])
m2.compile(loss="mse", optimizer="sgd")
m2.fit(np.ones((1, 5, 5, 1)), np.ones((1, 3, 3, 2)), epochs=1, verbose=0)
print(float(conv.kernel.numpy().min()))
cfg = layer.get_config()["kernel_constraint"]
print(cfg, type(keras.layers.Dense.from_config(layer.get_config()).kernel_constraint).__name__)
)");
  INFO(r.err);
  REQUIRE(r.status == 0);
  // The learning rate is 0: only the constraint changes the kernel (columns of norm 4 -> 1).
  CHECK(r.out ==
        "[1. 1. 1.]\n"
        "[[3.0, -0.0], [4.0, 0.5]] [[0.6000000238418579, -0.8939999938011169], [0.800000011920929, 0.44699999690055847]]\n"
        "[[1.2000000476837158, -1.0], [1.600000023841858, 0.5]]\n"
        "{'class_name': 'MaxNorm', 'config': {'max_value': 3.0, 'axis': 0}} NonNeg\n"
        "-0.0\n"
        "{'class_name': 'MaxNorm', 'config': {'max_value': 1.0, 'axis': 0}} MaxNorm\n");
}

TEST_CASE("model.metrics after fit lists the loss tracker and the compiled metric objects", "[tf][keras][tf2]") {
  TfRun r = runTf(R"(
import numpy as np
import tensorflow as tf
from tensorflow import keras
class HuberMetric(keras.metrics.Metric):
    def __init__(self, threshold=1.0, **kwargs):
        super().__init__(**kwargs)
        self.threshold = threshold
        self.total = self.add_weight("total", initializer="zeros")
        self.count = self.add_weight("count", initializer="zeros")
    def update_state(self, y_true, y_pred, sample_weight=None):
        self.total.assign_add(tf.reduce_sum(tf.abs(y_true - y_pred)))
        self.count.assign_add(tf.cast(tf.size(y_true), tf.float32))
    def result(self):
        return self.total / self.count
    def get_config(self):
        base_config = super().get_config()
        return {**base_config, "threshold": self.threshold}
model = keras.models.Sequential([keras.layers.Dense(1, input_shape=[2])])
print(model.metrics)
model.compile(loss="mse", optimizer="sgd", metrics=[HuberMetric(2.0), "mae"])
model.fit(np.ones((4, 2)), np.ones((4, 1)), epochs=1, verbose=0)
print([m.name for m in model.metrics], model.metrics[1].threshold, model.metrics_names)
print(model.metrics[1].get_config())
)");
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.out ==
        "[]\n"
        "['loss', 'huber_metric', 'mae'] 2.0 ['loss', 'huber_metric', 'mae']\n"
        "{'name': 'huber_metric', 'dtype': 'float32', 'threshold': 2.0}\n");
}

TEST_CASE("a Mean subclass that overrides update_state is a stateful compiled metric, weighted_metrics included", "[tf][keras][tf2]") {
  TfRun r = runTf(R"(
import numpy as np
import tensorflow as tf
from tensorflow import keras
class AbsMetric(keras.metrics.Mean):
    def __init__(self, name="AbsMetric", dtype=None):
        super().__init__(name=name, dtype=dtype)
    def update_state(self, y_true, y_pred, sample_weight=None):
        super(AbsMetric, self).update_state(tf.abs(y_true - y_pred) * 10.0, sample_weight)
model = keras.models.Sequential([keras.layers.Dense(1, input_shape=[2], kernel_initializer="zeros")])
model.compile(loss="mae", optimizer=keras.optimizers.SGD(0.0), weighted_metrics=[AbsMetric()])
h = model.fit(np.ones((4, 2), np.float32), np.ones((4, 1), np.float32), epochs=1, verbose=0)
print(sorted(h.history), h.history["loss"], h.history["AbsMetric"])
)");
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.out == "['AbsMetric', 'loss'] [1.0] [10.0]\n");
}

TEST_CASE("weighted_metrics survive model.save and load_model with custom_objects", "[tf][keras][tf2]") {
  const std::string dir = freshTempDir("keras-weighted-metrics");
  TfRun r = runTf("DIR = '" + dir + R"('
import numpy as np
import tensorflow as tf
from tensorflow import keras
class AbsMetric(keras.metrics.Mean):
    def __init__(self, threshold=1.0, name="AbsMetric", dtype=None):
        self.threshold = threshold
        super().__init__(name=name, dtype=dtype)
    def update_state(self, y_true, y_pred, sample_weight=None):
        super(AbsMetric, self).update_state(tf.abs(y_true - y_pred), sample_weight)
    def get_config(self):
        return {**super().get_config(), "threshold": self.threshold}
model = keras.models.Sequential([keras.layers.Dense(1, input_shape=[2])])
model.compile(loss="mse", optimizer="sgd", weighted_metrics=[AbsMetric(2.0)])
model.fit(np.ones((4, 2), np.float32), np.ones((4, 1), np.float32), epochs=1, verbose=0)
model.save(DIR + "/m.h5")
loaded = keras.models.load_model(DIR + "/m.h5", custom_objects={"AbsMetric": AbsMetric})
h = loaded.fit(np.ones((4, 2), np.float32), np.ones((4, 1), np.float32), epochs=1, verbose=0)
print(sorted(h.history), loaded.metrics[-1].threshold)
)");
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.out == "['AbsMetric', 'loss'] 2.0\n");
}

TEST_CASE("abstract mode: an op error inside try is raised, so a handler that catches it leaves no diagnostic", "[tf][tf2][abstract]") {
  // handson-ml2 ch12 and tools_numpy show errors on purpose inside try/except.
  TfRun a = runTf(R"(import numpy as np
import tensorflow as tf
try:
    tf.constant(2.0) + tf.constant(40)
except tf.errors.InvalidArgumentError as ex:
    print(ex)
try:
    np.zeros((2, 3)) + np.zeros((2,))
except ValueError:
    pass
def f():
    return tf.zeros([2]) + tf.zeros([3])
try:
    f()
except Exception:
    pass
try:
    x = tf.reshape(tf.zeros([2, 3]), [4])
except KeyboardInterrupt:
    pass
tf.reshape(tf.zeros([2, 3]), [5])
)", Mode::Abstract);
  std::vector<int> lines;
  for (const auto& d : a.interp->diagnostics())
    if (d.severity == interp::Severity::Error) lines.push_back(d.start.line + 1);
  INFO(a.diagnostics());
  // The handler of line 18 does not catch the error: still reported; line 21 is outside any try.
  CHECK(lines == std::vector<int>{18, 21});
}

TEST_CASE("abstract fit and predict: a tuple of unknown arrays feeds a two-input model, and callbacks see unknown logs", "[tf][keras][tf2][abstract]") {
  // handson-ml2 ch10/11: inputs sliced from scikit-learn data, an lr-finder callback then min(losses).
  TfRun a = runTf(R"(
import json
import numpy as np
from tensorflow import keras
input_A = keras.layers.Input(shape=[5], name="wide_input")
input_B = keras.layers.Input(shape=[6], name="deep_input")
hidden1 = keras.layers.Dense(30, activation="relu")(input_B)
concat = keras.layers.concatenate([input_A, hidden1])
output = keras.layers.Dense(1, name="output")(concat)
model = keras.models.Model(inputs=[input_A, input_B], outputs=[output])
model.compile(loss="mse", optimizer=keras.optimizers.SGD(learning_rate=1e-3))
X = json.load(open("x.json"))
y = json.load(open("y.json"))
X_A, X_B = X[:, :5], X[:, 2:]
history = model.fit((X_A, X_B), y, epochs=2, validation_data=((X_A, X_B), y))
y_pred = model.predict((X_A[:3], X_B[:3]))
class Rates(keras.callbacks.Callback):
    def __init__(self):
        self.rates = []
        self.losses = []
    def on_batch_end(self, batch, logs):
        self.rates.append(keras.backend.get_value(self.model.optimizer.learning_rate))
        self.losses.append(logs["loss"])
r = Rates()
model.fit((X_A, X_B), y, epochs=1, callbacks=[r])
low = min(r.losses), max(r.rates)
)", Mode::Abstract);
  CHECK(a.diagnostics() == "");
}

TEST_CASE("Dataset.window and flat_map give TensorFlow's windows (shift, stride, remainders)", "[tf][data][tf2]") {
  TfRun r = runTf(R"(
import numpy as np
import tensorflow as tf
ds = tf.data.Dataset.range(10).window(5, shift=2, drop_remainder=True)
ds = ds.flat_map(lambda w: w.batch(5))
print([b.numpy().tolist() for b in ds])
print([b.numpy().tolist() for b in tf.data.Dataset.range(7).window(3).flat_map(lambda w: w.batch(3))])
print([b.numpy().tolist() for b in tf.data.Dataset.range(8).window(2, shift=3, stride=2).flat_map(lambda w: w.batch(2))])
text = np.arange(20)
dataset = tf.data.Dataset.from_tensor_slices(text)
dataset = dataset.window(6, shift=1, drop_remainder=True)
dataset = dataset.flat_map(lambda window: window.batch(6))
dataset = dataset.shuffle(10).batch(4)
dataset = dataset.map(lambda windows: (windows[:, :-1], windows[:, 1:]))
for X, Y in dataset.take(1):
    print(X.shape, Y.shape, bool(np.all(Y.numpy() == X.numpy() + 1)))
print(dataset.element_spec)
)");
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.out ==
        "[[0, 1, 2, 3, 4], [2, 3, 4, 5, 6], [4, 5, 6, 7, 8]]\n"
        "[[0, 1, 2], [3, 4, 5], [6]]\n"
        "[[0, 2], [3, 5], [6]]\n"
        "(4, 5) (4, 5) True\n"
        "(TensorSpec(shape=(None, None), dtype=tf.int64, name=None), TensorSpec(shape=(None, None), dtype=tf.int64, name=None))\n");
}

TEST_CASE("a functional model conforms [n, 1] data to an Input of shape [] and a list of one output predicts one array", "[tf][keras][tf2]") {
  TfRun r = runTf(R"(
import numpy as np
from tensorflow import keras
a = keras.layers.Input(shape=[3])
n = keras.layers.Input(shape=[], dtype=np.int32)
out = keras.layers.Lambda(lambda t: t[0] * keras.backend.cast(keras.backend.expand_dims(t[1], -1), "float32"))([keras.layers.Dense(1)(a), n])
model = keras.models.Model(inputs=[a, n], outputs=[out])
model.compile(loss="mse", optimizer="sgd")
h = model.fit([np.ones((8, 3)), np.full([8], 2)], np.ones((8, 1)), epochs=1, verbose=0)
print(len(h.history["loss"]), model.predict([np.ones((2, 3)), np.full([2], 2)], verbose=0).shape)
)");
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.out == "1 (2, 1)\n");
}

TEST_CASE("abstract mode: a Tokenizer fit on unknown text has an unknown vocabulary, not an empty one", "[tf][keras][tf2][abstract]") {
  // handson-ml2 ch16: max_id = len(tokenizer.word_index) was a known 0, then false shape errors.
  TfRun a = runTf(R"(import numpy as np
import tensorflow as tf
from tensorflow import keras
text = open("shakespeare.txt").read()
tokenizer = keras.preprocessing.text.Tokenizer(char_level=True)
tokenizer.fit_on_texts(text)
max_id = len(tokenizer.word_index)
model = keras.models.Sequential([keras.layers.GRU(8, return_sequences=True, input_shape=[None, max_id]),
                                 keras.layers.TimeDistributed(keras.layers.Dense(max_id, activation="softmax"))])
X = tf.one_hot(np.array(tokenizer.texts_to_sequences(["How are yo"])) - 1, max_id)
)", Mode::Abstract);
  CHECK(a.diagnostics() == "");
}

TEST_CASE("tf.function get_concrete_function: callable, cached per signature, with a graph traced on named placeholders", "[tf][tf2][function]") {
  TfRun r = runTf(R"(
import tensorflow as tf
@tf.function
def tf_cube(x):
    return x ** 3
concrete_function = tf_cube.get_concrete_function(tf.constant(2.0))
print(concrete_function(tf.constant(2.0)))
print(tf_cube.python_function(2))
print(concrete_function is tf_cube.get_concrete_function(tf.constant(2.0)))
ops = concrete_function.graph.get_operations()
print([op.type for op in ops], [op.name for op in ops][0])
print(concrete_function.graph.get_tensor_by_name("Identity:0").shape)
print(tf_cube.get_concrete_function(tf.TensorSpec([None], tf.float32)).graph.get_operations()[0].outputs[0].shape)
)");
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.out ==
        "tf.Tensor(8.0, shape=(), dtype=float32)\n"
        "8\n"
        "True\n"
        "['Placeholder', 'Const', 'Pow', 'Identity'] x\n"
        "()\n"
        "(None,)\n");
  TfRun a = runTf(R"(
import tensorflow as tf
@tf.function
def tf_cube(x):
    return x ** 3
concrete_function = tf_cube.get_concrete_function(tf.constant(2.0))
print(concrete_function(tf.constant(2.0)))
print(tf_cube.python_function(2))
print(concrete_function is tf_cube.get_concrete_function(tf.constant(2.0)))
ops = concrete_function.graph.get_operations()
print([op.type for op in ops], [op.name for op in ops][0])
print(concrete_function.graph.get_tensor_by_name("Identity:0").shape)
print(tf_cube.get_concrete_function(tf.TensorSpec([None], tf.float32)).graph.get_operations()[0].outputs[0].shape)
)", Mode::Abstract);
  CHECK(a.diagnostics() == "");
}

TEST_CASE("keras.utils.get_file returns a cached file and fails offline with Keras' URL fetch failure", "[tf][keras][tf2]") {
  const std::string dir = freshTempDir("keras-get-file");
  TfRun r = runTf("CACHE = '" + dir + R"('
import os
import tensorflow as tf
from tensorflow import keras
d = os.path.join(CACHE, "datasets")
os.makedirs(d, exist_ok=True)
with open(os.path.join(d, "local.csv"), "w") as f:
    f.write("a,b\n1,2\n")
p = keras.utils.get_file("local.csv", "https://example.com/data/local.csv", cache_dir=CACHE)
print(p == os.path.join(d, "local.csv"), open(p).read().splitlines()[1])
try:
    tf.keras.utils.get_file("missing.csv", origin="https://example.com/data/missing.csv", cache_dir=CACHE)
except Exception as e:
    print(type(e).__name__, str(e)[:53])
)");
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.out == "True 1,2\nException URL fetch failure on https://example.com/data/missing\n");
}
