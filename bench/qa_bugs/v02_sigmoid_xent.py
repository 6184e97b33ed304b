import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 20])
y = tf.placeholder(tf.float32, [None])
logits = tf.layers.dense(x, 1)
loss = tf.reduce_mean(tf.nn.sigmoid_cross_entropy_with_logits(labels=y, logits=logits))  # BUG
