import numpy as np
import tensorflow as tf
a = np.ones((10**6, 10**6))
b = np.arange(10**12)
c = np.zeros((10**7, 10**6), dtype=np.float32)
d = np.random.rand(10**6, 10**6)
e = tf.zeros([10**6, 10**6])
