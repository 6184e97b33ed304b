import numpy as np
import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 28, 28, 1])
w = tf.Variable(tf.truncated_normal([5, 5, 1, 32], stddev=0.1))
h = tf.nn.conv2d(x, w, strides=[1, 1, 1, 1], padding='SAME')
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    batch = np.random.rand(50, 784)
    sess.run(h, feed_dict={x: batch})  # BUG
