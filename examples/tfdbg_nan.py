# The tfdbg tutorial's bug (debug_mnist.py): cross entropy computed as -sum(y_ * log(softmax(y))).
# Once training pushes a softmax output to exactly 0, tf.log gives -inf and the loss turns into
# NaN. `tlens run --check-numerics examples/tfdbg_nan.py` stops at the first node that produced
# -inf (cross_entropy/Log, on the tf.log line) and shows its input held exact zeros.
import numpy as np
import tensorflow as tf

IMAGE_SIZE = 28
HIDDEN_SIZE = 500
NUM_LABELS = 10
RAND_SEED = 42

tf.set_random_seed(RAND_SEED)
np.random.seed(RAND_SEED)

xs = np.random.rand(100, IMAGE_SIZE * IMAGE_SIZE).astype(np.float32) * 20.0
labels = np.random.randint(0, NUM_LABELS, 100)
ys = (labels.reshape(100, 1) == np.arange(NUM_LABELS).reshape(1, NUM_LABELS)).astype(np.float32)

x = tf.placeholder(tf.float32, [None, IMAGE_SIZE * IMAGE_SIZE], name="x-input")
y_ = tf.placeholder(tf.float32, [None, NUM_LABELS], name="y-input")


def weight_variable(shape):
    return tf.Variable(tf.truncated_normal(shape, stddev=0.1, seed=RAND_SEED))


def bias_variable(shape):
    return tf.Variable(tf.constant(0.1, shape=shape))


def nn_layer(input_tensor, input_dim, output_dim, layer_name, act=tf.nn.relu):
    with tf.name_scope(layer_name):
        weights = weight_variable([input_dim, output_dim])
        biases = bias_variable([output_dim])
        preactivate = tf.matmul(input_tensor, weights) + biases
        return act(preactivate)


hidden = nn_layer(x, IMAGE_SIZE * IMAGE_SIZE, HIDDEN_SIZE, "hidden")
logits = nn_layer(hidden, HIDDEN_SIZE, NUM_LABELS, "output", tf.identity)
y = tf.nn.softmax(logits, name="softmax")

with tf.name_scope("cross_entropy"):
    diff = -(y_ * tf.log(y))
    with tf.name_scope("total"):
        cross_entropy = tf.reduce_mean(diff)

train_step = tf.train.AdamOptimizer(0.025).minimize(cross_entropy)
correct_prediction = tf.equal(tf.argmax(y, 1), tf.argmax(y_, 1))
accuracy = tf.reduce_mean(tf.cast(correct_prediction, tf.float32))

sess = tf.Session()
sess.run(tf.global_variables_initializer())
for i in range(10):
    acc, loss, _ = sess.run([accuracy, cross_entropy, train_step], feed_dict={x: xs, y_: ys})
    print("Accuracy at step %d: %s  loss: %s" % (i, acc, loss))
