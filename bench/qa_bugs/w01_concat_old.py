import tensorflow as tf
a = tf.placeholder(tf.float32, [None, 3])
b = tf.placeholder(tf.float32, [None, 4])
c = tf.concat(1, [a, b])  # BUG
