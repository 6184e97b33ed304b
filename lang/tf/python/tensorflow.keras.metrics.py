from keras.metrics import *
