import tensorflow as tf
x = tf.keras.Input(shape=())
y = tf.keras.layers.Dense(10)(x)  # BUG
