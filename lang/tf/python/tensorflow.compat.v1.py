# tf.compat.v1: the TF1 API (the same functions; importing it does not change the execution style,
# the program-level rule in TfRuntime.h decides).
from tensorflow import *
import tensorflow.data as data
