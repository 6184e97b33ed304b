# NOT A BUG: mse broadcasts (100,1) against (100,10,1) per time step; Keras warns nothing and trains
import numpy as np
from tensorflow import keras
x = np.random.rand(100, 10, 4)
y = np.random.rand(100, 1)
model = keras.Sequential([keras.layers.LSTM(32, return_sequences=True, input_shape=(10, 4)),
                          keras.layers.Dense(1)])
model.compile(optimizer='adam', loss='mse')
model.fit(x, y, epochs=1)
print(model.predict(x).shape)
