# keras.applications.vgg16: the model, preprocess_input (caffe mode) and decode_predictions.
from keras.applications import VGG16, preprocess_input, decode_predictions
