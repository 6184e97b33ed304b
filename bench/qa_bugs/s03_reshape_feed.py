import tensorflow as tf
import numpy as np
x = tf.placeholder(tf.float32, [None, 32 * 32 * 3])
img = tf.reshape(x, [-1, 28, 28, 1])
out = tf.reduce_mean(img)
with tf.Session() as sess:
    print(sess.run(out, feed_dict={x: np.zeros((50, 3072))}))  # BUG
