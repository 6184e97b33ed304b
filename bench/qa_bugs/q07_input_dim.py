import numpy as np
import pandas as pd
from keras.models import Sequential
from keras.layers import Dense
X = np.random.rand(768, 8)
Y = np.random.randint(0, 2, 768)
model = Sequential()
model.add(Dense(12, input_dim=9, activation='relu'))
model.add(Dense(1, activation='sigmoid'))
model.compile(loss='binary_crossentropy', optimizer='adam', metrics=['accuracy'])
model.fit(X, Y, epochs=150, batch_size=10)  # BUG
