from keras.backend import *
