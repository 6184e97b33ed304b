import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 784])
y = tf.placeholder(tf.int64, [None, 10])
logits = tf.layers.dense(x, 10)
loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))  # BUG
