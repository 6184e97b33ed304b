# tensorflow.python.ops.nn: the same names as nn_ops (tf.nn).
from tensorflow.python.ops.nn_ops import *
