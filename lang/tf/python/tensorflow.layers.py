# tf.layers (TF1): functional layers that create their variables in the default graph.
import tensorflow as tf


def _act(x, activation):
    return x if activation is None else activation(x)


def _dense_core(inputs, units, activation, use_bias, kernel_initializer, bias_initializer, kernel_regularizer,
                bias_regularizer, trainable):
    # Variables in the current variable scope (dense() and Dense open it).
    in_dim = inputs.shape[-1]
    if in_dim is None:
        raise ValueError("The last dimension of the inputs to `Dense` should be defined. Found `None`.")
    init = kernel_initializer if kernel_initializer is not None else tf.glorot_uniform_initializer()
    kernel = tf.get_variable("kernel", [in_dim, units], initializer=init, trainable=trainable,
                             regularizer=kernel_regularizer)
    y = tf.matmul(inputs, kernel) if inputs.shape.ndims == 2 else tf.tensordot(inputs, kernel, 1)
    if use_bias:
        bias = tf.get_variable("bias", [units], initializer=bias_initializer or tf.zeros_initializer(), trainable=trainable,
                               regularizer=bias_regularizer)
        y = tf.nn.bias_add(y, bias)
    return _act(y, activation)


def dense(inputs, units, activation=None, use_bias=True, kernel_initializer=None, bias_initializer=None,
          kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None, trainable=True, name=None,
          reuse=None, **kwargs):
    with tf.variable_scope(name, default_name="dense", reuse=reuse):
        return _dense_core(inputs, units, activation, use_bias, kernel_initializer, bias_initializer,
                           kernel_regularizer, bias_regularizer, trainable)


def _conv2d_core(inputs, filters, kernel_size, strides, padding, activation, use_bias, kernel_initializer,
                 bias_initializer, trainable):
    k = [kernel_size, kernel_size] if isinstance(kernel_size, int) else list(kernel_size)
    s = [strides, strides] if isinstance(strides, int) else list(strides)
    in_ch = inputs.shape[-1]
    init = kernel_initializer if kernel_initializer is not None else tf.glorot_uniform_initializer()
    kernel = tf.get_variable("kernel", k + [in_ch, filters], initializer=init, trainable=trainable)
    y = tf.nn.conv2d(inputs, kernel, [1, s[0], s[1], 1], padding.upper())
    if use_bias:
        bias = tf.get_variable("bias", [filters], initializer=bias_initializer or tf.zeros_initializer(),
                               trainable=trainable)
        y = tf.nn.bias_add(y, bias)
    return _act(y, activation)


def conv2d(inputs, filters, kernel_size, strides=(1, 1), padding="valid", data_format="channels_last",
           dilation_rate=(1, 1), activation=None, use_bias=True, kernel_initializer=None, bias_initializer=None,
           trainable=True, name=None, reuse=None, **kwargs):
    with tf.variable_scope(name, default_name="conv2d", reuse=reuse):
        return _conv2d_core(inputs, filters, kernel_size, strides, padding, activation, use_bias, kernel_initializer,
                            bias_initializer, trainable)


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


# --- layer objects (tf.layers.Dense, ...): variables made at the first call, shared after --------


class Layer:
    _default_name = "layer"

    def __init__(self, trainable=True, name=None, dtype=None, **kwargs):
        self.trainable = trainable
        self.name = name
        self._scope = None

    def __call__(self, inputs, *args, **kwargs):
        if self._scope is None:
            with tf.variable_scope(self.name, default_name=self._default_name) as scope:
                self._scope = scope
                if self.name is None:
                    self.name = scope.name.split("/")[-1]
                return self.call(inputs, *args, **kwargs)
        with tf.variable_scope(self._scope, reuse=True):
            return self.call(inputs, *args, **kwargs)

    def apply(self, inputs, *args, **kwargs):
        return self.__call__(inputs, *args, **kwargs)

    def call(self, inputs, **kwargs):
        return inputs

    @property
    def variables(self):
        return [] if self._scope is None else tf.global_variables(scope=self._scope.name + "/")

    @property
    def trainable_variables(self):
        return [] if self._scope is None else tf.trainable_variables(scope=self._scope.name + "/")

    trainable_weights = trainable_variables
    weights = variables


class Dense(Layer):
    _default_name = "dense"

    def __init__(self, units, activation=None, use_bias=True, kernel_initializer=None, bias_initializer=None,
                 kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None, trainable=True,
                 name=None, **kwargs):
        Layer.__init__(self, trainable, name)
        self.units = units
        self.activation = activation
        self.use_bias = use_bias
        self._args = (kernel_initializer, bias_initializer, kernel_regularizer, bias_regularizer)

    def call(self, inputs):
        ki, bi, kr, br = self._args
        return _dense_core(inputs, self.units, self.activation, self.use_bias, ki, bi, kr, br, self.trainable)


class Conv2D(Layer):
    _default_name = "conv2d"

    def __init__(self, filters, kernel_size, strides=(1, 1), padding="valid", data_format="channels_last",
                 dilation_rate=(1, 1), activation=None, use_bias=True, kernel_initializer=None, bias_initializer=None,
                 trainable=True, name=None, **kwargs):
        Layer.__init__(self, trainable, name)
        self._args = (filters, kernel_size, strides, padding, activation, use_bias, kernel_initializer, bias_initializer)

    def call(self, inputs):
        f, k, s, p, a, b, ki, bi = self._args
        return _conv2d_core(inputs, f, k, s, p, a, b, ki, bi, self.trainable)


class MaxPooling2D(Layer):
    _default_name = "max_pooling2d"

    def __init__(self, pool_size, strides, padding="valid", data_format="channels_last", name=None, **kwargs):
        Layer.__init__(self, True, name)
        self._args = (pool_size, strides, padding)

    def call(self, inputs):
        return max_pooling2d(inputs, *self._args)


class AveragePooling2D(MaxPooling2D):
    _default_name = "average_pooling2d"

    def call(self, inputs):
        return average_pooling2d(inputs, *self._args)


class Flatten(Layer):
    _default_name = "flatten"

    def call(self, inputs):
        return flatten(inputs)


class Dropout(Layer):
    _default_name = "dropout"

    def __init__(self, rate=0.5, noise_shape=None, seed=None, name=None, **kwargs):
        Layer.__init__(self, True, name)
        self.rate = rate

    def call(self, inputs, training=False):
        return dropout(inputs, self.rate, training=training)
