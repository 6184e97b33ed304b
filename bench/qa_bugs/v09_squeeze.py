import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 10])
y = tf.squeeze(x, axis=1)  # BUG
