from keras.initializers import *
