import tensorflow as tf
import numpy as np
a = tf.placeholder(tf.float32, [None, 3])
b = tf.placeholder(tf.float32, [None, 4])
s = tf.stack([a, b])  # BUG
