import numpy as np
import tensorflow as tf
model = tf.keras.Sequential([tf.keras.layers.Dense(16, activation='relu', input_shape=(4,)), tf.keras.layers.Dense(3, activation='softmax')])
model.compile('adam', 'categorical_crossentropy', metrics=['accuracy'])
X = np.random.rand(150, 4)
Y = tf.keras.utils.to_categorical(np.random.randint(0, 3, 150), 3)
model.fit(X, Y, epochs=1, verbose=0)
X_test = np.random.rand(30, 5)
print(model.evaluate(X_test, Y[:30]))  # BUG
