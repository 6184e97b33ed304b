import tensorflow as tf
from tensorflow.examples.tutorials.mnist import input_data
mnist = input_data.read_data_sets("MNIST_data", one_hot=True)
x = tf.placeholder(tf.float32, [None, 784])
y_ = tf.placeholder(tf.float32, [None, 10])
x_img = tf.reshape(x, [-1, 28, 28, 1])
conv = tf.layers.conv2d(x_img, 16, 5, padding='valid', activation=tf.nn.relu)
pool = tf.layers.max_pooling2d(conv, 2, 2)
flat = tf.reshape(pool, [-1, 14 * 14 * 16])
logits = tf.layers.dense(flat, 10)
correct = tf.equal(tf.argmax(logits, 1), tf.argmax(y_, 1))
acc = tf.reduce_mean(tf.cast(correct, tf.float32))
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(sess.run(acc, feed_dict={x: mnist.test.images, y_: mnist.test.labels}))  # BUG
