# tensorflow.python.ops.math_ops: the public tf.* ops it implements.
from tensorflow import *
