# tensorflow.python.framework.constant_op: tf.constant under its internal name.
from tensorflow import constant
