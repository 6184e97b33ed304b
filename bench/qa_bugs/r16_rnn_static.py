import tensorflow as tf
from tensorflow.contrib import rnn
x = tf.placeholder(tf.float32, [None, 28, 28])
inputs = tf.unstack(x, 28, 1)
cell = rnn.BasicLSTMCell(128)
outputs, states = rnn.static_rnn(cell, inputs, dtype=tf.float32)
W = tf.Variable(tf.random_normal([28, 10]))
logits = tf.matmul(outputs[-1], W)  # BUG
