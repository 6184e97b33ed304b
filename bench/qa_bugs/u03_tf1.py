import tensorflow as tf
import numpy as np
logits = tf.placeholder(tf.float32, [None, 10])
labels = tf.placeholder(tf.float32, [None, 10])
loss = tf.nn.softmax_cross_entropy_with_logits(logits, labels)  # BUG
