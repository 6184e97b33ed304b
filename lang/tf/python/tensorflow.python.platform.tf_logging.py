# tensorflow.python.platform.tf_logging: tf.logging under its internal name (each name is the public one).
import tensorflow as _tf

DEBUG = _tf.logging.DEBUG
ERROR = _tf.logging.ERROR
FATAL = _tf.logging.FATAL
INFO = _tf.logging.INFO
WARN = _tf.logging.WARN
WARNING = _tf.logging.WARNING
debug = _tf.logging.debug
error = _tf.logging.error
fatal = _tf.logging.fatal
get_verbosity = _tf.logging.get_verbosity
info = _tf.logging.info
log = _tf.logging.log
log_every_n = _tf.logging.log_every_n
log_first_n = _tf.logging.log_first_n
set_verbosity = _tf.logging.set_verbosity
warn = _tf.logging.warn
warning = _tf.logging.warning
