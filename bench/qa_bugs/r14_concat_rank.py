import tensorflow as tf
a = tf.placeholder(tf.float32, [None, 10])
b = tf.placeholder(tf.float32, [None, 5, 2])
c = tf.concat([a, b], axis=1)  # BUG
