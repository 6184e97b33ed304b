import tensorflow as tf
import numpy as np
x = tf.placeholder(tf.float32, [None, 10])
s = tf.squeeze(x, [1])  # BUG
