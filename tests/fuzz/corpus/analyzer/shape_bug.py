# A shape bug that tensorlens finds before anything runs: `tlens check examples/shape_bug.py`
# reports the matmul's inner dimensions (784 vs 256) and where both shapes came from.
import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 784], name="images")
w1 = tf.Variable(tf.random_normal([784, 256]), name="w1")
w2 = tf.Variable(tf.random_normal([784, 10]), name="w2")  # should be [256, 10]

hidden = tf.nn.relu(tf.matmul(x, w1))
logits = tf.matmul(hidden, w2)
flat = tf.reshape(hidden, [-1, 7 * 7 * 64])
