# TF1's recurrent cells and RNN drivers (tf.nn.rnn_cell, tf.contrib.rnn, tf.nn.dynamic_rnn,
# static_rnn, bidirectional_dynamic_rnn). The cells compute with the ops and gate orders TF1 uses
# and make their variables with tf.get_variable under TF's scope names
# (rnn/basic_lstm_cell/kernel, rnn/multi_rnn_cell/cell_0/gru_cell/gates/bias, ...), so variable
# sharing, savers and printed variable lists behave as in TensorFlow. A cell builds its variables
# on its first call and keeps them (as TF1's layer-based cells do); a later call reuses them.
# dynamic_rnn unrolls the time loop when the number of time steps is known when the graph is
# built; otherwise (inputs [batch, None, depth]) it runs the cell in a graph loop (a While node,
# engine/graph/Loops.h) that reads one time step per iteration and stacks the outputs.
import tensorflow as tf


# Structures of states (tuples, lists, LSTMStateTuples, dicts) flatten and pack as tf.nest does,
# with the while loop's helpers: lists stay lists, namedtuple-likes are rebuilt by their type.
_nest_flatten = tf._loop_flatten
_nest_pack = tf._loop_pack


class LSTMStateTuple:
    """(c, h): an LSTM's cell state and output, as TF's namedtuple (fetchable and feedable as a
    structure by Session.run)."""

    _fields = ("c", "h")

    def __init__(self, c, h):
        self.c = c
        self.h = h

    def __iter__(self):
        return iter((self.c, self.h))

    def __len__(self):
        return 2

    def __getitem__(self, i):
        return (self.c, self.h)[i]

    def __eq__(self, other):
        return isinstance(other, LSTMStateTuple) and self.c is other.c and self.h is other.h

    def __hash__(self):
        return hash((id(self.c), id(self.h)))

    @property
    def dtype(self):
        return self.c.dtype

    def _replace(self, c=None, h=None):
        return LSTMStateTuple(self.c if c is None else c, self.h if h is None else h)

    def __repr__(self):
        return "LSTMStateTuple(c=%r, h=%r)" % (self.c, self.h)


class RNNCell:
    """Base class: __call__(inputs, state) -> (output, new_state). Subclasses give _base_name,
    state_size, output_size and _build(in_dim) / _step(inputs, state)."""

    _base_name = "rnn_cell"

    def __init__(self, num_units=None, activation=None, reuse=None, name=None, dtype=None):
        self._units = num_units
        self._activation = activation if activation is not None else tf.tanh
        self._name = name
        self._reuse = reuse
        self._built = False
        self._scope = None
        self._dtype = dtype

    @property
    def state_size(self):
        return self._units

    @property
    def output_size(self):
        return self._units

    def zero_state(self, batch_size, dtype):
        with tf.name_scope(type(self).__name__ + "ZeroState"):
            return self._zeros(self.state_size, batch_size, dtype)

    def _zeros(self, size, batch_size, dtype):
        if isinstance(size, LSTMStateTuple):
            return LSTMStateTuple(self._zeros(size.c, batch_size, dtype), self._zeros(size.h, batch_size, dtype))
        if isinstance(size, (tuple, list)):
            return tuple(self._zeros(s, batch_size, dtype) for s in size)
        return tf.zeros(tf.stack([batch_size, size]) if tf.is_tensor(batch_size) else [batch_size, size], dtype)

    def __call__(self, inputs, state, scope=None):
        if not self._built:
            in_dim = inputs.shape[-1]
            if in_dim is None:
                raise ValueError("The last dimension of the inputs to `%s` should be defined. Found `None`."
                                 % type(self).__name__)
            with tf.variable_scope(scope or self._name, default_name=self._base_name,
                                   reuse=self._reuse) as vs:
                self._scope = vs
                # TF1's cells are layers: without a dtype= they take their variables' dtype
                # from the first inputs (float64 inputs, float64 kernels).
                if self._dtype is None and getattr(inputs.dtype, "is_floating", False):
                    self._dtype = inputs.dtype.base_dtype
                self._build(int(in_dim))
            self._built = True
        with tf.name_scope(self._scope.name.rsplit("/", 1)[-1]):
            return self._step(inputs, state)

    def _var(self, name, shape, initializer=None):
        return tf.get_variable(name, shape, dtype=self._dtype if self._dtype is not None else tf.float32,
                               initializer=initializer)


class BasicRNNCell(RNNCell):
    _base_name = "basic_rnn_cell"

    def _build(self, in_dim):
        self._kernel = self._var("kernel", [in_dim + self._units, self._units])
        self._bias = self._var("bias", [self._units], tf.zeros_initializer())

    def _step(self, inputs, state):
        out = self._activation(tf.nn.bias_add(tf.matmul(tf.concat([inputs, state], 1), self._kernel), self._bias))
        return out, out


class GRUCell(RNNCell):
    _base_name = "gru_cell"

    def __init__(self, num_units, activation=None, reuse=None, kernel_initializer=None, bias_initializer=None,
                 name=None, dtype=None):
        RNNCell.__init__(self, num_units, activation, reuse, name, dtype)
        self._kernel_init = kernel_initializer
        self._bias_init = bias_initializer

    def _build(self, in_dim):
        n = self._units
        with tf.variable_scope("gates"):
            self._gate_kernel = self._var("kernel", [in_dim + n, 2 * n], self._kernel_init)
            self._gate_bias = self._var("bias", [2 * n], self._bias_init if self._bias_init is not None
                                        else tf.constant_initializer(1.0))
        with tf.variable_scope("candidate"):
            self._cand_kernel = self._var("kernel", [in_dim + n, n], self._kernel_init)
            self._cand_bias = self._var("bias", [n], self._bias_init if self._bias_init is not None
                                        else tf.zeros_initializer())

    def _step(self, inputs, state):
        gates = tf.sigmoid(tf.nn.bias_add(tf.matmul(tf.concat([inputs, state], 1), self._gate_kernel),
                                          self._gate_bias))
        r, u = tf.split(gates, 2, axis=1)
        cand = tf.nn.bias_add(tf.matmul(tf.concat([inputs, r * state], 1), self._cand_kernel), self._cand_bias)
        c = self._activation(cand)
        new_h = u * state + (1 - u) * c
        return new_h, new_h


class BasicLSTMCell(RNNCell):
    _base_name = "basic_lstm_cell"

    def __init__(self, num_units, forget_bias=1.0, state_is_tuple=True, activation=None, reuse=None, name=None,
                 dtype=None):
        RNNCell.__init__(self, num_units, activation, reuse, name, dtype)
        self._forget_bias = forget_bias
        self._state_is_tuple = state_is_tuple
        self._num_proj = None
        self._cell_clip = None
        self._peep = False
        self._initializer = None

    @property
    def state_size(self):
        h = self._num_proj if self._num_proj else self._units
        return LSTMStateTuple(self._units, h) if self._state_is_tuple else self._units + h

    @property
    def output_size(self):
        return self._num_proj if self._num_proj else self._units

    def _build(self, in_dim):
        h = self._num_proj if self._num_proj else self._units
        self._kernel = self._var("kernel", [in_dim + h, 4 * self._units], self._initializer)
        self._bias = self._var("bias", [4 * self._units], tf.zeros_initializer())
        if self._peep:
            self._w_f = self._var("w_f_diag", [self._units], self._initializer)
            self._w_i = self._var("w_i_diag", [self._units], self._initializer)
            self._w_o = self._var("w_o_diag", [self._units], self._initializer)
        if self._num_proj:
            with tf.variable_scope("projection"):
                self._proj = self._var("kernel", [self._units, self._num_proj], self._initializer)

    def _step(self, inputs, state):
        if self._state_is_tuple:
            c, h = state[0], state[1]
        else:
            c, h = tf.split(state, [self._units, self.output_size], axis=1)
        z = tf.nn.bias_add(tf.matmul(tf.concat([inputs, h], 1), self._kernel), self._bias)
        i, j, f, o = tf.split(z, 4, axis=1)
        fb = tf.cast(self._forget_bias, f.dtype)
        if self._peep:
            new_c = c * tf.sigmoid(f + fb + self._w_f * c) + tf.sigmoid(i + self._w_i * c) * self._activation(j)
        else:
            new_c = c * tf.sigmoid(f + fb) + tf.sigmoid(i) * self._activation(j)
        if self._cell_clip is not None:
            new_c = tf.clip_by_value(new_c, -self._cell_clip, self._cell_clip)
        if self._peep:
            new_h = self._activation(new_c) * tf.sigmoid(o + self._w_o * new_c)
        else:
            new_h = self._activation(new_c) * tf.sigmoid(o)
        if self._num_proj:
            new_h = tf.matmul(new_h, self._proj)
        new_state = LSTMStateTuple(new_c, new_h) if self._state_is_tuple else tf.concat([new_c, new_h], 1)
        return new_h, new_state


class LSTMCell(BasicLSTMCell):
    _base_name = "lstm_cell"

    def __init__(self, num_units, use_peepholes=False, cell_clip=None, initializer=None, num_proj=None,
                 proj_clip=None, num_unit_shards=None, num_proj_shards=None, forget_bias=1.0, state_is_tuple=True,
                 activation=None, reuse=None, name=None, dtype=None):
        BasicLSTMCell.__init__(self, num_units, forget_bias, state_is_tuple, activation, reuse, name, dtype)
        self._peep = use_peepholes
        self._cell_clip = cell_clip
        self._initializer = initializer
        self._num_proj = num_proj


class MultiRNNCell(RNNCell):
    _base_name = "multi_rnn_cell"

    def __init__(self, cells, state_is_tuple=True):
        RNNCell.__init__(self)
        if not cells:
            raise ValueError("Must specify at least one cell for MultiRNNCell.")
        self._cells = list(cells)
        self._state_is_tuple = state_is_tuple

    @property
    def state_size(self):
        return tuple(c.state_size for c in self._cells)

    @property
    def output_size(self):
        return self._cells[-1].output_size

    def zero_state(self, batch_size, dtype):
        with tf.name_scope("MultiRNNCellZeroState"):
            return tuple(c.zero_state(batch_size, dtype) for c in self._cells)

    def __call__(self, inputs, state, scope=None):
        if not self._built:
            with tf.variable_scope(scope or self._name, default_name=self._base_name) as vs:
                self._scope = vs
            self._built = True
        with tf.variable_scope(self._scope):
            cur = inputs
            new_states = []
            for i, cell in enumerate(self._cells):
                with tf.variable_scope("cell_%d" % i):
                    cur, s = cell(cur, state[i])
                new_states.append(s)
        return cur, tuple(new_states)


class _Wrapper(RNNCell):
    def __init__(self, cell):
        RNNCell.__init__(self)
        self._cell = cell

    @property
    def state_size(self):
        return self._cell.state_size

    @property
    def output_size(self):
        return self._cell.output_size

    def zero_state(self, batch_size, dtype):
        return self._cell.zero_state(batch_size, dtype)


class DropoutWrapper(_Wrapper):
    def __init__(self, cell, input_keep_prob=1.0, output_keep_prob=1.0, state_keep_prob=1.0,
                 variational_recurrent=False, input_size=None, dtype=None, seed=None, dropout_state_filter_visitor=None):
        _Wrapper.__init__(self, cell)
        self._in = input_keep_prob
        self._out = output_keep_prob
        self._state = state_keep_prob
        self._seed = seed

    @staticmethod
    def _drop(x, keep):
        if isinstance(keep, (int, float)) and keep == 1.0:
            return x
        return tf.nn.dropout(x, keep_prob=keep)

    def __call__(self, inputs, state, scope=None):
        inputs = self._drop(inputs, self._in)
        out, new_state = self._cell(inputs, state, scope)
        if not (isinstance(self._state, (int, float)) and self._state == 1.0):
            flat = _nest_flatten(new_state)
            # TF leaves an LSTM's memory cell c undropped by default; it drops the h part.
            if isinstance(new_state, LSTMStateTuple):
                new_state = LSTMStateTuple(new_state.c, self._drop(new_state.h, self._state))
            else:
                new_state = _nest_pack(new_state, [self._drop(s, self._state) for s in flat])
        return self._drop(out, self._out), new_state


class ResidualWrapper(_Wrapper):
    def __call__(self, inputs, state, scope=None):
        out, new_state = self._cell(inputs, state, scope)
        return inputs + out, new_state


class DeviceWrapper(_Wrapper):
    def __init__(self, cell, device):
        _Wrapper.__init__(self, cell)
        self._device = device

    def __call__(self, inputs, state, scope=None):
        with tf.device(self._device):
            return self._cell(inputs, state, scope)


def _batch_size(x):
    b = x.shape[0]
    return int(b) if b is not None else tf.shape(x)[0]


def _initial_state(cell, first_input, initial_state, dtype):
    if initial_state is not None:
        return initial_state
    if dtype is None:
        raise ValueError("If there is no initial_state, you must give a dtype.")
    return cell.zero_state(_batch_size(first_input), dtype)


def _select_rows(alive, a, b):
    # Rows of `a` where `alive` ([batch] bools), else of `b`. The condition is broadcast to a's
    # shape: TF1's tf.where (Select) and TF2's (SelectV2) read a [batch] condition differently.
    return tf.where(tf.broadcast_to(tf.expand_dims(alive, 1), tf.shape(a)), a, b)


def _run_steps(cell, steps, state, sequence_length):
    # One call of the cell per time step. With sequence_length, a row past its length outputs
    # zeros and keeps its last state, as TF's dynamic_rnn does.
    outputs = []
    for t, x in enumerate(steps):
        out, new_state = cell(x, state)
        if sequence_length is not None:
            alive = tf.less(t, sequence_length)
            out = _select_rows(alive, out, tf.zeros_like(out))
            new_state = _nest_pack(new_state, [_select_rows(alive, n, o) for n, o in
                                               zip(_nest_flatten(new_state), _nest_flatten(state))])
        outputs.append(out)
        state = new_state
    return outputs, state


def _input_sequence(inputs):
    """rnn.py's check: static RNNs take a list of per-step tensors, not one tensor (unstack it)."""
    if not isinstance(inputs, (list, tuple)) and (tf.is_tensor(inputs) or hasattr(inputs, "dtype")):
        raise TypeError("inputs must be a sequence")
    return list(inputs)


def static_rnn(cell, inputs, initial_state=None, dtype=None, sequence_length=None, scope=None):
    inputs = _input_sequence(inputs)
    if not inputs:
        raise ValueError("inputs must not be empty")
    with tf.variable_scope(scope or "rnn"):
        state = _initial_state(cell, inputs[0], initial_state, dtype)
        if sequence_length is not None:
            sequence_length = tf.cast(sequence_length, tf.int32)
        return _run_steps(cell, inputs, state, sequence_length)


def _static_steps(inputs, time_major):
    # The time steps as a list when their number is known when the graph is built, else None.
    axis = 0 if time_major else 1
    n = inputs.shape[axis] if inputs.shape.ndims is not None else None
    if n is None:
        return None, axis
    return tf.unstack(inputs, num=int(n), axis=axis), axis


def _time_major(x, axis):
    if axis == 0:
        return x
    rank = x.shape.ndims
    if rank is None:
        raise ValueError("dynamic_rnn: the rank of the inputs must be known")
    return tf.transpose(x, [1, 0] + list(range(2, rank)))


def _loop_steps(cell, inputs, axis, initial_state, dtype, sequence_length):
    # The time loop run by the session: one cell call per iteration on time step t of the
    # (time-major) inputs, its output stacked; past a row's sequence_length, zeros and the state
    # kept, as in _run_steps.
    x = _time_major(inputs, axis)
    if x.shape.ndims is not None and x.shape.ndims >= 2 and x.shape[1] is not None:
        batch = int(x.shape[1])
    else:
        batch = tf.shape(x)[1]
    if initial_state is not None:
        state = initial_state
    else:
        if dtype is None:
            raise ValueError("If there is no initial_state, you must give a dtype.")
        state = cell.zero_state(batch, dtype)
    steps = tf.shape(x)[0]
    flat = _nest_flatten(state)

    def cond(params):
        return tf.less(params[0], steps)

    def body(params, elements):
        t = params[0]
        old = _nest_pack(state, params[1:])
        out, new_state = cell(elements[0], old)
        if sequence_length is not None:
            alive = tf.less(t, sequence_length)
            out = _select_rows(alive, out, tf.zeros_like(out))
            new_state = _nest_pack(new_state, [_select_rows(alive, a, b) for a, b in
                                               zip(_nest_flatten(new_state), _nest_flatten(old))])
        return [t + 1] + _nest_flatten(new_state), [out]

    finals, emits = tf._dynamic_loop(cond, body, [tf.constant(0)] + flat, sliced=[x])
    outputs = emits[0]
    if axis == 1:
        outputs = _time_major(outputs, 1)
    return outputs, _nest_pack(state, finals[1:])


def _check_rnn_rank(inputs, time_major):
    # rnn.py's checks, with its messages: batch-major inputs are transposed first (rank >= 2),
    # then the time-major inputs must have rank >= 3 ([time, batch, depth]).
    nd = inputs.shape.ndims
    if nd is None or nd >= 3:
        return
    if not time_major and nd < 2:
        raise ValueError("Expected input tensor %s to have rank at least 2, but saw shape: %s" % (inputs, inputs.shape))
    dims = inputs.shape.as_list()
    if not time_major:
        dims = [dims[1], dims[0]]
    raise ValueError("Shape %s must have rank at least 3" % (tf.TensorShape(dims),))


def dynamic_rnn(cell, inputs, sequence_length=None, initial_state=None, dtype=None, parallel_iterations=None,
                swap_memory=False, time_major=False, scope=None):
    inputs = tf.convert_to_tensor(inputs)
    _check_rnn_rank(inputs, time_major)
    with tf.variable_scope(scope or "rnn"):
        steps, axis = _static_steps(inputs, time_major)
        if sequence_length is not None:
            sequence_length = tf.cast(sequence_length, tf.int32)
        if steps is None:
            return _loop_steps(cell, inputs, axis, initial_state, dtype, sequence_length)
        state = _initial_state(cell, steps[0], initial_state, dtype)
        outputs, state = _run_steps(cell, steps, state, sequence_length)
        return tf.stack(outputs, axis=axis), state


def _reverse_time(x, axis, sequence_length):
    if sequence_length is None:
        return tf.reverse(x, [axis])
    return tf.reverse_sequence(x, sequence_length, seq_axis=axis, batch_axis=1 - axis)


def bidirectional_dynamic_rnn(cell_fw, cell_bw, inputs, sequence_length=None, initial_state_fw=None,
                              initial_state_bw=None, dtype=None, parallel_iterations=None, swap_memory=False,
                              time_major=False, scope=None):
    inputs = tf.convert_to_tensor(inputs)
    axis = 0 if time_major else 1
    with tf.variable_scope(scope or "bidirectional_rnn"):
        with tf.variable_scope("fw") as fw_scope:
            out_fw, st_fw = dynamic_rnn(cell_fw, inputs, sequence_length, initial_state_fw, dtype,
                                        time_major=time_major, scope=fw_scope)
        with tf.variable_scope("bw") as bw_scope:
            rev = _reverse_time(inputs, axis, sequence_length)
            out_bw, st_bw = dynamic_rnn(cell_bw, rev, sequence_length, initial_state_bw, dtype,
                                        time_major=time_major, scope=bw_scope)
            out_bw = _reverse_time(out_bw, axis, sequence_length)
    return (out_fw, out_bw), (st_fw, st_bw)


def static_bidirectional_rnn(cell_fw, cell_bw, inputs, initial_state_fw=None, initial_state_bw=None, dtype=None,
                             sequence_length=None, scope=None):
    inputs = _input_sequence(inputs)
    with tf.variable_scope(scope or "bidirectional_rnn"):
        with tf.variable_scope("fw") as fw_scope:
            out_fw, st_fw = static_rnn(cell_fw, inputs, initial_state_fw, dtype, sequence_length, fw_scope)
        with tf.variable_scope("bw") as bw_scope:
            if sequence_length is None:
                rev = inputs[::-1]
            else:
                rev = tf.unstack(_reverse_time(tf.stack(inputs, 0), 0, sequence_length), axis=0)
            out_bw, st_bw = static_rnn(cell_bw, rev, initial_state_bw, dtype, sequence_length, bw_scope)
            if sequence_length is None:
                out_bw = out_bw[::-1]
            else:
                out_bw = tf.unstack(_reverse_time(tf.stack(out_bw, 0), 0, sequence_length), axis=0)
    outputs = [tf.concat([f, b], 1) for f, b in zip(out_fw, out_bw)]
    return outputs, st_fw, st_bw


_Cell = RNNCell
