# tensorflow.python.ops.array_ops: the public tf.* ops it implements.
from tensorflow import *
