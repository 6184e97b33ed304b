import numpy as np
import tensorflow as tf
series = np.sin(np.arange(1000) * 0.1)
X = np.array([series[i:i + 20] for i in range(900)])
y = series[20:920]
model = tf.keras.Sequential([tf.keras.layers.LSTM(32, input_shape=(20, 1)), tf.keras.layers.Dense(1)])
model.compile('adam', 'mse')
model.fit(X, y, epochs=2)  # BUG
