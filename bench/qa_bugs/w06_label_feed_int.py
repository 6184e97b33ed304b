import numpy as np
import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 4])
y = tf.placeholder(tf.float32, [None, 3])
w = tf.Variable(tf.zeros([4, 3]))
logits = tf.matmul(x, w)
loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits_v2(labels=y, logits=logits))
train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
X = np.random.rand(150, 4)
Y = np.random.randint(0, 3, size=150)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for i in range(10):
        sess.run(train, feed_dict={x: X, y: Y})  # BUG
