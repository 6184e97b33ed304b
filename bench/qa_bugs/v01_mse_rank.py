import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 13])
y = tf.placeholder(tf.float32, [None])
w = tf.Variable(tf.zeros([13, 1]))
pred = tf.matmul(x, w)
loss = tf.losses.mean_squared_error(y, pred)  # BUG
