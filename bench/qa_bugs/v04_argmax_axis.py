import tensorflow as tf
y = tf.placeholder(tf.int64, [None])
logits = tf.placeholder(tf.float32, [None, 10])
correct = tf.equal(tf.argmax(logits, 1), tf.argmax(y, 1))  # BUG
