from keras.layers import *
