// tf.data: pipelines iterated eagerly, and graph iterators whose get_next() tensors Session.run
// feeds (one-shot, initializable with a feed_dict, OutOfRangeError at the end); element specs
// known without data, in abstract mode too. Expected values follow TensorFlow's definitions.
#include "TfTestSupport.h"

using namespace tlens;
using namespace tlens::tf;
using namespace tlens::tf::testing;
using interp::Mode;

TEST_CASE("an eager dataset maps, filters and batches its slices", "[tf]") {
  TfRun r = runTf(R"(
import numpy as np
import tensorflow as tf
x = np.arange(10, dtype=np.float32).reshape(5, 2)
y = np.array([0, 1, 0, 1, 1])
ds = tf.data.Dataset.from_tensor_slices((x, y)).map(lambda a, b: (a * 2, b)).batch(2)
spec = str(ds.element_spec)
batches = [(a.numpy().tolist(), b.numpy().tolist()) for a, b in ds]
evens = [int(v) for v in tf.data.Dataset.range(5).filter(lambda v: v % 2 == 0)]
shuffled = sorted(float(v) for v in tf.data.Dataset.from_tensor_slices(np.arange(6.0)).shuffle(3, seed=1))
first = next(iter(tf.data.Dataset.from_tensor_slices(x).repeat().batch(4).prefetch(1))).shape
taken = [v.numpy().tolist() for v in tf.data.Dataset.from_tensor_slices([1, 2, 3, 4]).skip(1).take(2)]
dicts = [sorted(d.keys()) for d in tf.data.Dataset.from_tensor_slices({"a": x, "b": y}).take(1)]
)", Mode::Concrete, ApiStyle::Eager);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("spec") == "'(TensorSpec(shape=(None, 2), dtype=tf.float32, name=None), TensorSpec(shape=(None,), "
                          "dtype=tf.int64, name=None))'");
  CHECK(r.repr("batches") == "[([[0.0, 2.0], [4.0, 6.0]], [0, 1]), ([[8.0, 10.0], [12.0, 14.0]], [0, 1]), "
                             "([[16.0, 18.0]], [1])]");
  CHECK(r.repr("evens") == "[0, 2, 4]");
  CHECK(r.repr("shuffled") == "[0.0, 1.0, 2.0, 3.0, 4.0, 5.0]");
  CHECK(r.repr("first") == "TensorShape([4, 2])");
  CHECK(r.repr("taken") == "[2, 3]");
  CHECK(r.repr("dicts") == "[['a', 'b']]");
}

TEST_CASE("a one-shot iterator feeds its get_next tensors until OutOfRangeError", "[tf]") {
  TfRun r = runTf(R"(
import numpy as np
import tensorflow as tf
x = np.arange(10, dtype=np.float32).reshape(5, 2)
ds = tf.data.Dataset.from_tensor_slices(x).batch(2)
nxt = ds.make_one_shot_iterator().get_next()
total = tf.reduce_sum(nxt)
sums = []
with tf.Session() as sess:
    try:
        while True:
            sums.append(float(sess.run(total)))
    except tf.errors.OutOfRangeError:
        sums.append("end")
)", Mode::Concrete, ApiStyle::Graph);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("sums") == "[6.0, 22.0, 17.0, 'end']");
}

TEST_CASE("an initializable iterator restarts with the initializer's feed_dict", "[tf]") {
  TfRun r = runTf(R"(
import numpy as np
import tensorflow as tf
x = np.arange(10, dtype=np.float32).reshape(5, 2)
ph = tf.placeholder(tf.float32, [None, 2])
it = tf.compat.v1.data.make_initializable_iterator(tf.data.Dataset.from_tensor_slices(ph).batch(3))
s = tf.reduce_sum(it.get_next())
epochs = []
with tf.Session() as sess:
    try:
        sess.run(s)
    except tf.errors.FailedPreconditionError:
        epochs.append("not initialized")
    for epoch in range(2):
        sess.run(it.initializer, feed_dict={ph: x * (epoch + 1)})
        out = []
        try:
            while True:
                out.append(float(sess.run(s)))
        except tf.errors.OutOfRangeError:
            pass
        epochs.append(out)
)", Mode::Concrete, ApiStyle::Graph);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("epochs") == "['not initialized', [15.0, 30.0], [30.0, 60.0]]");
}

TEST_CASE("dataset elements have static types in abstract mode, without data", "[tf]") {
  TfRun graph = runTf(R"(
import numpy as np
import tensorflow as tf
x = np.zeros((60000, 784), dtype=np.float32)
y = np.zeros((60000,), dtype=np.int64)
ds = tf.data.Dataset.from_tensor_slices((x, y)).shuffle(1000).batch(128, drop_remainder=True)
images, labels = ds.make_one_shot_iterator().get_next()
)", Mode::Abstract, ApiStyle::Graph);
  CHECK(graph.diagnostics() == "");
  CHECK(graph.type("images") == "float32[128, 784]");
  CHECK(graph.type("labels") == "int64[128]");

  TfRun eager = runTf(R"(
import numpy as np
import tensorflow as tf
x = np.zeros((100, 28, 28), dtype=np.float32)
ds = tf.data.Dataset.from_tensor_slices(x).map(lambda im: tf.reshape(im, [784])).batch(32)
for batch in ds:
    seen = batch
)", Mode::Abstract, ApiStyle::Eager);
  CHECK(eager.diagnostics() == "");
  CHECK(eager.type("seen") == "float32[batch, 784]");
}

TEST_CASE("input_data.read_data_sets has MNIST's split and makes its examples only when used", "[tf]") {
  TfRun r = runTf(R"(
import numpy as np
from tensorflow.examples.tutorials.mnist import input_data
np.random.seed(3)
mnist = input_data.read_data_sets("MNIST_data/", one_hot=True)
sizes = (mnist.train.num_examples, mnist.validation.num_examples, mnist.test.num_examples)
made_at_load = mnist.train._distinct is not None
x0, y0 = mnist.train.next_batch(50)
made_at_batch = mnist.train._distinct is not None
full = mnist.train.images
x1, y1 = mnist.train.next_batch(50)
batches_are_rows = bool((x0 == full[0:50]).all() and (x1 == full[50:100]).all()
                        and (y1 == mnist.train.labels[50:100]).all())
shapes = (full.shape, mnist.train.labels.shape, mnist.validation.images.shape, mnist.test.labels.shape, str(full.dtype))
v = input_data.read_data_sets("MNIST_data/", one_hot=False).validation
for i in range(106):
    v.next_batch(47)
before = v.images
xs, ys = v.next_batch(47)
crossing = (v.epochs_completed, xs.shape, bool((xs[:18] == before[4982:]).all()), bool((xs[18:] == v.images[:29]).all()),
            str(ys.dtype))
)", Mode::Concrete, ApiStyle::Graph);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("sizes") == "(55000, 5000, 10000)");
  CHECK(r.repr("made_at_load") == "False");
  CHECK(r.repr("made_at_batch") == "True");
  CHECK(r.repr("batches_are_rows") == "True");
  CHECK(r.repr("shapes") == "((55000, 784), (55000, 10), (5000, 784), (10000, 10), 'float32')");
  CHECK(r.repr("crossing") == "(1, (47, 784), True, True, 'uint8')");
}

TEST_CASE("TFRecordDataset and TextLineDataset give each record or line as a scalar string", "[tf]") {
  std::string dir = freshTempDir("records");
  std::string src = "import tensorflow as tf\ndir = '" + dir + "'\n" + R"(
with tf.io.TFRecordWriter(dir + "/t.tfrecord") as w:
    for i in range(3):
        f = {"label": tf.train.Feature(int64_list=tf.train.Int64List(value=[i * 10]))}
        w.write(tf.train.Example(features=tf.train.Features(feature=f)).SerializeToString())
with open(dir + "/lines.txt", "w") as f:
    f.write("a,1\nb,2\nc,3\n")
def parse(r):
    return tf.io.parse_single_example(r, {"label": tf.io.FixedLenFeature([], tf.int64)})["label"]
records = tf.data.TFRecordDataset([dir + "/t.tfrecord"])
spec = str(records.element_spec)
labels = [int(v) for v in records.map(parse)]
lines = [l.numpy() for l in tf.data.TextLineDataset(dir + "/lines.txt")]
)";
  TfRun r = runTf(src, Mode::Concrete, ApiStyle::Eager);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("spec") == "'TensorSpec(shape=(), dtype=tf.string, name=None)'");
  CHECK(r.repr("labels") == "[0, 10, 20]");
  CHECK(r.repr("lines") == "[b'a,1', b'b,2', b'c,3']");
  TfRun a = runTf(src, Mode::Abstract, ApiStyle::Eager);
  CHECK(a.diagnostics() == "");
}

TEST_CASE("fit validates on a repeated dataset for validation_steps batches", "[tf][keras]") {
  const char* src = R"(import numpy as np
import tensorflow as tf
x = np.random.RandomState(0).rand(64, 4).astype(np.float32)
y = (x.sum(axis=1) > 2).astype(np.int64)
train = tf.data.Dataset.from_tensor_slices((x, y)).batch(16)
val = tf.data.Dataset.from_tensor_slices((x[:32], y[:32])).batch(8)
m = tf.keras.Sequential([tf.keras.layers.Dense(2, input_shape=(4,))])
m.compile("adam", tf.losses.SparseCategoricalCrossentropy(from_logits=True), metrics=["accuracy"])
h = m.fit(train.repeat(), epochs=2, steps_per_epoch=4, validation_data=val.repeat(), validation_steps=2, verbose=0)
keys = sorted(h.history.keys())
epochs = len(h.history["val_loss"])
)";
  TfRun r = runTf(src, Mode::Concrete);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("keys") == "['accuracy', 'loss', 'val_accuracy', 'val_loss']");
  CHECK(r.repr("epochs") == "2");
  TfRun a = runTf(src, Mode::Abstract);
  CHECK(a.diagnostics() == "");
}

TEST_CASE("next() on a dataset's iterator never ends in abstract mode, and a for loop's body runs once", "[tf]") {
  TfRun a = runTf(R"(import numpy as np
import tensorflow as tf
db = tf.data.Dataset.from_tensor_slices(np.zeros((100, 28, 28), np.float32)).shuffle(64).batch(32).repeat()
it = iter(db)
for epoch in range(3):
    x = next(it)
    y = tf.reshape(x, [-1, 28 * 28])
after = tf.reduce_sum(y)
files = tf.data.Dataset.list_files("train/*.jpg").repeat(3).batch(1)
it2 = iter(files)
for epoch in range(5):
    f1 = next(it2)
    f2 = next(it2)
n = 0
for b in tf.data.Dataset.from_tensor_slices(np.zeros((10, 3))).batch(4):
    n = n + 1
    seen = b
)", Mode::Abstract);
  CHECK(a.diagnostics() == "");
  CHECK(a.repr("f2") == "<unknown>");
  CHECK(a.type("seen") == "float64[batch, 3]");
  CHECK(a.repr("n") == "<unknown int>");
  CHECK(a.type("y") == "float32[batch, 784]");
  CHECK(a.type("after") == "float32[]");
}

TEST_CASE("input_data takes dtype=tf.uint8 and reshape=False, and its pixels have MNIST's statistics", "[tf]") {
  // caicloud/tensorflow-tutorial writes uint8 MNIST images to TFRecords (dtype=tf.uint8) and
  // reads them back as 784 bytes; its SGD MLP at learning rate 0.8 needs MNIST-like inputs.
  const char* src = R"(import numpy as np
import tensorflow as tf
from tensorflow.examples.tutorials.mnist import input_data
a = input_data.read_data_sets("MNIST_data", dtype=tf.uint8, one_hot=True)
b = input_data.read_data_sets("MNIST_data", reshape=False)
xb, yb = b.train.next_batch(5)
kinds = [str(a.train.images.dtype), a.train.images.shape, int(a.train.images.max()), b.train.images.shape, xb.shape]
x = input_data.read_data_sets("MNIST_data").train.images[:2000]
stats = [round(float(x.mean()), 2), round(float((x == 0).mean()), 1), float(x.max())]
)";
  TfRun r = runTf(src, Mode::Concrete, ApiStyle::Graph);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("kinds") == "['uint8', (55000, 784), 255, (55000, 28, 28, 1), (5, 28, 28, 1)]");
  CHECK(r.repr("stats") == "[0.13, 0.8, 1.0]");  // MNIST: mean 0.1307, 81% zeros
  TfRun abs = runTf(src, Mode::Abstract, ApiStyle::Graph);
  CHECK(abs.diagnostics() == "");
  CHECK(abs.type("xb") == "float32[5, 28, 28, 1]");
}

TEST_CASE("tf.contrib.learn.datasets reads MNIST as input_data does, and base reads TF1's CSV layout", "[tf]") {
  const std::string dir = freshTempDir("learn-datasets");
  TfRun r = runTf(R"(
import tensorflow as tf
from tensorflow.contrib.learn.python.learn.datasets.mnist import read_data_sets
m = read_data_sets("MNIST_data", one_hot=True)
split = (m.train.images.shape, m.validation.num_examples, m.test.labels.shape)
d = tf.contrib.learn.datasets.load_dataset("mnist")
labels = (d.train.labels.shape, d.train.labels.dtype.name)
try:
    tf.contrib.learn.datasets.load_dataset("cifar")
    unknown = None
except ValueError as e:
    unknown = str(e)
path = ")" + dir + R"(/iris.csv"
with open(path, "w") as f:
    f.write("3,2,setosa,versicolor\n1.0,2.0,0\n3.0,4.5,1\n5.0,6.0,1\n")
ds = tf.contrib.learn.datasets.base.load_csv_with_header(path, target_dtype=int, features_dtype=float)
csv = (ds.data.tolist(), ds.target.tolist(), ds.data.dtype.name)
)", Mode::Concrete, ApiStyle::Graph);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("split") == "((55000, 784), 5000, (10000, 10))");
  CHECK(r.repr("labels") == "((55000,), 'uint8')");
  CHECK(r.repr("unknown") == "'Name of dataset is not found: cifar'");
  CHECK(r.repr("csv") == "([[1.0, 2.0], [3.0, 4.5], [5.0, 6.0]], [0, 1, 1], 'float64')");
}
