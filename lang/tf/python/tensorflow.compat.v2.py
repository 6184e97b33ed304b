from tensorflow import *
