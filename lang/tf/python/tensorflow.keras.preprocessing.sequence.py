from keras.preprocessing.sequence import *
