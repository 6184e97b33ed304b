// tf.train.Saver: variables saved to files and restored in a later run (a fresh interpreter, as
// a second program run would be), TensorFlow's `checkpoint` state file and latest_checkpoint,
// max_to_keep, and clear errors for a missing checkpoint or a variable it lacks.
#include <filesystem>

#include "TfTestSupport.h"

using namespace tlens;
using namespace tlens::tf;
using namespace tlens::tf::testing;
using interp::Mode;

TEST_CASE("a Saver's checkpoint restores the variables in a later run", "[tf]") {
  const std::string dir = freshTempDir("saver-roundtrip");
  TfRun first = runTf(R"(
import tensorflow as tf
w = tf.Variable([[1.0, 2.0], [3.0, 4.0]], name="w")
step = tf.Variable(7, name="step")
train = tf.assign_add(w, tf.ones([2, 2]))
saver = tf.train.Saver(max_to_keep=2)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    paths = []
    for i in range(3):
        sess.run(train)
        paths.append(saver.save(sess, ")" + dir + R"(/model.ckpt", global_step=i))
kept = saver.last_checkpoints()
)", Mode::Concrete, ApiStyle::Graph);
  INFO(first.err);
  REQUIRE(first.status == 0);
  CHECK(first.repr("kept") == "['" + dir + "/model.ckpt-1', '" + dir + "/model.ckpt-2']");
  CHECK_FALSE(std::filesystem::exists(dir + "/model.ckpt-0.index"));  // beyond max_to_keep
  CHECK(std::filesystem::exists(dir + "/model.ckpt-2.data-00000-of-00001"));

  TfRun second = runTf(R"(
import tensorflow as tf
w = tf.Variable(tf.zeros([2, 2]), name="w")
step = tf.Variable(0, name="step")
saver = tf.train.Saver()
latest = tf.train.latest_checkpoint(")" + dir + R"(")
with tf.Session() as sess:
    saver.restore(sess, latest)
    values = sess.run(w).tolist()
    s = int(sess.run(step))
)", Mode::Concrete, ApiStyle::Graph);
  INFO(second.err);
  REQUIRE(second.status == 0);
  CHECK(second.repr("latest") == "'" + dir + "/model.ckpt-2'");
  CHECK(second.repr("values") == "[[4.0, 5.0], [6.0, 7.0]]");
  CHECK(second.repr("s") == "7");
}

TEST_CASE("restoring a missing checkpoint or a variable it lacks fails with TensorFlow's errors", "[tf]") {
  const std::string dir = freshTempDir("saver-errors");
  TfRun missing = runTf(R"(
import tensorflow as tf
w = tf.Variable(1.0, name="w")
saver = tf.train.Saver()
with tf.Session() as sess:
    try:
        saver.restore(sess, ")" + dir + R"(/nothing.ckpt")
        caught = "no error"
    except tf.errors.NotFoundError as e:
        caught = "NotFoundError"
none_latest = tf.train.latest_checkpoint(")" + dir + R"(")
)", Mode::Concrete, ApiStyle::Graph);
  INFO(missing.err);
  REQUIRE(missing.status == 0);
  CHECK(missing.repr("caught") == "'NotFoundError'");
  CHECK(missing.repr("none_latest") == "None");

  TfRun save = runTf("import tensorflow as tf\nw = tf.Variable(1.0, name='w')\nsaver = tf.train.Saver()\n"
                     "with tf.Session() as sess:\n    sess.run(tf.global_variables_initializer())\n"
                     "    saver.save(sess, '" + dir + "/m.ckpt')\n", Mode::Concrete, ApiStyle::Graph);
  REQUIRE(save.status == 0);
  TfRun lacks = runTf("import tensorflow as tf\nv = tf.Variable(1.0, name='v')\nsaver = tf.train.Saver()\n"
                      "with tf.Session() as sess:\n    saver.restore(sess, '" + dir + "/m.ckpt')\n",
                      Mode::Concrete, ApiStyle::Graph);
  CHECK(lacks.status != 0);
  CHECK(lacks.err.find("NotFoundError: Key v not found in checkpoint") != std::string::npos);
}

TEST_CASE("abstract mode never writes a checkpoint", "[tf]") {
  const std::string dir = freshTempDir("saver-abstract");
  TfRun r = runTf("import tensorflow as tf\nw = tf.Variable(1.0, name='w')\nsaver = tf.train.Saver()\n"
                  "with tf.Session() as sess:\n    sess.run(tf.global_variables_initializer())\n"
                  "    saver.save(sess, '" + dir + "/m.ckpt')\n", Mode::Abstract, ApiStyle::Graph);
  CHECK(r.diagnostics() == "");
  CHECK(std::filesystem::is_empty(dir));
}

TEST_CASE("tf.train.Checkpoint and CheckpointManager save a model and optimizer and restore them by position", "[tf]") {
  // TF2 tutorials: ckpt = tf.train.Checkpoint(step=..., optimizer=opt, net=model);
  // manager = tf.train.CheckpointManager(ckpt, dir, max_to_keep=2); ckpt.restore(manager.latest_checkpoint).
  const std::string dir = freshTempDir("checkpoint-manager");
  const std::string src = R"(import os
import numpy as np
import tensorflow as tf
d = ")" + dir + R"("
def make():
    return tf.keras.Sequential([tf.keras.layers.Dense(3, input_shape=(2,)), tf.keras.layers.Dense(1)])
model = make()
opt = tf.keras.optimizers.Adam(0.1)
step = tf.Variable(1)
ckpt = tf.train.Checkpoint(step=step, optimizer=opt, net=model)
manager = tf.train.CheckpointManager(ckpt, d, max_to_keep=2)
x = np.ones((4, 2), dtype=np.float32)
for i in range(3):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(model(x) ** 2)
    opt.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
    step.assign_add(1)
    path = manager.save()
kept = [os.path.basename(p) for p in manager.checkpoints]
files = sorted(os.listdir(d))
latest = os.path.basename(tf.train.latest_checkpoint(d))
before = model.predict(x, verbose=0)
model2 = make()  # its layers are dense_2 and dense_3: matched by position, not by name
step2 = tf.Variable(0)
ckpt2 = tf.train.Checkpoint(step=step2, net=model2)
status = ckpt2.restore(manager.latest_checkpoint)
restored = [int(step2.numpy()), bool(np.allclose(model2.predict(x, verbose=0), before)), int(ckpt2.save_counter)]
try:
    status.assert_consumed()
    consumed = "all"
except AssertionError:
    consumed = "partial"  # the optimizer's variables were not asked for
status.expect_partial()
)";
  TfRun r = runTf(src);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("kept") == "['ckpt-2', 'ckpt-3']");
  CHECK(r.repr("files") == "['checkpoint', 'ckpt-2.data-00000-of-00001', 'ckpt-2.index', 'ckpt-3.data-00000-of-00001', "
                           "'ckpt-3.index']");
  CHECK(r.repr("latest") == "'ckpt-3'");
  CHECK(r.repr("restored") == "[4, True, 3]");
  CHECK(r.repr("consumed") == "'partial'");
  const std::string abstractDir = freshTempDir("checkpoint-abstract");
  std::string asrc = src;
  asrc.replace(asrc.find(dir), dir.size(), abstractDir);
  TfRun a = runTf(asrc, Mode::Abstract);
  CHECK(a.diagnostics() == "");
  CHECK(std::filesystem::is_empty(abstractDir));
}

TEST_CASE("a Saver creates the checkpoint's directory, as TensorFlow's checkpoint writer does", "[tf]") {
  // golbin and caicloud tutorials save to "./model/dnn.ckpt" and "Saved_model/model.ckpt" with no
  // such directory yet.
  const std::string dir = freshTempDir("saver-mkdir");
  TfRun r = runTf(R"(import os
import tensorflow as tf
w = tf.Variable(1.0, name="w")
saver = tf.train.Saver()
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    path = saver.save(sess, ")" + dir + R"(/new/deeper/model.ckpt", global_step=3)
made = sorted(os.listdir(os.path.dirname(path)))
)", Mode::Concrete, ApiStyle::Graph);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("made") == "['checkpoint', 'model.ckpt-3.data-00000-of-00001', 'model.ckpt-3.index']");
  const std::string abstractDir = freshTempDir("saver-mkdir-abstract");
  TfRun a = runTf("import tensorflow as tf\nw = tf.Variable(1.0)\nsaver = tf.train.Saver()\n"
                  "with tf.Session() as sess:\n    saver.save(sess, '" + abstractDir + "/new/m.ckpt')\n",
                  Mode::Abstract, ApiStyle::Graph);
  CHECK(std::filesystem::is_empty(abstractDir));
}

TEST_CASE("a Saver lists what it saves in _var_list, as TF1's does", "[tf]") {
  // easy-tensorflow's save-and-restore tutorial prints `saver._var_list`.
  TfRun r = runTf(R"(
import tensorflow as tf
a = tf.get_variable("A", initializer=tf.constant(3, shape=[2]))
b = tf.get_variable("B", initializer=tf.constant(5, shape=[3]))
names = [v.name for v in tf.train.Saver()._var_list]
given = tf.train.Saver({"x": a})._var_list
keys = list(given.keys())
only_b = [v.name for v in tf.train.Saver([b])._var_list]
)", Mode::Concrete, ApiStyle::Graph);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("names") == "['A:0', 'B:0']");
  CHECK(r.repr("keys") == "['x']");
  CHECK(r.repr("only_b") == "['B:0']");
}
