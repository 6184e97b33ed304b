# tf.layers (TF1): functional layers that create their variables in the default graph.
import tensorflow as tf


def _act(x, activation):
    return x if activation is None else activation(x)


def dense(inputs, units, activation=None, use_bias=True, kernel_initializer=None, bias_initializer=None,
          kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None, trainable=True, name=None,
          reuse=None, **kwargs):
    in_dim = inputs.shape[-1]
    if in_dim is None:
        raise ValueError("The last dimension of the inputs to `Dense` should be defined. Found `None`.")
    init = kernel_initializer if kernel_initializer is not None else tf.glorot_uniform_initializer()
    with tf.variable_scope(name, default_name="dense", reuse=reuse):
        kernel = tf.get_variable("kernel", [in_dim, units], initializer=init, trainable=trainable,
                                 regularizer=kernel_regularizer)
        y = tf.matmul(inputs, kernel) if inputs.shape.ndims == 2 else tf.tensordot(inputs, kernel, 1)
        if use_bias:
            bias = tf.get_variable("bias", [units], initializer=bias_initializer or tf.zeros_initializer(), trainable=trainable,
                                   regularizer=bias_regularizer)
            y = tf.nn.bias_add(y, bias)
        return _act(y, activation)


def conv2d(inputs, filters, kernel_size, strides=(1, 1), padding="valid", data_format="channels_last",
           dilation_rate=(1, 1), activation=None, use_bias=True, kernel_initializer=None, bias_initializer=None,
           trainable=True, name=None, reuse=None, **kwargs):
    k = [kernel_size, kernel_size] if isinstance(kernel_size, int) else list(kernel_size)
    s = [strides, strides] if isinstance(strides, int) else list(strides)
    in_ch = inputs.shape[-1]
    init = kernel_initializer if kernel_initializer is not None else tf.glorot_uniform_initializer()
    with tf.variable_scope(name, default_name="conv2d", reuse=reuse):
        kernel = tf.get_variable("kernel", k + [in_ch, filters], initializer=init, trainable=trainable)
        y = tf.nn.conv2d(inputs, kernel, [1, s[0], s[1], 1], padding.upper())
        if use_bias:
            bias = tf.get_variable("bias", [filters], initializer=bias_initializer or tf.zeros_initializer(),
                                   trainable=trainable)
            y = tf.nn.bias_add(y, bias)
        return _act(y, activation)


def max_pooling2d(inputs, pool_size, strides, padding="valid", data_format="channels_last", name=None):
    p = [pool_size, pool_size] if isinstance(pool_size, int) else list(pool_size)
    s = [strides, strides] if isinstance(strides, int) else list(strides)
    return tf.nn.max_pool(inputs, [1, p[0], p[1], 1], [1, s[0], s[1], 1], padding.upper(), name=name)


def average_pooling2d(inputs, pool_size, strides, padding="valid", data_format="channels_last", name=None):
    p = [pool_size, pool_size] if isinstance(pool_size, int) else list(pool_size)
    s = [strides, strides] if isinstance(strides, int) else list(strides)
    return tf.nn.avg_pool(inputs, [1, p[0], p[1], 1], [1, s[0], s[1], 1], padding.upper(), name=name)


def flatten(inputs, name=None, data_format="channels_last"):
    dims = inputs.shape.as_list()[1:]
    n = 1
    for d in dims:
        n = None if (n is None or d is None) else n * d
    return tf.reshape(inputs, [-1, n if n is not None else -1], name=name)


def dropout(inputs, rate=0.5, noise_shape=None, seed=None, training=False, name=None):
    if training is False:
        return tf.identity(inputs)
    return tf.nn.dropout(inputs, rate=rate)
