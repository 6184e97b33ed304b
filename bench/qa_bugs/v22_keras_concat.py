from tensorflow import keras
a = keras.Input(shape=(10,))
b = keras.Input(shape=(5, 2))
c = keras.layers.concatenate([a, b])  # BUG
