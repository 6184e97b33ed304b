import tensorflow as tf
x = tf.zeros([2, 3])
y = tf.reshape(x, [4, 2])
while True:
    x = x + 1
