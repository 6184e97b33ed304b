# The step of mlp_session.py as tf.function + GradientTape ("eager" as the second argument: no
# tf.function) (see README.md).
import sys
import numpy as np
import tensorflow as tf

steps = int(sys.argv[1])
np.random.seed(0)
batches = [(np.random.rand(128, 784).astype(np.float32),
            np.eye(10, dtype=np.float32)[np.random.randint(0, 10, 128)]) for _ in range(4)]
w1 = tf.Variable(tf.random.normal([784, 256], stddev=0.05))
b1 = tf.Variable(tf.zeros([256]))
w2 = tf.Variable(tf.random.normal([256, 10], stddev=0.05))
b2 = tf.Variable(tf.zeros([10]))
variables = [w1, b1, w2, b2]
opt = tf.keras.optimizers.SGD(0.1)


def step(bx, by):
    with tf.GradientTape() as tape:
        logits = tf.matmul(tf.nn.relu(tf.matmul(bx, w1) + b1), w2) + b2
        loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(labels=by, logits=logits))
    grads = tape.gradient(loss, variables)
    opt.apply_gradients(zip(grads, variables))
    return loss


if len(sys.argv) < 3 or sys.argv[2] != "eager":
    step = tf.function(step)
for s in range(steps):
    bx, by = batches[s % 4]
    l = step(bx, by)
