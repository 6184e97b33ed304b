import numpy as np
import tensorflow as tf
a = tf.keras.Input(shape=(10,))
b = tf.keras.Input(shape=(5,))
h = tf.keras.layers.Concatenate()([a, b])
out = tf.keras.layers.Dense(1)(h)
model = tf.keras.Model(inputs=[a, b], outputs=out)
model.compile('adam', 'mse')
model.fit(np.random.rand(100, 15), np.random.rand(100, 1))  # BUG
