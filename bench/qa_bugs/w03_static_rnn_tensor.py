import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 28, 28])
cell = tf.nn.rnn_cell.BasicLSTMCell(128)
outputs, states = tf.nn.static_rnn(cell, x, dtype=tf.float32)  # BUG
