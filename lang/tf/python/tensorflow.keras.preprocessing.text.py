from keras.preprocessing.text import *
