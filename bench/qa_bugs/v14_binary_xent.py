import numpy as np
import tensorflow as tf
x = np.random.rand(200, 8).astype('float32')
y = np.random.randint(0, 2, size=(200,))
model = tf.keras.Sequential([tf.keras.layers.Dense(16, activation='relu', input_shape=(8,)),
                             tf.keras.layers.Dense(2, activation='sigmoid')])
model.compile(optimizer='adam', loss='binary_crossentropy')
model.fit(x, y, epochs=1)  # BUG
