import tensorflow as tf
import numpy as np
x = tf.placeholder(tf.float32, [None, 32, 32, 1])
W = tf.Variable(tf.truncated_normal([5, 5, 3, 32], stddev=0.1))
h = tf.nn.conv2d(x, W, strides=[1, 1, 1, 1], padding='SAME')  # BUG
