import tensorflow as tf
import numpy as np
x = tf.placeholder(tf.float32, [None, 28, 28, 1])
p = tf.nn.max_pool(x, ksize=[2, 2], strides=[2, 2], padding="SAME")  # BUG
