import tensorflow as tf
import numpy as np
x = tf.placeholder(tf.float32, [None, 3])
y = tf.argmax(x, 2)  # BUG
