import numpy as np
import tensorflow as tf
x = np.random.rand(100, 4).astype('float32')
y = np.random.rand(100, 1).astype('float32')
ds = tf.data.Dataset.from_tensor_slices(x).batch(10)
model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(4,))])
model.compile(optimizer='sgd', loss='mse')
model.fit(ds, y, epochs=1)  # BUG (known miss: an exception Keras raises from the model structure is not reported unless it is a shape or dtype message)
