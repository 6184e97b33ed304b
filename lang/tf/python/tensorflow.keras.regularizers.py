from keras.regularizers import *
