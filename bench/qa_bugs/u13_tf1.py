import tensorflow as tf
import numpy as np
x = tf.placeholder(tf.float32, [None, 4])
b = tf.Variable(tf.zeros([5]))
y = tf.nn.bias_add(x, b)  # BUG
