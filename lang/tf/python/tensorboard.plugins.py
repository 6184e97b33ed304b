# tensorboard.plugins: a package; projector is the module TF2 programs import.
