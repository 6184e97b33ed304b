import tensorflow as tf
import numpy as np
n_hidden = 256
X = tf.placeholder(tf.float32, [None, 784])
weights = {'h1': tf.Variable(tf.random_normal([784, n_hidden])), 'out': tf.Variable(tf.random_normal([n_hidden, 10]))}
biases = {'b1': tf.Variable(tf.random_normal([n_hidden])), 'out': tf.Variable(tf.random_normal([n_hidden]))}
layer1 = tf.nn.relu(tf.add(tf.matmul(X, weights['h1']), biases['b1']))
out = tf.matmul(layer1, weights['out']) + biases['out']  # BUG
sess = tf.Session()
sess.run(tf.global_variables_initializer())
print(sess.run(out, {X: np.zeros((1, 784))}))
