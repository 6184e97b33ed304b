import tensorflow as tf
import numpy as np
x = tf.placeholder(tf.float32, [None, 784])
c = tf.layers.conv2d(x, 32, 5)  # BUG
