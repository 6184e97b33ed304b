import tensorflow as tf
from tensorflow.examples.tutorials.mnist import input_data
mnist = input_data.read_data_sets("/tmp/data", one_hot=True)
x = tf.placeholder(tf.float32, [None, 784])
y = tf.placeholder(tf.int64, [None])
W = tf.Variable(tf.zeros([784, 10]))
logits = tf.matmul(x, W)
loss = tf.losses.sparse_softmax_cross_entropy(labels=y, logits=logits)
train = tf.train.GradientDescentOptimizer(0.5).minimize(loss)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    bx, by = mnist.train.next_batch(100)
    sess.run(train, feed_dict={x: bx, y: by})  # BUG
