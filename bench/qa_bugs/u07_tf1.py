import tensorflow as tf
import numpy as np
x = tf.placeholder(tf.float32, [None, 10])
m = tf.reduce_mean(x, axis=2)  # BUG
