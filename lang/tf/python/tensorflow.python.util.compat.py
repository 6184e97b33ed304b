# tensorflow.python.util.compat: tf.compat.
from tensorflow.compat import *
