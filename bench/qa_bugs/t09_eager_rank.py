import tensorflow as tf
x = tf.random.normal([8, 4])
s = tf.reduce_sum(x, axis=1)
w = tf.random.normal([4, 2])
out = tf.matmul(s, w)  # BUG
