from keras.utils import *
