import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 28, 28, 1])
W = tf.Variable(tf.zeros([5, 5, 1, 8]))
c = tf.nn.conv2d(x, W, strides=[1, 1], padding="SAME")  # BUG
