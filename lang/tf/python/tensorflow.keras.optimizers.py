from keras.optimizers import *
