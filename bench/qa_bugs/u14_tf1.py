import tensorflow as tf
import numpy as np
x = tf.placeholder(tf.float32, [4, 4])
y = tf.tile(x, [2])  # BUG
