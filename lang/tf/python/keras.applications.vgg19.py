# keras.applications.vgg19: the model, preprocess_input (caffe mode) and decode_predictions.
from keras.applications import VGG19, preprocess_input, decode_predictions
