import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 20, 8])
cell = tf.nn.rnn_cell.BasicLSTMCell(64)
outputs, state = tf.nn.dynamic_rnn(cell, x, dtype=tf.float32)
w = tf.Variable(tf.zeros([128, 5]))
logits = tf.matmul(outputs[:, -1, :], w)  # BUG
