from keras.applications import *
