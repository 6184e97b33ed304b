import tensorflow as tf
import numpy as np
x = tf.placeholder(tf.float32, [None, 28, 28, 1])
y = tf.placeholder(tf.float32, [None, 10])
conv = tf.layers.conv2d(x, 32, 3, padding='same', activation=tf.nn.relu)
pool = tf.layers.max_pooling2d(conv, 2, 2)
logits = tf.layers.dense(pool, 10)
loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits_v2(labels=y, logits=logits))
train = tf.train.AdamOptimizer(1e-3).minimize(loss)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    bx = np.random.rand(50, 28, 28, 1)
    by = np.eye(10)[np.random.randint(0, 10, 50)]
    sess.run(train, feed_dict={x: bx, y: by})  # BUG
