import numpy as np
from keras.models import Sequential
from keras.layers import LSTM, Dense
data = np.random.rand(1000, 10)
target = np.random.rand(1000, 1)
model = Sequential()
model.add(LSTM(50, input_shape=(10, 1)))
model.add(Dense(1))
model.compile(loss='mean_squared_error', optimizer='adam')
model.fit(data, target, epochs=100, batch_size=1, verbose=2)  # BUG
