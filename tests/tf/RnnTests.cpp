// TF1's recurrent cells and drivers (tensorflow.contrib.rnn.py, reached as tf.nn.rnn_cell,
// tf.contrib.rnn and tf.nn.dynamic_rnn): TensorFlow's variable names, its gate orders and
// formulas (expected values computed by hand from TF's BasicLSTMCell/GRUCell definitions),
// sequence_length masking, and LSTMStateTuple fetched and fed as a structure.
#include "TfTestSupport.h"

using namespace tlens;
using namespace tlens::tf;
using namespace tlens::tf::testing;
using interp::Mode;

TEST_CASE("RNN cells make their variables under TensorFlow's scope names", "[tf][rnn]") {
  TfRun r = runTf(R"(
import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 5, 3])
out, st = tf.nn.dynamic_rnn(tf.nn.rnn_cell.BasicLSTMCell(4), x, dtype=tf.float32)
cells = tf.nn.rnn_cell.MultiRNNCell([tf.nn.rnn_cell.GRUCell(6), tf.contrib.rnn.LSTMCell(7, num_proj=2)])
o2, s2 = tf.nn.dynamic_rnn(cells, x, dtype=tf.float32, scope="deep")
(fw, bw), _ = tf.nn.bidirectional_dynamic_rnn(tf.contrib.rnn.BasicRNNCell(3), tf.contrib.rnn.BasicRNNCell(3), x,
                                              dtype=tf.float32)
names = [v.name for v in tf.trainable_variables()]
shapes = [str(t.shape) for t in (out, st.c, st.h, o2, s2[1].h, fw, bw)]
)", Mode::Concrete, ApiStyle::Graph);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("names") ==
        "['rnn/basic_lstm_cell/kernel:0', 'rnn/basic_lstm_cell/bias:0', "
        "'deep/multi_rnn_cell/cell_0/gru_cell/gates/kernel:0', 'deep/multi_rnn_cell/cell_0/gru_cell/gates/bias:0', "
        "'deep/multi_rnn_cell/cell_0/gru_cell/candidate/kernel:0', 'deep/multi_rnn_cell/cell_0/gru_cell/candidate/bias:0', "
        "'deep/multi_rnn_cell/cell_1/lstm_cell/kernel:0', 'deep/multi_rnn_cell/cell_1/lstm_cell/bias:0', "
        "'deep/multi_rnn_cell/cell_1/lstm_cell/projection/kernel:0', "
        "'bidirectional_rnn/fw/basic_rnn_cell/kernel:0', 'bidirectional_rnn/fw/basic_rnn_cell/bias:0', "
        "'bidirectional_rnn/bw/basic_rnn_cell/kernel:0', 'bidirectional_rnn/bw/basic_rnn_cell/bias:0']");
  CHECK(r.repr("shapes") == "['(?, 5, 4)', '(?, 4)', '(?, 4)', '(?, 5, 2)', '(?, 2)', '(?, 5, 3)', '(?, 5, 3)']");
}

TEST_CASE("an LSTM and a GRU compute TensorFlow's formulas", "[tf][rnn]") {
  TfRun r = runTf(R"(
import tensorflow as tf
x = tf.constant([[[1.0], [1.0]]])
init = tf.constant_initializer(0.5)
with tf.variable_scope("l", initializer=init):
    out, st = tf.nn.dynamic_rnn(tf.nn.rnn_cell.BasicLSTMCell(1), x, dtype=tf.float32)
with tf.variable_scope("g", initializer=init):
    gout, _ = tf.nn.dynamic_rnn(tf.nn.rnn_cell.GRUCell(1), x[:, :1], dtype=tf.float32)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    o, s, g = sess.run([out, st, gout])
hs = [round(float(v), 5) for v in o.reshape(-1)]
cs = round(float(s.c[0, 0]), 5)
kind = type(s).__name__
gru = round(float(g[0, 0, 0]), 5)
)", Mode::Concrete, ApiStyle::Graph);
  INFO(r.err);
  REQUIRE(r.status == 0);
  // c1 = sig(.5) tanh(.5), h1 = tanh(c1) sig(.5); step 2 with z = .5 + .5 h1, forget bias 1.
  CHECK(r.repr("hs") == "[0.17427, 0.33501]");
  CHECK(r.repr("cs") == "0.57805");
  CHECK(r.repr("kind") == "'LSTMStateTuple'");
  // gates bias 1: u = sig(1.5); h = (1 - u) tanh(.5)
  CHECK(r.repr("gru") == "0.0843");
}

TEST_CASE("sequence_length stops each row at its length, and the state can be fed back", "[tf][rnn]") {
  TfRun r = runTf(R"(
import numpy as np
import tensorflow as tf
x = tf.placeholder(tf.float32, [2, 4, 1])
n = tf.placeholder(tf.int32, [2])
cell = tf.nn.rnn_cell.BasicLSTMCell(2)
init = cell.zero_state(2, tf.float32)
out, st = tf.nn.dynamic_rnn(cell, x, sequence_length=n, initial_state=init)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    xv = np.ones((2, 4, 1), np.float32)
    o, s = sess.run([out, st], {x: xv, n: [4, 2]})
    # The final state of the short row is its state at step 2, not at step 4.
    same = bool(np.allclose(s.h[1], o[1, 1])) and bool(np.allclose(s.h[0], o[0, 3]))
    zeros = o[1, 2:].tolist()
    # Feeding the state structure back continues from it.
    o2, _ = sess.run([out, st], {x: xv, n: [4, 4], init: s})
    moved = not np.allclose(o2[0, 0], o[0, 0])
rev = tf.Session().run(tf.reverse_sequence(tf.constant([[1, 2, 3, 4], [5, 6, 7, 8]]), [3, 1], seq_axis=1, batch_axis=0)).tolist()
flip = tf.Session().run(tf.reverse(tf.constant([[1, 2, 3], [4, 5, 6]]), [-1])).tolist()
mask = tf.Session().run(tf.sequence_mask([1, 3], 4)).tolist()
)", Mode::Concrete, ApiStyle::Graph);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("same") == "True");
  CHECK(r.repr("zeros") == "[[0.0, 0.0], [0.0, 0.0]]");
  CHECK(r.repr("moved") == "True");
  CHECK(r.repr("rev") == "[[3, 2, 1, 4], [5, 6, 7, 8]]");
  CHECK(r.repr("flip") == "[[3, 2, 1], [6, 5, 4]]");
  CHECK(r.repr("mask") == "[[True, False, False, False], [True, True, True, False]]");
}

TEST_CASE("an unknown number of time steps runs the cell in a graph loop", "[tf][rnn]") {
  TfRun r = runTf(R"(
import numpy as np
import tensorflow as tf
x = tf.placeholder(tf.float32, [None, None, 3])
out, st = tf.nn.dynamic_rnn(tf.nn.rnn_cell.GRUCell(4), x, dtype=tf.float32)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    shapes = [list(v.shape) for v in sess.run([out, st], {x: np.ones([2, 7, 3])})]
)", Mode::Concrete, ApiStyle::Graph);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("shapes") == "[[2, 7, 4], [2, 4]]");
}

TEST_CASE("dynamic_rnn of inputs without a time axis fails with rnn.py's message, in a run and in the analysis", "[tf][rnn]") {
  // A question-and-answer bug: [batch, features] inputs with no time axis. TensorFlow transposes
  // batch-major inputs, then requires rank 3; tensorlens failed later, inside the cell, with a
  // message of its own the analysis did not report.
  const char* src = R"(import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 50])
cell = tf.nn.rnn_cell.BasicLSTMCell(64)
try:
    outputs, state = tf.nn.dynamic_rnn(cell, x, dtype=tf.float32)
except ValueError as e:
    message = str(e)
try:
    tf.nn.dynamic_rnn(cell, tf.placeholder(tf.float32, [None]), dtype=tf.float32)
except ValueError as e:
    message1 = str(e)
outputs, state = tf.nn.dynamic_rnn(cell, x, dtype=tf.float32, time_major=True)
)";
  TfRun r = runTf(src, Mode::Concrete, ApiStyle::Graph);
  CHECK(r.repr("message") == "'Shape (50, ?) must have rank at least 3'");
  CHECK(r.repr("message1").find("to have rank at least 2, but saw shape: (?,)") != std::string::npos);
  CHECK(r.err.find("ValueError: Shape (?, 50) must have rank at least 3") != std::string::npos);
  TfRun a = runTf(src, Mode::Abstract, ApiStyle::Graph);
  CHECK(a.diagnostics() == "main.py:12:18: error: Shape (?, 50) must have rank at least 3 [shape-error]\n");
}

TEST_CASE("Keras RNN cells step once, and keras.layers.RNN loops them as LSTM does", "[tf][rnn][keras]") {
  const char* src = R"(import numpy as np
import tensorflow as tf
cell = tf.keras.layers.LSTMCell(10)
state = cell.get_initial_state(batch_size=4, dtype=tf.float32)
out, st = cell(tf.random.normal([4, 3]), state)
shapes = [out.shape.as_list()] + [s.shape.as_list() for s in st]
nweights = len(cell.trainable_variables)
seq, h = tf.keras.layers.RNN(tf.keras.layers.SimpleRNNCell(6), return_sequences=True, return_state=True)(tf.ones([2, 5, 3]))
stacked = tf.keras.layers.RNN([tf.keras.layers.GRUCell(4), tf.keras.layers.LSTMCell(5)])
last = stacked(tf.ones([2, 7, 3]))
nstacked = len(stacked.trainable_weights)
lstm = tf.keras.layers.LSTM(8)
y1 = lstm(tf.ones([2, 5, 3]))
rnn = tf.keras.layers.RNN(tf.keras.layers.LSTMCell(8))
rnn(tf.ones([2, 5, 3]))
rnn.set_weights(lstm.get_weights())
same = bool(np.allclose(rnn(tf.ones([2, 5, 3])).numpy(), y1.numpy()))
m = tf.keras.Sequential([tf.keras.layers.RNN(tf.keras.layers.LSTMCell(8), input_shape=(5, 3)), tf.keras.layers.Dense(1)])
params = m.count_params()
)";
  TfRun r = runTf(src, Mode::Concrete);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("shapes") == "[[4, 10], [4, 10], [4, 10]]");
  CHECK(r.repr("nweights") == "3");
  CHECK(r.type("seq") == "float32[2, 5, 6]");
  CHECK(r.type("h") == "float32[2, 6]");
  CHECK(r.type("last") == "float32[2, 5]");
  CHECK(r.repr("nstacked") == "6");
  CHECK(r.repr("same") == "True");
  CHECK(r.repr("params") == "393");  // LSTM(8) on 3 features: 4*8*(3+8+1); Dense(1): 9
  TfRun a = runTf(src, Mode::Abstract);
  CHECK(a.diagnostics() == "");
  CHECK(a.type("seq") == "float32[2, 5, 6]");
}

TEST_CASE("tf.contrib.seq2seq.sequence_loss averages the weighted cross entropy over the axes asked for", "[tf][rnn]") {
  // hunkim/DeepLearningZeroToAll lab-12-*: sequence_loss(logits=outputs, targets=Y, weights=ones).
  const char* src = R"(import numpy as np
import tensorflow as tf
p = np.array([[[0.5, 0.25, 0.25], [0.1, 0.8, 0.1]], [[0.25, 0.25, 0.5], [0.2, 0.2, 0.6]]], dtype=np.float32)
logits = tf.placeholder(tf.float32, [None, 2, 3])
targets = tf.placeholder(tf.int32, [None, 2])
weights = tf.constant([[1.0, 1.0], [1.0, 0.0]])
both = tf.contrib.seq2seq.sequence_loss(logits, targets, weights)
per_example = tf.contrib.seq2seq.sequence_loss(logits, targets, weights, average_across_batch=False)
per_step = tf.contrib.seq2seq.sequence_loss(logits, targets, weights, average_across_timesteps=False)
each = tf.contrib.seq2seq.sequence_loss(logits, targets, weights, average_across_timesteps=False, average_across_batch=False)
with tf.Session() as sess:
    feed = {logits: np.log(p), targets: [[0, 1], [2, 2]]}
    b, e, s, a = sess.run([both, per_example, per_step, each], feed)
    b = round(float(b), 5)
    e = [round(float(v), 5) for v in e]
    s = [round(float(v), 5) for v in s]
    shape = a.shape
try:
    tf.contrib.seq2seq.sequence_loss(tf.zeros([2, 3]), targets, weights)
except ValueError as err:
    msg = str(err)
)";
  TfRun r = runTf(src, Mode::Concrete, ApiStyle::Graph);
  INFO(r.err);
  REQUIRE(r.status == 0);
  // -(ln .5 + ln .8 + ln .5) / 3 weights; per example (ln .5 + ln .8) / 2 and ln .5 / 1.
  CHECK(r.repr("b") == "0.53648");
  CHECK(r.repr("e") == "[0.45815, 0.69315]");
  CHECK(r.repr("s") == "[0.69315, 0.22314]");
  CHECK(r.repr("shape") == "(2, 2)");
  CHECK(r.repr("msg") == "'Logits must be a [batch_size x sequence_length x logits] tensor'");
  TfRun a = runTf(src, Mode::Abstract, ApiStyle::Graph);
  CHECK(a.type("both") == "float32[]");
  CHECK(a.type("per_example") == "float32[2]");  // the weights give the batch
  CHECK(a.type("each") == "float32[batch, 2]");
}

TEST_CASE("a cell takes its variables' dtype from float64 inputs, and sequence_length masks in either tf.where", "[tf][rnn]") {
  // easy-tensorflow's many-to-many sandbox: float64 numpy inputs, dtype=tf.float64 and a
  // sequence_length, with no Session in the program (TF2's SelectV2 reads the [batch] mask).
  const char* program = R"(
import numpy as np
import tensorflow as tf
X = np.ones((2, 4, 3))
X[1, 2:] = 0
cell = tf.nn.rnn_cell.LSTMCell(num_units=5)
outputs, last = tf.nn.dynamic_rnn(cell, X, sequence_length=[4, 2], dtype=tf.float64)
f32 = tf.nn.rnn_cell.GRUCell(3, name="g32")
o32, _ = tf.nn.dynamic_rnn(f32, tf.ones([2, 4, 3]), dtype=tf.float32)
kinds = [v.dtype.base_dtype.name for v in (cell._kernel, f32._gate_kernel)]
)";
  for (ApiStyle style : {ApiStyle::Graph, ApiStyle::Eager}) {
    TfRun r = runTf(program, Mode::Concrete, style);
    INFO(r.err);
    REQUIRE(r.status == 0);
    CHECK(r.type("outputs") == "float64[2, 4, 5]");
    CHECK(r.type("o32") == "float32[2, 4, 3]");
  }
  TfRun g = runTf(std::string(program) + R"(
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    o, h = sess.run([outputs, last.h])
masked = o[1, 2:].tolist()
kept = bool((h[1] == o[1, 1]).all())
)", Mode::Concrete, ApiStyle::Graph);
  INFO(g.err);
  REQUIRE(g.status == 0);
  CHECK(g.repr("kinds") == "['float64', 'float32']");
  CHECK(g.repr("masked") == "[[0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0]]");
  CHECK(g.repr("kept") == "True");
}
