import numpy as np
import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 3072])
img = tf.reshape(x, [-1, 28, 28, 1])
m = tf.reduce_mean(img)
with tf.Session() as sess:
    print(sess.run(m, feed_dict={x: np.random.rand(100, 3072)}))  # BUG
