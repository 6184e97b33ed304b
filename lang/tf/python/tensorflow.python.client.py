# tensorflow.python.client: device_lib.
