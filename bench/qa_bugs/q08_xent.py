import tensorflow as tf
import numpy as np
x = tf.placeholder(tf.float32, [None, 4])
y = tf.placeholder(tf.float32, [None, 1])
W = tf.Variable(tf.random_normal([4, 3]))
b = tf.Variable(tf.zeros([3]))
logits = tf.matmul(x, W) + b
loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(labels=y, logits=logits))
opt = tf.train.AdamOptimizer(0.01).minimize(loss)
data = np.random.rand(150, 4)
labels = np.random.randint(0, 3, (150, 1)).astype(np.float32)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(100):
        _, l = sess.run([opt, loss], feed_dict={x: data, y: labels})  # NOT A BUG: SoftmaxCrossEntropyWithLogits broadcasts labels [N, 1] against logits [N, 3] (TF >= 1.5); it runs
