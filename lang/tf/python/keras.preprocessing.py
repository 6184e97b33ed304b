# keras.preprocessing: image (ImageDataGenerator), sequence (pad_sequences), text (Tokenizer).
from keras.preprocessing import image
from keras.preprocessing import sequence
from keras.preprocessing import text
