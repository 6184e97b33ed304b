from tensorflow import keras
model = keras.Sequential()
model.add(keras.layers.Conv1D(16, 3, input_shape=(100, 4)))
model.add(keras.layers.GlobalAveragePooling2D())  # BUG
