import numpy as np
from keras.models import Sequential
from keras.layers import Conv1D, GlobalMaxPooling1D, Dense
X = np.random.rand(200, 100)
y = np.random.randint(0, 2, 200)
model = Sequential()
model.add(Conv1D(16, 3, activation='relu', input_shape=(100, 1)))
model.add(GlobalMaxPooling1D())
model.add(Dense(1, activation='sigmoid'))
model.compile('adam', 'binary_crossentropy')
model.fit(X, y, epochs=2)  # BUG
