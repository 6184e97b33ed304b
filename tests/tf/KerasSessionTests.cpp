// Keras in TF1 programs (graph mode): fit, evaluate, predict and train_on_batch run as session runs
// of one graph step per data signature (lang/tf/python/keras._session_steps.py), as tf.keras 1.x
// ran them through K.get_session(); the values are those of the eager loops.
#include "TfTestSupport.h"

using namespace tlens;
using namespace tlens::tf;
using namespace tlens::tf::testing;
using interp::Mode;

namespace {

// Sequential with BatchNormalization and Dropout-free layers, and a two-input two-output
// functional model under every optimizer rule: deterministic weights, no shuffling.
const char* kTraining = R"(import numpy as np
from tensorflow import keras
from tensorflow.keras import layers
rng = np.random.RandomState(0)
X = rng.rand(40, 4).astype("float32")
Y = (X.sum(axis=1) > 2).astype("int32")
def fixed(model):
    model.set_weights([np.linspace(-0.5, 0.5, w.size).reshape(w.shape).astype("float32") if w.ndim == 2 else w
                       for w in model.get_weights()])
m = keras.Sequential([layers.Dense(8, activation="relu", input_shape=(4,)), layers.BatchNormalization(),
                      layers.Dense(2, activation="softmax")])
fixed(m)
m.compile(optimizer=keras.optimizers.Adam(0.01), loss="sparse_categorical_crossentropy", metrics=["accuracy"])
print(m.fit(X, Y, epochs=3, batch_size=16, shuffle=False, verbose=0).history)
print(m.evaluate(X, Y, verbose=0))
print(m.predict(X[:2], verbose=0))
print(m.layers[1].get_weights()[2])
for opt in [keras.optimizers.SGD(0.1, momentum=0.9, nesterov=True),
            keras.optimizers.RMSprop(0.01, momentum=0.5, centered=True), "adagrad", "adadelta"]:
    a = keras.Input((4,))
    b = keras.Input((4,))
    h = layers.Dense(6, activation="tanh")(layers.concatenate([a, b]))
    f = keras.Model([a, b], [layers.Dense(1, name="reg")(h), layers.Dense(2, activation="softmax", name="cls")(h)])
    fixed(f)
    f.compile(optimizer=opt, loss=["mse", "sparse_categorical_crossentropy"], metrics={"cls": "accuracy"})
    print(f.fit([X, X * 2], [X[:, :1], Y], epochs=2, batch_size=16, shuffle=False, verbose=0).history)
    print(f.train_on_batch([X[:8], X[:8]], [X[:8, :1], Y[:8]]))
    print(f.predict([X[:2], X[:2]], verbose=0))
)";

}  // namespace

TEST_CASE("Keras fit/evaluate/predict/train_on_batch in graph mode give the eager loops' values", "[tf][keras][graph]") {
  TfRun eager = runTf(kTraining, Mode::Concrete, ApiStyle::Eager);
  INFO(eager.err);
  REQUIRE(eager.status == 0);
  TfRun graph = runTf(kTraining, Mode::Concrete, ApiStyle::Graph);
  INFO(graph.err);
  REQUIRE(graph.status == 0);
  // The same values; TF 1's Keras names accuracy 'acc' ('cls_acc' for the output named cls).
  std::string renamed = graph.out;
  for (size_t at = renamed.find("acc'"); at != std::string::npos; at = renamed.find("acc'", at + 9))
    renamed.replace(at, 4, "accuracy'");
  CHECK(renamed == eager.out);
  CHECK(graph.out.find("'cls_acc'") != std::string::npos);
  CHECK(graph.out.find("nan") == std::string::npos);
}

TEST_CASE("a TF1 program mixes placeholders, its own session and a Keras model that fits", "[tf][keras][graph]") {
  const char* src = R"(import numpy as np
import tensorflow as tf
from tensorflow.keras import backend as K
from tensorflow.keras.layers import Dense, Dropout
from tensorflow.keras.models import Sequential
sess = tf.Session()
K.set_session(sess)
x = tf.placeholder(tf.float32, [None, 3])
counter = tf.Variable(0.0)
bump = tf.assign_add(counter, 5.0)
hidden = Dense(4, activation="relu")(x)
sess.run(tf.global_variables_initializer())
sess.run(bump)
model = Sequential([Dense(8, activation="relu", input_dim=3), Dropout(0.2), Dense(1)])
model.compile(optimizer="sgd", loss="mse")
X = np.linspace(0, 1, 60).reshape(20, 3).astype("float32")
Y = X.sum(axis=1, keepdims=True)
before = model.evaluate(X, Y, verbose=0)
hist = model.fit(X, Y, epochs=5, batch_size=5, verbose=0)
after = model.evaluate(X, Y, verbose=0)
same_session = K.get_session() is sess
kept = sess.run(counter)
pred = model.predict(X[:4], verbose=0)
h = sess.run(hidden, {x: X[:2]})
w = model.get_weights()
)";
  TfRun r = runTf(src);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(*interp::asDouble(r.interp->mainModule()->get("after")) <
        *interp::asDouble(r.interp->mainModule()->get("before")) * 0.5);
  CHECK(r.repr("same_session") == "True");
  CHECK(r.repr("kept") == "5.0");  // the user's variables are never initialised again
  CHECK(r.type("pred") == "float32[4, 1]");
  CHECK(r.type("h") == "float32[2, 4]");
  CHECK(r.interp->toList(r.interp->mainModule()->get("w")).size() == 4);

  TfRun a = runTf(src, Mode::Abstract);
  INFO(a.diagnostics());
  REQUIRE(a.status == 0);
  CHECK(a.errorCount() == 0);
  CHECK(a.type("pred") == "float32[4, 1]");
  CHECK(a.type("h") == "float32[2, 4]");
}

TEST_CASE("Keras without a session given creates one, and graph-mode limits are clear errors", "[tf][keras][graph]") {
  const char* src = R"(import numpy as np
import tensorflow as tf
from tensorflow import keras
tf.compat.v1.disable_eager_execution()
m = keras.Sequential([keras.layers.Dense(2, activation="softmax", input_shape=(3,))])
m.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
X = np.ones((6, 3), "float32")
Y = np.array([0, 1, 0, 1, 0, 1])
loss = m.train_on_batch(X, Y)
made = keras.backend.get_session() is not None
class Count(keras.metrics.Metric):
    def __init__(self):
        super().__init__(name="count")
        self.n = self.add_weight("n")
    def update_state(self, y_true, y_pred, sample_weight=None):
        self.n.assign_add(1.0)
    def result(self):
        return self.n
m.compile(optimizer="adam", loss="sparse_categorical_crossentropy", metrics=[Count()])
try:
    m.fit(X, Y, verbose=0)
    stateful = "ran"
except NotImplementedError as e:
    stateful = str(e)
)";
  TfRun r = runTf(src);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(interp::asDouble(r.interp->mainModule()->get("loss")).has_value());
  CHECK(r.repr("made") == "True");
  CHECK(r.repr("stateful").find("stateful metric 'count'") != std::string::npos);
}

TEST_CASE("Keras' learning phase is a tensor TF1 programs feed, and Dropout follows it", "[tf][keras][graph]") {
  const char* src = R"(import numpy as np
import tensorflow as tf
from keras import backend as K
from keras.layers import Dense, Dropout
x = tf.placeholder(tf.float32, [None, 100])
h = Dropout(0.5)(x)
zeros = tf.reduce_sum(tf.cast(tf.equal(h, 0.0), tf.float32))
sess = tf.Session()
K.set_session(sess)
train_zeros = float(sess.run(zeros, {x: np.ones((2, 100)), K.learning_phase(): 1}))
test_zeros = sess.run(zeros, {x: np.ones((2, 100)), K.learning_phase(): 0})
default_zeros = sess.run(zeros, {x: np.ones((2, 100))})
same = K.learning_phase() is K.learning_phase()
)";
  TfRun r = runTf(src);
  INFO(r.err);
  REQUIRE(r.status == 0);
  double train = *interp::asDouble(r.interp->mainModule()->get("train_zeros"));
  CHECK(train > 50);
  CHECK(train < 150);
  CHECK(r.repr("test_zeros") == "0.0");
  CHECK(r.repr("default_zeros") == "0.0");
  CHECK(r.repr("same") == "True");
  TfRun a = runTf(src, Mode::Abstract);
  INFO(a.diagnostics());
  REQUIRE(a.status == 0);
  CHECK(a.errorCount() == 0);
}

TEST_CASE("K.function runs the model's tensors in both program styles, the learning phase an input", "[tf][keras][graph]") {
  const std::string body = R"(import numpy as np
from tensorflow import keras
from tensorflow.keras import backend as K
from tensorflow.keras import layers
m = keras.Sequential([layers.Dense(4, activation="relu", input_shape=(3,)), layers.Dropout(0.5), layers.Dense(2)])
m.compile("sgd", "mse")
X = np.ones((5, 3), "float32")
f = K.function([m.input], [m.layers[0].output])
h = f([X])[0]
g = K.function([m.input, K.learning_phase()], [m.output])
out = g([X, 0])[0]
same = bool(np.allclose(out, m.predict(X, verbose=0)))
)";
  for (ApiStyle style : {ApiStyle::Eager, ApiStyle::Graph}) {
    TfRun r = runTf(body, Mode::Concrete, style);
    INFO(r.err);
    REQUIRE(r.status == 0);
    CHECK(r.type("h") == "float32[5, 4]");
    CHECK(r.type("out") == "float32[5, 2]");
    CHECK(r.repr("same") == "True");
    TfRun a = runTf(body, Mode::Abstract, style);
    INFO(a.diagnostics());
    CHECK(a.errorCount() == 0);
    CHECK(a.type("h") == "float32[5, 4]");
  }
  TfRun g = runTf(body + R"(grads = K.gradients(K.sum(m.output), m.trainable_weights)
first = K.function([m.input], [grads[0]])([X])[0]
)", Mode::Concrete, ApiStyle::Graph);
  INFO(g.err);
  REQUIRE(g.status == 0);
  CHECK(g.type("first") == "float32[3, 4]");
}

TEST_CASE("tf.keras compiles with a tf.train optimizer, as TF 1.x's TFOptimizer, with its update rule", "[tf][keras][graph]") {
  // loss = (w x)^2 with x = 1: one SGD step of 0.1 takes w = 1 to 0.8; Momentum's first step is
  // the same; Adam's first step moves each weight by about the learning rate.
  TfRun r = runTf(R"(
import numpy as np
import tensorflow as tf
from tensorflow import keras
x = tf.placeholder(tf.float32, [None, 1])
ws = []
for opt in [tf.train.GradientDescentOptimizer(0.1), tf.train.MomentumOptimizer(0.1, 0.9),
            tf.train.AdamOptimizer(0.01), tf.train.RMSPropOptimizer(0.01), tf.train.AdagradOptimizer(0.1)]:
    m = keras.Sequential([keras.layers.Dense(1, use_bias=False, kernel_initializer="ones", input_shape=(1,))])
    m.compile(optimizer=opt, loss="mse")
    m.fit(np.ones((1, 1), np.float32), np.zeros((1, 1), np.float32), epochs=1, verbose=0)
    ws.append(round(float(m.get_weights()[0][0, 0]), 4))
kinds = type(m.optimizer).__name__
try:
    keras.Sequential([keras.layers.Dense(1, input_shape=(1,))]).compile(optimizer=object(), loss="mse")
    err = "none"
except ValueError as e:
    err = str(e)[:40]
)", Mode::Concrete, ApiStyle::Graph);
  INFO(r.err);
  REQUIRE(r.status == 0);
  // Adagrad (TF1: no epsilon): acc = 0.1 + 4, w = 1 - 0.1 * 2 / sqrt(4.1).
  // RMSProp (TF1: mean square starts at ones): ms = 0.9 + 0.4, w = 1 - 0.01 * 2 / sqrt(1.3).
  CHECK(r.repr("ws") == "[0.8, 0.8, 0.99, 0.9825, 0.9012]");
  CHECK(r.repr("kinds") == "'Adagrad'");
  CHECK(r.repr("err") == "'Could not interpret optimizer identifier'");
}

TEST_CASE("tf.keras in a TF 1 program logs accuracy as 'acc', as TensorFlow 1 did, and a TF 2 program as given", "[tf][keras]") {
  // TF1-era programs read history.history['acc'] and 'val_acc' (nfmcclure's Keras recipe printed
  // [None, None, None]); TF 2 spells it as compiled, and its programs read 'accuracy'.
  const char* body = R"(model = tf.keras.Sequential([tf.keras.layers.Dense(3, activation='softmax', input_shape=(4,))])
model.compile('adam', 'categorical_crossentropy', metrics=['accuracy'])
X = np.random.rand(60, 4)
Y = np.eye(3)[np.random.randint(0, 3, 60)]
keys = sorted(model.fit(X, Y, epochs=2, verbose=0, validation_split=0.2).history.keys())
)";
  TfRun tf1 = runTf(std::string("import numpy as np\nimport tensorflow as tf\nx = tf.placeholder(tf.float32, [None, 4])\n") + body,
                    Mode::Concrete, ApiStyle::Graph);
  INFO(tf1.err);
  CHECK(tf1.repr("keys") == "['acc', 'loss', 'val_acc', 'val_loss']");
  TfRun tf2 = runTf(std::string("import numpy as np\nimport tensorflow as tf\n") + body);
  INFO(tf2.err);
  CHECK(tf2.repr("keys") == "['accuracy', 'loss', 'val_accuracy', 'val_loss']");
}
