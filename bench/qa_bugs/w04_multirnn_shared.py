import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 20, 1])
cell = tf.nn.rnn_cell.BasicLSTMCell(128)
stack = tf.nn.rnn_cell.MultiRNNCell([cell] * 2)
outputs, state = tf.nn.dynamic_rnn(stack, x, dtype=tf.float32)  # BUG
