# A 784-256-10 MLP step as a TF1 Session.run (see README.md).
import sys
import numpy as np
import tensorflow as tf

steps = int(sys.argv[1])
np.random.seed(0)
batches = [(np.random.rand(128, 784).astype(np.float32),
            np.eye(10, dtype=np.float32)[np.random.randint(0, 10, 128)]) for _ in range(4)]
tf.compat.v1.disable_eager_execution()
x = tf.compat.v1.placeholder(tf.float32, [None, 784])
y = tf.compat.v1.placeholder(tf.float32, [None, 10])
w1 = tf.Variable(tf.random.normal([784, 256], stddev=0.05))
b1 = tf.Variable(tf.zeros([256]))
w2 = tf.Variable(tf.random.normal([256, 10], stddev=0.05))
b2 = tf.Variable(tf.zeros([10]))
logits = tf.matmul(tf.nn.relu(tf.matmul(x, w1) + b1), w2) + b2
loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(labels=y, logits=logits))
train = tf.compat.v1.train.GradientDescentOptimizer(0.1).minimize(loss)
sess = tf.compat.v1.Session()
sess.run(tf.compat.v1.global_variables_initializer())
for s in range(steps):
    bx, by = batches[s % 4]
    _, l = sess.run([train, loss], feed_dict={x: bx, y: by})
