import tensorflow as tf
inp = tf.keras.Input(shape=(100,))
a = tf.keras.layers.Dense(64)(inp)
b = tf.keras.layers.Dense(32)(inp)
s = tf.keras.layers.Add()([a, b])  # BUG
model = tf.keras.Model(inp, s)
