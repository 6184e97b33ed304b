# NOT A BUG: sparse labels of shape (N, 1) with sparse_categorical_crossentropy
import numpy as np
from tensorflow import keras
x = np.random.rand(100, 8)
y = np.random.randint(0, 3, size=(100, 1))
model = keras.Sequential([keras.layers.Dense(3, activation='softmax', input_shape=(8,))])
model.compile(optimizer='adam', loss='sparse_categorical_crossentropy', metrics=['accuracy'])
model.fit(x, y, epochs=1, verbose=0)
