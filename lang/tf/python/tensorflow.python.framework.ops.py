# tensorflow.python.framework.ops: graphs, tensors and collections (the public tf.* names).
from tensorflow import (reset_default_graph, get_default_graph, Graph, Tensor, convert_to_tensor, name_scope,
                        control_dependencies, device, add_to_collection, get_collection, GraphKeys)
