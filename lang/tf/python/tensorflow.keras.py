# tf.keras: the same package as `keras` (keras.py).
from keras import *
from keras import backend, activations, initializers, regularizers, layers, losses, metrics, optimizers
from keras import callbacks, models, utils, datasets, preprocessing, applications
from keras import __version__

# The program uses tf.keras: TF 2's semantics where they differ from standalone Keras 2.x.
backend._state["tf_keras"] = True
