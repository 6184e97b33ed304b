import numpy as np
from tensorflow import keras
inp = keras.Input(shape=(8,))
out1 = keras.layers.Dense(1, name='a')(inp)
out2 = keras.layers.Dense(3, activation='softmax', name='b')(inp)
model = keras.Model(inp, [out1, out2])
model.compile(optimizer='adam', loss=['mse', 'categorical_crossentropy'])
x = np.random.rand(50, 8)
model.fit(x, [np.random.rand(50, 1), np.random.randint(0, 3, (50,))], epochs=1)  # BUG
