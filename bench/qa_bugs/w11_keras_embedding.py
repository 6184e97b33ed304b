import numpy as np
from tensorflow import keras
x = np.random.randint(0, 1000, size=(200, 50))
y = np.random.randint(0, 2, size=(200,))
model = keras.Sequential([keras.layers.Embedding(1000, 16, input_length=50),
                          keras.layers.Dense(1, activation='sigmoid')])
model.compile(optimizer='adam', loss='binary_crossentropy')
model.fit(x, y, epochs=1)  # BUG
