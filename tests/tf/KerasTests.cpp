// The Keras API (lang/tf/python/keras*.py): summaries and parameter counts as Keras prints them,
// training that learns, Keras' shape checks at the user's line in both modes, and abstract mode
// giving the same output shapes as concrete mode.
#include "TfTestSupport.h"

using namespace tlens;
using namespace tlens::tf;
using namespace tlens::tf::testing;
using interp::Mode;

namespace {

/// The diagnostics of severity error, "line: message" (lines 1-based).
std::vector<std::pair<int, std::string>> errors(const TfRun& r) {
  std::vector<std::pair<int, std::string>> out;
  for (const auto& d : r.interp->diagnostics())
    if (d.severity == interp::Severity::Error) out.emplace_back(d.start.line + 1, d.message);
  return out;
}

}  // namespace

TEST_CASE("summary() prints a Sequential CNN exactly as Keras 2.15 does", "[tf][keras]") {
  TfRun r = runTf(R"(from tensorflow import keras
from tensorflow.keras import layers
model = keras.Sequential([
    keras.Input(shape=(28, 28, 1)),
    layers.Conv2D(32, kernel_size=(3, 3), activation="relu"),
    layers.MaxPooling2D(pool_size=(2, 2)),
    layers.Flatten(),
    layers.Dense(10, activation="softmax"),
])
model.summary()
)");
  INFO(r.err);
  REQUIRE(r.status == 0);
  const char* expected =
      "Model: \"sequential\"\n"
      "_________________________________________________________________\n"
      " Layer (type)                Output Shape              Param #   \n"
      "=================================================================\n"
      " conv2d (Conv2D)             (None, 26, 26, 32)        320       \n"
      "                                                                 \n"
      " max_pooling2d (MaxPooling2  (None, 13, 13, 32)        0         \n"
      " D)                                                              \n"
      "                                                                 \n"
      " flatten (Flatten)           (None, 5408)              0         \n"
      "                                                                 \n"
      " dense (Dense)               (None, 10)                54090     \n"
      "                                                                 \n"
      "=================================================================\n"
      "Total params: 54410 (212.54 KB)\n"
      "Trainable params: 54410 (212.54 KB)\n"
      "Non-trainable params: 0 (0.00 Byte)\n"
      "_________________________________________________________________\n";
  CHECK(r.out == expected);
}

TEST_CASE("parameter counts of Dense, Conv1D, LSTM, Embedding and BatchNormalization match Keras", "[tf][keras]") {
  const char* src = R"(import tensorflow as tf
from keras.layers import Dense, Conv1D, LSTM, Embedding, BatchNormalization, Input, GlobalAveragePooling1D
from keras.models import Model, Sequential
m = Sequential([Embedding(1000, 64, input_length=10), Conv1D(16, 3, activation="relu"), BatchNormalization(),
                LSTM(32, return_sequences=True), LSTM(8), Dense(1, activation="sigmoid")])
rows = m._tlens_summary_rows()
counts = [r[3] for r in rows]
shapes = [r[2] for r in rows]
trainable = sum([int(tf.size(w)) for w in m.trainable_weights])
total = m.count_params()
)";
  for (Mode mode : {Mode::Concrete, Mode::Abstract}) {
    TfRun r = runTf(src, mode);
    INFO(r.err << r.diagnostics());
    REQUIRE(r.status == 0);
    CHECK(r.repr("counts") == "[64000, 3088, 64, 6272, 1312, 9]");
    CHECK(r.repr("shapes") == "[[None, 10, 64], [None, 8, 16], [None, 8, 16], [None, 8, 32], [None, 8], [None, 1]]");
    if (mode == Mode::Concrete) {
      CHECK(r.repr("trainable") == "74713");
      CHECK(r.repr("total") == "74745");
    }
  }
}

TEST_CASE("fit runs real gradient steps: the loss goes down and predict gives class scores", "[tf][keras]") {
  TfRun r = runTf(R"(import numpy as np
import keras
from keras import layers
(x, y), (xt, yt) = keras.datasets.mnist.load_data()
x = x.reshape(-1, 784).astype("float32") / 255.0
model = keras.Sequential([layers.Dense(32, activation="relu", input_shape=(784,)), layers.Dense(10, activation="softmax")])
model.compile(optimizer="adam", loss="sparse_categorical_crossentropy", metrics=["accuracy"])
h = model.fit(x, y, batch_size=64, epochs=3, verbose=0)
losses = h.history["loss"]
acc = h.history["accuracy"]
p = model.predict(x[:100], verbose=0)
ev = model.evaluate(x[:100], y[:100], verbose=0)
)");
  INFO(r.err);
  REQUIRE(r.status == 0);
  interp::Value losses = r.interp->mainModule()->get("losses");
  auto items = r.interp->toList(losses);
  REQUIRE(items.size() == 3);
  double first = *interp::asDouble(items.front()), last = *interp::asDouble(items.back());
  CHECK(last < first * 0.8);
  double acc = *interp::asDouble(r.interp->toList(r.interp->mainModule()->get("acc")).back());
  CHECK(acc > 0.5);
  CHECK(r.type("p") == "float32[100, 10]");
  CHECK(r.interp->toList(r.interp->mainModule()->get("ev")).size() == 2);
}

TEST_CASE("a subclassed Model trains with GradientTape and a Keras optimizer", "[tf][keras]") {
  TfRun r = runTf(R"(import tensorflow as tf
class Net(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.d1 = tf.keras.layers.Dense(16, activation="relu")
        self.d2 = tf.keras.layers.Dense(1)

    def call(self, x):
        return self.d2(self.d1(x))

x = tf.random.normal([64, 4], seed=1)
y = tf.reduce_sum(x, axis=1, keepdims=True)
model = Net()
opt = tf.keras.optimizers.SGD(learning_rate=0.05)
loss_fn = tf.keras.losses.MeanSquaredError()
first = None
for step in range(30):
    with tf.GradientTape() as tape:
        loss = loss_fn(y, model(x))
    grads = tape.gradient(loss, model.trainable_variables)
    opt.apply_gradients(zip(grads, model.trainable_variables))
    if first is None:
        first = float(loss)
last = float(loss)
n = len(model.trainable_variables)
names = [l.name for l in model.layers]
)");
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("n") == "4");
  CHECK(r.repr("names") == "['dense', 'dense_1']");
  CHECK(*interp::asDouble(r.interp->mainModule()->get("last")) <
        *interp::asDouble(r.interp->mainModule()->get("first")) * 0.5);
}

TEST_CASE("categorical_crossentropy with integer labels is an error at the fit line suggesting the fixes", "[tf][keras]") {
  const char* src = R"(import numpy as np
from tensorflow import keras
x = np.zeros((100, 20), dtype="float32")
y = np.zeros((100,), dtype="int64")
model = keras.Sequential([keras.layers.Dense(10, activation="softmax", input_shape=(20,))])
model.compile(optimizer="sgd", loss="categorical_crossentropy")
model.fit(x, y, epochs=1)
print("after")
)";
  TfRun c = runTf(src);
  CHECK(c.status == 1);
  CHECK(c.err.find("ValueError: Shapes (None, 1) and (None, 10) are incompatible") != std::string::npos);
  CHECK(c.err.find("sparse_categorical_crossentropy") != std::string::npos);
  CHECK(c.err.find("to_categorical") != std::string::npos);
  CHECK(c.err.find("line 7") != std::string::npos);
  CHECK(c.out.find("after") == std::string::npos);

  TfRun a = runTf(src, Mode::Abstract);
  auto e = errors(a);
  REQUIRE(e.size() == 1);
  CHECK(e[0].first == 7);
  CHECK(e[0].second.find("sparse_categorical_crossentropy") != std::string::npos);

  // Labels of shape [N, 1] too.
  std::string column = src;
  column.replace(column.find("(100,)"), 6, "(100, 1)");
  TfRun c1 = runTf(column);
  CHECK(c1.err.find("ValueError: Shapes (None, 1) and (None, 10) are incompatible") != std::string::npos);
  CHECK(c1.err.find("(100, 1)") != std::string::npos);
  auto e1 = errors(runTf(column, Mode::Abstract));
  REQUIRE(e1.size() == 1);
  CHECK(e1[0].first == 7);
}

TEST_CASE("sparse_categorical_crossentropy with one-hot targets is an error at the evaluate line", "[tf][keras]") {
  const char* src = R"(import numpy as np
import keras
x = np.zeros((10, 4))
y = keras.utils.to_categorical(np.zeros((10,)), 3)
m = keras.Sequential([keras.layers.Dense(3, input_shape=(4,))])
m.compile(loss="sparse_categorical_crossentropy")
m.evaluate(x, y)
)";
  TfRun c = runTf(src);
  CHECK(c.status == 1);
  CHECK(c.err.find("looks one-hot encoded. Use loss='categorical_crossentropy'") != std::string::npos);
  CHECK(c.err.find("line 7") != std::string::npos);
  auto e = errors(runTf(src, Mode::Abstract));
  REQUIRE(e.size() == 1);
  CHECK(e[0].first == 7);
}

TEST_CASE("data that does not fit the model's input is an error at the fit/predict line", "[tf][keras]") {
  const char* src = R"(import numpy as np
import keras
(x, y), _ = keras.datasets.mnist.load_data()
model = keras.Sequential()
model.add(keras.layers.Dense(10, activation="softmax", input_shape=(784,)))
model.compile(loss="sparse_categorical_crossentropy", optimizer="adam")
model.fit(x, y)
)";
  TfRun c = runTf(src);
  CHECK(c.status == 1);
  CHECK(c.err.find("ValueError: Input 0 of layer \"sequential\" is incompatible with the layer: expected shape=(None, 784), found shape=(None, 28, 28)") != std::string::npos);
  CHECK(c.err.find("line 7") != std::string::npos);
  auto e = errors(runTf(src, Mode::Abstract));
  REQUIRE(e.size() == 1);
  CHECK(e[0].first == 7);
  CHECK(e[0].second == "Input 0 of layer \"sequential\" is incompatible with the layer: expected shape=(None, 784), found shape=(None, 28, 28)");
}

TEST_CASE("a Conv2D given a rank-2 input is an error at the line that adds it", "[tf][keras]") {
  const char* src = R"(from tensorflow.keras.models import Sequential
from tensorflow.keras.layers import Dense, Conv2D, Flatten
model = Sequential()
model.add(Dense(64, input_shape=(784,)))
model.add(Conv2D(32, (3, 3)))
model.add(Flatten())
model.add(Dense(10))
)";
  TfRun c = runTf(src);
  CHECK(c.status == 1);
  CHECK(c.err.find("ValueError: Input 0 of layer \"conv2d\" is incompatible with the layer: expected min_ndim=4, found ndim=2. Full shape received: (None, 64)") != std::string::npos);
  CHECK(c.err.find("line 5") != std::string::npos);
  TfRun a = runTf(src, Mode::Abstract);
  auto e = errors(a);
  REQUIRE(e.size() == 1);  // nothing more is reported after the first error
  CHECK(e[0].first == 5);
}

TEST_CASE("abstract mode gives Keras models the output shapes concrete mode computes", "[tf][keras]") {
  const char* src = R"(import numpy as np
import tensorflow as tf
from tensorflow.keras import layers, Model, Input
inp = Input(shape=(32, 32, 3))
a = layers.Conv2D(8, 3, padding="same", activation="relu")(inp)
b = layers.Conv2D(8, 5, padding="same")(inp)
x = layers.Concatenate()([a, b])
x = layers.AveragePooling2D()(x)
x = layers.BatchNormalization()(x)
x = layers.GlobalAveragePooling2D()(x)
x = layers.Dropout(0.2)(x)
out = layers.Dense(5, activation="softmax")(x)
model = Model(inp, out)
rows = model._tlens_summary_rows()
shape = model.output_shape
data = np.random.rand(6, 32, 32, 3)
p = model.predict(data, verbose=0)
direct = model(data)
s = Input(shape=(12,))
r = layers.Reshape((3, 4))(s)
l = layers.LSTM(7, return_sequences=True)(r)
m = layers.MaxPooling1D()(l)
add = layers.Add()([m, m])
seq_model = Model(s, layers.Flatten()(add))
seq_shape = seq_model.output_shape
up = layers.Conv2DTranspose(4, 3, strides=2)(inp)
up_shape = up.shape.as_list()
)";
  TfRun c = runTf(src);
  INFO(c.err);
  REQUIRE(c.status == 0);
  TfRun a = runTf(src, Mode::Abstract);
  INFO(a.diagnostics());
  CHECK(errors(a).empty());
  for (const char* name : {"rows", "shape", "seq_shape", "up_shape"}) CHECK(a.repr(name) == c.repr(name));
  CHECK(c.repr("up_shape") == "[None, 65, 65, 4]");
  CHECK(c.repr("shape") == "(None, 5)");
  CHECK(c.repr("seq_shape") == "(None, 7)");
  CHECK(a.type("p") == "float32[6, 5]");
  CHECK(c.type("p") == "float32[6, 5]");
  CHECK(a.type("direct") == c.type("direct"));
}

TEST_CASE("a functional model with branches prints the Connected to column", "[tf][keras]") {
  TfRun r = runTf(R"(import keras
from keras import layers
a = keras.Input(shape=(8,))
b = keras.Input(shape=(4,))
x = layers.Concatenate()([a, b])
y = layers.Dense(2)(x)
m = keras.Model(inputs=[a, b], outputs=y)
m.summary(print_fn=lambda s: print(s.rstrip()))
)");
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.out.find(" input_1 (InputLayer)        [(None, 8)]                  0         []") != std::string::npos);
  CHECK(r.out.find(" concatenate (Concatenate)   (None, 12)                   0         ['input_1[0][0]',") != std::string::npos);
  CHECK(r.out.find("'input_2[0][0]']") != std::string::npos);
  CHECK(r.out.find(" dense (Dense)               (None, 2)                    26        ['concatenate[0][0]']") != std::string::npos);
}

TEST_CASE("keras.datasets, to_categorical and ImageDataGenerator give Keras' shapes and dtypes", "[tf][keras]") {
  const char* src = R"(import numpy as np
from keras.datasets import mnist, cifar10
from keras.utils import to_categorical
from keras.preprocessing.image import ImageDataGenerator
(x_train, y_train), (x_test, y_test) = mnist.load_data()
(c_train, cy_train), _ = cifar10.load_data()
onehot = to_categorical(cy_train, 10)
gen = ImageDataGenerator(rescale=1.0 / 255)
it = gen.flow(c_train, onehot, batch_size=16)
xb, yb = it[0]
)";
  for (Mode mode : {Mode::Concrete, Mode::Abstract}) {
    TfRun r = runTf(src, mode);
    INFO(r.err << r.diagnostics());
    REQUIRE(r.status == 0);
    CHECK(r.type("x_train") == "uint8[60000, 28, 28]");
    CHECK(r.type("y_train") == "uint8[60000]");
    CHECK(r.type("x_test") == "uint8[10000, 28, 28]");
    CHECK(r.type("c_train") == "uint8[50000, 32, 32, 3]");
    CHECK(r.type("cy_train") == "uint8[50000, 1]");
    CHECK(r.type("onehot") == "float32[50000, 10]");
    CHECK(r.type("xb") == "float32[16, 32, 32, 3]");
    CHECK(r.type("yb") == "float32[16, 10]");
  }
  TfRun twice = runTf(std::string(src) + "a = float(x_train.sum())\n(x2, y2), _ = mnist.load_data()\nb = float(x2.sum())\n");
  CHECK(twice.repr("a") == twice.repr("b"));
}

TEST_CASE("synthetic datasets mislabel a share of examples per example, so none is learnt by heart", "[tf][keras]") {
  // MNIST's 60,000 training images repeat 2,000 distinct ones 30 times. Were a wrong label drawn
  // per distinct image, every copy would carry it and a model could reach 100% (it did); drawn
  // per example, about 2% of the labels are wrong and most images' copies agree.
  TfRun r = runTf(R"(import numpy as np
from keras.datasets import mnist
from tensorflow.examples.tutorials.mnist import input_data
def shares(images_of, labels, n, base):
    copies = labels.reshape(n // base, base)
    majority = (copies[:, :200].reshape(n // base, 200, 1) == np.arange(10).reshape(1, 1, 10)).sum(axis=0).argmax(axis=1)
    agree = float((copies[:, :200] == majority).mean())
    mixed = float((copies[:, :200] != copies[0, :200]).any(axis=0).mean())
    return round(agree, 2), mixed > 0.2
np.random.seed(5)
before = np.random.rand()
(x, y), _ = mnist.load_data()
same_image = bool((x[7] == x[2007]).all())
keras_shares = shares(x, y, 60000, 2000)
tf1 = input_data.read_data_sets("MNIST_data", one_hot=False).train
tf1_shares = shares(None, tf1.labels[:54000], 54000, 2000)
np.random.seed(5)
stream_kept = np.random.rand() == before
)");
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("same_image") == "True");
  CHECK(r.repr("keras_shares") == "(0.98, True)");
  CHECK(r.repr("tf1_shares") == "(0.98, True)");
  CHECK(r.repr("stream_kept") == "True");
}

TEST_CASE("abstract fit and predict check shapes only and never run the model on the data", "[tf][keras]") {
  TfRun a = runTf(R"(import numpy as np
import keras
x = np.random.rand(50000, 100)
y = np.random.randint(0, 2, (50000, 1))
m = keras.Sequential([keras.layers.Dense(64, activation="relu"), keras.layers.Dense(1, activation="sigmoid")])
m.compile(optimizer="rmsprop", loss="binary_crossentropy", metrics=["accuracy"])
h = m.fit(x, y, epochs=1000, batch_size=1)
p = m.predict(x)
shape = m.output_shape
)", Mode::Abstract);
  CHECK(errors(a).empty());
  CHECK(a.type("p") == "float32[50000, 1]");
  CHECK(a.repr("shape") == "(None, 1)");
}

TEST_CASE("Keras checks on unknown data, sizes and generators never produce a diagnostic", "[tf][keras]") {
  TfRun a = runTf(R"(import keras
from data_loader import load
x, y = load()
n = load()
model = keras.Sequential([keras.layers.Dense(n, activation="relu"), keras.layers.Dense(10, activation="softmax")])
model.compile(optimizer="adam", loss="categorical_crossentropy", metrics=["accuracy"])
model.fit(x, y, epochs=3)
p = model.predict(x)
inp = keras.Input(shape=(n,))
out = keras.layers.Dense(4)(keras.layers.Reshape((n, 1))(inp))
m2 = keras.Model(inp, out)
m2.summary()
z = keras.layers.Conv2D(4, 3)(keras.Input(shape=(None, None, 3)))
g = keras.layers.Dense(3)(x)

def gen():
    while True:
        yield x, y

model.fit(gen(), steps_per_epoch=10, epochs=2)
)", Mode::Abstract);
  std::string unexpected;
  for (const auto& d : a.interp->diagnostics())
    if (d.severity == interp::Severity::Error || d.severity == interp::Severity::Warning) unexpected += interp::format(d) + "\n";
  CHECK(unexpected == "");
  CHECK(a.type("z") == "float32[batch, ?, ?, 4]");
}

TEST_CASE("a tf.function train step builds Keras weights eagerly and differentiates them in the trace", "[tf][keras][function]") {
  TfRun r = runTf(R"(import tensorflow as tf
model = tf.keras.Sequential([tf.keras.layers.Dense(8, activation="relu"), tf.keras.layers.Dense(1)])
opt = tf.keras.optimizers.Adam(0.05)
x = tf.random.normal([32, 3], seed=2)
y = tf.reduce_sum(x, axis=1, keepdims=True)

@tf.function
def step(a, b):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(a, training=True) - b))
    grads = tape.gradient(loss, model.trainable_variables)
    opt.apply_gradients(zip(grads, model.trainable_variables))
    return loss

losses = [float(step(x, y)) for i in range(20)]
traces = repr(step)
iterations = int(opt.iterations)
)");
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("iterations") == "20");
  auto items = r.interp->toList(r.interp->mainModule()->get("losses"));
  CHECK(*interp::asDouble(items.back()) < *interp::asDouble(items.front()) * 0.5);
}

TEST_CASE("a functional model with two inputs trains on a list of arrays and checks each one", "[tf][keras]") {
  const char* src = R"(import numpy as np
import keras
from keras import layers
a = keras.Input(shape=(8,))
b = keras.Input(shape=(4,))
y = layers.Dense(1)(layers.Concatenate()([a, b]))
m = keras.Model(inputs=[a, b], outputs=y)
m.compile(optimizer="sgd", loss="mse")
xa = np.random.rand(40, 8)
xb = np.random.rand(40, 4)
t = xa.sum(axis=1) + xb.sum(axis=1)
h = m.fit([xa, xb], t, epochs=3, batch_size=10, verbose=0)
losses = h.history["loss"]
p = m.predict([xa, xb], verbose=0)
m.fit([xa, np.random.rand(40, 5)], t)
)";
  TfRun c = runTf(src);
  CHECK(c.status == 1);
  CHECK(c.err.find("ValueError: Input 1 of layer \"model\" is incompatible with the layer: expected shape=(None, 4), found shape=(None, 5)") != std::string::npos);
  CHECK(c.type("p") == "float32[40, 1]");
  auto items = c.interp->toList(c.interp->mainModule()->get("losses"));
  REQUIRE(items.size() == 3);
  CHECK(*interp::asDouble(items.back()) < *interp::asDouble(items.front()));
  TfRun a = runTf(src, Mode::Abstract);
  auto e = errors(a);
  REQUIRE(e.size() == 1);
  CHECK(e[0].first == 15);
  CHECK(a.type("p") == "float32[40, 1]");
}

TEST_CASE("keras.preprocessing.text's Tokenizer indexes words by frequency and builds matrices", "[tf][keras]") {
  // Keras 2.15's results for the same calls.
  TfRun r = runTf(R"(
from keras.preprocessing.text import Tokenizer, text_to_word_sequence
samples = ['The cat sat on the mat.', 'The dog ate my homework.']
tokenizer = Tokenizer(num_words=1000)
tokenizer.fit_on_texts(samples)
sequences = tokenizer.texts_to_sequences(samples)
matrix = tokenizer.texts_to_matrix(samples, mode='binary')
shape = matrix.shape
ones = int(matrix.sum())
index = sorted(tokenizer.word_index.items(), key=lambda kv: kv[1])[:3]
words = text_to_word_sequence("Hello, World!")
)");
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("sequences") == "[[1, 2, 3, 4, 1, 5], [1, 6, 7, 8, 9]]");
  CHECK(r.repr("shape") == "(2, 1000)");
  CHECK(r.repr("ones") == "10");  // binary: each distinct word once per text
  CHECK(r.repr("index") == "[('the', 1), ('cat', 2), ('sat', 3)]");
  CHECK(r.repr("words") == "['hello', 'world']");
}

TEST_CASE("fit and evaluate take a tf.data Dataset of (x, y) batches", "[tf][keras]") {
  const char* src = R"(
import numpy as np
import tensorflow as tf
x = np.random.rand(256, 8).astype(np.float32)
y = (x.sum(axis=1) > 4).astype(np.int64)
ds = tf.data.Dataset.from_tensor_slices((x, y)).shuffle(256).batch(32)
model = tf.keras.Sequential([tf.keras.layers.Dense(16, activation="relu", input_shape=(8,)), tf.keras.layers.Dense(2)])
model.compile(optimizer="adam", loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True), metrics=["accuracy"])
history = model.fit(ds, epochs=2, verbose=0)
steps = model.fit(ds.repeat(), epochs=1, steps_per_epoch=3, verbose=0)
result = model.evaluate(ds, verbose=0)
nloss = len(history.history["loss"])
nresult = len(result)
)";
  TfRun r = runTf(src);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("nloss") == "2");
  CHECK(r.repr("nresult") == "2");  // loss and accuracy
  // A dataset whose elements do not fit the model: the same error as for arrays, before training.
  TfRun bad = runTf(std::string(src).replace(std::string(src).find("(8,)"), 4, "(9,)"), Mode::Abstract);
  CHECK(bad.diagnostics().find("expected shape=(None, 9), found shape=(None, 8)") != std::string::npos);
}

TEST_CASE("save_weights writes real files that load_weights reads back into a fresh model", "[tf][keras]") {
  const std::string dir = freshTempDir("keras-weights");
  TfRun r = runTf("DIR = '" + dir + R"('
import numpy as np
import tensorflow as tf
def make():
    return tf.keras.Sequential([tf.keras.layers.Dense(3, input_shape=(2,)), tf.keras.layers.Dense(1)])
a = make()
a.save_weights(DIR + "/w")
b = make()
before = np.allclose(a.predict(np.ones((1, 2))), b.predict(np.ones((1, 2))))
b.load_weights(DIR + "/w")
after = np.allclose(a.predict(np.ones((1, 2))), b.predict(np.ones((1, 2))))
c = tf.keras.Sequential([tf.keras.layers.Dense(4, input_shape=(2,)), tf.keras.layers.Dense(1)])
try:
    c.load_weights(DIR + "/w")
    err = None
except ValueError as e:
    err = str(e)
try:
    tf.keras.models.load_model(DIR + "/w")
except OSError as e:
    err2 = str(e)
)");
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("before") == "False");
  CHECK(r.repr("after") == "True");
  CHECK(std::filesystem::exists(dir + "/w.index"));
  CHECK(r.repr("err").find("Shapes (2, 4) and (2, 3) are incompatible") != std::string::npos);
  CHECK(r.repr("err2").find("No file or directory found at") != std::string::npos);  // weights only, no model
}

TEST_CASE("a sliced variable assigns through to the variable", "[tf][keras]") {
  TfRun r = runTf(R"(
import tensorflow as tf
v = tf.Variable(tf.zeros((3, 2)))
v[0, 0].assign(3.)
v[1:, 1].assign([5., 6.])
v[2, 0].assign_add(1.)
out = v.numpy().tolist()
)");
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("out") == "[[3.0, 0.0], [0.0, 5.0], [1.0, 6.0]]");
}

TEST_CASE("a subclass's train_step(data) takes over fit, with no loss given to compile", "[tf][keras]") {
  TfRun r = runTf(R"(
import numpy as np
import tensorflow as tf
from tensorflow import keras
class Auto(keras.Model):
    def __init__(self):
        super().__init__()
        self.dense = keras.layers.Dense(2)
        self.tracker = keras.metrics.Mean(name="total")
        self.steps = 0
    @property
    def metrics(self):
        return [self.tracker]
    def train_step(self, data):
        with tf.GradientTape() as tape:
            out = self.dense(data)
            loss = tf.reduce_mean(tf.square(out - data))
        grads = tape.gradient(loss, self.trainable_weights)
        self.optimizer.apply_gradients(zip(grads, self.trainable_weights))
        self.tracker.update_state(loss)
        self.steps += 1
        return {"total": self.tracker.result()}
m = Auto()
m.compile(optimizer=keras.optimizers.SGD(0.1))
h = m.fit(np.ones((8, 2), np.float32), epochs=3, batch_size=4, verbose=0)
keys = sorted(h.history)
steps = m.steps
falling = h.history["total"][2] < h.history["total"][0]
e = Auto()
e.compile(optimizer=keras.optimizers.SGD(0.1), run_eagerly=True)
he = e.fit(np.ones((8, 2), np.float32), epochs=3, batch_size=4, verbose=0)
eager_steps = e.steps
)");
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("keys") == "['total']");
  // As in Keras, fit runs train_step as a tf.function: its Python runs when traced (once), its
  // ops at every step; run_eagerly=True runs the Python at every step.
  CHECK(r.repr("steps") == "1");
  CHECK(r.repr("eager_steps") == "6");
  CHECK(r.repr("falling") == "True");
}

TEST_CASE("a functional model with two inputs and two outputs trains on lists and on dicts keyed by names", "[tf][keras]") {
  TfRun r = runTf(R"(
import numpy as np
from tensorflow import keras
from tensorflow.keras import layers
a = keras.Input(shape=(8,), name="a")
b = keras.Input(shape=(4,), name="b")
f = layers.Dense(16, activation="relu")(layers.Concatenate()([a, b]))
p = layers.Dense(1, activation="sigmoid", name="priority")(f)
d = layers.Dense(3, activation="softmax", name="department")(f)
model = keras.Model(inputs=[a, b], outputs=[p, d])
xa = np.random.random((64, 8)); xb = np.random.random((64, 4))
yp = np.random.random((64, 1)); yd = keras.utils.to_categorical(np.random.randint(0, 3, 64), 3)
model.compile(optimizer="rmsprop", loss=["mse", "categorical_crossentropy"], metrics=[["mae"], ["accuracy"]],
              loss_weights=[1.0, 0.5])
h = model.fit([xa, xb], [yp, yd], epochs=2, batch_size=16, verbose=0)
keys = list(h.history.keys())
ev = model.evaluate([xa, xb], [yp, yd], verbose=0)
weighted = abs(ev[0] - (ev[1] + 0.5 * ev[2])) < 1e-4
pp, dd = model.predict([xa, xb], verbose=0)
model.compile(optimizer="rmsprop", loss={"priority": "mse", "department": "categorical_crossentropy"},
              metrics={"department": ["accuracy"]})
h2 = model.fit({"b": xb, "a": xa}, {"department": yd, "priority": yp}, epochs=1, validation_split=0.25, verbose=0)
keys2 = list(h2.history.keys())
q = len(model.predict({"b": xb, "a": xa}, verbose=0))
try:
    model.compile(optimizer="rmsprop", loss={"priority": "mse", "dept": "mse"})
    model.fit([xa, xb], [yp, yd], verbose=0)
    err = None
except ValueError as e:
    err = str(e)
)");
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("keys") ==
        "['loss', 'priority_loss', 'department_loss', 'priority_mae', 'department_accuracy']");
  CHECK(r.repr("weighted") == "True");
  CHECK(r.type("pp") == "float32[64, 1]");
  CHECK(r.type("dd") == "float32[64, 3]");
  CHECK(r.repr("keys2") == "['loss', 'priority_loss', 'department_loss', 'department_accuracy', 'val_loss', "
                            "'val_priority_loss', 'val_department_loss', 'val_department_accuracy']");
  CHECK(r.repr("q") == "2");
  CHECK(r.repr("err").find("Found unexpected loss that do not correspond to any Model output: ['priority', "
                           "'dept']") != std::string::npos);
}

TEST_CASE("a subclassed model takes a dict of integer inputs and returns two outputs to fit", "[tf][keras]") {
  TfRun r = runTf(R"(
import numpy as np
from tensorflow import keras
from tensorflow.keras import layers
class M(keras.Model):
    def __init__(self):
        super().__init__()
        self.c = layers.Concatenate()
        self.mix = layers.Dense(8, activation="relu")
        self.d1 = layers.Dense(1, activation="sigmoid")
        self.d2 = layers.Dense(3, activation="softmax")
    def call(self, inputs):
        f = self.mix(self.c([inputs["a"], inputs["b"]]))
        return self.d1(f), self.d2(f)
m = M()
x = {"a": np.random.randint(0, 2, size=(32, 5)), "b": np.random.randint(0, 2, size=(32, 2))}
p, d = m(x)
m.compile(optimizer="rmsprop", loss=["mse", "categorical_crossentropy"], metrics=[["mae"], ["accuracy"]])
h = m.fit(x, [np.random.random((32, 1)), np.eye(3)[np.random.randint(0, 3, 32)]], epochs=1, verbose=0)
keys = list(h.history.keys())
pp, dd = m.predict(x, verbose=0)
)");
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.type("p") == "float32[32, 1]");
  CHECK(r.repr("keys") == "['loss', 'output_1_loss', 'output_2_loss', 'output_1_mae', 'output_2_accuracy']");
  CHECK(r.type("dd") == "float32[32, 3]");
}

TEST_CASE("a frozen discriminator still trains through the model compiled before it was frozen", "[tf][keras]") {
  TfRun r = runTf(R"(
import numpy as np
from tensorflow import keras
from tensorflow.keras import layers
gi = keras.Input(shape=(4,))
g = keras.Model(gi, layers.Dense(3)(gi))
di = keras.Input(shape=(3,))
d = keras.Model(di, layers.Dense(1, activation="sigmoid")(di))
d.compile(optimizer="rmsprop", loss="binary_crossentropy")
d.trainable = False
z = keras.Input(shape=(4,))
gan = keras.Model(z, d(g(z)))
gan.compile(optimizer="rmsprop", loss="binary_crossentropy")
counts = (len(gan.trainable_weights), len(d.trainable_weights))
dw = d.get_weights()[0].copy(); gw = g.get_weights()[0].copy()
d.train_on_batch(np.random.random((8, 3)), np.ones((8, 1)))
d_trained = not np.allclose(dw, d.get_weights()[0])
dw = d.get_weights()[0].copy()
gan.train_on_batch(np.random.random((8, 4)), np.ones((8, 1)))
d_frozen = np.allclose(dw, d.get_weights()[0])
g_trained = not np.allclose(gw, g.get_weights()[0])
still_frozen = len(d.trainable_weights)
)");
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("counts") == "(2, 0)");
  CHECK(r.repr("d_trained") == "True");
  CHECK(r.repr("d_frozen") == "True");
  CHECK(r.repr("g_trained") == "True");
  CHECK(r.repr("still_frozen") == "0");
}

TEST_CASE("a user's Metric subclass with add_weight is stateful in fit and evaluate", "[tf][keras]") {
  TfRun r = runTf(R"(
import numpy as np
import tensorflow as tf
from tensorflow import keras
class Count(keras.metrics.Metric):
    def __init__(self, name="seen", **kwargs):
        super().__init__(name=name, **kwargs)
        self.n = self.add_weight(name="n", initializer="zeros", dtype="int32")
    def update_state(self, y_true, y_pred, sample_weight=None):
        self.n.assign_add(tf.shape(y_pred)[0])
    def result(self):
        return tf.cast(self.n, tf.float32)
    def reset_state(self):
        self.n.assign(0)
m = keras.Sequential([keras.layers.Dense(1, input_shape=(2,))])
m.compile(optimizer="sgd", loss="mse", metrics=[Count()])
h = m.fit(np.ones((10, 2)), np.ones((10, 1)), batch_size=4, epochs=2, verbose=0)
seen = h.history["seen"]
ev = m.evaluate(np.ones((6, 2)), np.ones((6, 1)), verbose=0)[1]
)");
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("seen") == "[10.0, 10.0]");
  CHECK(r.repr("ev") == "6.0");
}

TEST_CASE("fit, evaluate and train_on_batch run their steps traced, with the values of run_eagerly=True", "[tf][keras][function]") {
  const char* body = R"(
import numpy as np
import tensorflow as tf
from tensorflow import keras
np.random.seed(0)
tf.random.set_seed(0)
x = np.random.rand(100, 5).astype(np.float32)
y = np.random.randint(0, 3, 100)
inputs = keras.Input(shape=(5,))
h = keras.layers.Dense(8, activation="relu")(inputs)
h = keras.layers.Dropout(0.5)(h)
model = keras.Model(inputs, keras.layers.Dense(3, activation="softmax")(h))
model.compile(optimizer="adam", loss="sparse_categorical_crossentropy", metrics=["accuracy"], run_eagerly=EAGER)
hist = model.fit(x, y, epochs=3, batch_size=32, validation_split=0.2, verbose=0).history
values = ([round(v, 5) for v in hist["loss"]], [round(v, 5) for v in hist["val_loss"]], hist["accuracy"],
          round(model.evaluate(x, y, verbose=0)[0], 5), round(float(model.train_on_batch(x[:10], y[:10])[0]), 5))
traces = repr(model._train_function)
)";
  auto run = [&](const char* eager) {
    std::string src = body;
    src.replace(src.find("EAGER"), 5, eager);
    return runTf(src, Mode::Concrete, ApiStyle::Eager);
  };
  TfRun traced = run("False");
  INFO(traced.err);
  REQUIRE(traced.status == 0);
  TfRun eager = run("True");
  INFO(eager.err);
  REQUIRE(eager.status == 0);
  CHECK(traced.repr("values") == eager.repr("values"));
  // Batches of 32 and the last one of 16, and train_on_batch's 10: one trace per signature.
  CHECK(traced.repr("traces") == "'<tensorflow.python.eager.def_function.Function object (3 traces)>'");
  CHECK(eager.repr("traces") == "'None'");
}

TEST_CASE("fit, evaluate and predict make a 1-D input a column, as Keras 2 did", "[tf][keras]") {
  const char* src = R"(import numpy as np
from tensorflow import keras
model = keras.Sequential([keras.layers.Dense(units=1, input_shape=[1])])
model.compile(optimizer="sgd", loss="mean_squared_error")
xs = np.array([-1.0, 0.0, 1.0, 2.0, 3.0, 4.0], dtype=float)
ys = np.array([-3.0, -1.0, 1.0, 3.0, 5.0, 7.0], dtype=float)
model.fit(xs, ys, epochs=200, verbose=0)
loss = model.evaluate(xs, ys, verbose=0)
pred = model.predict([10.0], verbose=0)
)";
  TfRun r = runTf(src, Mode::Concrete, ApiStyle::Eager);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.type("pred") == "float32[1, 1]");
  // y = 2x - 1, learnt: 19 at x = 10.
  TfRun check = runTf(std::string(src) + "near = bool(abs(pred[0][0] - 19.0) < 0.5)\n", Mode::Concrete, ApiStyle::Eager);
  CHECK(check.repr("near") == "True");
  TfRun a = runTf(src, Mode::Abstract, ApiStyle::Eager);
  CHECK(a.diagnostics() == "");
  CHECK(a.type("pred") == "float32[1, 1]");
}

TEST_CASE("sparse_categorical_crossentropy normalises probabilities that do not sum to 1, as Keras does", "[tf][keras]") {
  // A sigmoid output layer under a sparse cross-entropy: Keras takes log(p) as logits, so the loss
  // is -log(p_true) + log(sum(p)), and the same as categorical_crossentropy on one-hot labels.
  TfRun r = runTf(R"(import numpy as np
import tensorflow as tf
p = tf.constant([[0.9, 0.9, 0.2]])
sparse = float(tf.keras.losses.sparse_categorical_crossentropy([0], p)[0])
dense = float(tf.keras.losses.categorical_crossentropy([[1.0, 0.0, 0.0]], p)[0])
expected = -np.log(0.9) + np.log(2.0)
close = (abs(sparse - expected) < 1e-5, abs(dense - expected) < 1e-5)
)", Mode::Concrete, ApiStyle::Eager);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("close") == "(True, True)");
}

TEST_CASE("Model.build(input_shape) calls a subclassed model on that batch size, and a known TensorShape converts to a tensor", "[tf][keras]") {
  const char* src = R"(import tensorflow as tf
class VAE(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.enc = tf.keras.layers.Dense(20)
    def call(self, x):
        h = self.enc(x)
        return h + tf.random.normal(h.shape)
m = VAE()
m.build(input_shape=(4, 784))
n = len(m.trainable_variables)
y = m(tf.ones([4, 784]))
z = tf.zeros(tf.TensorShape([2, 3]))
try:
    tf.random.normal(tf.TensorShape([None, 20]))
except ValueError as e:
    err = str(e)
)";
  TfRun r = runTf(src, Mode::Concrete);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("n") == "2");
  CHECK(r.type("y") == "float32[4, 20]");
  CHECK(r.type("z") == "float32[2, 3]");
  CHECK(r.repr("err") == "'Cannot convert a partially known TensorShape (None, 20) to a Tensor.'");
  TfRun a = runTf(src, Mode::Abstract);
  CHECK(a.diagnostics() == "");
  CHECK(a.type("y") == "float32[4, 20]");
}

TEST_CASE("a user's keras.layers.Wrapper holds its layer's weights, and a subclassed model may set inputs", "[tf][keras]") {
  const char* src = R"(import tensorflow as tf
from tensorflow import keras
class Twice(keras.layers.Wrapper):
    def __init__(self, layer, **kwargs):
        super(Twice, self).__init__(layer, **kwargs)
    def call(self, x):
        return self.layer(self.layer(x))
t = Twice(keras.layers.Dense(4))
out = t(tf.ones([2, 4]))
n = len(t.trainable_weights)
class MLP(keras.Model):
    def __init__(self, feats):
        super(MLP, self).__init__()
        self.inputs = feats
m = MLP(tf.ones([3, 2]))
ins = m.inputs
)";
  TfRun r = runTf(src, Mode::Concrete);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.type("out") == "float32[2, 4]");
  CHECK(r.repr("n") == "2");
  CHECK(r.type("ins") == "float32[3, 2]");
  TfRun a = runTf(src, Mode::Abstract);
  CHECK(a.diagnostics() == "");
  CHECK(a.type("out") == "float32[2, 4]");
}

TEST_CASE("unpacking an array in abstract mode takes its known rows, or as many rows as targets", "[tf]") {
  TfRun a = runTf(R"(import numpy as np
import tensorflow as tf
rewards, dones, values = np.empty((3, 32))
def rows(n):
    x, y = tf.zeros([n, 5])
    return x
first = rows(None)
)", Mode::Abstract);
  CHECK(a.diagnostics() == "");
  CHECK(a.type("rewards") == "float64[32]");
  CHECK(a.type("values") == "float64[32]");
}

TEST_CASE("custom train_step and test_step use compiled_loss, compiled_metrics and metrics as in Keras", "[tf][keras]") {
  const char* src = R"(import numpy as np
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers
class CustomModel(keras.Model):
    def train_step(self, data):
        x, y = data
        with tf.GradientTape() as tape:
            y_pred = self(x, training=True)
            loss = self.compiled_loss(y, y_pred, regularization_losses=self.losses)
        grads = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
        self.compiled_metrics.update_state(y, y_pred)
        return {m.name: m.result() for m in self.metrics}
    def test_step(self, data):
        x, y = data
        y_pred = self(x, training=False)
        self.compiled_loss(y, y_pred, regularization_losses=self.losses)
        self.compiled_metrics.update_state(y, y_pred)
        return {m.name: m.result() for m in self.metrics}
inputs = keras.Input(shape=(4,))
outputs = layers.Dense(3, activation="softmax")(layers.Dense(8, activation="relu")(inputs))
model = CustomModel(inputs, outputs)
model.compile(optimizer="adam", loss="sparse_categorical_crossentropy", metrics=["accuracy"])
X = np.random.RandomState(0).rand(64, 4).astype("float32")
Y = (X[:, 0] > 0.5).astype("int32") + (X[:, 1] > 0.5).astype("int32")
h = model.fit(X, Y, epochs=5, batch_size=16, validation_data=(X, Y), verbose=0)
keys = sorted(h.history.keys())
losses = h.history["loss"]
ev = model.evaluate(X, Y, verbose=0, return_dict=True)
names = model.metrics_names
class Tracker(keras.Model):
    def __init__(self):
        super().__init__()
        self.d = layers.Dense(1)
        self.loss_tracker = keras.metrics.Mean(name="my_loss")
    def call(self, x):
        return self.d(x)
    @property
    def metrics(self):
        return [self.loss_tracker]
    def train_step(self, data):
        x, y = data
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(self(x) - y))
        g = tape.gradient(loss, self.trainable_weights)
        self.optimizer.apply_gradients(zip(g, self.trainable_weights))
        self.loss_tracker.update_state(loss)
        return {"my_loss": self.loss_tracker.result()}
    def test_step(self, data):
        x, y = data
        self.loss_tracker.update_state(tf.reduce_mean(tf.square(self(x) - y)))
        return {"my_loss": self.loss_tracker.result()}
t = Tracker()
t.compile(optimizer="sgd")
h2 = t.fit(X, X[:, :1], epochs=3, verbose=0)
tracked = h2.history["my_loss"]
e2 = t.evaluate(X, X[:, :1], verbose=0)
)";
  TfRun r = runTf(src);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("keys") == "['accuracy', 'loss', 'val_accuracy', 'val_loss']");
  auto losses = r.interp->toList(r.interp->mainModule()->get("losses"));
  CHECK(*interp::asDouble(losses.back()) < *interp::asDouble(losses.front()));
  CHECK(r.repr("names") == "['loss', 'accuracy']");
  CHECK(r.repr("ev").find("'accuracy': ") != std::string::npos);
  auto tracked = r.interp->toList(r.interp->mainModule()->get("tracked"));
  REQUIRE(tracked.size() == 3);
  CHECK(*interp::asDouble(tracked.back()) < *interp::asDouble(tracked.front()));
  CHECK(interp::asDouble(r.interp->mainModule()->get("e2")).has_value());
  TfRun a = runTf(src, Mode::Abstract);
  INFO(a.diagnostics());
  CHECK(errors(a).empty());
}

TEST_CASE("callbacks get Keras' logs dicts, and on_batch_end overrides see every batch", "[tf][keras]") {
  TfRun r = runTf(R"(import numpy as np
from tensorflow import keras
class LossHistory(keras.callbacks.Callback):
    def on_train_begin(self, logs):
        self.per_batch_losses = []
        self.began = logs
    def on_batch_end(self, batch, logs):
        self.per_batch_losses.append(logs.get("loss"))
    def on_epoch_begin(self, epoch, logs):
        self.epoch_logs = logs
    def on_train_end(self, logs):
        self.ended = sorted(logs.keys())
m = keras.Sequential([keras.layers.Dense(1, input_shape=(2,))])
m.compile("sgd", "mse")
h = LossHistory()
m.fit(np.ones((8, 2)), np.ones((8, 1)), batch_size=2, epochs=2, verbose=0, callbacks=[h])
n = len(h.per_batch_losses)
began = h.began
ended = h.ended
)");
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("n") == "8");
  CHECK(r.repr("began") == "{}");
  CHECK(r.repr("ended") == "['loss']");
}

TEST_CASE("metrics update from Python lists as from tensors", "[tf][keras]") {
  TfRun r = runTf(R"(from tensorflow import keras
metric = keras.metrics.SparseCategoricalAccuracy()
metric.update_state([0, 1, 2], [[1, 0, 0], [0, 1, 0], [0, 0, 1]])
acc = float(metric.result())
mean = keras.metrics.Mean()
for v in [1.0, 3.0, 5.0]:
    mean.update_state(v)
avg = float(mean.result())
)");
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("acc") == "1.0");
  CHECK(r.repr("avg") == "3.0");
}

TEST_CASE("a custom layer's initializer, regularizer and constraint arguments get and serialize as in Keras, and a real constraint is kept", "[tf][keras]") {
  const char* src = R"(import tensorflow as tf
from tensorflow import keras
class LN(keras.layers.Layer):
    def __init__(self, gamma_initializer='ones', gamma_regularizer=None, gamma_constraint=None, **kwargs):
        super().__init__(**kwargs)
        self.gamma_initializer = keras.initializers.get(gamma_initializer)
        self.gamma_regularizer = keras.regularizers.get(gamma_regularizer)
        self.gamma_constraint = keras.constraints.get(gamma_constraint)
    def build(self, input_shape):
        self.gamma = self.add_weight(shape=input_shape[-1:], initializer=self.gamma_initializer,
                                     regularizer=self.gamma_regularizer, constraint=self.gamma_constraint, name='gamma')
        super().build(input_shape)
    def call(self, x):
        return x * self.gamma
    def get_config(self):
        return {'gamma_initializer': keras.initializers.serialize(self.gamma_initializer),
                'gamma_regularizer': keras.regularizers.serialize(self.gamma_regularizer),
                'gamma_constraint': keras.constraints.serialize(self.gamma_constraint)}
l = LN()
y = l(tf.ones([2, 3]))
config = l.get_config()
reg = keras.regularizers.serialize(keras.regularizers.l2(0.5))
back = keras.initializers.deserialize({'class_name': 'Constant', 'config': {'value': 2.0}})(shape=[2]).numpy().tolist()
kept = type(keras.layers.Dense(3, kernel_constraint=keras.constraints.max_norm(2.)).kernel_constraint).__name__
)";
  TfRun r = runTf(src, Mode::Concrete);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.type("y") == "float32[2, 3]");
  CHECK(r.repr("config") == "{'gamma_initializer': {'class_name': 'Ones', 'config': {}}, 'gamma_regularizer': None, 'gamma_constraint': None}");
  CHECK(r.repr("reg") == "{'class_name': 'L1L2', 'config': {'l1': 0.0, 'l2': 0.5}}");
  CHECK(r.repr("back") == "[2.0, 2.0]");
  CHECK(r.repr("kept") == "'MaxNorm'");
  TfRun a = runTf(src, Mode::Abstract);
  CHECK(a.errorCount() == 0);
  CHECK(a.type("y") == "float32[2, 3]");
}

TEST_CASE("Keras 2 names old programs still call: predict_classes, image_dim_ordering, lowercase optimizers", "[tf][keras]") {
  // hunkim/DeepLearningZeroToAll's keras labs (written for Keras 2.0).
  const char* src = R"(import numpy as np
from keras.models import Sequential
from keras.layers import Dense
from keras import optimizers
from keras import backend as K
sig = Sequential([Dense(1, input_dim=2, activation='sigmoid', kernel_initializer='zeros', bias_initializer='ones')])
soft = Sequential([Dense(3, input_dim=2, activation='softmax', kernel_initializer='ones')])
opt = optimizers.rmsprop(lr=0.001)
sig.compile(loss='binary_crossentropy', optimizer=opt)
x = np.array([[1.0, 2.0], [3.0, -4.0]])
c1 = sig.predict_classes(x)
c2 = soft.predict_classes(x)
p = soft.predict_proba(x)
order = K.image_dim_ordering()
opt_class = type(opt).__name__
)";
  TfRun r = runTf(src);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("c1") == "array([[1],\n       [1]], dtype=int32)");  // sigmoid(1) > 0.5
  CHECK(r.repr("c2") == "array([0, 0])");  // three equal scores: the first
  CHECK(r.type("p") == "float32[2, 3]");
  CHECK(r.repr("order") == "'tf'");
  CHECK(r.repr("opt_class") == "'RMSprop'");
  TfRun a = runTf(src, Mode::Abstract);
  CHECK(a.diagnostics() == "");
  CHECK(a.type("c1") == "int32[2, 1]");
  CHECK(a.type("c2") == "int64[2]");
}

TEST_CASE("element-wise losses: tf.keras broadcasts targets against outputs as TF 2 does, standalone Keras checks them", "[tf][keras]") {
  // TF 2's tf.keras: targets of rank 1 get an axis, a trailing 1 on the side with one more axis
  // is squeezed, then mse's SquaredDifference broadcasts; binary cross-entropy on a sigmoid's
  // output takes the logits, which must have the targets' shape.
  const char* src = R"(import numpy as np
import tensorflow as tf
x = np.random.rand(64, 8).astype("float32")
seq = np.random.rand(64, 10, 4).astype("float32")
m1 = tf.keras.Sequential([tf.keras.layers.Dense(2, input_shape=(8,))])
m1.compile(optimizer="sgd", loss="mse")
m1.fit(x, np.random.rand(64, 1), epochs=1, verbose=0)
m2 = tf.keras.Sequential([tf.keras.layers.LSTM(4, return_sequences=True, input_shape=(10, 4)), tf.keras.layers.Dense(1)])
m2.compile(optimizer="sgd", loss="mse")
m2.fit(seq, np.random.rand(64, 1), epochs=1, verbose=0)
print("broadcast ok")
m3 = tf.keras.Sequential([tf.keras.layers.Dense(2, activation="sigmoid", input_shape=(8,))])
m3.compile(optimizer="sgd", loss="binary_crossentropy")
try:
    m3.fit(x, np.random.randint(0, 2, (64,)), epochs=1, verbose=0)
except ValueError as e:
    bce = str(e)
m1.fit(x, np.random.rand(64, 3), epochs=1, verbose=0)
)";
  TfRun c = runTf(src);
  CHECK(c.status == 1);
  CHECK(c.out.find("broadcast ok") != std::string::npos);
  CHECK(c.repr("bce") == "'`logits` and `labels` must have the same shape, received ((None, 2) vs (None, 1)).'");
  CHECK(c.err.find("ValueError: Dimensions must be equal, but are 2 and 3 for 'mean_squared_error/SquaredDifference' (op: 'SquaredDifference') with input shapes: [?,2], [?,3].") != std::string::npos);
  CHECK(c.err.find("line 18") != std::string::npos);
  auto e = errors(runTf(src, Mode::Abstract));
  REQUIRE(e.size() == 1);
  CHECK(e[0].first == 18);

  // Standalone Keras 2.x checked targets before training ("Error when checking target").
  const char* standalone = R"(import numpy as np
from keras.models import Sequential
from keras.layers import Dense
model = Sequential([Dense(2, input_shape=(8,))])
model.compile(optimizer="sgd", loss="mse")
model.fit(np.random.rand(64, 8), np.random.rand(64, 1), epochs=1, verbose=0)
)";
  TfRun s = runTf(standalone);
  CHECK(s.status == 1);
  CHECK(s.err.find("ValueError: Shapes (None, 1) and (None, 2) are incompatible") != std::string::npos);
  auto es = errors(runTf(standalone, Mode::Abstract));
  REQUIRE(es.size() == 1);
  CHECK(es[0].first == 6);
}

TEST_CASE("a model built on data the analysis did not read trains without errors in the analysis, and tf.cast(x, None) is TensorFlow's TypeError", "[tf][keras]") {
  // np.load of a file: shapes and dtype unknown; Keras casts the targets to the outputs' dtype.
  const char* src = R"(import numpy as np
from keras.models import Model
from keras.layers import Dense, Input, Flatten, Conv2D
data = np.load("apple.npy")
data = np.reshape(data, (data.shape[0], 28, 28, 1))
img_w, img_h = data.shape[1:3]
inputs = Input((img_w, img_h, 1))
h = Flatten()(Conv2D(4, 5, strides=2, padding="same")(inputs))
d = Model(inputs, Dense(1, activation="sigmoid")(h))
d.compile(loss="binary_crossentropy", optimizer="rmsprop", metrics=["accuracy"])
real = np.reshape(data[np.random.choice(data.shape[0], 8, replace=False)], (8, 28, 28, 1))
x = np.concatenate((real, np.zeros((8, 28, 28, 1))))
metrics = d.train_on_batch(x, np.ones([16, 1]))
)";
  TfRun a = runTf(src, Mode::Abstract);
  CHECK(a.diagnostics() == "");
  TfRun c = runTf(R"(import tensorflow as tf
try:
    tf.cast(tf.constant(1.0), None)
except TypeError as e:
    err = str(e)
)");
  CHECK(c.repr("err") == "'Cannot convert value None to a TensorFlow DType.'");
}
