# tensorflow.python.ops.variables: tf.Variable and its initializers.
from tensorflow import Variable, global_variables_initializer, variables_initializer, global_variables, trainable_variables
