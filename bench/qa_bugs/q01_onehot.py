import numpy as np
from keras.models import Sequential
from keras.layers import Dense
X = np.random.rand(2592, 20)
Y = np.random.randint(0, 2, size=(2592, 1))
model = Sequential()
model.add(Dense(64, input_dim=20, activation='relu'))
model.add(Dense(2, activation='softmax'))
model.compile(loss='categorical_crossentropy', optimizer='adam', metrics=['accuracy'])
model.fit(X, Y, epochs=10, batch_size=32)  # BUG
