from tensorflow import keras
model = keras.Sequential()
model.add(keras.layers.Conv2D(32, (5, 5), input_shape=(8, 8, 1)))
model.add(keras.layers.MaxPooling2D((2, 2)))
model.add(keras.layers.Conv2D(64, (5, 5)))  # BUG
