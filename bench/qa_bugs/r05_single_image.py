import tensorflow as tf
import numpy as np
model = tf.keras.Sequential([
    tf.keras.layers.Conv2D(16, 3, activation='relu', input_shape=(64, 64, 3)),
    tf.keras.layers.GlobalAveragePooling2D(),
    tf.keras.layers.Dense(2, activation='softmax')])
img = np.random.rand(64, 64, 3).astype('float32')
print(model.predict(img))  # BUG
