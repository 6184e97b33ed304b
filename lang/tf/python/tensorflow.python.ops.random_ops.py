# tensorflow.python.ops.random_ops: the public tf.* ops it implements.
from tensorflow import *
