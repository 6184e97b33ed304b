# tensorboard.plugins.projector: the same module as tf.contrib.tensorboard.plugins.projector.
from tensorflow.contrib.tensorboard.plugins.projector import *
from tensorflow.contrib.tensorboard.plugins.projector import PROJECTOR_FILENAME
