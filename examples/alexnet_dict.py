# An AlexNet-style convolutional network whose layers live in dicts of weights and biases, the
# way many TF1 tutorials wrote it. Small images (64x64x3, synthetic) so it trains in seconds.
import numpy as np
import tensorflow as tf

n_classes = 10
batch_size = 16
dropout = 0.75

x = tf.placeholder(tf.float32, [None, 64, 64, 3], name="images")
y = tf.placeholder(tf.float32, [None, n_classes], name="labels")
keep_prob = tf.placeholder(tf.float32, name="keep_prob")


def conv2d(name, l_input, w, b, stride=1):
    return tf.nn.relu(tf.nn.bias_add(tf.nn.conv2d(l_input, w, strides=[1, stride, stride, 1], padding="SAME"), b), name=name)


def max_pool(name, l_input, k):
    return tf.nn.max_pool(l_input, ksize=[1, k, k, 1], strides=[1, 2, 2, 1], padding="SAME", name=name)


weights = {
    "wc1": tf.Variable(tf.random_normal([11, 11, 3, 32], stddev=0.01)),
    "wc2": tf.Variable(tf.random_normal([5, 5, 32, 64], stddev=0.01)),
    "wc3": tf.Variable(tf.random_normal([3, 3, 64, 96], stddev=0.01)),
    "wd1": tf.Variable(tf.random_normal([8 * 8 * 96, 256], stddev=0.01)),
    "wd2": tf.Variable(tf.random_normal([256, 256], stddev=0.01)),
    "out": tf.Variable(tf.random_normal([256, n_classes], stddev=0.01)),
}
biases = {
    "bc1": tf.Variable(tf.zeros([32])),
    "bc2": tf.Variable(tf.zeros([64])),
    "bc3": tf.Variable(tf.zeros([96])),
    "bd1": tf.Variable(tf.zeros([256])),
    "bd2": tf.Variable(tf.zeros([256])),
    "out": tf.Variable(tf.zeros([n_classes])),
}


def alex_net(_X, _weights, _biases, _dropout):
    conv1 = conv2d("conv1", _X, _weights["wc1"], _biases["bc1"])
    pool1 = max_pool("pool1", conv1, k=3)
    conv2 = conv2d("conv2", pool1, _weights["wc2"], _biases["bc2"])
    pool2 = max_pool("pool2", conv2, k=3)
    conv3 = conv2d("conv3", pool2, _weights["wc3"], _biases["bc3"])
    pool3 = max_pool("pool3", conv3, k=3)
    dense1 = tf.reshape(pool3, [-1, _weights["wd1"].get_shape().as_list()[0]])
    dense1 = tf.nn.relu(tf.matmul(dense1, _weights["wd1"]) + _biases["bd1"], name="fc1")
    dense1 = tf.nn.dropout(dense1, _dropout)
    dense2 = tf.nn.relu(tf.matmul(dense1, _weights["wd2"]) + _biases["bd2"], name="fc2")
    return tf.matmul(dense2, _weights["out"]) + _biases["out"]


pred = alex_net(x, weights, biases, keep_prob)
cost = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(logits=pred, labels=y))
optimizer = tf.train.AdamOptimizer(learning_rate=0.001).minimize(cost)
correct_pred = tf.equal(tf.argmax(pred, 1), tf.argmax(y, 1))
accuracy = tf.reduce_mean(tf.cast(correct_pred, tf.float32))

np.random.seed(1)
images = np.random.rand(batch_size, 64, 64, 3).astype(np.float32)
labels = np.eye(n_classes, dtype=np.float32)[np.random.randint(0, n_classes, batch_size)]

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(3):
        sess.run(optimizer, feed_dict={x: images, y: labels, keep_prob: dropout})
        loss, acc = sess.run([cost, accuracy], feed_dict={x: images, y: labels, keep_prob: 1.0})
        print("Iter %d, minibatch loss= %.6f, training accuracy= %.5f" % (step, loss, acc))
