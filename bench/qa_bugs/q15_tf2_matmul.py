import tensorflow as tf
class Net(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.w = tf.Variable(tf.random.normal([10, 5]))
    def call(self, x):
        return tf.matmul(self.w, x)  # BUG
net = Net()
x = tf.random.normal([32, 10])
print(net(x).shape)
