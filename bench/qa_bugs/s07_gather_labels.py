import tensorflow as tf
import numpy as np
logits = tf.random.normal([8, 5])
labels = tf.constant(np.random.randint(0, 5, 10))
loss = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits)  # BUG
