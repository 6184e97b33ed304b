from keras.activations import *
