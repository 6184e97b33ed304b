from keras.preprocessing import *
