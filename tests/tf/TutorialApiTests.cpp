// API that public TF2/Keras tutorials use as they are written (the tensorflow/examples courses,
// Keras 2.0-era notebooks): each case is a class of failure found on real programs, checked in
// concrete mode and, where the analysis could report something, in abstract mode too.
#include "TfTestSupport.h"

using namespace tlens;
using namespace tlens::tf;
using namespace tlens::tf::testing;
using interp::Mode;

TEST_CASE("tf.get_logger is the standard logger named tensorflow", "[tf][tutorials]") {
  TfRun r = runTf(R"(import logging
import tensorflow as tf
logger = tf.get_logger()
logger.setLevel(logging.ERROR)
name = logger.name
same = logger is logging.getLogger("tensorflow")
)");
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("name") == "'tensorflow'");
  CHECK(r.repr("same") == "True");
}

TEST_CASE("the Keras 2.0-2.5 module paths of layers import the same classes", "[tf][tutorials]") {
  TfRun r = runTf(R"(import keras
from keras.layers.core import Dense, Dropout, Flatten
from keras.layers.convolutional import Conv2D
from keras.layers.pooling import MaxPooling2D
from keras.layers.normalization import BatchNormalization
from keras.layers.embeddings import Embedding
from keras.layers.recurrent import LSTM
from keras.layers.wrappers import Bidirectional, TimeDistributed
from keras.layers.merge import concatenate
from keras.layers.advanced_activations import LeakyReLU
from keras.layers.noise import GaussianNoise
ok = Dense is keras.layers.Dense and Bidirectional is keras.layers.Bidirectional
)");
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("ok") == "True");
}

TEST_CASE("imdb.get_word_index covers every index load_data gives, most frequent word first", "[tf][tutorials]") {
  TfRun r = runTf(R"(from keras.datasets import imdb, reuters
wi = imdb.get_word_index()
(x, y), _ = imdb.load_data(num_words=5000)
index_word = {v + 3: k for k, v in wi.items()}
index_word[0] = "PAD"; index_word[1] = "START"; index_word[2] = "UNK"
text = " ".join(index_word[i] for i in x[0])
n, the, top = len(wi), wi["the"], max(wi.values())
nr = len(reuters.get_word_index())
)");
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("n") == "88584");
  CHECK(r.repr("top") == "88584");
  CHECK(r.repr("the") == "1");
  CHECK(r.repr("nr") == "30979");
}

TEST_CASE("tensorflow_datasets loads mnist-like sets offline with TFDS' splits, structure and info", "[tf][tutorials]") {
  const char* src = R"(import tensorflow as tf
import tensorflow_datasets as tfds
tfds.disable_progress_bar()
dataset, info = tfds.load("fashion_mnist", as_supervised=True, with_info=True)
train, test = dataset["train"], dataset["test"]
names = info.features["label"].names
n_train = info.splits["train"].num_examples
classes = info.features["label"].num_classes
spec = train.element_spec
a, b, c = tfds.load("mnist", split=["train[:80%]", "train[80%:90%]", "test[:1000]"])
first = next(iter(c))
dict_keys = sorted(first.keys())
img_shape = tuple(first["image"].shape)
label_dtype = first["label"].dtype.name
batched = tfds.load("mnist", split="test[:100]", batch_size=-1, as_supervised=True)
whole = tuple(batched[0].shape)
def normalize(images, labels):
    return tf.cast(images, tf.float32) / 255.0, labels
model = tf.keras.Sequential([tf.keras.layers.Flatten(input_shape=(28, 28, 1)), tf.keras.layers.Dense(10)])
model.compile(optimizer="adam", loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True), metrics=["accuracy"])
model.fit(tfds.load("mnist", split="train[:256]", as_supervised=True).map(normalize).batch(32), epochs=1, verbose=0)
)";
  TfRun r = runTf(src);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("names") == "['T-shirt/top', 'Trouser', 'Pullover', 'Dress', 'Coat', 'Sandal', 'Shirt', 'Sneaker', 'Bag', 'Ankle boot']");
  CHECK(r.repr("n_train") == "60000");
  CHECK(r.repr("classes") == "10");
  CHECK(r.repr("spec") == "(TensorSpec(shape=(28, 28, 1), dtype=tf.uint8, name=None), TensorSpec(shape=(), dtype=tf.int64, name=None))");
  CHECK(r.repr("dict_keys") == "['image', 'label']");
  CHECK(r.repr("img_shape") == "(28, 28, 1)");
  CHECK(r.repr("label_dtype") == "'int64'");
  CHECK(r.repr("whole") == "(100, 28, 28, 1)");

  // Split sizes: 80% of 60000, 10%, the first 1000 of the test set.
  TfRun s = runTf(R"(import tensorflow_datasets as tfds
b = tfds.builder("mnist")
x, y = b._split_arrays("train[80%:90%]")
n1 = x.shape[0]
x2, _ = b._split_arrays("train[:1000]+test[-10:]")
n2 = x2.shape[0]
)");
  INFO(s.err);
  REQUIRE(s.status == 0);
  CHECK(s.repr("n1") == "6000");
  CHECK(s.repr("n2") == "1010");

  // The analysis knows the element types without materialising anything.
  TfRun a = runTf(src, Mode::Abstract);
  INFO(a.diagnostics());
  CHECK(a.errorCount() == 0);
  CHECK(a.repr("spec") == "(TensorSpec(shape=(28, 28, 1), dtype=tf.uint8, name=None), TensorSpec(shape=(), dtype=tf.int64, name=None))");
}

TEST_CASE("tfds.load of a dataset it would download is a ConnectionError and an unknown name DatasetNotFoundError", "[tf][tutorials]") {
  TfRun r = runTf(R"(import tensorflow_datasets as tfds
try:
    tfds.load("cats_vs_dogs", with_info=True)
except ConnectionError as e:
    msg = str(e)
tfds.load("no_such_set")
)");
  CHECK(r.status == 1);
  CHECK(r.repr("msg").find("tfds.load('cats_vs_dogs') would download") != std::string::npos);
  CHECK(r.err.find("DatasetNotFoundError: Dataset no_such_set not found.") != std::string::npos);
  CHECK(r.err.find("line 6") != std::string::npos);
}

TEST_CASE("Conv1D with padding='causal' pads the time axis on the left and honours dilation_rate", "[tf][tutorials]") {
  const char* src = R"(import numpy as np
from tensorflow import keras
x = np.arange(10, dtype="float32").reshape(1, 10, 1)
layer = keras.layers.Conv1D(1, kernel_size=2, padding="causal", dilation_rate=2, use_bias=False, kernel_initializer="ones")
y = layer(x)
shape = tuple(y.shape)
ys = y.numpy().ravel().tolist() if hasattr(y, "numpy") else None
model = keras.models.Sequential([keras.layers.Conv1D(32, 5, padding="causal", input_shape=[None, 1]), keras.layers.Dense(1)])
out = model.output_shape
try:
    keras.layers.Conv2D(3, 2, padding="causal")
except ValueError as e:
    msg = str(e)
)";
  TfRun r = runTf(src);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("shape") == "(1, 10, 1)");
  // y[t] = x[t - 2] + x[t], zeros before the start.
  CHECK(r.repr("ys") == "[0.0, 1.0, 2.0, 4.0, 6.0, 8.0, 10.0, 12.0, 14.0, 16.0]");
  CHECK(r.repr("out") == "(None, None, 1)");
  CHECK(r.repr("msg") == "'Causal padding is only supported for `Conv1D` and `SeparableConv1D`.'");
  TfRun a = runTf(src, Mode::Abstract);
  CHECK(a.errorCount() == 0);
  CHECK(a.type("y") == "float32[1, 10, 1]");
}

TEST_CASE("iterating over Dataset.window in eager code gives each window as a dataset", "[tf][tutorials]") {
  TfRun r = runTf(R"(import tensorflow as tf
dataset = tf.data.Dataset.range(6).window(3, shift=1, drop_remainder=True)
rows = []
for window in dataset:
    rows.append([int(v.numpy()) for v in window])
kind = type(next(iter(dataset))).__name__
)");
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("rows") == "[[0, 1, 2], [1, 2, 3], [2, 3, 4], [3, 4, 5]]");
  CHECK(r.repr("kind") != "'EagerTensor'");
}

TEST_CASE("a Keras Input of int16 token ids feeds an Embedding", "[tf][tutorials]") {
  const char* src = R"(import numpy as np
from keras.layers import Input, Embedding, Flatten, Dense
from keras.models import Model
inp = Input(shape=(20,), dtype="int16", name="input")
out = Dense(1, activation="sigmoid")(Flatten()(Embedding(100, 8)(inp)))
model = Model(inp, out)
model.compile(loss="binary_crossentropy", optimizer="adam")
model.fit(np.ones((16, 20), dtype="int32"), np.zeros((16,)), epochs=1, verbose=0)
shape = model.output_shape
)";
  TfRun r = runTf(src);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("shape") == "(None, 1)");
  TfRun a = runTf(src, Mode::Abstract);
  CHECK(a.errorCount() == 0);
  CHECK(a.repr("shape") == "(None, 1)");
}

TEST_CASE("stateful RNNs carry their states across calls until Model.reset_states", "[tf][tutorials]") {
  const char* src = R"(import numpy as np
from tensorflow import keras
x = np.full((2, 3, 1), 0.01, dtype="float32")
m = keras.models.Sequential([keras.layers.SimpleRNN(4, stateful=True, batch_input_shape=[2, None, 1], kernel_initializer="ones", recurrent_initializer="orthogonal")])
a = m.predict(x, verbose=0)
b = m.predict(x, verbose=0)
m.reset_states()
c = m.predict(x, verbose=0)
carried = not np.allclose(a, b)
reset = np.allclose(a, c)
m2 = keras.models.Sequential([keras.layers.LSTM(4, stateful=True, return_sequences=True, batch_input_shape=[1, None, 1]), keras.layers.Dense(1)])
m2.compile(loss="mse", optimizer="sgd")
m2.fit(np.ones((4, 5, 1)), np.ones((4, 5, 1)), batch_size=1, epochs=2, verbose=0)
m2.reset_states()
n_weights = len(m2.weights)
try:
    keras.models.Sequential([keras.layers.SimpleRNN(4, stateful=True, input_shape=[None, 1])])
except ValueError as e:
    msg = str(e)
)";
  TfRun r = runTf(src);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("carried") == "True");
  CHECK(r.repr("reset") == "True");
  CHECK(r.repr("n_weights") == "5");  // the states are not weights
  CHECK(r.repr("msg").find("If a RNN is stateful, it needs to know its batch size") != std::string::npos);
  TfRun a = runTf(src, Mode::Abstract);
  INFO(a.diagnostics());
  CHECK(a.errorCount() == 0);
}

TEST_CASE("keras.applications VGG16/VGG19 have Keras' layers and parameter counts, and imagenet weights are a download", "[tf][tutorials]") {
  const char* src = R"(import tensorflow as tf
from keras.applications.vgg19 import VGG19
base = VGG19(include_top=False, weights=None, input_shape=(64, 64, 3))
shape, n19, first, n_layers = base.output_shape, base.count_params(), base.layers[1].name, len(base.layers)
top = tf.keras.applications.VGG16(weights=None, input_shape=(32, 32, 3), include_top=False, pooling="avg")
pooled = top.output_shape
vgg19 = VGG19(include_top=False, weights="imagenet", input_shape=(224, 224, 3))
)";
  TfRun r = runTf(src);
  CHECK(r.status == 1);
  CHECK(r.repr("shape") == "(None, 2, 2, 512)");
  CHECK(r.repr("n19") == "20024384");
  CHECK(r.repr("first") == "'block1_conv1'");
  CHECK(r.repr("n_layers") == "22");
  CHECK(r.repr("pooled") == "(None, 512)");
  CHECK(r.err.find("URL fetch failure on https://storage.googleapis.com/tensorflow/keras-applications/vgg19/vgg19_weights_tf_dim_ordering_tf_kernels_notop.h5") != std::string::npos);
  CHECK(r.err.find("line 7") != std::string::npos);
  TfRun a = runTf(src, Mode::Abstract);
  INFO(a.diagnostics());
  CHECK(a.errorCount() == 0);
  CHECK(a.repr("shape") == "(None, 2, 2, 512)");
}
