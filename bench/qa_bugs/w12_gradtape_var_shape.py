import tensorflow as tf
w = tf.Variable(tf.random.normal([3, 1]))
b = tf.Variable(0.0)
x = tf.random.normal([100, 3])
y = tf.random.normal([100, 1])
opt = tf.keras.optimizers.SGD(0.1)
for step in range(3):
    with tf.GradientTape() as tape:
        pred = tf.matmul(x, w) + b
        loss = tf.reduce_mean(tf.square(pred - y))
    grads = tape.gradient(loss, [w, b])
    opt.apply_gradients(zip(grads, [w, b]))
w.assign(tf.zeros([1, 3]))  # BUG
