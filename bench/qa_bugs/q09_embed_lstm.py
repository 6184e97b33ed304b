import numpy as np
from keras.models import Sequential
from keras.layers import Embedding, Flatten, LSTM, Dense
X = np.random.randint(0, 1000, (500, 50))
y = np.random.randint(0, 2, (500,))
model = Sequential()
model.add(Embedding(1000, 64, input_length=50))
model.add(Flatten())
model.add(LSTM(32))  # BUG
model.add(Dense(1, activation='sigmoid'))
model.compile('adam', 'binary_crossentropy')
model.fit(X, y)
