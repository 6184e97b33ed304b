import numpy as np
from keras.models import Sequential
from keras.layers import LSTM, Dense
X = np.random.rand(118, 45, 2)
y = np.random.rand(118, 1)
model = Sequential()
model.add(LSTM(512, input_shape=(45, 2), return_sequences=True))
model.add(LSTM(512, return_sequences=True))
model.add(Dense(1))
model.compile(loss='mse', optimizer='adam')
model.fit(X, y, epochs=5)  # BUG
