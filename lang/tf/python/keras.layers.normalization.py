# keras.layers.normalization: the Keras 2.0-2.5 module path of these layers (programs still import from it).
from keras.layers import *
