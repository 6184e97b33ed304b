# An int32 bias added to float32 activations: TensorFlow refuses to add them (no implicit casts).
# `tlens check` flags the tf.add line; the fix is tf.cast(bias, tf.float32) or a float bias.
import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 4], name="x")
w = tf.Variable(tf.ones([4, 3]), name="w")
bias = tf.constant([1, 2, 3], name="bias")  # int32: Python ints
activations = tf.matmul(x, w)
out = tf.add(activations, bias)
