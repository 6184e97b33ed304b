import tensorflow as tf
import numpy as np
x = tf.placeholder(tf.float32, [None, 784])
W1 = tf.Variable(tf.random_normal([500, 784]))
b1 = tf.Variable(tf.zeros([500]))
h1 = tf.nn.relu(tf.matmul(x, W1) + b1)  # BUG
W2 = tf.Variable(tf.random_normal([500, 10]))
out = tf.matmul(h1, W2)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(sess.run(out, feed_dict={x: np.random.rand(5, 784)}))
