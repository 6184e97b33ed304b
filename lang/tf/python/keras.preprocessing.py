# keras.preprocessing: image (ImageDataGenerator), sequence (pad_sequences), text (a stub).
from keras.preprocessing import image
from keras.preprocessing import sequence
