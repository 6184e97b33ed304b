# NOT A BUG: a scalar learning rate fed to a placeholder of shape []
import numpy as np
import tensorflow as tf
lr = tf.placeholder(tf.float32, [])
x = tf.placeholder(tf.float32, [None, 2])
w = tf.Variable(tf.ones([2, 1]))
loss = tf.reduce_mean(tf.matmul(x, w))
step = tf.train.GradientDescentOptimizer(lr).minimize(loss)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    sess.run(step, feed_dict={lr: 0.01, x: np.ones((4, 2))})
