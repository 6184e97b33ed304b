# tensorflow.contrib.tensorboard: a package; plugins.projector is the module TF1 programs import.
