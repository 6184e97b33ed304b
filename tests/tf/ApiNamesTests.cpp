// The op registry's Python API names (OpDef::api: what a hover on `tf.nn.relu` documents, through
// OpRegistry::findByApi) are a claim about the embedded modules (lang/tf/python/*.py): each one
// must name a callable there, in both modes, or a hover documents a function that raises
// AttributeError. The modules are the one declaration of the Python surface; these tests keep
// the registry's names a checked index into it (issue #20, item 5).
#include <map>
#include <string>
#include <vector>

#include "engine/ops/OpRegistry.h"
#include "tests/tf/TfTestSupport.h"

using namespace tlens;
using namespace tlens::tf::testing;

namespace {

/// Every API name the registry declares, with the op that declares it.
std::map<std::string, std::string> registryApiNames() {
  std::map<std::string, std::string> names;
  for (const OpDef* op : OpRegistry::global().all())
    for (const std::string& a : op->api) names.emplace(a, op->type);
  return names;
}

/// A program that resolves each name attribute by attribute from its module ("tf." is
/// tensorflow, "np." numpy) and binds `unresolved` to the comma-separated names that are absent or
/// not callable. hasattr/getattr, not a call: the check must hold in abstract mode too, where
/// a missing attribute is an AttributeError as in concrete mode.
std::string resolverProgram(const std::vector<std::string>& names) {
  // One call per name, not a loop over a list: abstract mode runs long loops only twice.
  std::string calls;
  for (const std::string& n : names) calls += "check(\"" + n + "\")\n";
  return "import tensorflow as tf\n"
         "import numpy as np\n"
         "roots = {'tf': tf, 'np': np}\n"
         "bad = []\n"
         "count = 0\n"
         "def check(name):\n"
         "    global count\n"
         "    count += 1\n"
         "    parts = name.split('.')\n"
         "    obj = roots.get(parts[0])\n"
         "    ok = obj is not None\n"
         "    for p in parts[1:]:\n"
         "        if not ok or not hasattr(obj, p):\n"
         "            ok = False\n"
         "            break\n"
         "        obj = getattr(obj, p)\n"
         "    if not ok:\n"
         "        bad.append(name)\n"
         "    elif not callable(obj):\n"
         "        bad.append(name + ' (not callable)')\n" +
         calls + "unresolved = ', '.join(bad)\n";
}

std::string unresolved(const std::vector<std::string>& names, interp::Mode mode, tf::ApiStyle style) {
  TfRun r = runTf(resolverProgram(names), mode, style);
  INFO(r.err << r.diagnostics());
  REQUIRE(r.status == 0);
  REQUIRE(r.repr("count") == std::to_string(names.size()));
  std::string s = r.repr("unresolved");
  return s.size() >= 2 ? s.substr(1, s.size() - 2) : s;  // strip the repr's quotes
}

}  // namespace

TEST_CASE("every Python API name in the op registry resolves to a callable in the embedded modules", "[tf][api]") {
  std::map<std::string, std::string> names = registryApiNames();
  REQUIRE(names.size() > 100);
  std::vector<std::string> list;
  for (const auto& [name, type] : names) list.push_back(name);
  for (interp::Mode mode : {interp::Mode::Concrete, interp::Mode::Abstract})
    for (tf::ApiStyle style : {tf::ApiStyle::Graph, tf::ApiStyle::Eager}) {
      INFO((mode == interp::Mode::Concrete ? "concrete" : "abstract") << " mode, "
           << (style == tf::ApiStyle::Graph ? "TF1 (graph)" : "TF2 (eager)") << " style");
      CHECK(unresolved(list, mode, style) == "");
    }
}

TEST_CASE("the API-name check reports names the modules lack, in both modes", "[tf][api]") {
  // The check itself can fail: a name that is absent, one whose module is absent, one that is
  // not callable, an op type the registry lacks, and real ones.
  std::vector<std::string> names = {"tf.nn.no_such_op", "tf.nosuchmodule.relu", "tf.GraphKeys.LOSSES",
                                    "tf.raw_ops.NoSuchOp", "tf.nn.relu", "tf.raw_ops.Relu"};
  for (interp::Mode mode : {interp::Mode::Concrete, interp::Mode::Abstract})
    CHECK(unresolved(names, mode, tf::ApiStyle::Graph) ==
          "tf.nn.no_such_op, tf.nosuchmodule.relu, tf.GraphKeys.LOSSES (not callable), tf.raw_ops.NoSuchOp");
}

TEST_CASE("tf.raw_ops has every registry op, by its type", "[tf][api]") {
  std::vector<std::string> names;
  for (const OpDef* op : OpRegistry::global().all()) {
    // Internal ops (a leading underscore, as TensorFlow's _FusedConv2D: the fused Keras
    // optimizer updates) are not in tf.raw_ops.
    if (op->type[0] == '_') continue;
    names.push_back("tf.raw_ops." + op->type);
    // The hover's lookup knows the same names.
    CHECK(OpRegistry::global().findByApi("tf.raw_ops." + op->type) == op);
  }
  REQUIRE(names.size() > 100);
  for (interp::Mode mode : {interp::Mode::Concrete, interp::Mode::Abstract})
    CHECK(unresolved(names, mode, tf::ApiStyle::Graph) == "");
  CHECK(OpRegistry::global().findByApi("tf.raw_ops.NoSuchOp") == nullptr);
}

TEST_CASE("tf.raw_ops calls take keyword arguments named as the op's inputs and attrs", "[tf][api]") {
  const std::string src =
      "import tensorflow as tf\n"
      "a = tf.constant([[1.0, 2.0], [3.0, 4.0]])\n"
      "m = tf.raw_ops.MatMul(a=a, b=a, transpose_a=True, name='mm')\n"
      "c = tf.raw_ops.AddN(inputs=[a, a, a])\n"
      "try:\n"
      "    tf.raw_ops.Relu(a)\n"
      "except TypeError as e:\n"
      "    positional = str(e)\n"
      "try:\n"
      "    tf.raw_ops.Relu(features=a, alpha=1.0)\n"
      "except TypeError as e:\n"
      "    unexpected = str(e)\n"
      "try:\n"
      "    tf.raw_ops.MatMul(a=a)\n"
      "except TypeError as e:\n"
      "    missing = str(e)\n";
  for (interp::Mode mode : {interp::Mode::Concrete, interp::Mode::Abstract}) {
    TfRun r = runTf(src, mode, tf::ApiStyle::Eager);
    INFO(r.err << r.diagnostics());
    REQUIRE(r.status == 0);
    CHECK(r.type("m") == "float32[2, 2]");
    CHECK(r.type("c") == "float32[2, 2]");
    CHECK(r.repr("positional").find("only takes keyword args") != std::string::npos);
    CHECK(r.repr("unexpected") == "\"Relu got an unexpected keyword argument 'alpha'\"");
    CHECK(r.repr("missing") == "\"MatMul missing required argument: 'b'\"");
  }
  TfRun r = runTf(src + "print(m.numpy().tolist())\n", interp::Mode::Concrete, tf::ApiStyle::Eager);
  CHECK(r.out == "[[10.0, 14.0], [14.0, 20.0]]\n");
}

TEST_CASE("each Python API name belongs to one op", "[tf][api]") {
  // OpRegistry::findByApi keeps the first op that declares a name; a second one would be
  // silently shadowed.
  std::map<std::string, std::vector<std::string>> owners;
  for (const OpDef* op : OpRegistry::global().all())
    for (const std::string& a : op->api) owners[a].push_back(op->type);
  std::string shared;
  for (const auto& [name, types] : owners)
    if (types.size() > 1) {
      shared += name + ":";
      for (const auto& t : types) shared += " " + t;
      shared += "\n";
    }
  CHECK(shared == "");
}

TEST_CASE("the functions behind the registry's once-missing names compute TensorFlow's values", "[tf][api]") {
  const std::string src =
      "import tensorflow as tf\n"
      "import numpy as np\n"
      "x = tf.constant(np.arange(1.0, 10.0, dtype=np.float32).reshape(1, 3, 3, 1))\n"
      "ones_f = tf.ones([2, 2, 1, 1])\n"
      "dy = tf.ones([1, 2, 2, 1])\n"
      "bi = tf.nn.conv2d_backprop_input([1, 3, 3, 1], ones_f, dy, [1, 1, 1, 1], 'VALID')\n"
      "bf = tf.compat.v1.nn.conv2d_backprop_filter(x, [2, 2, 1, 1], dy, [1, 1, 1, 1], 'VALID')\n"
      "dbi = tf.nn.depthwise_conv2d_backprop_input([1, 3, 3, 1], ones_f, dy, [1, 1, 1, 1], 'VALID')\n"
      "dbf = tf.nn.depthwise_conv2d_backprop_filter(x, [2, 2, 1, 1], dy, [1, 1, 1, 1], 'VALID')\n"
      "y, mean, var = tf.nn.fused_batch_norm(tf.reshape(x, [1, 1, 9, 1]), [1.0], [0.0])\n"
      "y2, _, _ = tf.compat.v1.nn.fused_batch_norm(x, [2.0], [1.0], mean=[5.0], variance=[1.0], epsilon=0.0,\n"
      "                                            is_training=False)\n"
      "p = tf.invert_permutation([2, 0, 1])\n"
      "try:\n"
      "    tf.nn.fused_batch_norm(x, [1.0], [0.0], is_training=False)\n"
      "except ValueError as e:\n"
      "    no_stats = str(e)\n";
  for (interp::Mode mode : {interp::Mode::Concrete, interp::Mode::Abstract}) {
    TfRun r = runTf(src, mode, tf::ApiStyle::Eager);
    INFO(r.err << r.diagnostics());
    REQUIRE(r.status == 0);
    CHECK(r.type("bi") == "float32[1, 3, 3, 1]");
    CHECK(r.type("bf") == "float32[2, 2, 1, 1]");
    CHECK(r.type("dbi") == "float32[1, 3, 3, 1]");
    CHECK(r.type("dbf") == "float32[2, 2, 1, 1]");
    CHECK(r.type("y") == "float32[1, 1, 9, 1]");
    CHECK(r.type("mean") == "float32[1]");
    CHECK(r.type("p") == "int32[3]");
    CHECK(r.repr("no_stats").find("must be a 1D tensor") != std::string::npos);
  }
  TfRun r = runTf(src +
                      "print(tf.reshape(bi, [-1]).numpy().tolist(), tf.reshape(dbi, [-1]).numpy().tolist())\n"
                      "print(tf.reshape(bf, [-1]).numpy().tolist(), tf.reshape(dbf, [-1]).numpy().tolist())\n"
                      "print(mean.numpy().tolist(), [round(float(v), 3) for v in y.numpy().ravel()[[0, 4, 8]]])\n"
                      "print([round(float(v), 3) for v in y2.numpy().ravel()[:3]], p.numpy().tolist())\n",
                  interp::Mode::Concrete, tf::ApiStyle::Eager);
  INFO(r.err);
  CHECK(r.out ==
        "[1.0, 2.0, 1.0, 2.0, 4.0, 2.0, 1.0, 2.0, 1.0] [1.0, 2.0, 1.0, 2.0, 4.0, 2.0, 1.0, 2.0, 1.0]\n"
        "[12.0, 16.0, 24.0, 28.0] [12.0, 16.0, 24.0, 28.0]\n"
        "[5.0] [-1.549, 0.0, 1.549]\n"
        "[-7.0, -5.0, -3.0] [1, 2, 0]\n");
}
