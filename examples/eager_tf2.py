# TF2 style: eager tensors, a tf.function, a GradientTape training loop on tf.Variables.
import numpy as np
import tensorflow as tf

np.random.seed(0)
features = np.random.rand(256, 8).astype(np.float32)
true_w = np.arange(8).reshape(8, 1).astype(np.float32) / 8.0
targets = features @ true_w + 0.5

w = tf.Variable(tf.zeros([8, 1]), name="w")
b = tf.Variable(tf.zeros([1]), name="b")


@tf.function
def predict(x):
    return tf.matmul(x, w) + b


def loss_fn(x, y):
    return tf.reduce_mean(tf.square(predict(x) - y))


learning_rate = 0.1
for step in range(201):
    with tf.GradientTape() as tape:
        loss = loss_fn(features, targets)
    dw, db = tape.gradient(loss, [w, b])
    w.assign_sub(learning_rate * dw)
    b.assign_sub(learning_rate * db)
    if step % 50 == 0:
        tf.print("step", step, "loss", loss)

print("learned bias: %.3f" % float(b.numpy()[0]))
tf.debugging.assert_less(loss_fn(features, targets), 0.05, message="the model did not fit")
