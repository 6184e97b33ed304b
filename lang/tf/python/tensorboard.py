# tensorboard: a package; plugins.projector is the module TF2 programs import.
