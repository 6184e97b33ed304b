from keras.callbacks import *
