import tensorflow as tf
(x_train, y_train), _ = tf.keras.datasets.fashion_mnist.load_data()
ds = tf.data.Dataset.from_tensor_slices((x_train / 255.0, y_train)).shuffle(1000).batch(64)
model = tf.keras.Sequential([
    tf.keras.layers.Conv2D(32, 3, activation='relu', input_shape=(28, 28, 1)),
    tf.keras.layers.Flatten(),
    tf.keras.layers.Dense(10)])
model.compile('adam', tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
model.fit(ds, epochs=1)  # BUG
