from tensorflow import keras
model = keras.Sequential()
model.add(keras.layers.Dense(32, input_shape=(16,)))
model.add(keras.layers.TimeDistributed(keras.layers.Dense(8)))  # BUG
