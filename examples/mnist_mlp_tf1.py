# A multilayer perceptron on MNIST in TF1 graph style: placeholders, variables in a dict, a
# Session, feed_dict. `tlens run examples/mnist_mlp_tf1.py` trains it on tensorlens' offline MNIST.
import tensorflow as tf
from tensorflow.examples.tutorials.mnist import input_data

mnist = input_data.read_data_sets("/tmp/data/", one_hot=True)

learning_rate = 0.001
training_steps = 200
batch_size = 128
display_step = 50

n_hidden_1 = 256
n_hidden_2 = 256
n_input = 784
n_classes = 10

x = tf.placeholder(tf.float32, [None, n_input], name="x")
y = tf.placeholder(tf.float32, [None, n_classes], name="y")

weights = {
    "h1": tf.Variable(tf.random_normal([n_input, n_hidden_1], stddev=0.05), name="h1"),
    "h2": tf.Variable(tf.random_normal([n_hidden_1, n_hidden_2], stddev=0.05), name="h2"),
    "out": tf.Variable(tf.random_normal([n_hidden_2, n_classes], stddev=0.05), name="w_out"),
}
biases = {
    "b1": tf.Variable(tf.zeros([n_hidden_1]), name="b1"),
    "b2": tf.Variable(tf.zeros([n_hidden_2]), name="b2"),
    "out": tf.Variable(tf.zeros([n_classes]), name="b_out"),
}


def multilayer_perceptron(x):
    with tf.name_scope("fc1"):
        layer_1 = tf.nn.relu(tf.add(tf.matmul(x, weights["h1"]), biases["b1"]))
    with tf.name_scope("fc2"):
        layer_2 = tf.nn.relu(tf.add(tf.matmul(layer_1, weights["h2"]), biases["b2"]))
    with tf.name_scope("out"):
        out_layer = tf.matmul(layer_2, weights["out"]) + biases["out"]
    return out_layer


logits = multilayer_perceptron(x)
loss_op = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(logits=logits, labels=y))
optimizer = tf.train.AdamOptimizer(learning_rate=learning_rate)
train_op = optimizer.minimize(loss_op)

correct_pred = tf.equal(tf.argmax(logits, 1), tf.argmax(y, 1))
accuracy = tf.reduce_mean(tf.cast(correct_pred, tf.float32))

init = tf.global_variables_initializer()

with tf.Session() as sess:
    sess.run(init)
    for step in range(1, training_steps + 1):
        batch_x, batch_y = mnist.train.next_batch(batch_size)
        _, loss, acc = sess.run([train_op, loss_op, accuracy], feed_dict={x: batch_x, y: batch_y})
        if step % display_step == 0 or step == 1:
            print("Step %d, minibatch loss= %.4f, training accuracy= %.3f" % (step, loss, acc))
    print("Optimization finished")
    test_acc = sess.run(accuracy, feed_dict={x: mnist.test.images[:1000], y: mnist.test.labels[:1000]})
    print("Testing accuracy: %.3f" % test_acc)
