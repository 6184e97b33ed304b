# The tutorials' raw tf.nn.conv2d CNN (5x5x32, pool, 5x5x64, pool, 1024, 10), batch 32, Adam,
# as a TF1 Session.run step (see README.md).
import sys
import numpy as np
import tensorflow as tf

steps = int(sys.argv[1])
np.random.seed(0)
batches = [(np.random.rand(32, 784).astype(np.float32),
            np.eye(10, dtype=np.float32)[np.random.randint(0, 10, 32)]) for _ in range(4)]
tf.compat.v1.disable_eager_execution()
x = tf.compat.v1.placeholder(tf.float32, [None, 784])
y = tf.compat.v1.placeholder(tf.float32, [None, 10])
wc1 = tf.Variable(tf.random.normal([5, 5, 1, 32], stddev=0.1))
bc1 = tf.Variable(tf.zeros([32]))
wc2 = tf.Variable(tf.random.normal([5, 5, 32, 64], stddev=0.05))
bc2 = tf.Variable(tf.zeros([64]))
wd1 = tf.Variable(tf.random.normal([7 * 7 * 64, 1024], stddev=0.02))
bd1 = tf.Variable(tf.zeros([1024]))
wo = tf.Variable(tf.random.normal([1024, 10], stddev=0.05))
bo = tf.Variable(tf.zeros([10]))


def conv(t, w, b):
    return tf.nn.relu(tf.nn.bias_add(tf.nn.conv2d(t, w, strides=[1, 1, 1, 1], padding="SAME"), b))


def pool(t):
    return tf.nn.max_pool(t, ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding="SAME")


h = pool(conv(tf.reshape(x, [-1, 28, 28, 1]), wc1, bc1))
h = pool(conv(h, wc2, bc2))
h = tf.nn.relu(tf.matmul(tf.reshape(h, [-1, 7 * 7 * 64]), wd1) + bd1)
logits = tf.matmul(h, wo) + bo
loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(labels=y, logits=logits))
train = tf.compat.v1.train.AdamOptimizer(0.001).minimize(loss)
sess = tf.compat.v1.Session()
sess.run(tf.compat.v1.global_variables_initializer())
for s in range(steps):
    bx, by = batches[s % 4]
    _, l = sess.run([train, loss], feed_dict={x: bx, y: by})
