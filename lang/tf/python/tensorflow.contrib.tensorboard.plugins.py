# tensorflow.contrib.tensorboard.plugins: a package; plugins.projector is the module TF1 programs import.
