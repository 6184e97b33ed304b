from tensorflow import keras
model = keras.Sequential()
model.add(keras.layers.SimpleRNN(32, input_shape=(10,)))  # BUG
