from keras.datasets import *
