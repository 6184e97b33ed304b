# A static LSTM over 28 time steps (the tutorials' recurrent_network shape: 28x28 rows,
# BasicLSTMCell(128), batch 128, Adam) as a TF1 Session.run step (see README.md).
import sys
import numpy as np
import tensorflow as tf

steps = int(sys.argv[1])
np.random.seed(0)
batches = [(np.random.rand(128, 28, 28).astype(np.float32),
            np.eye(10, dtype=np.float32)[np.random.randint(0, 10, 128)]) for _ in range(4)]
tf.compat.v1.disable_eager_execution()
x = tf.compat.v1.placeholder(tf.float32, [None, 28, 28])
y = tf.compat.v1.placeholder(tf.float32, [None, 10])
w = tf.Variable(tf.random.normal([128, 10], stddev=0.05))
b = tf.Variable(tf.zeros([10]))
cell = tf.compat.v1.nn.rnn_cell.BasicLSTMCell(128, forget_bias=1.0)
outputs, states = tf.compat.v1.nn.static_rnn(cell, tf.unstack(x, 28, 1), dtype=tf.float32)
logits = tf.matmul(outputs[-1], w) + b
loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(labels=y, logits=logits))
train = tf.compat.v1.train.AdamOptimizer(0.001).minimize(loss)
sess = tf.compat.v1.Session()
sess.run(tf.compat.v1.global_variables_initializer())
for s in range(steps):
    bx, by = batches[s % 4]
    _, l = sess.run([train, loss], feed_dict={x: bx, y: by})
