import tensorflow as tf
import numpy as np
x = tf.placeholder(tf.float32, [None, 784])
y = tf.reshape(x, [-1, -1, 28])  # BUG
