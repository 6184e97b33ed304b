from keras.losses import *
