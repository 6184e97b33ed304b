import tensorflow as tf
import numpy as np
x = tf.placeholder(tf.float64, [None, 3])
W = tf.Variable(tf.random_normal([3, 1]))
y = tf.matmul(x, W)  # BUG
