from keras.models import Sequential
from keras.layers import Dense, Reshape
model = Sequential()
model.add(Dense(100, input_shape=(20,)))
model.add(Reshape((28, 28)))  # BUG
