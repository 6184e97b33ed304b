# tensorflow.python.util: compat under its internal name.
