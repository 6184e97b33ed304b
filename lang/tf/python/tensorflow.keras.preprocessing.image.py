from keras.preprocessing.image import *
