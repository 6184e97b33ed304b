import numpy as np
from keras.models import Sequential
from keras.layers import Conv2D, Flatten, Dense
from keras.datasets import cifar10
(x_train, y_train), (x_test, y_test) = cifar10.load_data()
model = Sequential()
model.add(Conv2D(32, (3, 3), input_shape=(3, 32, 32), activation='relu'))
model.add(Flatten())
model.add(Dense(10, activation='softmax'))
model.compile(loss='sparse_categorical_crossentropy', optimizer='adam')
model.fit(x_train, y_train, batch_size=64, epochs=1)  # BUG
