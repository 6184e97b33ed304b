import tensorflow as tf
a = tf.zeros([4, 5, 6])
b = tf.zeros([7, 8])
c = tf.tensordot(a, b, axes=[[2], [0]])  # BUG
