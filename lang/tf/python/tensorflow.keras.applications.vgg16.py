from keras.applications.vgg16 import *
