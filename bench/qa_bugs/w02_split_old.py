import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 8])
a, b = tf.split(1, 2, x)  # BUG
