import numpy as np
from tensorflow import keras
model = keras.Sequential([keras.layers.Flatten(input_shape=(28, 28)), keras.layers.Dense(10)])
img = np.random.rand(784)
print(model.predict(img))  # BUG
