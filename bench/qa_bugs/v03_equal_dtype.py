import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 784])
y = tf.placeholder(tf.int32, [None])
logits = tf.layers.dense(x, 10)
correct = tf.equal(tf.argmax(logits, 1), y)  # BUG
acc = tf.reduce_mean(tf.cast(correct, tf.float32))
