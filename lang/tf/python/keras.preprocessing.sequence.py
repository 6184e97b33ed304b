from keras.utils import pad_sequences
