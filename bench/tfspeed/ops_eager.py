# N iterations of one small eager op pattern (see README.md).
import sys
import tensorflow as tf

n = int(sys.argv[1])
kind = sys.argv[2]
a = tf.constant(1.0)
b = tf.constant(2.0)
c = tf.constant(3.0)
x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
w = tf.constant([[0.5, -1.0], [1.0, 0.25]])
if kind == "tfadd":
    for i in range(n):
        r = tf.add(a, b)
elif kind == "operator":
    for i in range(n):
        r = a * b + c
elif kind == "matmul":
    for i in range(n):
        r = tf.nn.relu(tf.matmul(x, w))
