import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 10, 32])
w = tf.Variable(tf.zeros([64, 16]))
y = tf.matmul(x, w)  # BUG
