import numpy as np
from keras.models import Sequential
from keras.layers import Dense
x_train = np.random.rand(1000, 784)
y_train = np.random.rand(1000, 10)
model = Sequential([Dense(64, activation='relu', input_shape=(784,)), Dense(10, activation='softmax')])
model.compile(optimizer='sgd', loss='categorical_crossentropy')
model.fit(x_train, y_train, epochs=1)
print(model.predict(x_train[0]))  # BUG
