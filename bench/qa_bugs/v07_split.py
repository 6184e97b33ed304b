import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 10])
a, b, c = tf.split(x, 3, axis=1)  # BUG
