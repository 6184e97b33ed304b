# tf.layers (TF1): functional layers that create their variables in the default graph.
import tensorflow as tf


def _act(x, activation):
    return x if activation is None else activation(x)


def _var_dtype(inputs):
    # TF1 layers make their variables in the dtype of their inputs (float64 data, float64 kernel).
    dt = inputs.dtype.base_dtype
    return dt if dt in (tf.float16, tf.float32, tf.float64) else tf.float32


def _pair(v, n=2):
    return [v] * n if isinstance(v, int) else list(v)


def _bias(y, use_bias, units, bias_initializer, trainable, bias_regularizer, dtype):
    if not use_bias:
        return y
    bias = tf.get_variable("bias", [units], dtype=dtype, initializer=bias_initializer or tf.zeros_initializer(),
                           trainable=trainable, regularizer=bias_regularizer)
    return tf.nn.bias_add(y, bias)


def _dense_core(inputs, units, activation, use_bias, kernel_initializer, bias_initializer, kernel_regularizer,
                bias_regularizer, trainable):
    # Variables in the current variable scope (dense() and Dense open it).
    inputs = tf.convert_to_tensor(inputs)
    in_dim = inputs.shape[-1]
    if in_dim is None:
        raise ValueError("The last dimension of the inputs to `Dense` should be defined. Found `None`.")
    dt = _var_dtype(inputs)
    if inputs.dtype.base_dtype != dt:
        inputs = tf.cast(inputs, dt)
    init = kernel_initializer if kernel_initializer is not None else tf.glorot_uniform_initializer()
    kernel = tf.get_variable("kernel", [in_dim, units], dtype=dt, initializer=init, trainable=trainable,
                             regularizer=kernel_regularizer)
    y = tf.matmul(inputs, kernel) if inputs.shape.ndims == 2 else tf.tensordot(inputs, kernel, 1)
    return _act(_bias(y, use_bias, units, bias_initializer, trainable, bias_regularizer, dt), activation)


def dense(inputs, units, activation=None, use_bias=True, kernel_initializer=None, bias_initializer=None,
          kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None, kernel_constraint=None,
          bias_constraint=None, trainable=True, name=None, reuse=None, **kwargs):
    with tf.variable_scope(name, default_name="dense", reuse=reuse):
        return _dense_core(inputs, units, activation, use_bias, kernel_initializer, bias_initializer,
                           kernel_regularizer, bias_regularizer, trainable)


def _channels_last(inputs, data_format, rank):
    if data_format in ("channels_last", None):
        return inputs, None
    if data_format != "channels_first":
        raise ValueError("The `data_format` argument must be one of \"channels_first\", \"channels_last\". "
                         "Received: %s" % data_format)
    perm = [0] + list(range(2, rank)) + [1]
    back = [0, rank - 1] + list(range(1, rank - 1))
    return tf.transpose(inputs, perm), back


def _conv_core(inputs, filters, kernel_size, strides, padding, data_format, dilation_rate, activation, use_bias,
               kernel_initializer, bias_initializer, kernel_regularizer, bias_regularizer, trainable, nd):
    # nd = 1 or 2 spatial dimensions; channels_first runs as channels_last between transposes.
    inputs = tf.convert_to_tensor(inputs)
    x, back = _channels_last(inputs, data_format, nd + 2)
    dt = _var_dtype(x)
    if x.dtype.base_dtype != dt:
        x = tf.cast(x, dt)
    k, s, d = _pair(kernel_size, nd), _pair(strides, nd), _pair(dilation_rate, nd)
    in_ch = x.shape[-1]
    if in_ch is None:
        raise ValueError("The channel dimension of the inputs should be defined. Found `None`.")
    init = kernel_initializer if kernel_initializer is not None else tf.glorot_uniform_initializer()
    kernel = tf.get_variable("kernel", k + [in_ch, filters], dtype=dt, initializer=init, trainable=trainable,
                             regularizer=kernel_regularizer)
    pad = padding.upper()
    if nd == 1:
        y = tf.squeeze(tf.nn.conv2d(tf.expand_dims(x, 1), tf.expand_dims(kernel, 0), [1, 1, s[0], 1], pad,
                                    dilations=[1, 1, d[0], 1]), [1])
    else:
        y = tf.nn.conv2d(x, kernel, [1, s[0], s[1], 1], pad, dilations=[1, d[0], d[1], 1])
    y = _act(_bias(y, use_bias, filters, bias_initializer, trainable, bias_regularizer, dt), activation)
    return y if back is None else tf.transpose(y, back)


def _conv2d_core(inputs, filters, kernel_size, strides, padding, activation, use_bias, kernel_initializer,
                 bias_initializer, trainable, data_format="channels_last", dilation_rate=(1, 1),
                 kernel_regularizer=None, bias_regularizer=None):
    return _conv_core(inputs, filters, kernel_size, strides, padding, data_format, dilation_rate, activation,
                      use_bias, kernel_initializer, bias_initializer, kernel_regularizer, bias_regularizer, trainable, 2)


def conv2d(inputs, filters, kernel_size, strides=(1, 1), padding="valid", data_format="channels_last",
           dilation_rate=(1, 1), activation=None, use_bias=True, kernel_initializer=None, bias_initializer=None,
           kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None, kernel_constraint=None,
           bias_constraint=None, trainable=True, name=None, reuse=None, **kwargs):
    with tf.variable_scope(name, default_name="conv2d", reuse=reuse):
        return _conv2d_core(inputs, filters, kernel_size, strides, padding, activation, use_bias, kernel_initializer,
                            bias_initializer, trainable, data_format, dilation_rate, kernel_regularizer,
                            bias_regularizer)


def conv1d(inputs, filters, kernel_size, strides=1, padding="valid", data_format="channels_last", dilation_rate=1,
           activation=None, use_bias=True, kernel_initializer=None, bias_initializer=None, kernel_regularizer=None,
           bias_regularizer=None, activity_regularizer=None, kernel_constraint=None, bias_constraint=None,
           trainable=True, name=None, reuse=None, **kwargs):
    with tf.variable_scope(name, default_name="conv1d", reuse=reuse):
        return _conv_core(inputs, filters, kernel_size, strides, padding, data_format, dilation_rate, activation,
                          use_bias, kernel_initializer, bias_initializer, kernel_regularizer, bias_regularizer,
                          trainable, 1)


def _conv2d_transpose_core(inputs, filters, kernel_size, strides, padding, data_format, activation, use_bias,
                           kernel_initializer, bias_initializer, kernel_regularizer, bias_regularizer, trainable):
    inputs = tf.convert_to_tensor(inputs)
    x, back = _channels_last(inputs, data_format, 4)
    dt = _var_dtype(x)
    if x.dtype.base_dtype != dt:
        x = tf.cast(x, dt)
    k, s = _pair(kernel_size), _pair(strides)
    in_ch = x.shape[-1]
    if in_ch is None:
        raise ValueError("The channel dimension of the inputs should be defined. Found `None`.")
    init = kernel_initializer if kernel_initializer is not None else tf.glorot_uniform_initializer()
    # The kernel of a transposed convolution is [h, w, out, in] (TF's Conv2DTranspose).
    kernel = tf.get_variable("kernel", k + [filters, in_ch], dtype=dt, initializer=init, trainable=trainable,
                             regularizer=kernel_regularizer)
    pad = padding.upper()
    sh = tf.shape(x)
    dims = []
    for i in (1, 2):
        n = sh[i]
        dims.append(n * s[i - 1] if pad == "SAME" else (n - 1) * s[i - 1] + k[i - 1])
    out_shape = tf.stack([sh[0], dims[0], dims[1], filters])
    y = tf._op("Conv2DBackpropInput", [out_shape, kernel, x],
               {"strides": [1, s[0], s[1], 1], "padding": pad, "data_format": "NHWC"})
    # The static shape TF gives: known when the input's spatial dims are known.
    static = x.shape.as_list()
    hw = []
    for i in (1, 2):
        n = static[i]
        hw.append(None if n is None else (n * s[i - 1] if pad == "SAME" else (n - 1) * s[i - 1] + k[i - 1]))
    y.set_shape([static[0], hw[0], hw[1], filters])
    y = _act(_bias(y, use_bias, filters, bias_initializer, trainable, bias_regularizer, dt), activation)
    return y if back is None else tf.transpose(y, back)


def conv2d_transpose(inputs, filters, kernel_size, strides=(1, 1), padding="valid", data_format="channels_last",
                     activation=None, use_bias=True, kernel_initializer=None, bias_initializer=None,
                     kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None, kernel_constraint=None,
                     bias_constraint=None, trainable=True, name=None, reuse=None, **kwargs):
    with tf.variable_scope(name, default_name="conv2d_transpose", reuse=reuse):
        return _conv2d_transpose_core(inputs, filters, kernel_size, strides, padding, data_format, activation,
                                      use_bias, kernel_initializer, bias_initializer, kernel_regularizer,
                                      bias_regularizer, trainable)


def _pool(kind, inputs, pool_size, strides, padding, data_format, name, nd):
    inputs = tf.convert_to_tensor(inputs)
    x, back = _channels_last(inputs, data_format, nd + 2)
    p, s = _pair(pool_size, nd), _pair(strides, nd)
    fn = tf.nn.max_pool if kind == "max" else tf.nn.avg_pool
    if nd == 1:
        y = tf.squeeze(fn(tf.expand_dims(x, 1), [1, 1, p[0], 1], [1, 1, s[0], 1], padding.upper()), [1], name=name)
    else:
        y = fn(x, [1, p[0], p[1], 1], [1, s[0], s[1], 1], padding.upper(), name=name)
    return y if back is None else tf.transpose(y, back)


def max_pooling2d(inputs, pool_size, strides, padding="valid", data_format="channels_last", name=None):
    return _pool("max", inputs, pool_size, strides, padding, data_format, name, 2)


def average_pooling2d(inputs, pool_size, strides, padding="valid", data_format="channels_last", name=None):
    return _pool("avg", inputs, pool_size, strides, padding, data_format, name, 2)


def max_pooling1d(inputs, pool_size, strides, padding="valid", data_format="channels_last", name=None):
    return _pool("max", inputs, pool_size, strides, padding, data_format, name, 1)


def average_pooling1d(inputs, pool_size, strides, padding="valid", data_format="channels_last", name=None):
    return _pool("avg", inputs, pool_size, strides, padding, data_format, name, 1)


def flatten(inputs, name=None, data_format="channels_last"):
    dims = inputs.shape.as_list()[1:]
    n = 1
    for d in dims:
        n = None if (n is None or d is None) else n * d
    if n is not None:
        return tf.reshape(inputs, [-1, n], name=name)
    # Unknown trailing dimensions: the batch dimension, static or read at run time, fixes the
    # rows, as Keras' Flatten does (two -1s would be an error).
    batch = inputs.shape.as_list()[0] if inputs.shape.ndims else None
    return tf.reshape(inputs, [batch if batch is not None else tf.shape(inputs)[0], -1], name=name)


def _smart_cond(training, true_fn, false_fn):
    # A Python bool picks the branch now; a boolean tensor (a placeholder) picks it at run time.
    if tf.is_tensor(training):
        return tf.cond(tf.cast(training, tf.bool), true_fn, false_fn)
    return true_fn() if training else false_fn()


def dropout(inputs, rate=0.5, noise_shape=None, seed=None, training=False, name=None):
    with tf.name_scope(name, "dropout"):
        inputs = tf.convert_to_tensor(inputs)
        return _smart_cond(training, lambda: tf.nn.dropout(inputs, rate=rate, noise_shape=noise_shape, seed=seed),
                           lambda: tf.identity(inputs))


def _batch_norm_core(inputs, axis, momentum, epsilon, center, scale, beta_initializer, gamma_initializer,
                     moving_mean_initializer, moving_variance_initializer, beta_regularizer, gamma_regularizer,
                     training, trainable, updates_collection):
    inputs = tf.convert_to_tensor(inputs)
    rank = inputs.shape.ndims
    if rank is None:
        raise ValueError("Input has undefined rank.")
    axes = [axis] if isinstance(axis, int) else list(axis)
    axes = [a + rank if a < 0 else a for a in axes]
    params = [inputs.shape[a] for a in axes]
    if any(p is None for p in params):
        raise ValueError("Input has undefined `axis` dimension. Input shape: %s" % inputs.shape)
    pshape = params if len(params) > 1 else [params[0]]
    dt = _var_dtype(inputs)
    x = inputs if inputs.dtype.base_dtype == dt else tf.cast(inputs, dt)
    gamma = tf.get_variable("gamma", pshape, dtype=dt, initializer=gamma_initializer or tf.ones_initializer(),
                            regularizer=gamma_regularizer, trainable=trainable) if scale else None
    beta = tf.get_variable("beta", pshape, dtype=dt, initializer=beta_initializer or tf.zeros_initializer(),
                           regularizer=beta_regularizer, trainable=trainable) if center else None
    mm = tf.get_variable("moving_mean", pshape, dtype=dt, initializer=moving_mean_initializer or tf.zeros_initializer(),
                         trainable=False)
    mv = tf.get_variable("moving_variance", pshape, dtype=dt,
                         initializer=moving_variance_initializer or tf.ones_initializer(), trainable=False)
    tf.add_to_collection(tf.GraphKeys.MOVING_AVERAGE_VARIABLES, mm)
    tf.add_to_collection(tf.GraphKeys.MOVING_AVERAGE_VARIABLES, mv)
    reduce_axes = [i for i in range(rank) if i not in axes]
    bshape = [1] * rank
    for a, n in zip(axes, params):
        bshape[a] = n

    def b(v):
        return None if v is None else (v if rank == 2 and axes == [1] else tf.reshape(v, bshape))

    def train_branch():
        mean, var = tf.nn.moments(x, reduce_axes)
        return tf.nn.batch_normalization(x, b(mean), b(var), b(beta), b(gamma), epsilon), mean, var

    def infer_branch():
        return tf.nn.batch_normalization(x, b(mm), b(mv), b(beta), b(gamma), epsilon), mm, mv

    if tf.is_tensor(training):
        y, mean, var = tf.cond(tf.cast(training, tf.bool), train_branch, infer_branch)
        decay = tf.where(tf.cast(training, tf.bool), 1.0 - momentum, 0.0)
        decay = tf.cast(decay, dt)
    elif training:
        y, mean, var = train_branch()
        decay = tf.cast(1.0 - momentum, dt)
    else:
        return infer_branch()[0]
    # The moving averages update through ops in UPDATE_OPS (TF1: run them with the train op).
    upd_m = tf.assign_sub(mm, (mm - mean) * decay)
    upd_v = tf.assign_sub(mv, (mv - var) * decay)
    if updates_collection is not None:
        tf.add_to_collection(updates_collection, upd_m)
        tf.add_to_collection(updates_collection, upd_v)
        return y
    with tf.control_dependencies([upd_m, upd_v]):
        return tf.identity(y)


def batch_normalization(inputs, axis=-1, momentum=0.99, epsilon=1e-3, center=True, scale=True,
                        beta_initializer=None, gamma_initializer=None, moving_mean_initializer=None,
                        moving_variance_initializer=None, beta_regularizer=None, gamma_regularizer=None,
                        beta_constraint=None, gamma_constraint=None, training=False, trainable=True, name=None,
                        reuse=None, renorm=False, renorm_clipping=None, renorm_momentum=0.99, fused=None,
                        virtual_batch_size=None, adjustment=None):
    with tf.variable_scope(name, default_name="batch_normalization", reuse=reuse):
        return _batch_norm_core(inputs, axis, momentum, epsilon, center, scale, beta_initializer, gamma_initializer,
                                moving_mean_initializer, moving_variance_initializer, beta_regularizer,
                                gamma_regularizer, training, trainable, tf.GraphKeys.UPDATE_OPS)


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
                 kernel_regularizer=None, bias_regularizer=None, trainable=True, name=None, **kwargs):
        Layer.__init__(self, trainable, name)
        self._args = (filters, kernel_size, strides, padding, data_format, dilation_rate, activation, use_bias,
                      kernel_initializer, bias_initializer, kernel_regularizer, bias_regularizer)

    def call(self, inputs):
        return _conv_core(inputs, *self._args, trainable=self.trainable, nd=2)


class Conv1D(Conv2D):
    _default_name = "conv1d"

    def __init__(self, filters, kernel_size, strides=1, padding="valid", data_format="channels_last",
                 dilation_rate=1, activation=None, use_bias=True, kernel_initializer=None, bias_initializer=None,
                 kernel_regularizer=None, bias_regularizer=None, trainable=True, name=None, **kwargs):
        Conv2D.__init__(self, filters, kernel_size, strides, padding, data_format, dilation_rate, activation, use_bias,
                        kernel_initializer, bias_initializer, kernel_regularizer, bias_regularizer, trainable, name)

    def call(self, inputs):
        return _conv_core(inputs, *self._args, trainable=self.trainable, nd=1)


class Conv2DTranspose(Layer):
    _default_name = "conv2d_transpose"

    def __init__(self, filters, kernel_size, strides=(1, 1), padding="valid", data_format="channels_last",
                 activation=None, use_bias=True, kernel_initializer=None, bias_initializer=None,
                 kernel_regularizer=None, bias_regularizer=None, trainable=True, name=None, **kwargs):
        Layer.__init__(self, trainable, name)
        self._args = (filters, kernel_size, strides, padding, data_format, activation, use_bias, kernel_initializer,
                      bias_initializer, kernel_regularizer, bias_regularizer)

    def call(self, inputs):
        return _conv2d_transpose_core(inputs, *self._args, trainable=self.trainable)


class MaxPooling2D(Layer):
    _default_name = "max_pooling2d"
    _kind, _nd = "max", 2

    def __init__(self, pool_size, strides, padding="valid", data_format="channels_last", name=None, **kwargs):
        Layer.__init__(self, True, name)
        self._args = (pool_size, strides, padding, data_format)

    def call(self, inputs):
        p, s, pad, df = self._args
        return _pool(self._kind, inputs, p, s, pad, df, None, self._nd)


class AveragePooling2D(MaxPooling2D):
    _default_name = "average_pooling2d"
    _kind, _nd = "avg", 2


class MaxPooling1D(MaxPooling2D):
    _default_name = "max_pooling1d"
    _kind, _nd = "max", 1


class AveragePooling1D(MaxPooling2D):
    _default_name = "average_pooling1d"
    _kind, _nd = "avg", 1


class Flatten(Layer):
    _default_name = "flatten"

    def call(self, inputs):
        return flatten(inputs)


class Dropout(Layer):
    _default_name = "dropout"

    def __init__(self, rate=0.5, noise_shape=None, seed=None, name=None, **kwargs):
        Layer.__init__(self, True, name)
        self.rate = rate
        self.noise_shape = noise_shape
        self.seed = seed

    def call(self, inputs, training=False):
        return dropout(inputs, self.rate, self.noise_shape, self.seed, training=training)


class BatchNormalization(Layer):
    _default_name = "batch_normalization"

    def __init__(self, axis=-1, momentum=0.99, epsilon=1e-3, center=True, scale=True, beta_initializer=None,
                 gamma_initializer=None, moving_mean_initializer=None, moving_variance_initializer=None,
                 beta_regularizer=None, gamma_regularizer=None, trainable=True, name=None, **kwargs):
        Layer.__init__(self, trainable, name)
        self._args = (axis, momentum, epsilon, center, scale, beta_initializer, gamma_initializer,
                      moving_mean_initializer, moving_variance_initializer, beta_regularizer, gamma_regularizer)

    def call(self, inputs, training=False):
        return _batch_norm_core(inputs, *self._args, training=training, trainable=self.trainable,
                                updates_collection=tf.GraphKeys.UPDATE_OPS)
