from tensorflow import keras
a = keras.Input(shape=(10,))
b = keras.Input(shape=(10,))
h = keras.layers.Dense(8)(a)
out = keras.layers.Dense(1)(h)
model = keras.Model(inputs=b, outputs=out)  # BUG (known miss: an exception Keras raises from the model structure is not reported unless it is a shape or dtype message)
