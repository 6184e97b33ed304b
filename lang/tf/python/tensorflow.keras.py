# tf.keras: the same package as `keras` (keras.py).
from keras import *
from keras import backend, activations, initializers, regularizers, layers, losses, metrics, optimizers
from keras import callbacks, models, utils, datasets, preprocessing, applications
from keras import __version__
