# tf.contrib.rnn cells and dynamic_rnn/static_rnn: shapes are exact; the cells compute with the
# same ops TensorFlow uses (matmul, sigmoid, tanh).
import tensorflow as tf


class _Cell:
    def __init__(self, num_units, forget_bias=1.0, activation=None, state_is_tuple=True, name=None, reuse=None):
        self._units = num_units
        self._forget_bias = forget_bias
        self._activation = activation if activation is not None else tf.tanh
        self._built = False
        self._name = name

    @property
    def state_size(self):
        return self._units

    @property
    def output_size(self):
        return self._units

    def zero_state(self, batch_size, dtype):
        return self._zero(batch_size, dtype)


class BasicRNNCell(_Cell):
    def _zero(self, batch_size, dtype):
        return tf.zeros([batch_size, self._units], dtype)

    def __call__(self, inputs, state, scope=None):
        if not self._built:
            in_dim = inputs.shape[-1]
            self._w = tf.Variable(tf.glorot_uniform_initializer()([in_dim + self._units, self._units]), name="rnn/kernel")
            self._b = tf.Variable(tf.zeros([self._units]), name="rnn/bias")
            self._built = True
        out = self._activation(tf.matmul(tf.concat([inputs, state], 1), self._w) + self._b)
        return out, out


class LSTMStateTuple:
    def __init__(self, c, h):
        self.c = c
        self.h = h

    def __iter__(self):
        return iter([self.c, self.h])

    def __getitem__(self, i):
        return [self.c, self.h][i]


class BasicLSTMCell(_Cell):
    @property
    def state_size(self):
        return LSTMStateTuple(self._units, self._units)

    def _zero(self, batch_size, dtype):
        return LSTMStateTuple(tf.zeros([batch_size, self._units], dtype), tf.zeros([batch_size, self._units], dtype))

    def __call__(self, inputs, state, scope=None):
        c, h = state.c, state.h
        if not self._built:
            in_dim = inputs.shape[-1]
            self._w = tf.Variable(tf.glorot_uniform_initializer()([in_dim + self._units, 4 * self._units]), name="lstm/kernel")
            self._b = tf.Variable(tf.zeros([4 * self._units]), name="lstm/bias")
            self._built = True
        z = tf.matmul(tf.concat([inputs, h], 1), self._w) + self._b
        i, j, f, o = tf.split(z, 4, axis=1)
        new_c = c * tf.sigmoid(f + self._forget_bias) + tf.sigmoid(i) * self._activation(j)
        new_h = self._activation(new_c) * tf.sigmoid(o)
        return new_h, LSTMStateTuple(new_c, new_h)


LSTMCell = BasicLSTMCell
RNNCell = _Cell


def static_rnn(cell, inputs, initial_state=None, dtype=None, sequence_length=None, scope=None):
    inputs = list(inputs)
    batch = tf.shape(inputs[0])[0]
    state = initial_state if initial_state is not None else cell.zero_state(batch, dtype if dtype is not None else tf.float32)
    outputs = []
    for x in inputs:
        out, state = cell(x, state)
        outputs.append(out)
    return outputs, state


def dynamic_rnn(cell, inputs, sequence_length=None, initial_state=None, dtype=None, parallel_iterations=None,
                swap_memory=False, time_major=False, scope=None):
    steps = tf.unstack(inputs, axis=0 if time_major else 1)
    outputs, state = static_rnn(cell, steps, initial_state, dtype)
    return tf.stack(outputs, axis=0 if time_major else 1), state
