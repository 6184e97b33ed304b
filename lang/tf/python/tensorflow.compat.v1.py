# tf.compat.v1: the TF1 API (the same functions; importing it does not change the execution style,
# the program-level rule in TfRuntime.h decides).
from tensorflow import *
import tensorflow as _tf
nn = _tf.nn
train = _tf.train
random = _tf.random
math = _tf.math
errors = _tf.errors
debugging = _tf.debugging
initializers = _tf.initializers
losses = _tf.losses
dtypes = _tf.dtypes
linalg = _tf.linalg
config = _tf.config
random_normal = _tf.random_normal
truncated_normal = _tf.truncated_normal
random_uniform = _tf.random_uniform
set_random_seed = _tf.set_random_seed
disable_eager_execution = _tf.disable_eager_execution
disable_v2_behavior = _tf.disable_v2_behavior
Session = _tf.Session
InteractiveSession = _tf.InteractiveSession
placeholder = _tf.placeholder
get_variable = _tf.get_variable
variable_scope = _tf.variable_scope
global_variables_initializer = _tf.global_variables_initializer
log = _tf.log
Print = _tf.Print
def __getattr__(name):
    return getattr(_tf, name)
