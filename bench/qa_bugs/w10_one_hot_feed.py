import numpy as np
import tensorflow as tf
labels = tf.placeholder(tf.int32, [None])
onehot = tf.one_hot(labels, 10)
logits = tf.placeholder(tf.float32, [None, 10])
loss = tf.nn.softmax_cross_entropy_with_logits_v2(labels=onehot, logits=logits)
with tf.Session() as sess:
    lab = np.random.randint(0, 10, size=(32, 1))
    sess.run(loss, feed_dict={labels: lab, logits: np.zeros((32, 10))})  # BUG
