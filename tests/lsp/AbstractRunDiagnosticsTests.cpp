// Shape errors a Session.run raises, found before the run (lang/tf/AbstractRun.h): annotated
// fixtures, each found case beside its corrected program, whose diagnostics must be exactly the
// annotated ones (none for the corrected programs).
#include "tests/lsp/LspTestSupport.h"

using namespace tlens::lsp;
using namespace tlens::lsp::test;

namespace {

struct Fixture {
  const char* name;
  const char* source;
};

const Fixture kFixtures[] = {
    {"a reshape after 'VALID' convolutions fails when the batch is fed", R"(import tensorflow as tf
from tensorflow.examples.tutorials.mnist import input_data
mnist = input_data.read_data_sets("MNIST_data/", one_hot=True)
x = tf.placeholder(tf.float32, [None, 784])
y_ = tf.placeholder(tf.float32, [None, 10])
x_image = tf.reshape(x, [-1, 28, 28, 1])
W1 = tf.Variable(tf.truncated_normal([5, 5, 1, 32], stddev=0.1))
h1 = tf.nn.relu(tf.nn.conv2d(x_image, W1, strides=[1, 1, 1, 1], padding='VALID'))
p1 = tf.nn.max_pool(h1, ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding='SAME')
W2 = tf.Variable(tf.truncated_normal([5, 5, 32, 64], stddev=0.1))
h2 = tf.nn.relu(tf.nn.conv2d(p1, W2, strides=[1, 1, 1, 1], padding='VALID'))
p2 = tf.nn.max_pool(h2, ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding='SAME')
flat = tf.reshape(p2, [-1, 7 * 7 * 64])
#      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error: Cannot reshape a tensor with 51200 elements to shape [-1, 3136]
W3 = tf.Variable(tf.truncated_normal([7 * 7 * 64, 10], stddev=0.1))
y = tf.matmul(flat, W3)
loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(labels=y_, logits=y))
train = tf.train.AdamOptimizer(1e-4).minimize(loss)
sess = tf.Session()
sess.run(tf.global_variables_initializer())
for i in range(1000):
    batch = mnist.train.next_batch(50)
    sess.run(train, feed_dict={x: batch[0], y_: batch[1]})
)"},
    {"the reshape sized for the 'VALID' convolutions runs", R"(import tensorflow as tf
from tensorflow.examples.tutorials.mnist import input_data
mnist = input_data.read_data_sets("MNIST_data/", one_hot=True)
x = tf.placeholder(tf.float32, [None, 784])
y_ = tf.placeholder(tf.float32, [None, 10])
x_image = tf.reshape(x, [-1, 28, 28, 1])
W1 = tf.Variable(tf.truncated_normal([5, 5, 1, 32], stddev=0.1))
h1 = tf.nn.relu(tf.nn.conv2d(x_image, W1, strides=[1, 1, 1, 1], padding='VALID'))
p1 = tf.nn.max_pool(h1, ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding='SAME')
W2 = tf.Variable(tf.truncated_normal([5, 5, 32, 64], stddev=0.1))
h2 = tf.nn.relu(tf.nn.conv2d(p1, W2, strides=[1, 1, 1, 1], padding='VALID'))
p2 = tf.nn.max_pool(h2, ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding='SAME')
flat = tf.reshape(p2, [-1, 4 * 4 * 64])
W3 = tf.Variable(tf.truncated_normal([4 * 4 * 64, 10], stddev=0.1))
y = tf.matmul(flat, W3)
loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(labels=y_, logits=y))
train = tf.train.AdamOptimizer(1e-4).minimize(loss)
sess = tf.Session()
sess.run(tf.global_variables_initializer())
for i in range(1000):
    batch = mnist.train.next_batch(50)
    sess.run(train, feed_dict={x: batch[0], y_: batch[1]})
)"},
    {"the first batch of a long range of batches is checked", R"(import numpy as np
import tensorflow as tf
X = np.zeros((1000, 784), dtype=np.float32)
x = tf.placeholder(tf.float32, [None, 784])
h = tf.reshape(x, [-1, 28, 28, 1])
p = tf.nn.max_pool(h, ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding='VALID')
flat = tf.reshape(p, [-1, 13 * 13])
#      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error: Cannot reshape a tensor with 9800 elements to shape [-1, 169]
loss = tf.reduce_mean(flat)
sess = tf.Session()
for epoch in range(100):
    for i in range(0, len(X), 50):
        sess.run(loss, feed_dict={x: X[i:i + 50]})
)"},
    {"a long range of batches of the right size runs", R"(import numpy as np
import tensorflow as tf
X = np.zeros((1000, 784), dtype=np.float32)
x = tf.placeholder(tf.float32, [None, 784])
h = tf.reshape(x, [-1, 28, 28, 1])
p = tf.nn.max_pool(h, ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding='VALID')
flat = tf.reshape(p, [-1, 14 * 14])
loss = tf.reduce_mean(flat)
sess = tf.Session()
for epoch in range(100):
    for i in range(0, len(X), 50):
        sess.run(loss, feed_dict={x: X[i:i + 50]})
)"},
    {"a batch with one column too many meets the weights at the matmul", R"(import numpy as np
import tensorflow as tf
x = tf.placeholder(tf.float32, [None, None])
W = tf.Variable(tf.zeros([784, 10]))
y = tf.matmul(x, W)
#   ^^^^^^^^^^^^^^^ error: Dimensions must be equal, but are 785 and 784
data = np.zeros((50, 785), dtype=np.float32)
sess = tf.Session()
sess.run(tf.global_variables_initializer())
out = sess.run(y, feed_dict={x: data})
)"},
    {"a batch with the weights' columns runs", R"(import numpy as np
import tensorflow as tf
x = tf.placeholder(tf.float32, [None, None])
W = tf.Variable(tf.zeros([784, 10]))
y = tf.matmul(x, W)
data = np.zeros((50, 784), dtype=np.float32)
sess = tf.Session()
sess.run(tf.global_variables_initializer())
out = sess.run(y, feed_dict={x: data})
)"},
    {"Tensor.eval on the test set fails where the graph assumed a batch size", R"(import tensorflow as tf
from tensorflow.examples.tutorials.mnist import input_data
mnist = input_data.read_data_sets("MNIST_data/", one_hot=True)
x = tf.placeholder(tf.float32, [None, 784])
W = tf.Variable(tf.zeros([784, 10]))
logits = tf.matmul(x, W)
pairs = tf.reshape(logits, [-1, 2, 10])
#       ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error: Cannot reshape a tensor with 70 elements to shape [-1, 2, 10]
score = tf.reduce_mean(pairs)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(score.eval(feed_dict={x: mnist.train.images[:50]}))
    print(score.eval(feed_dict={x: mnist.test.images[:7]}))
)"},
    {"Tensor.eval on an even number of test images runs", R"(import tensorflow as tf
from tensorflow.examples.tutorials.mnist import input_data
mnist = input_data.read_data_sets("MNIST_data/", one_hot=True)
x = tf.placeholder(tf.float32, [None, 784])
W = tf.Variable(tf.zeros([784, 10]))
logits = tf.matmul(x, W)
pairs = tf.reshape(logits, [-1, 2, 10])
score = tf.reduce_mean(pairs)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(score.eval(feed_dict={x: mnist.train.images[:50]}))
    print(score.eval(feed_dict={x: mnist.test.images[:8]}))
)"},
    {"Operation.run with labels of another batch size", R"(import numpy as np
import tensorflow as tf
X = tf.placeholder(tf.float32, shape=(None, 784))
y = tf.placeholder(tf.int32, shape=(None))
logits = tf.layers.dense(X, 10)
xentropy = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits)
#          ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error: logits and labels must have the same first dimension
loss = tf.reduce_mean(xentropy)
training_op = tf.train.GradientDescentOptimizer(0.01).minimize(loss)
X_train = np.zeros((1000, 784), dtype=np.float32)
y_train = np.zeros(1000, dtype=np.int32)
with tf.Session() as sess:
    tf.global_variables_initializer().run()
    training_op.run(feed_dict={X: X_train[:50], y: y_train[:40]})
)"},
    {"Operation.run with labels of the batch's size", R"(import numpy as np
import tensorflow as tf
X = tf.placeholder(tf.float32, shape=(None, 784))
y = tf.placeholder(tf.int32, shape=(None))
logits = tf.layers.dense(X, 10)
xentropy = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits)
loss = tf.reduce_mean(xentropy)
training_op = tf.train.GradientDescentOptimizer(0.01).minimize(loss)
X_train = np.zeros((1000, 784), dtype=np.float32)
y_train = np.zeros(1000, dtype=np.int32)
with tf.Session() as sess:
    tf.global_variables_initializer().run()
    training_op.run(feed_dict={X: X_train[:50], y: y_train[:50]})
)"},
    {"class labels fed where the graph wants one-hot rows", R"(import tensorflow as tf
from tensorflow.examples.tutorials.mnist import input_data
mnist = input_data.read_data_sets("MNIST_data/", one_hot=False)
x = tf.placeholder(tf.float32, [None, 784])
y_ = tf.placeholder(tf.float32, [None, 10])
y = tf.layers.dense(x, 10)
loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(labels=y_, logits=y))
train = tf.train.GradientDescentOptimizer(0.5).minimize(loss)
sess = tf.Session()
sess.run(tf.global_variables_initializer())
for i in range(100):
    batch_xs, batch_ys = mnist.train.next_batch(50)
    sess.run(train, feed_dict={x: batch_xs, y_: batch_ys})
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error: Cannot feed value of shape (50,) for Tensor 'Placeholder_1:0', which has shape '(?, 10)'
)"},
    {"one-hot labels fed where the graph wants one-hot rows", R"(import tensorflow as tf
from tensorflow.examples.tutorials.mnist import input_data
mnist = input_data.read_data_sets("MNIST_data/", one_hot=True)
x = tf.placeholder(tf.float32, [None, 784])
y_ = tf.placeholder(tf.float32, [None, 10])
y = tf.layers.dense(x, 10)
loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(labels=y_, logits=y))
train = tf.train.GradientDescentOptimizer(0.5).minimize(loss)
sess = tf.Session()
sess.run(tf.global_variables_initializer())
for i in range(100):
    batch_xs, batch_ys = mnist.train.next_batch(50)
    sess.run(train, feed_dict={x: batch_xs, y_: batch_ys})
)"},
    {"a fed batch size that does not match the fed batch", R"(import numpy as np
import tensorflow as tf
batch_size = tf.placeholder(tf.int32, [])
x = tf.placeholder(tf.float32, [None, 784])
images = tf.reshape(x, [batch_size, 28, 28, 1])
#        ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error: Cannot reshape a tensor with 39200 elements to shape [40, 28, 28, 1]
total = tf.reduce_sum(images)
sess = tf.Session()
print(sess.run(total, feed_dict={x: np.zeros((50, 784)), batch_size: 40}))
)"},
    {"a fed batch size that matches the fed batch", R"(import numpy as np
import tensorflow as tf
batch_size = tf.placeholder(tf.int32, [])
x = tf.placeholder(tf.float32, [None, 784])
images = tf.reshape(x, [batch_size, 28, 28, 1])
total = tf.reduce_sum(images)
sess = tf.Session()
print(sess.run(total, feed_dict={x: np.zeros((50, 784)), batch_size: 50}))
)"},
    {"the tf.cond branch a fed predicate takes is checked", R"(import numpy as np
import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 4])
is_training = tf.placeholder(tf.bool)
y = tf.cond(is_training, lambda: tf.reshape(x, [-1, 8]), lambda: tf.reshape(x, [-1, 4]))
#                                ^^^^^^^^^^^^^^^^^^^^^^ error: Cannot reshape a tensor with 12 elements to shape [-1, 8]
sess = tf.Session()
out = sess.run(y, feed_dict={x: np.zeros((3, 4)), is_training: True})
)"},
    {"the tf.cond branch a fed predicate does not take is not checked", R"(import numpy as np
import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 4])
is_training = tf.placeholder(tf.bool)
y = tf.cond(is_training, lambda: tf.reshape(x, [-1, 8]), lambda: tf.reshape(x, [-1, 4]))
sess = tf.Session()
out = sess.run(y, feed_dict={x: np.zeros((3, 4)), is_training: False})
)"},
    {"a tf.cond of unknown predicate is not checked", R"(import numpy as np
import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 4])
is_training = tf.placeholder(tf.bool)
y = tf.cond(is_training, lambda: tf.reshape(x, [-1, 8]), lambda: tf.reshape(x, [-1, 4]))
sess = tf.Session()
out = sess.run(y, feed_dict={x: np.zeros((3, 4)), is_training: np.random.rand() > 0.5})
)"},
    {"a feed whose shape is unknown is never an error", R"(import numpy as np
import tensorflow as tf
x = tf.placeholder(tf.float32, [None, None])
W = tf.Variable(tf.zeros([784, 10]))
y = tf.reshape(tf.matmul(x, W), [-1, 20])
data = np.load("features.npy")
sess = tf.Session()
sess.run(tf.global_variables_initializer())
out = sess.run(y, feed_dict={x: data})
)"},
    {"the run's result has the fed batch size", R"(import numpy as np
import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 784])
W = tf.Variable(tf.zeros([784, 10]))
y = tf.nn.softmax(tf.matmul(x, W))
sess = tf.Session()
probs = sess.run(y, feed_dict={x: np.zeros((32, 784))})
# <- hover: float32[32, 10]
)"},
};

}  // namespace

TEST_CASE("annotated run fixtures: the published diagnostics are exactly the annotated ones", "[lsp][diagnostics][abstract-run]") {
  for (const Fixture& f : kFixtures) {
    DYNAMIC_SECTION(f.name) {
      checkDiagnostics(f.source);
      if (std::string(f.source).find("# <- hover:") != std::string::npos) checkHovers(f.source);
    }
  }
}

TEST_CASE("a run's shape error names the run that raises it and the inputs' types in it", "[lsp][diagnostics][abstract-run]") {
  auto snap = analyzeFixture(kFixtures[4].source);  // the matmul fed 785 columns
  REQUIRE(snap);
  auto ds = diagnostics(*snap);
  REQUIRE(ds.size() == 1);
  CHECK(ds[0].code == "shape-error");
  REQUIRE(ds[0].related.size() == 3);
  CHECK(ds[0].related[0].range.start.line == 9);  // the sess.run line
  CHECK(ds[0].related[0].message == "raised by this run, which feeds 'Placeholder:0' of shape (50, 785)");
  CHECK(ds[0].related[1].message == "input 0: 'Placeholder:0' is float32[50, 785] in this run");
  CHECK(ds[0].related[2].message == "input 1: 'Variable:0' is float32[784, 10] in this run");
}
