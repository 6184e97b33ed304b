# tensorflow.python: TensorFlow's internal package, which public programs import from
# (`from tensorflow.python.framework import ops`, `from tensorflow.python.client import
# device_lib`). Its modules here are the public API under the internal names; tensorlens models
# no internal API beyond them.
