import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 50])
cell = tf.nn.rnn_cell.BasicLSTMCell(64)
outputs, state = tf.nn.dynamic_rnn(cell, x, dtype=tf.float32)  # BUG
