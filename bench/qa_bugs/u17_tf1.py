import tensorflow as tf
import numpy as np
a = tf.split(1, 2, tf.zeros([4, 6]))  # BUG
