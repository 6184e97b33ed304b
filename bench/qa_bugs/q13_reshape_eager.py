import tensorflow as tf
import numpy as np
images = tf.constant(np.random.rand(64, 28, 28), dtype=tf.float32)
flat = tf.reshape(images, [64, 784])
w = tf.Variable(tf.random.normal([784, 10]))
logits = flat @ w
pooled = tf.reshape(logits, [-1, 3])  # BUG
print(pooled.shape)
