# tensorflow.keras.constraints: keras.constraints.
from keras.constraints import *
