import numpy as np
import tensorflow as tf
x = np.random.rand(32, 10).astype('float32')
mean = x.mean(axis=0)
std = x.std(axis=0)
xn = (x - mean) / std
model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(10,))])
model.compile('sgd', 'mse')
model.fit(xn, np.random.rand(32), epochs=1, verbose=0)
