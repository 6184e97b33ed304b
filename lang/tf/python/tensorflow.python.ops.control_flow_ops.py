# tensorflow.python.ops.control_flow_ops: tf.cond, tf.while_loop, tf.case and tf.group.
from tensorflow import cond, while_loop, case, group, no_op, tuple
