from keras.applications.vgg19 import *
