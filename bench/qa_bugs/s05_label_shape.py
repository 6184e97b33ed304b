import tensorflow as tf
import numpy as np
X = tf.placeholder(tf.float32, [None, 13])
Y = tf.placeholder(tf.float32, [None, 1])
W = tf.Variable(tf.zeros([13, 1]))
pred = tf.matmul(X, W)
cost = tf.reduce_mean(tf.square(pred - Y))
opt = tf.train.GradientDescentOptimizer(0.01).minimize(cost)
train_X = np.random.rand(404, 13)
train_Y = np.random.rand(404)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for epoch in range(100):
        sess.run(opt, feed_dict={X: train_X, Y: train_Y})  # BUG
