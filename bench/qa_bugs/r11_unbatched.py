import tensorflow as tf
(x_train, y_train), _ = tf.keras.datasets.mnist.load_data()
ds = tf.data.Dataset.from_tensor_slices((x_train / 255.0, y_train))
model = tf.keras.Sequential([tf.keras.layers.Flatten(input_shape=(28, 28)), tf.keras.layers.Dense(10, activation='softmax')])
model.compile('adam', 'sparse_categorical_crossentropy')
model.fit(ds, epochs=1)  # BUG
