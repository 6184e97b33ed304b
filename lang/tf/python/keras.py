# keras: the Keras API (Keras 2, as tf.keras in TensorFlow 2.15) over tensorlens' op registry.
# `tensorflow.keras` is the same package. The parts are separate embedded modules:
# keras.layers, keras.models, keras.optimizers, keras.losses, keras.metrics, keras.datasets, ...
from keras import backend
from keras import activations
from keras import initializers
from keras import regularizers
from keras import layers
from keras import losses
from keras import metrics
from keras import optimizers
from keras import callbacks
from keras import models
from keras import utils
from keras import datasets
from keras import preprocessing
from keras import constraints
from keras import applications
from keras.layers import Input, Layer, InputSpec
from keras.models import Model, Sequential

__version__ = "2.15.0"
mixed_precision = None
