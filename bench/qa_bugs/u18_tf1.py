import tensorflow as tf
import numpy as np
x = tf.placeholder(tf.int32, [None, 3])
w = tf.Variable(tf.zeros([3, 2]))
y = tf.matmul(x, w)  # BUG
