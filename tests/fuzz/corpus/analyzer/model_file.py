import tensorflow as tf
class M(tf.keras.Model):
    def call(self, x):
        return tf.matmul(x, x, transpose_b=True)
m = M()
print(m(tf.ones([2, 2])))
f = open("/tmp/x", "w")
