import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 784])
p = tf.nn.max_pool(x, ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding='SAME')  # BUG
