import tensorflow as tf
a = tf.zeros([3, 4])
b = tf.zeros([3, 5])
c = tf.stack([a, b])  # BUG
