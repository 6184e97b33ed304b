import tensorflow as tf
import tensorflow.layers as _layers


def xavier_initializer(uniform=True, seed=None, dtype=None):
    return tf.glorot_uniform_initializer(seed) if uniform else tf.glorot_normal_initializer(seed)


xavier_initializer_conv2d = xavier_initializer


def variance_scaling_initializer(factor=2.0, mode="FAN_IN", uniform=False, seed=None, dtype=None):
    # contrib's spelling of VarianceScaling: FAN_AVG is the mean of the fans; a normal is truncated.
    return tf.variance_scaling_initializer(factor, mode.lower(), "uniform" if uniform else "truncated_normal", seed)


def _contrib_layer(inputs, num_outputs, activation_fn, normalizer_fn, normalizer_params, weights_initializer,
                   weights_regularizer, biases_initializer, biases_regularizer, trainable, make):
    # contrib layers name their variables weights/biases; a normalizer_fn replaces the bias.
    inputs = tf.convert_to_tensor(inputs)
    dt = _layers._var_dtype(inputs)
    x = inputs if inputs.dtype.base_dtype == dt else tf.cast(inputs, dt)
    init = weights_initializer if weights_initializer is not None else tf.glorot_uniform_initializer()
    y = make(x, dt, init)
    if normalizer_fn is not None:
        y = normalizer_fn(y, **(normalizer_params or {}))
    elif biases_initializer is not None:
        b = tf.get_variable("biases", [num_outputs], dtype=dt, initializer=biases_initializer,
                            regularizer=biases_regularizer, trainable=trainable)
        y = tf.nn.bias_add(y, b)
    return y if activation_fn is None else activation_fn(y)


def fully_connected(inputs, num_outputs, activation_fn=tf.nn.relu, normalizer_fn=None, normalizer_params=None,
                    weights_initializer=None, weights_regularizer=None, biases_initializer=tf.zeros_initializer(),
                    biases_regularizer=None, reuse=None, variables_collections=None, outputs_collections=None,
                    trainable=True, scope=None):
    with tf.variable_scope(scope, default_name="fully_connected", reuse=reuse):
        def make(x, dt, init):
            n = x.shape[-1]
            if n is None:
                raise ValueError("The last dimension of the inputs to `fully_connected` should be defined.")
            w = tf.get_variable("weights", [n, num_outputs], dtype=dt, initializer=init,
                                regularizer=weights_regularizer, trainable=trainable)
            return tf.matmul(x, w) if x.shape.ndims == 2 else tf.tensordot(x, w, 1)
        return _contrib_layer(inputs, num_outputs, activation_fn, normalizer_fn, normalizer_params,
                              weights_initializer, weights_regularizer, biases_initializer, biases_regularizer,
                              trainable, make)


linear = lambda inputs, num_outputs, scope=None, **kw: fully_connected(inputs, num_outputs, None, scope=scope, **kw)


def flatten(inputs, outputs_collections=None, scope=None):
    with tf.name_scope(scope, "Flatten"):
        return _layers.flatten(inputs)


def conv2d(inputs, num_outputs, kernel_size, stride=1, padding="SAME", data_format=None, rate=1,
           activation_fn=tf.nn.relu, normalizer_fn=None, normalizer_params=None, weights_initializer=None,
           weights_regularizer=None, biases_initializer=tf.zeros_initializer(), biases_regularizer=None, reuse=None,
           variables_collections=None, outputs_collections=None, trainable=True, scope=None):
    with tf.variable_scope(scope, default_name="Conv", reuse=reuse):
        def make(x, dt, init):
            k, s, r = _layers._pair(kernel_size), _layers._pair(stride), _layers._pair(rate)
            w = tf.get_variable("weights", k + [x.shape[-1], num_outputs], dtype=dt, initializer=init,
                                regularizer=weights_regularizer, trainable=trainable)
            return tf.nn.conv2d(x, w, [1, s[0], s[1], 1], padding.upper(), dilations=[1, r[0], r[1], 1])
        return _contrib_layer(inputs, num_outputs, activation_fn, normalizer_fn, normalizer_params,
                              weights_initializer, weights_regularizer, biases_initializer, biases_regularizer,
                              trainable, make)


convolution2d = conv2d


def conv2d_transpose(inputs, num_outputs, kernel_size, stride=1, padding="SAME", activation_fn=tf.nn.relu,
                     normalizer_fn=None, normalizer_params=None, weights_initializer=None, biases_initializer=None,
                     scope=None, reuse=None, **kwargs):
    return _layers.conv2d_transpose(inputs, num_outputs, kernel_size, stride, padding, activation=activation_fn,
                                    use_bias=normalizer_fn is None, kernel_initializer=weights_initializer,
                                    bias_initializer=biases_initializer, name=scope, reuse=reuse)


def max_pool2d(inputs, kernel_size, stride=2, padding="VALID", data_format="NHWC", outputs_collections=None,
               scope=None):
    return _layers.max_pooling2d(inputs, kernel_size, stride, padding, name=scope)


def avg_pool2d(inputs, kernel_size, stride=2, padding="VALID", data_format="NHWC", outputs_collections=None,
               scope=None):
    return _layers.average_pooling2d(inputs, kernel_size, stride, padding, name=scope)


def dropout(inputs, keep_prob=0.5, noise_shape=None, is_training=True, outputs_collections=None, scope=None,
            seed=None):
    return _layers.dropout(inputs, 1.0 - keep_prob, noise_shape, seed, training=is_training, name=scope)


def batch_norm(inputs, decay=0.999, center=True, scale=False, epsilon=0.001, activation_fn=None, param_initializers=None,
               param_regularizers=None, updates_collections=tf.GraphKeys.UPDATE_OPS, is_training=True, reuse=None,
               variables_collections=None, outputs_collections=None, trainable=True, batch_weights=None, fused=None,
               data_format="NHWC", zero_debias_moving_mean=False, scope=None, renorm=False, renorm_clipping=None,
               renorm_decay=0.99, adjustment=None):
    inits = param_initializers or {}
    regs = param_regularizers or {}
    with tf.variable_scope(scope, default_name="BatchNorm", reuse=reuse):
        y = _layers._batch_norm_core(inputs, 1 if data_format == "NCHW" else -1, decay, epsilon, center, scale,
                                     inits.get("beta"), inits.get("gamma"), inits.get("moving_mean"),
                                     inits.get("moving_variance"), regs.get("beta"), regs.get("gamma"), is_training,
                                     trainable, updates_collections)
        return y if activation_fn is None else activation_fn(y)


def l2_regularizer(scale, scope=None):
    if scale == 0.0:
        return lambda w: None
    return lambda w: tf.multiply(scale, tf.nn.l2_loss(w), name="l2_regularizer")


def l1_regularizer(scale, scope=None):
    if scale == 0.0:
        return lambda w: None
    return lambda w: tf.multiply(scale, tf.reduce_sum(tf.abs(w)), name="l1_regularizer")


def embed_sequence(ids, vocab_size=None, embed_dim=None, unique=False, initializer=None, regularizer=None,
                   trainable=True, scope=None, reuse=None):
    with tf.variable_scope(scope, default_name="EmbedSequence", reuse=reuse):
        emb = tf.get_variable("embeddings", [vocab_size, embed_dim], initializer=initializer,
                              regularizer=regularizer, trainable=trainable)
        return tf.nn.embedding_lookup(emb, ids)


def optimize_loss(loss, global_step, learning_rate, optimizer, clip_gradients=None, name=None, **kwargs):
    opts = {"SGD": tf.train.GradientDescentOptimizer, "Adam": tf.train.AdamOptimizer,
            "Adagrad": tf.train.AdagradOptimizer, "RMSProp": tf.train.RMSPropOptimizer}
    opt = opts[optimizer](learning_rate) if isinstance(optimizer, str) else optimizer(learning_rate)
    grads = opt.compute_gradients(loss)
    if clip_gradients is not None:
        g, v = zip(*grads)
        g, _ = tf.clip_by_global_norm(list(g), clip_gradients)
        grads = list(zip(g, v))
    return opt.apply_gradients(grads, global_step=global_step)


# The layers take arg_scope defaults (tf.contrib.framework.arg_scope, slim.arg_scope).
import tensorflow.contrib.framework as _framework

fully_connected = _framework.add_arg_scope(fully_connected)
conv2d = _framework.add_arg_scope(conv2d)
convolution2d = conv2d
conv2d_transpose = _framework.add_arg_scope(conv2d_transpose)
convolution2d_transpose = conv2d_transpose
max_pool2d = _framework.add_arg_scope(max_pool2d)
avg_pool2d = _framework.add_arg_scope(avg_pool2d)
dropout = _framework.add_arg_scope(dropout)
batch_norm = _framework.add_arg_scope(batch_norm)
flatten = _framework.add_arg_scope(flatten)
embed_sequence = _framework.add_arg_scope(embed_sequence)
