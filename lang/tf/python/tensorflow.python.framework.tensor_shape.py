# tensorflow.python.framework.tensor_shape: TensorShape and Dimension.
from tensorflow import TensorShape, Dimension


def unknown_shape(rank=None, **kwargs):
    return TensorShape(None if rank is None else [None] * rank)


def as_shape(shape):
    return shape if isinstance(shape, TensorShape) else TensorShape(shape)


def dimension_value(dimension):
    return dimension.value if isinstance(dimension, Dimension) else dimension
