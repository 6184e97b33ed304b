import numpy as np
import tensorflow as tf
(x_train, y_train), _ = tf.keras.datasets.mnist.load_data()
x_train = np.reshape(x_train, (60000, 784, 1)) / 255.0
y_train = tf.keras.utils.to_categorical(y_train, 10)
model = tf.keras.Sequential([tf.keras.layers.Dense(128, activation='relu'), tf.keras.layers.Dense(10, activation='softmax')])
model.compile('adam', 'categorical_crossentropy')
model.fit(x_train, y_train, epochs=1)  # BUG
