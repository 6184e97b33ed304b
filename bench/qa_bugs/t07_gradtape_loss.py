import tensorflow as tf
model = tf.keras.Sequential([tf.keras.layers.Dense(10)])
opt = tf.keras.optimizers.Adam()
loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
x = tf.random.normal([64, 20])
y = tf.random.uniform([64, 10])
with tf.GradientTape() as tape:
    logits = model(x)
    loss = loss_fn(y, logits)  # BUG
grads = tape.gradient(loss, model.trainable_variables)
