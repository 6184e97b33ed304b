import numpy as np
from keras.models import Sequential
from keras.layers import Dense
X = np.random.rand(100, 10)
y = np.random.rand(90, 1)
model = Sequential([Dense(1, input_shape=(10,))])
model.compile('sgd', 'mse')
model.fit(X, y, epochs=3)  # BUG
