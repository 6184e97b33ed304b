import tensorflow as tf
import numpy as np
labels = tf.placeholder(tf.float32, [None])
oh = tf.one_hot(labels, 10)  # BUG
