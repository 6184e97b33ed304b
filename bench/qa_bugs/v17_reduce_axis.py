import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 10])
s = tf.reduce_sum(x, axis=2)  # BUG
