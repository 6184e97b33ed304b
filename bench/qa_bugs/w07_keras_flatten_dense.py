import numpy as np
from keras.models import Sequential
from keras.layers import Conv2D, MaxPooling2D, Dense
x = np.random.rand(100, 28, 28, 1)
y = np.eye(10)[np.random.randint(0, 10, 100)]
model = Sequential()
model.add(Conv2D(16, (3, 3), activation='relu', input_shape=(28, 28, 1)))
model.add(MaxPooling2D((2, 2)))
model.add(Dense(10, activation='softmax'))
model.compile(loss='categorical_crossentropy', optimizer='adam')
model.fit(x, y, epochs=1)  # BUG
