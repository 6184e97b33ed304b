import numpy as np
from keras.models import Sequential
from keras.layers import Dense
from keras.utils import np_utils
X = np.random.rand(300, 4)
y = np_utils.to_categorical(np.random.randint(0, 3, 300), 3)
model = Sequential()
model.add(Dense(8, input_dim=4, activation='relu'))
model.add(Dense(1, activation='softmax'))
model.compile(loss='categorical_crossentropy', optimizer='adam')
model.fit(X, y, epochs=200, batch_size=5)  # BUG
