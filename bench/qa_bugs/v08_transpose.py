import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 28])
y = tf.transpose(x, [0, 2, 1])  # BUG
