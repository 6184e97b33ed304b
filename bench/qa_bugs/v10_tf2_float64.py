import numpy as np
import tensorflow as tf
x = tf.constant(np.random.rand(16, 4))
w = tf.Variable(tf.random.normal([4, 3]))
y = tf.matmul(x, w)  # BUG
