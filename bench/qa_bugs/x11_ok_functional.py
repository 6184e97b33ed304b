# NOT A BUG: a two-input functional model trained on a list of arrays
import numpy as np
from tensorflow import keras
a = keras.Input(shape=(4,))
b = keras.Input(shape=(3,))
h = keras.layers.concatenate([keras.layers.Dense(8)(a), keras.layers.Dense(8)(b)])
out = keras.layers.Dense(1)(h)
model = keras.Model([a, b], out)
model.compile(optimizer='adam', loss='mse')
model.fit([np.random.rand(32, 4), np.random.rand(32, 3)], np.random.rand(32), epochs=1, verbose=0)
