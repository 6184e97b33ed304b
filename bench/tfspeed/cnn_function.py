# The step of cnn_session.py as tf.function + GradientTape ("eager" as the second argument: the
# tutorials' eager loop, no tf.function) (see README.md).
import sys
import numpy as np
import tensorflow as tf

steps = int(sys.argv[1])
np.random.seed(0)
batches = [(np.random.rand(32, 784).astype(np.float32),
            np.eye(10, dtype=np.float32)[np.random.randint(0, 10, 32)]) for _ in range(4)]
wc1 = tf.Variable(tf.random.normal([5, 5, 1, 32], stddev=0.1))
bc1 = tf.Variable(tf.zeros([32]))
wc2 = tf.Variable(tf.random.normal([5, 5, 32, 64], stddev=0.05))
bc2 = tf.Variable(tf.zeros([64]))
wd1 = tf.Variable(tf.random.normal([7 * 7 * 64, 1024], stddev=0.02))
bd1 = tf.Variable(tf.zeros([1024]))
wo = tf.Variable(tf.random.normal([1024, 10], stddev=0.05))
bo = tf.Variable(tf.zeros([10]))
variables = [wc1, bc1, wc2, bc2, wd1, bd1, wo, bo]
opt = tf.keras.optimizers.Adam(0.001)


def conv(t, w, b):
    return tf.nn.relu(tf.nn.bias_add(tf.nn.conv2d(t, w, strides=[1, 1, 1, 1], padding="SAME"), b))


def pool(t):
    return tf.nn.max_pool(t, ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding="SAME")


def step(bx, by):
    with tf.GradientTape() as tape:
        h = pool(conv(tf.reshape(bx, [-1, 28, 28, 1]), wc1, bc1))
        h = pool(conv(h, wc2, bc2))
        h = tf.nn.relu(tf.matmul(tf.reshape(h, [-1, 7 * 7 * 64]), wd1) + bd1)
        logits = tf.matmul(h, wo) + bo
        loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(labels=by, logits=logits))
    grads = tape.gradient(loss, variables)
    opt.apply_gradients(zip(grads, variables))
    return loss


if len(sys.argv) < 3 or sys.argv[2] != "eager":
    step = tf.function(step)
for s in range(steps):
    bx, by = batches[s % 4]
    l = step(bx, by)
