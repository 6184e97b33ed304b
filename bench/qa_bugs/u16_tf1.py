import tensorflow as tf
import numpy as np
x = tf.placeholder(tf.float32, [None, 28, 28])
W = tf.Variable(tf.zeros([784, 10]))
y = tf.matmul(x, W)  # BUG
