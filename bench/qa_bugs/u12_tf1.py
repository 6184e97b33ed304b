import tensorflow as tf
import numpy as np
x = tf.placeholder(tf.float32, [None, 3])
with tf.Session() as sess:
    print(sess.run(x, feed_dict={x: [[1, 2, 3], [4, 5]]}))  # BUG (known miss: a ragged list fed to a placeholder fails in the run (numpy cannot make it rectangular); the analysis does not check the shapes of literal lists in feeds yet)
