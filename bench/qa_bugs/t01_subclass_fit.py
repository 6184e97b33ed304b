import tensorflow as tf
import numpy as np
class MyModel(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.d1 = tf.keras.layers.Dense(64, activation='relu')
        self.d2 = tf.keras.layers.Dense(3)
    def call(self, x):
        return self.d2(self.d1(x))
model = MyModel()
model.compile(optimizer='adam', loss='mse')
x = np.random.rand(200, 8).astype('float32')
y = np.random.rand(200, 2).astype("float32")
model.fit(x, y, epochs=2)  # BUG
