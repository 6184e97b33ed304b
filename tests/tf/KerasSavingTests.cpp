// Model.save and keras.models.load_model (lang/tf/python/keras._saving.py): the architecture in
// Keras' config layout, the compile state and the weights round-trip for Sequential, functional
// and subclassed models in the .h5, .keras and SavedModel-directory spellings; files real Keras
// wrote are refused with the reason; abstract mode never touches files.
#include "TfTestSupport.h"

#include <fstream>

using namespace tlens;
using namespace tlens::tf;
using namespace tlens::tf::testing;
using interp::Mode;

TEST_CASE("a saved Sequential model loads with its weights and compile state in every spelling", "[tf][keras][saving]") {
  const std::string dir = freshTempDir("keras-save-seq");
  TfRun r = runTf("DIR = '" + dir + R"('
import numpy as np
from tensorflow import keras
from tensorflow.keras import layers
X = np.random.RandomState(1).rand(30, 4).astype("float32")
Y = np.arange(30) % 3
m = keras.Sequential([layers.Dense(8, activation="relu", input_shape=(4,), kernel_initializer=keras.initializers.HeNormal()),
                      layers.Dropout(0.1), layers.BatchNormalization(), layers.Dense(3, activation="softmax")])
m.compile(optimizer=keras.optimizers.Adam(0.01, beta_1=0.8), loss="sparse_categorical_crossentropy", metrics=["accuracy"])
m.fit(X, Y, epochs=2, verbose=0)
diffs, opts, keys = [], [], []
for name in ["m.h5", "m.keras", "saved_model"]:
    m.save(DIR + "/" + name)
    m2 = keras.models.load_model(DIR + "/" + name)
    diffs.append(float(np.abs(m2.predict(X, verbose=0) - m.predict(X, verbose=0)).max()))
    opts.append(m2.optimizer.get_config())
    keys.append(sorted(m2.fit(X, Y, epochs=1, verbose=0).history.keys()))
names = [l.name for l in m2.layers]
config = m.get_config()["layers"][1]
)");
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("diffs") == "[0.0, 0.0, 0.0]");
  CHECK(r.repr("opts").find("'learning_rate': 0.01, 'beta_1': 0.8, 'name': 'Adam'") != std::string::npos);
  CHECK(r.repr("keys") == "[['accuracy', 'loss'], ['accuracy', 'loss'], ['accuracy', 'loss']]");
  CHECK(r.repr("names") == "['dense', 'dropout', 'batch_normalization', 'dense_1']");
  CHECK(r.repr("config") ==
        "{'class_name': 'Dense', 'config': {'units': 8, 'activation': 'relu', 'input_shape': [4], 'kernel_initializer': "
        "{'class_name': 'HeNormal', 'config': {}}, 'name': 'dense', 'trainable': True, 'dtype': 'float32'}}");
  CHECK(std::filesystem::exists(dir + "/m.h5.index"));
  CHECK(std::filesystem::exists(dir + "/saved_model/keras_model.json"));
  CHECK(std::filesystem::exists(dir + "/saved_model/variables/variables.index"));
  std::ifstream doc(dir + "/m.keras");
  std::string head(40, '\0');
  doc.read(head.data(), 40);
  CHECK(head.rfind("{\"format\": \"tensorlens-keras-model\"", 0) == 0);
}

TEST_CASE("functional models with several inputs, outputs, a shared layer and custom objects round-trip", "[tf][keras][saving]") {
  const std::string dir = freshTempDir("keras-save-func");
  TfRun r = runTf("DIR = '" + dir + R"('
import numpy as np
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers
class Scale(layers.Layer):
    def __init__(self, factor, **kwargs):
        super().__init__(**kwargs)
        self.factor = factor
    def build(self, input_shape):
        self.w = self.add_weight("w", [input_shape[-1]], initializer="ones")
    def call(self, x):
        return x * self.w * self.factor
    def get_config(self):
        c = super().get_config()
        c["factor"] = self.factor
        return c
def my_loss(y_true, y_pred):
    return tf.reduce_mean(tf.square(y_true - y_pred), axis=-1)
a = keras.Input((4,), name="a")
b = keras.Input((4,), name="b")
shared = layers.Dense(5, activation="tanh", name="shared")
h = layers.concatenate([shared(a), shared(b)])
h = Scale(2.0, name="scale")(h)
reg = layers.Dense(1, name="reg")(h)
cls = layers.Dense(3, activation="softmax", name="cls")(h)
m = keras.Model([a, b], [reg, cls], name="two_heads")
m.compile(optimizer="rmsprop", loss=[my_loss, "sparse_categorical_crossentropy"], loss_weights=[0.5, 1.0],
          metrics={"cls": "accuracy"})
X = np.random.RandomState(2).rand(24, 4).astype("float32")
Y = np.arange(24) % 3
m.fit([X, X * 2], [X[:, :1], Y], epochs=1, verbose=0)
m.save(DIR + "/f.keras")
try:
    keras.models.load_model(DIR + "/f.keras")
except ValueError as e:
    missing = str(e)
m2 = keras.models.load_model(DIR + "/f.keras", custom_objects={"Scale": Scale, "my_loss": my_loss})
p1 = m.predict([X, X * 2], verbose=0)
p2 = m2.predict([X, X * 2], verbose=0)
same = [float(np.abs(u - v).max()) for u, v in zip(p1, p2)]
keys = sorted(m2.fit([X, X * 2], [X[:, :1], Y], epochs=1, verbose=0).history.keys())
factor = m2.get_layer("scale").factor
shared_calls = len(m2.get_layer("shared")._inbound_nodes)
inbound = m.get_config()["layers"][2]["inbound_nodes"]
from_json = keras.models.model_from_json(m.to_json(), custom_objects={"Scale": Scale})
json_outputs = len(from_json.outputs)
)");
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("missing").find("Unknown object 'Scale'") != std::string::npos);
  CHECK(r.repr("same") == "[0.0, 0.0]");
  CHECK(r.repr("keys") == "['cls_accuracy', 'cls_loss', 'loss', 'reg_loss']");
  CHECK(r.repr("factor") == "2.0");
  CHECK(r.repr("shared_calls") == "2");
  CHECK(r.repr("inbound") == "[[['a', 0, 0, {}]], [['b', 0, 0, {}]]]");
  CHECK(r.repr("json_outputs") == "2");
}

TEST_CASE("a subclassed model saves through get_config and loads through custom_objects", "[tf][keras][saving]") {
  const std::string dir = freshTempDir("keras-save-sub");
  TfRun r = runTf("DIR = '" + dir + R"('
import numpy as np
from tensorflow import keras
from tensorflow.keras import layers
class Net(keras.Model):
    def __init__(self, hidden, **kwargs):
        super().__init__(**kwargs)
        self.hidden = hidden
        self.d1 = layers.Dense(hidden, activation="relu")
        self.d2 = layers.Dense(2)
    def call(self, x):
        return self.d2(self.d1(x))
    def get_config(self):
        return {"hidden": self.hidden, "name": self.name}
class Plain(keras.Model):
    def __init__(self):
        super().__init__()
        self.d = layers.Dense(1)
    def call(self, x):
        return self.d(x)
X = np.random.RandomState(3).rand(10, 3).astype("float32")
n = Net(6)
n.compile(optimizer="sgd", loss="mse")
n.fit(X, X[:, :2], epochs=1, verbose=0)
n.save(DIR + "/net")
n2 = keras.models.load_model(DIR + "/net", custom_objects={"Net": Net})
diff = float(np.abs(n2.predict(X, verbose=0) - n.predict(X, verbose=0)).max())
hidden = n2.hidden
p = Plain()
p(X)
try:
    p.save(DIR + "/plain.h5")
except NotImplementedError as e:
    plain = str(e)
)");
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("diff") == "0.0");
  CHECK(r.repr("hidden") == "6");
  CHECK(r.repr("plain").find("must override `get_config()`") != std::string::npos);
}

TEST_CASE("load_model refuses files real Keras wrote, naming the format", "[tf][keras][saving]") {
  const std::string dir = freshTempDir("keras-load-foreign");
  {
    std::ofstream(dir + "/k.h5", std::ios::binary) << std::string("\x89HDF\r\n\x1a\n", 8) << "rest";
    std::ofstream(dir + "/k.keras", std::ios::binary) << std::string("PK\x03\x04", 4) << "zip";
    std::filesystem::create_directories(dir + "/sm");
    std::ofstream(dir + "/sm/saved_model.pb", std::ios::binary) << "pb";
    std::ofstream(dir + "/t.h5") << "not json";
  }
  TfRun r = runTf("DIR = '" + dir + R"('
from tensorflow import keras
errs = []
for name in ["k.h5", "k.keras", "sm", "t.h5", "missing.h5"]:
    try:
        keras.models.load_model(DIR + "/" + name)
        errs.append("loaded")
    except (ValueError, OSError) as e:
        errs.append(str(e))
)");
  INFO(r.err);
  REQUIRE(r.status == 0);
  std::string errs = r.repr("errs");
  CHECK(errs.find("it is an HDF5 file") != std::string::npos);
  CHECK(errs.find("it is a zip archive") != std::string::npos);
  CHECK(errs.find("SavedModel directory written by TensorFlow") != std::string::npos);
  CHECK(errs.find("not a model file (not JSON)") != std::string::npos);
  CHECK(errs.find("No file or directory found at") != std::string::npos);
  CHECK(errs.find("loaded") == std::string::npos);
}

TEST_CASE("abstract mode writes no model files and types load_model from the program's own save", "[tf][keras][saving]") {
  const std::string dir = freshTempDir("keras-save-abstract");
  const std::string src = "DIR = '" + dir + R"('
import numpy as np
from tensorflow import keras
from tensorflow.keras import layers
m = keras.Sequential([layers.Dense(4, activation="relu", input_shape=(3,)), layers.Dense(2)])
m.compile(optimizer="adam", loss="mse")
m.save(DIR + "/m.h5")
m2 = keras.models.load_model(DIR + "/m.h5")
p = m2.predict(np.zeros((5, 3)), verbose=0)
other = keras.models.load_model(DIR + "/elsewhere.keras")
q = other.predict(np.zeros((5, 3)))
other.fit(np.zeros((5, 3)), np.zeros((5, 2)))
)";
  TfRun a = runTf(src, Mode::Abstract);
  INFO(a.diagnostics());
  REQUIRE(a.status == 0);
  CHECK(a.errorCount() == 0);
  CHECK(a.type("p") == "float32[5, 2]");
  CHECK(std::filesystem::is_empty(dir));
}

TEST_CASE("recurrent, convolutional, nested and dict-input models round-trip, and lambdas and unbuilt models say why not", "[tf][keras][saving]") {
  const std::string dir = freshTempDir("keras-save-edge");
  TfRun r = runTf("DIR = '" + dir + R"('
import numpy as np
from tensorflow import keras
from tensorflow.keras import layers
out = {}
def rt(m, X, name, **kw):
    try:
        m.save(DIR + "/" + name)
        m2 = keras.models.load_model(DIR + "/" + name, **kw)
        out[name] = float(np.abs(m.predict(X, verbose=0) - m2.predict(X, verbose=0)).max())
    except ValueError as e:
        out[name] = str(e)
X = np.random.rand(4, 10).astype("float32")
rt(keras.Sequential([layers.Embedding(50, 8, input_length=10), layers.Bidirectional(layers.LSTM(4, return_sequences=True)),
                     layers.TimeDistributed(layers.Dense(3)), layers.GlobalMaxPooling1D(), layers.Dense(2)]),
   (X * 49).astype("int32"), "rnn.h5")
rt(keras.Sequential([keras.Input((8, 8, 1)), layers.Conv2D(4, 3, padding="same", activation="relu"), layers.MaxPooling2D(),
                     layers.Conv2DTranspose(2, 3, strides=2), layers.Flatten(), layers.Dropout(0.3),
                     layers.Dense(3, kernel_regularizer=keras.regularizers.l2(0.01))]), np.random.rand(4, 8, 8, 1), "cnn.keras")
inner = keras.Sequential([layers.Dense(5, activation="relu", input_shape=(10,)), layers.Dense(3)])
inp = keras.Input((10,))
rt(keras.Model(inp, layers.Activation("softmax")(inner(inp))), X, "nested.h5")
def double(t):
    return t * 2
rt(keras.Sequential([layers.Dense(3, input_shape=(10,)), layers.Lambda(double)]), X, "named.h5", custom_objects={"double": double})
rt(keras.Sequential([layers.Dense(3, input_shape=(10,)), layers.Lambda(lambda t: t * 2)]), X, "lambda.h5")
rt(keras.Sequential([layers.Dense(3)]), X, "unbuilt.h5")
a = keras.Input((10,), name="a")
b = keras.Input((10,), name="b")
m = keras.Model({"a": a, "b": b}, layers.add([layers.Dense(2)(a), layers.Dense(2)(b)]))
m.save(DIR + "/dict")
m2 = keras.models.load_model(DIR + "/dict")
out["dict"] = float(np.abs(m.predict({"a": X, "b": X}, verbose=0) - m2.predict({"a": X, "b": X}, verbose=0)).max())
)");
  INFO(r.err);
  REQUIRE(r.status == 0);
  std::string out = r.repr("out");
  INFO(out);
  for (const char* name : {"'rnn.h5': 0.0", "'cnn.keras': 0.0", "'nested.h5': 0.0", "'named.h5': 0.0", "'dict': 0.0"})
    CHECK(out.find(name) != std::string::npos);
  CHECK(out.find("wraps the Python function '<lambda>', which a model file cannot hold") != std::string::npos);
  CHECK(out.find("This model has not yet been built") != std::string::npos);
}
