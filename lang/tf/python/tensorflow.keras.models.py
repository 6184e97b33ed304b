from keras.models import *
