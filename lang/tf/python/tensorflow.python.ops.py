# tensorflow.python.ops: the op modules under their internal names (math_ops, array_ops, nn_ops,
# nn, init_ops, variables, control_flow_ops, summary_ops_v2), each the public API it implements.
