import tensorflow as tf
W = tf.Variable(tf.random.normal([3, 4]))
b = tf.Variable(tf.zeros([4]))
x = tf.random.normal([16, 4])
y = tf.random.normal([16, 4])
opt = tf.keras.optimizers.SGD(0.1)
for step in range(10):
    with tf.GradientTape() as tape:
        pred = tf.matmul(x, W) + b  # BUG
        loss = tf.reduce_mean(tf.square(pred - y))
    grads = tape.gradient(loss, [W, b])
    opt.apply_gradients(zip(grads, [W, b]))
