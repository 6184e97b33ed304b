// Diagnostics on annotated fixtures: the full set of published diagnostics is compared with the
// annotations both ways, so a missing diagnostic and an unexpected one both fail.
#include "tests/lsp/LspTestSupport.h"

using namespace tlens::lsp;
using namespace tlens::lsp::test;

namespace {

struct Fixture {
  const char* name;
  const char* source;
};

// Each diagnostic kind has a positive fixture and a negative one (the corrected program).
const Fixture kFixtures[] = {
    {"matmul inner dimensions differ", R"(import tensorflow as tf
a = tf.placeholder(tf.float32, [None, 3])
b = tf.Variable(tf.zeros([4, 5]))
c = tf.matmul(a, b)
#   ^^^^^^^^^^^^^^^ error: Dimensions must be equal, but are 3 and 4
d = tf.nn.relu(c)
)"},
    {"matmul inner dimensions agree", R"(import tensorflow as tf
a = tf.placeholder(tf.float32, [None, 4])
b = tf.Variable(tf.zeros([4, 5]))
c = tf.matmul(a, b)
d = tf.nn.relu(c)
)"},
    {"matmul with transpose_b resolves the mismatch", R"(import tensorflow as tf
a = tf.placeholder(tf.float32, [None, 5])
b = tf.Variable(tf.zeros([4, 5]))
c = tf.matmul(a, b, transpose_b=True)
)"},
    {"broadcasting incompatible shapes", R"(import tensorflow as tf
a = tf.zeros([2, 3])
b = tf.ones([4, 3])
c = a + b
#   ^^^^^ error: Dimensions must be equal, but are 2 and 4
)"},
    {"broadcasting compatible shapes", R"(import tensorflow as tf
a = tf.zeros([2, 3])
b = tf.ones([1, 3])
c = a + b
)"},
    {"reshape to a different element count", R"(import tensorflow as tf
a = tf.zeros([4, 6])
b = tf.reshape(a, [5, 5])
#   ^^^^^^^^^^^^^^^^^^^^^ error: reshape
)"},
    {"reshape keeping the element count", R"(import tensorflow as tf
a = tf.zeros([4, 6])
b = tf.reshape(a, [-1, 3])
)"},
    {"top_k with k larger than the last dim", R"(import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 3])
v, i = tf.nn.top_k(x, k=5)
#      ^^^^^^^^^^^^^^^^^^^ error: input must have last dimension >= k = 5 but is 3
)"},
    {"top_k with k within the last dim", R"(import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 3])
v, i = tf.nn.top_k(x, k=2)
)"},
    {"concat of mismatched ranks", R"(import tensorflow as tf
a = tf.zeros([2, 3])
b = tf.zeros([2, 3, 4])
c = tf.concat([a, b], axis=0)
#   ^^^^^^^^^^^^^^^^^^^^^^^^^ error: rank
)"},
    {"concat of matching shapes", R"(import tensorflow as tf
a = tf.zeros([2, 3])
b = tf.zeros([5, 3])
c = tf.concat([a, b], axis=0)
)"},
    {"int32 bias added to float32 activations", R"(import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 4], name="x")
w = tf.Variable(tf.ones([4, 3]), name="w")
bias = tf.constant([1, 2, 3], name="bias")
activations = tf.matmul(x, w)
out = tf.add(activations, bias)
#     ^^^^^^^^^^^^^^^^^^^^^^^^^ error: int32
)"},
    {"float32 bias added to float32 activations", R"(import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 4], name="x")
w = tf.Variable(tf.ones([4, 3]), name="w")
bias = tf.constant([1.0, 2.0, 3.0], name="bias")
activations = tf.matmul(x, w)
out = tf.add(activations, bias)
)"},
    {"a feed of the wrong shape", R"(import tensorflow as tf
import numpy as np
x = tf.placeholder(tf.float32, [None, 19], name="x")
y = x * 2.0
data = np.zeros((19,))
with tf.Session() as sess:
    sess.run(y, feed_dict={x: data})
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error: Cannot feed value of shape (19,)
)"},
    {"a feed of the right shape", R"(import tensorflow as tf
import numpy as np
x = tf.placeholder(tf.float32, [None, 19], name="x")
y = x * 2.0
data = np.zeros((8, 19))
with tf.Session() as sess:
    sess.run(y, feed_dict={x: data})
)"},
    {"unknown dims never produce a diagnostic", R"(import tensorflow as tf
import sys
n = int(sys.argv[1]) if len(sys.argv) > 1 else 7
a = tf.placeholder(tf.float32, [None, None])
b = tf.zeros([5, 6])
c = tf.matmul(a, b)
d = tf.reshape(c, [-1, 3])
)"},
    {"an unknown value never produces a diagnostic", R"(import tensorflow as tf
import os
def load():
    return os.environ.get("DATA")
x = load()
y = tf.matmul(x, x)
z = x[3] + 2
)"},
    {"a syntax error is an error and the rest is analysed", R"(import tensorflow as tf
a = tf.zeros([2, 3]
# <- error: invalid syntax
b = tf.zeros([3, 4])
)"},
    {"a shape error inside a function called with known shapes", R"(import tensorflow as tf
def dense(x, units):
    w = tf.zeros([3, units])
    return tf.matmul(x, w)
#          ^^^^^^^^^^^^^^^ error: Dimensions must be equal, but are 5 and 3
y = dense(tf.zeros([2, 5]), 4)
)"},
    {"a function nobody calls is analysed without false alarms", R"(import tensorflow as tf
def dense(x, units):
    w = tf.zeros([3, units])
    return tf.matmul(x, w)
)"},
    {"an exception on known values is a warning", R"(x = 1
z = x / 0
#   ^^^^^ warning: ZeroDivisionError
w = 2
)"},
    {"a division by a known non-zero is fine", R"(x = 1
z = x / 2
)"},
    {"module-level while True is cut by the budget, not a hang", R"(i = 0
while True:
    i += 1
)"},
    {"TF2 eager matmul mismatch", R"(import tensorflow as tf
x = tf.ones([2, 3])
w = tf.Variable(tf.zeros([2, 4]))
y = tf.matmul(x, w)
#   ^^^^^^^^^^^^^^^ error: Dimensions must be equal, but are 3 and 2
)"},
    {"TF2 eager matmul agreement", R"(import tensorflow as tf
x = tf.ones([2, 3])
w = tf.Variable(tf.zeros([3, 4]))
y = tf.matmul(x, w)
)"},
    {"squeeze of a dimension that is not 1", R"(import tensorflow as tf
x = tf.zeros([2, 3])
a = tf.squeeze(x, axis=0)
#   ^^^^^^^^^^^^^^^^^^^^^ error: Can not squeeze dim[0], expected a dimension of 1, got 2
)"},
    {"squeeze of a dimension of size 1", R"(import tensorflow as tf
x = tf.zeros([1, 3])
a = tf.squeeze(x, axis=0)
)"},
    {"stack of different shapes", R"(import tensorflow as tf
p = tf.zeros([2, 3])
q = tf.zeros([3, 3])
b = tf.stack([p, q])
#   ^^^^^^^^^^^^^^^^ error: Dimension 0 in both shapes must be equal, but are 2 and 3
)"},
    {"stack of equal shapes", R"(import tensorflow as tf
p = tf.zeros([2, 3])
q = tf.zeros([2, 3])
b = tf.stack([p, q])
)"},
    {"gather on an axis out of range", R"(import tensorflow as tf
x = tf.zeros([2, 3])
c = tf.gather(x, [0, 1], axis=2)
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error: Expected axis in the range [-2, 2), but got 2
)"},
    {"gather on an axis in range", R"(import tensorflow as tf
x = tf.zeros([2, 3])
c = tf.gather(x, [0, 1], axis=1)
)"},
    {"conv2d on a rank-3 input", R"(import tensorflow as tf
img = tf.zeros([8, 28, 28])
k = tf.zeros([5, 5, 1, 32])
d = tf.nn.conv2d(img, k, strides=[1, 1, 1, 1], padding="SAME")
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error: Shape must be rank 4 but is rank 3
)"},
    {"conv2d on a rank-4 input", R"(import tensorflow as tf
img = tf.zeros([8, 28, 28, 1])
k = tf.zeros([5, 5, 1, 32])
d = tf.nn.conv2d(img, k, strides=[1, 1, 1, 1], padding="SAME")
)"},
    {"conv2d with input channels not matching the filter", R"(import tensorflow as tf
img = tf.zeros([8, 28, 28, 3])
k = tf.zeros([5, 5, 1, 32])
d = tf.nn.conv2d(img, k, strides=[1, 1, 1, 1], padding="SAME")
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error: not a multiple of the number of groups
)"},
    {"conv2d with matching input channels", R"(import tensorflow as tf
img = tf.zeros([8, 28, 28, 3])
k = tf.zeros([5, 5, 3, 32])
d = tf.nn.conv2d(img, k, strides=[1, 1, 1, 1], padding="SAME")
)"},
    {"max_pool on a rank-3 input", R"(import tensorflow as tf
img = tf.zeros([8, 28, 28])
i = tf.nn.max_pool(img, ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding="SAME")
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error: Shape must be rank 4 but is rank 3
)"},
    {"max_pool on a rank-4 input", R"(import tensorflow as tf
img = tf.zeros([8, 28, 28, 1])
i = tf.nn.max_pool(img, ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding="SAME")
)"},
    {"softmax cross entropy with labels of another width", R"(import tensorflow as tf
logits = tf.zeros([8, 10])
labels = tf.zeros([8, 5])
f = tf.nn.softmax_cross_entropy_with_logits(labels=labels, logits=logits)
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error: logits and labels must be broadcastable
)"},
    {"softmax cross entropy with matching labels", R"(import tensorflow as tf
logits = tf.zeros([8, 10])
labels = tf.zeros([8, 10])
f = tf.nn.softmax_cross_entropy_with_logits(labels=labels, logits=logits)
)"},
    {"sparse softmax cross entropy with one-hot labels", R"(import tensorflow as tf
logits = tf.zeros([8, 10])
labels = tf.zeros([8, 10], tf.int32)
g = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits)
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error: Rank mismatch: Rank of labels (received 2) should equal rank of logits minus 1 (received 2).
)"},
    {"sparse softmax cross entropy with class ids", R"(import tensorflow as tf
logits = tf.zeros([8, 10])
labels = tf.zeros([8], tf.int32)
g = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits)
)"},
    {"sigmoid cross entropy with labels of another shape", R"(import tensorflow as tf
logits = tf.zeros([8, 10])
labels = tf.zeros([8, 3])
s = tf.nn.sigmoid_cross_entropy_with_logits(labels=labels, logits=logits)
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error: logits and labels must have the same shape
)"},
    {"sigmoid cross entropy with labels of the same shape", R"(import tensorflow as tf
logits = tf.zeros([8, 10])
labels = tf.zeros([8, 10])
s = tf.nn.sigmoid_cross_entropy_with_logits(labels=labels, logits=logits)
)"},
    {"one_hot of float indices", R"(import tensorflow as tf
ids = tf.zeros([8], tf.float32)
h = tf.one_hot(ids, 10)
#   ^^^^^^^^^^^^^^^^^^^ error: is not in the list of allowed values
)"},
    {"one_hot of int indices", R"(import tensorflow as tf
ids = tf.zeros([8], tf.int32)
h = tf.one_hot(ids, 10)
)"},
    {"transpose with a permutation of the wrong length", R"(import tensorflow as tf
x = tf.zeros([2, 3])
r = tf.transpose(x, [0, 1, 2])
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^ error: Dimension must be 2 but is 3
)"},
    {"transpose with a full permutation", R"(import tensorflow as tf
x = tf.zeros([2, 3])
r = tf.transpose(x, [1, 0])
)"},
    {"reshape whose element count depends on the unknown batch dim: no diagnostic", R"(import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 784])
y = tf.reshape(x, [-1, 28, 28, 3])
)"},
    {"reshape of a placeholder to images", R"(import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 784])
y = tf.reshape(x, [-1, 28, 28, 1])
)"},
    {"an attribute tensorflow does not have", R"(import tensorflow as tf
x = tf.zeros([2, 3])
z = tf.reduce_summ(x)
#      ^^^^^^^^^^^ warning: module 'tf' has no attribute 'reduce_summ'; did you mean 'reduce_sum'?
)"},
    {"an attribute tensorlens does not model is information, not an error", R"(import tensorflow as tf
x = tf.zeros([2, 3])
z = tf.quantum_entangle(x)
#      ^^^^^^^^^^^^^^^^ info: 'tf.quantum_entangle' is not modelled by tensorlens
)"},
    {"tf.nn's RNN functions, loaded on first use, are members of tf.nn", R"(import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 5, 3])
cell = tf.nn.rnn_cell.BasicLSTMCell(8)
out, state = tf.nn.dynamic_rnn(cell, x, dtype=tf.float32)
)"},
    {"flatten of a batch whose other dimensions are unknown", R"(import tensorflow as tf
def net(width, height):
    x = tf.placeholder(tf.float32, [None, width, height, 4])
    h = tf.layers.conv2d(x, 32, [4, 4], padding='same')
    return tf.layers.dense(tf.layers.flatten(h), 10)
)"},
    {"sparse labels of rank r against logits of rank r + 1", R"(import tensorflow as tf
logits = tf.placeholder(tf.float32, [None, None, 7])
labels = tf.placeholder(tf.int32, [None, None])
cost = tf.nn.sparse_softmax_cross_entropy_with_logits(logits=logits, labels=labels)
short = tf.placeholder(tf.int32, [None, 4])
bad = tf.nn.sparse_softmax_cross_entropy_with_logits(logits=tf.zeros([2, 3, 7]), labels=tf.zeros([2, 4], tf.int32))
#     ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error: Shape mismatch: The shape of labels (received (2, 4)) should equal the shape of logits except for the last dimension
)"},
    {"real TensorFlow namespaces tensorlens does not model: information, no near miss", R"(import tensorflow as tf
lit = tf.lite.TFLiteConverter
#        ^^^^ info: 'tf.lite' (a TensorFlow namespace) is not modelled by tensorlens
s = tf.signal.fft([1.0])
#      ^^^^^^ info: 'tf.signal' (a TensorFlow namespace) is not modelled by tensorlens
ds = tf.data.Dataset.from_tensor_slices([1, 2, 3])
w = tf.summary.create_file_writer("logs")
)"},
    {"the namespaces under another alias", R"(import tensorflow as t
s = t.signal.fft([1.0])
#     ^^^^^^ info: 't.signal' (a TensorFlow namespace) is not modelled by tensorlens
)"},
    {"a real typo still gets its near-miss warning", R"(import tensorflow as tf
x = tf.zeros([2, 3])
z = tf.reduce_smu(x)
#      ^^^^^^^^^^ warning: module 'tf' has no attribute 'reduce_smu'; did you mean 'reduce_sum'?
)"},
    {"a short name is a near miss only one edit away", R"(import tensorflow as tf
x = tf.zeros([2, 3])
a = tf.mth
#      ^^^ warning: did you mean 'math'?
b = tf.dxxa
#      ^^^^ info: 'tf.dxxa' is not modelled by tensorlens
)"},
    {"no suggestion that differs in more than a third of its letters", R"(import tensorflow as tf
x = tf.zeros([2, 3])
y = tf.rnage(3)
#      ^^^^^ info: 'tf.rnage' is not modelled by tensorlens
)"},
    {"a typo in tf.nn, tf.train, tf.math or tf.random: a warning with the fix", R"(import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 784])
a = tf.nn.reluu(x)
#         ^^^^^ warning: module 'tf.nn' has no attribute 'reluu'; did you mean 'relu'?
opt = tf.train.AdamOptimiser(0.01)
#              ^^^^^^^^^^^^^ warning: module 'tf.train' has no attribute 'AdamOptimiser'; did you mean 'AdamOptimizer'?
r = tf.random.normall([2])
#             ^^^^^^^ warning: module 'tf.random' has no attribute 'normall'; did you mean 'normal'?
)"},
    {"real functions of those namespaces tensorlens does not model: information, never a near miss", R"(import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 8, 8, 8, 1])
c = tf.nn.conv3d(x, tf.zeros([3, 3, 3, 1, 4]), [1, 1, 1, 1, 1], "SAME")
#         ^^^^^^ info: 'tf.nn.conv3d' is not modelled by tensorlens
opt = tf.train.FtrlOptimizer(0.01)
#              ^^^^^^^^^^^^^ info: 'tf.train.FtrlOptimizer' is not modelled by tensorlens
cell = tf.nn.rnn_cell.LSTMCell(16)
)"},
    {"namespaces of tf used as modelled: no diagnostic", R"(import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 784])
h = tf.nn.relu(x)
opt = tf.train.GradientDescentOptimizer(0.5)
s = tf.math.softmax(h)
)"},
    {"an attribute numpy does not have", R"(import numpy as np
a = np.zeross((2, 3))
#      ^^^^^^ warning: module 'np' has no attribute 'zeross'; did you mean 'zeros'?
)"},
    {"attributes numpy has, and submodules loaded on first use", R"(import numpy as np
import tensorflow as tf
a = np.zeros((2, 3))
b = np.random.rand(2, 3)
m = tf.keras.Sequential()
)"},
    {"attributes tensorflow has", R"(import tensorflow as tf
x = tf.zeros([2, 3])
y = tf.nn.relu(x)
z = tf.reduce_sum(x)
)"},
    {"log of a softmax output", R"(import tensorflow as tf
logits = tf.placeholder(tf.float32, [None, 10])
y = tf.nn.softmax(logits)
loss = -tf.reduce_sum(tf.log(y))
#                     ^^^^^^^^^ warning: log of a softmax output
loss2 = tf.reduce_mean(tf.log(tf.nn.softmax(logits)))
#                      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ warning: log of a softmax output
)"},
    {"log of clipped probabilities", R"(import tensorflow as tf
logits = tf.placeholder(tf.float32, [None, 10])
y = tf.nn.softmax(logits)
loss = -tf.reduce_sum(tf.log(tf.clip_by_value(y, 1e-10, 1.0)))
)"},
    {"numpy broadcasting mismatch", R"(import numpy as np
a = np.zeros((3, 4))
b = np.ones((5,))
c = a + b
#   ^^^^^ error: operands could not be broadcast together with shapes (3,4) (5,)
)"},
    {"numpy broadcasting agreement", R"(import numpy as np
a = np.zeros((3, 4))
b = np.ones((4,))
c = a + b
)"},
    // Realistic programs: the correct ones must stay silent, each broken one gets exactly its error.
    {"Keras Sequential trained on data of the right shapes", R"(import numpy as np
from tensorflow import keras
model = keras.Sequential([keras.layers.Dense(64, activation="relu", input_shape=(20,)), keras.layers.Dense(3, activation="softmax")])
model.compile(optimizer="adam", loss="sparse_categorical_crossentropy", metrics=["accuracy"])
x = np.random.rand(100, 20).astype("float32")
y = np.random.randint(0, 3, size=(100,))
model.fit(x, y, epochs=1, batch_size=10, verbose=0)
)"},
    {"a conv net whose flatten size is computed from the pooling", R"(import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 28, 28, 1])
w = tf.Variable(tf.truncated_normal([5, 5, 1, 32], stddev=0.1))
h = tf.nn.relu(tf.nn.conv2d(x, w, strides=[1, 1, 1, 1], padding="SAME"))
p = tf.nn.max_pool(h, ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding="SAME")
flat = tf.reshape(p, [-1, 14 * 14 * 32])
w2 = tf.Variable(tf.zeros([14 * 14 * 32, 10]))
logits = tf.matmul(flat, w2)
)"},
    {"concat of [?, 3] and [?, 4], layers built in a loop, stack of equal shapes", R"(import tensorflow as tf
def dense(x, w, b):
    return tf.matmul(x, w) + b
a = tf.placeholder(tf.float32, [None, 3])
b = tf.placeholder(tf.float32, [None, 4])
c = tf.concat([a, b], axis=1)
sizes = [7, 16, 8]
h = c
for n_in, n_out in zip(sizes[:-1], sizes[1:]):
    h = tf.nn.relu(tf.matmul(h, tf.Variable(tf.zeros([n_in, n_out]))))
s = tf.stack([h, h])
)"},
    {"values read from a file are unknown and never produce a diagnostic", R"(import numpy as np
import tensorflow as tf
data = open("weights.txt").read()
values = [float(v) for v in data.split()]
t = tf.constant(values)
u = tf.reshape(t, [-1, 4])
m = np.zeros((3, 1)) + np.ones((1, 4))
labels = tf.placeholder(tf.int32, [None])
logits = tf.placeholder(tf.float32, [None, 10])
loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits))
)"},
    {"a model class holding its weights, fed the right shape", R"(import numpy as np
import tensorflow as tf
class Model:
    def __init__(self, n_in, n_out):
        self.w = tf.Variable(tf.zeros([n_in, n_out]))
        self.b = tf.Variable(tf.zeros([n_out]))
    def __call__(self, x):
        return tf.matmul(x, self.w) + self.b
x = tf.placeholder(tf.float32, [None, 5])
model = Model(5, 2)
y = model(x)
sess = tf.Session()
sess.run(tf.global_variables_initializer())
out = sess.run(y, feed_dict={x: np.zeros((8, 5), dtype=np.float32)})
)"},
    {"a feed of the wrong shape", R"(import numpy as np
import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 784])
y = tf.reduce_sum(x)
sess = tf.Session()
out = sess.run(y, feed_dict={x: np.zeros((32, 100), dtype=np.float32)})
#     ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error: Cannot feed value of shape (32, 100)
)"},
    {"reshape to a shape with another element count", R"(import tensorflow as tf
t = tf.reshape(tf.zeros([2, 3]), [4, 2])
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error: Cannot reshape a tensor with 6 elements
)"},
    {"Keras fit on data whose features do not match input_shape", R"(import numpy as np
from tensorflow import keras
model = keras.Sequential([keras.layers.Dense(8, input_shape=(20,)), keras.layers.Dense(1)])
model.compile(optimizer="sgd", loss="mse")
model.fit(np.zeros((50, 30)), np.zeros((50, 1)), epochs=1, verbose=0)
# <- error: expected shape=(None, 20), found shape=(None, 30)
)"},
    {"np.dot of arrays whose inner dimensions differ", R"(import numpy as np
a = np.dot(np.zeros((2, 3)), np.zeros((4, 5)))
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error: shapes (2,3) and (4,5) not aligned: 3 (dim 1) != 4 (dim 0)
)"},
    {"concat of tensors of different ranks", R"(import tensorflow as tf
a = tf.zeros([2, 3])
b = tf.zeros([2, 3, 1])
c = tf.concat([a, b], axis=1)
#   ^^^^^^^^^^^^^^^^^^^^^^^^^ error: Shape must be rank 2 but is rank 3
)"},
    {"a functional Keras model with two inputs, predicted on the right shapes", R"(import numpy as np
import tensorflow as tf
a = tf.keras.Input(shape=(8,))
b = tf.keras.Input(shape=(4,))
h = tf.keras.layers.Concatenate()([a, b])
out = tf.keras.layers.Dense(1)(h)
model = tf.keras.Model(inputs=[a, b], outputs=out)
pred = model.predict([np.zeros((5, 8)), np.zeros((5, 4))], verbose=0)
)"},
    {"a TF2 training step in tf.function with a GradientTape", R"(import tensorflow as tf
w = tf.Variable(tf.random.normal([3, 1]))
opt = tf.keras.optimizers.SGD(0.1)
@tf.function
def step(x, y):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - y))
    grads = tape.gradient(loss, [w])
    opt.apply_gradients(zip(grads, [w]))
    return loss
for i in range(3):
    l = step(tf.ones([4, 3]), tf.zeros([4, 1]))
)"},
    {"numpy stacking with expand_dims, one_hot labels of the logits' depth", R"(import numpy as np
import tensorflow as tf
imgs = [np.zeros((28, 28)) for _ in range(4)]
batch = np.concatenate([np.expand_dims(i, 0) for i in imgs], axis=0)
labels = tf.placeholder(tf.int32, [None])
logits = tf.placeholder(tf.float32, [None, 10])
onehot = tf.one_hot(labels, 10)
loss = tf.nn.softmax_cross_entropy_with_logits(labels=onehot, logits=logits)
)"},
    {"keepdims broadcasting, transpose with perm, squeeze of a size-1 dim", R"(import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 16])
mean = tf.reduce_mean(x, axis=0, keepdims=True)
centered = x - mean
t = tf.transpose(tf.zeros([16, 4]), perm=[1, 0])
y = tf.matmul(centered, t, transpose_b=True)
z = tf.squeeze(tf.zeros([3, 1, 5]), axis=1)
)"},
    {"tf.layers.dense chain", R"(import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 784])
h1 = tf.layers.dense(x, 256, activation=tf.nn.relu)
h2 = tf.layers.dense(h1, 128, activation=tf.nn.relu)
logits = tf.layers.dense(h2, 10)
pred = tf.argmax(tf.nn.softmax(logits), axis=1)
)"},
    {"a while loop whose count comes from the command line", R"(import sys
import tensorflow as tf
steps = int(sys.argv[1]) if len(sys.argv) > 1 else 10
x = tf.zeros([4, 4])
i = 0
while i < steps:
    x = tf.matmul(x, tf.eye(4))
    i += 1
)"},
    {"one_hot depth differs from the logits' classes", R"(import tensorflow as tf
labels = tf.placeholder(tf.int32, [None])
logits = tf.placeholder(tf.float32, [None, 5])
loss = tf.nn.softmax_cross_entropy_with_logits(labels=tf.one_hot(labels, 10), logits=logits)
#      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error: logits and labels must be broadcastable: logits_size=[batch,5] labels_size=[batch,10]
)"},
    {"squeeze of a dimension that is not 1", R"(import tensorflow as tf
z = tf.squeeze(tf.zeros([3, 2, 5]), axis=1)
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error: Can not squeeze dim[1], expected a dimension of 1, got 2
)"},
    {"transpose with a perm of the wrong length", R"(import tensorflow as tf
t = tf.transpose(tf.zeros([2, 3, 4]), perm=[1, 0])
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error: Dimension must be 3 but is 2
)"},
    {"conv2d whose filter depth does not divide the input channels' groups", R"(import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 32, 32, 3])
w = tf.Variable(tf.zeros([5, 5, 1, 16]))
h = tf.nn.conv2d(x, w, strides=[1, 1, 1, 1], padding="SAME")
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error: Depth of output (16) is not a multiple of the number of groups (3)
)"},
    {"categorical_crossentropy given integer labels", R"(import numpy as np
from tensorflow import keras
model = keras.Sequential([keras.layers.Dense(10, activation="softmax", input_shape=(4,))])
model.compile(optimizer="adam", loss="categorical_crossentropy")
model.fit(np.zeros((20, 4)), np.zeros((20,), dtype="int64"), epochs=1, verbose=0)
# <- error: loss 'categorical_crossentropy' expects one-hot targets
)"},
    {"int32 times float32", R"(import tensorflow as tf
a = tf.constant([1, 2, 3])
b = tf.constant([1.0, 2.0, 3.0])
c = a * b
#   ^^^^^ error: has type float32 that does not match type int32
)"},
    {"softmax cross entropy with labels of another width", R"(import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 10])
y = tf.placeholder(tf.float32, [None, 3])
loss = tf.nn.softmax_cross_entropy_with_logits(labels=y, logits=x)
#      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error: logits_size=[batch,10] labels_size=[batch,3]
)"},
    {"gather with an axis past the rank", R"(import tensorflow as tf
params = tf.zeros([10, 4])
ids = tf.constant([[0, 1], [2, 3]])
rows = tf.gather(params, ids, axis=2)
#      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error: Expected axis in the range [-2, 2), but got 2
)"},

    // Environment-dependent values are unknown (issue 17, item 2): a test on them is neither true
    // nor false, so an assert does not stop the analysis and both branches are analysed.
    {"environment-dependent tests: the analysis goes on through both branches", R"(import os
import sys
import time
import tensorflow as tf
assert tf.__version__ == "1.8.0"
if len(sys.argv) > 1:
    a = tf.matmul(tf.zeros([2, 3]), tf.zeros([4, 5]))
#       ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error: Dimensions must be equal, but are 3 and 4
else:
    a = tf.matmul(tf.zeros([2, 3]), tf.zeros([5, 5]))
#       ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error: Dimensions must be equal, but are 3 and 5
if os.environ.get("SMALL") == "1" or time.time() > 0:
    b = tf.matmul(tf.zeros([2, 3]), tf.zeros([6, 5]))
#       ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error: Dimensions must be equal, but are 3 and 6
)"},
    {"environment-dependent tests on a correct program: nothing to say", R"(import os
import sys
import tensorflow as tf
assert tf.__version__ == "1.8.0", "this tutorial needs TensorFlow 1.8"
assert tf.VERSION.startswith("1.")
#         ^^^^^^^ info: is not modelled by tensorlens
if sys.argv[1:] and sys.argv[1] == "--small":
    n = 2
else:
    n = 4
steps = int(os.environ["STEPS"])
a = tf.matmul(tf.zeros([2, 3]), tf.zeros([3, n]))
data = open("train.csv").read().split(",")
)"},
    {"argparse options keep their defaults, required ones are unknown", R"(import argparse
import tensorflow as tf
parser = argparse.ArgumentParser()
parser.add_argument("--hidden", type=int, default=16)
parser.add_argument("data_dir")
args = parser.parse_args()
x = tf.placeholder(tf.float32, [None, 8])
h = tf.matmul(x, tf.zeros([4, args.hidden]))
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error: Dimensions must be equal, but are 8 and 4
path = args.data_dir + "/train"
)"},
    // The analysis goes on after an uncaught exception (item 3): the failed statement's names
    // are unknown, what follows is analysed, inside the same block too.
    {"after an exception in user code the rest of the block is analysed", R"(import tensorflow as tf
with tf.Session() as sess:
    n = int("ten")
#       ^^^^^^^^^^ warning: ValueError: invalid literal for int() with base 10: 'ten'
    w = tf.zeros([n, 4])
    c = tf.matmul(tf.zeros([2, 3]), tf.zeros([4, 5]))
#       ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error: Dimensions must be equal, but are 3 and 4
def build():
    bad = "a" + 1
#         ^^^^^^^ warning: TypeError: can only concatenate str (not "int") to str
    return tf.matmul(tf.zeros([2, 3]), tf.zeros([7, 5]))
#          ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error: Dimensions must be equal, but are 3 and 7
y = build()
)"},
    {"an exception inside a try body still reaches its handler", R"(import tensorflow as tf
try:
    n = int("ten")
    a = tf.matmul(tf.zeros([2, 3]), tf.zeros([4, 5]))
except ValueError:
    n = 3
b = tf.matmul(tf.zeros([2, 3]), tf.zeros([n, 5]))
def check(x):
    if x is None:
        raise ValueError("x is required")
    return x
z = check(None if len([]) else 1)
)"},
    // No false errors (item 7): an exception raised inside a library call tensorlens does not
    // model, or by a check on values it does not know, is no diagnostic; real TensorFlow, numpy
    // and os names are never near misses.
    {"exceptions from unmodelled library calls are no diagnostics", R"(import tensorflow as tf
fruits = tf.constant(["apple", "peach", "banana"])
n = tf.size(fruits)
x = tf.placeholder(tf.float32, [None, 3])
y = tf.matmul(x, tf.zeros([3, 2]))
)"},
    {"a typo is still found next to an unmodelled library call", R"(import tensorflow as tf
fruits = tf.constant(["apple", "peach", "banana"])
y = tf.nn.reluu(tf.zeros([3, 2]))
#         ^^^^^ warning: did you mean 'relu'?
)"},
    {"tensorlens' own NotImplementedError is a hint, never a warning", R"(import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 3])
c = tf.keras.constraints.RadialConstraint()
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ hint: NotImplementedError: tensorlens: keras.constraints.RadialConstraint is not supported
model = tf.keras.models.load_model("model.h5")
p = model.predict(x)
y = tf.matmul(x, tf.zeros([3, 2]))
)"},
    {"submodules imported on first use (tf.compat.v1) are no unknown attributes", R"(import tensorflow as tf
x = tf.compat.v1.placeholder(tf.float32, [None, 3])
sess = tf.compat.v1.Session()
y = tf.compat.v2.zeros([2])
)"},
    {"real TensorFlow, numpy and os names are not near misses", R"(import os
import numpy as np
import tensorflow as tf
layer = tf.layers.SeparableConv2D(10, 3)
#                 ^^^^^^^^^^^^^^^ info: is not modelled by tensorlens
i = tf.matrix_triangular_solve(tf.eye(3), tf.ones([3, 1]))
#      ^^^^^^^^^^^^^^^^^^^^^^^ info: is not modelled by tensorlens
np.packbits(np.zeros(3, dtype=np.uint8))
#  ^^^^^^^^ info: is not modelled by tensorlens
os.putenv("A", "1")
#  ^^^^^^ info: is not modelled by tensorlens
os.chmod("/tmp/x", 0o644)
#  ^^^^^ info: is not modelled by tensorlens
m = np.fromfile("weights.bin", dtype=np.float32)
#      ^^^^^^^^ info: is not modelled by tensorlens
)"},
    {"near misses of modelled names are still warnings", R"(import numpy as np
import tensorflow as tf
a = np.zeross(3)
#      ^^^^^^ warning: did you mean 'zeros'?
b = tf.matmull(tf.zeros([2, 2]), tf.zeros([2, 2]))
#      ^^^^^^^ warning: did you mean 'matmul'?
)"},
    // Public types in annotations are modelled as types (item 8): no "is not modelled" per
    // annotation; a typo in one is still a warning.
    {"tf and numpy types in annotations say nothing", R"(import numpy as np
import tensorflow as tf
def layer(a: tf.Tensor, w: tf.Variable, m: np.ndarray) -> tf.Tensor:
    return tf.matmul(a, w)
x: tf.Tensor = tf.zeros([2, 3])
v: tf.Variable = tf.Variable(tf.zeros([3, 4]))
model: tf.keras.Model = tf.keras.Sequential()
spec: tf.TensorSpec = None
y = layer(x, v, np.zeros(3))
)"},
    {"a typo in an annotation is still found", R"(import tensorflow as tf
def layer(a: tf.Tensor) -> tf.Tensor:
    return a
v: tf.Variabel = tf.Variable(tf.zeros([3, 4]))
#     ^^^^^^^^ warning: did you mean 'Variable'?
)"},
    {"an unknown index of a numpy array may be an index array: no false feed error", R"(import numpy as np
import tensorflow as tf
X = tf.placeholder(tf.float32, [None, 784])
y = tf.reduce_sum(X)
data = np.zeros((1000, 784), dtype=np.float32)
def batches(n):
    idx = np.random.permutation(len(data))
    for part in np.array_split(idx, n):
        yield data[part]
sess = tf.Session()
for batch in batches(10):
    out = sess.run(y, feed_dict={X: batch})
)"},
    {"a native library method that fails after an unmodelled call is no diagnostic", R"(import tensorflow as tf
saver = tf.train.import_meta_graph("model.meta")
#       ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ hint: cannot rebuild a graph from a MetaGraphDef
X = tf.get_default_graph().get_tensor_by_name("X:0")
y = tf.reduce_sum(X)
)"},
    {"a feed of one row where the placeholder wants a batch is still found", R"(import numpy as np
import tensorflow as tf
X = tf.placeholder(tf.float32, [None, 784])
y = tf.reduce_sum(X)
data = np.zeros((1000, 784), dtype=np.float32)
sess = tf.Session()
out = sess.run(y, feed_dict={X: data[3]})
#     ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error: Cannot feed value of shape (784,)
)"},
    // A shape check TensorFlow raises as a Python exception is an error (item 4).
    {"set_shape with an incompatible shape is a shape error", R"(import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 3])
x.set_shape([None, 4])
# <- error: Tensor's shape (?, 3) is not compatible with supplied shape (?, 4)
y = tf.matmul(x, tf.zeros([3, 2]))
)"},
    {"set_shape that refines the shape says nothing", R"(import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 3])
x.set_shape([8, 3])
y = tf.matmul(x, tf.zeros([3, 2]))
)"},
    // A dim the analysis does not know (computed from data it did not read) is an unknown int in
    // as_list(), not TensorFlow's None: the program's tensor has that size (cookbook CNN).
    {"a dim unknown only to the analysis is no None in as_list()", R"(import numpy as np
import tensorflow as tf
from tensorflow.examples.tutorials.mnist import input_data
mnist = input_data.read_data_sets("MNIST_data", one_hot=False)
train = np.array([np.reshape(x, (28, 28)) for x in mnist.train.images])
width = train[0].shape[0]
x = tf.placeholder(tf.float32, [100, width, width, 1])
pool = tf.nn.max_pool(x, [1, 2, 2, 1], [1, 2, 2, 1], "SAME")
s = pool.get_shape().as_list()
flat = tf.reshape(pool, [s[0], s[1] * s[2] * s[3]])
)"},
    {"a placeholder's None dim is still None in as_list()", R"(import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 3])
n = x.get_shape().as_list()[0] * 2
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ warning: unsupported operand type(s) for *: 'NoneType' and 'int'
)"},
    // A list of values the analysis lost (layers from a file it does not read) is no int32
    // vector: tf.reduce_sum(losses) was an int32 tensor and 1.0 * it a false dtype error
    // (the cookbook's neural style program).
    {"a list of unknown values converts to an unknown tensor, not an int32 shape", R"(import scipy.io
import tensorflow as tf
vgg = scipy.io.loadmat("vgg.mat")
losses = []
for name in ["conv1", "conv2"]:
    losses.append(2.0 * tf.nn.l2_loss(vgg[name]))
total = 1.0 * tf.reduce_sum(losses)
)"},
    {"a shape list with a known int and unknowns is still a shape", R"(import scipy.io
import tensorflow as tf
n = scipy.io.loadmat("vgg.mat")["n"]
x = tf.matmul(tf.zeros([n, 5]), tf.zeros([3, 4]))
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error: Dimensions must be equal, but are 5 and 3
)"},
    {"an uncalled function's None defaults are unknown, not None", R"(import tensorflow as tf
from tensorflow import keras

class Logger(keras.callbacks.Callback):
    def on_epoch_end(self, epoch, logs=None):
        print("loss %.3f" % logs["loss"])

def total(values=None, *, scale=None):
    return sum(values) * scale
)"},
    {"an uncalled function still checks what its other defaults make known", R"(import tensorflow as tf

def layer(x, units=10):
    w = tf.zeros([20, units])
    return tf.matmul(tf.zeros([4, 30]), w)
#          ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error: Dimensions must be equal, but are 30 and 20
)"},
};

}  // namespace

TEST_CASE("annotated fixtures: the published diagnostics are exactly the annotated ones", "[lsp][diagnostics]") {
  for (const Fixture& f : kFixtures) {
    DYNAMIC_SECTION(f.name) { checkDiagnostics(f.source); }
  }
}

TEST_CASE("a shape error's related information points at where each shape came from", "[lsp][diagnostics]") {
  auto snap = analyzeFixture(kFixtures[0].source);
  REQUIRE(snap);
  auto ds = diagnostics(*snap);
  REQUIRE(ds.size() == 1);
  REQUIRE(ds[0].related.size() == 2);
  CHECK(ds[0].related[0].range.start.line == 1);
  CHECK(ds[0].related[1].range.start.line == 2);
  CHECK(ds[0].related[0].file == "/fixture.py");
}

TEST_CASE("unsupported constructs are published as hints, never errors", "[lsp][diagnostics]") {
  auto snap = analyzeFixture("async def f():\n    pass\nx = 1\n");
  REQUIRE(snap);
  for (const auto& d : diagnostics(*snap)) {
    INFO(describe(d));
    if (d.code == "unsupported") CHECK(d.severity == 4);
  }
}

TEST_CASE("the fixture checker fails on a missing and on an unexpected diagnostic", "[lsp][diagnostics]") {
  // The checker itself must be able to fail: compare by hand what checkDiagnostics compares.
  auto annotated = parseAnnotations(kFixtures[0].source);
  REQUIRE(annotated.size() == 1);
  CHECK(annotated[0].kind == "error");
  CHECK(annotated[0].start == tlens::lang::TextPos{3, 4});
  CHECK(annotated[0].end == tlens::lang::TextPos{3, 19});
  auto snapOk = analyzeFixture(kFixtures[1].source);
  CHECK(diagnostics(*snapOk).empty());  // the annotation of fixture 0 would be missing here
  auto snapBad = analyzeFixture(kFixtures[0].source);
  CHECK(diagnostics(*snapBad).size() == 1);  // and unexpected in fixture 1
}

TEST_CASE("sys.exit(main()) with main() returning None or 0 is a clean exit, not a warning", "[lsp][diagnostics]") {
  // Before: the analysis warned "SystemExit: 0" / "SystemExit: None" (issue 22.11).
  for (const char* src : {"import sys\ndef main():\n    return None\nsys.exit(main())\n",
                          "import sys\ndef main():\n    return 0\nsys.exit(main())\n", "import sys\nsys.exit()\n"}) {
    INFO(src);
    auto snap = analyzeFixture(src);
    REQUIRE(snap);
    for (const auto& d : diagnostics(*snap)) CHECK(d.message.find("SystemExit") == std::string::npos);
  }
  // A failing exit status is still reported.
  auto failing = analyzeFixture("import sys\nsys.exit(2)\n");
  REQUIRE(failing);
  bool reported = false;
  for (const auto& d : diagnostics(*failing)) reported |= d.message.find("SystemExit: 2") != std::string::npos;
  CHECK(reported);
}
