import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 784])
W = tf.Variable(tf.truncated_normal([5, 5, 1, 32], stddev=0.1))
conv = tf.nn.conv2d(x, W, strides=[1, 1, 1, 1], padding='SAME')  # BUG
