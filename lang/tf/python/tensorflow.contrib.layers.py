import tensorflow as tf
import tensorflow.layers as _layers


def xavier_initializer(uniform=True, seed=None, dtype=None):
    return tf.glorot_uniform_initializer(seed) if uniform else tf.glorot_normal_initializer(seed)


xavier_initializer_conv2d = xavier_initializer


def variance_scaling_initializer(factor=2.0, mode="FAN_IN", uniform=False, seed=None, dtype=None):
    return tf.he_normal_initializer(seed)


def fully_connected(inputs, num_outputs, activation_fn=tf.nn.relu, normalizer_fn=None, weights_initializer=None,
                    biases_initializer=None, scope=None, **kwargs):
    return _layers.dense(inputs, num_outputs, activation=activation_fn, kernel_initializer=weights_initializer, name=scope)


def flatten(inputs, outputs_collections=None, scope=None):
    return _layers.flatten(inputs, name=scope)


def conv2d(inputs, num_outputs, kernel_size, stride=1, padding="SAME", activation_fn=tf.nn.relu, scope=None, **kwargs):
    return _layers.conv2d(inputs, num_outputs, kernel_size, stride, padding, activation=activation_fn, name=scope)


def l2_regularizer(scale, scope=None):
    return lambda w: tf.multiply(scale, tf.nn.l2_loss(w))
