import tensorflow as tf
import numpy as np
x = tf.placeholder(tf.float32, [None, 10])
t = tf.transpose(x, [0, 2, 1])  # BUG
