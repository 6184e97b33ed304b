import tensorflow as tf
a = tf.zeros([10, 5])
b = tf.zeros([10, 6])
s = tf.add_n([a, b])  # BUG
