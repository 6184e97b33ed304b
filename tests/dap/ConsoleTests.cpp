// tfdbg's li / lo in the debug console: a node's inputs and recipients, recursively as trees.
#include "tests/dap/DapTestSupport.h"

using namespace tlens::dap::testing;

TEST_CASE("li -r and lo -r print the inputs and recipients trees of a graph node", "[dap][console]") {
  Fixture f = Fixture::fromText("trees.py", R"(import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 3], name="x")
w = tf.Variable(tf.ones([3, 2]), name="w")
y = tf.matmul(x, w, name="y")
z = tf.nn.relu(y, name="z")
with tf.control_dependencies([z]):
    done = tf.no_op(name="done")
sess = tf.Session()
sess.run(tf.global_variables_initializer())
out = sess.run(z, feed_dict={x: [[1.0, 2.0, 3.0]]})  #$ run
)");
  Client c;
  c.start(f.path, {}, json::object(), {"nan_inf"}, {"z"});
  json s = c.event("stopped");
  REQUIRE(s["body"]["description"] == "z (Relu) on /cpu:0");
  auto console = [&](const std::string& cmd) {
    json r = c.request("evaluate", {{"expression", cmd}, {"context", "repl"}});
    REQUIRE(r["success"] == true);
    return r["body"]["result"].get<std::string>();
  };
  std::string li = console("li -r z");
  CAPTURE(li);
  CHECK(li.rfind("Inputs to node \"z\" (Relu, depth limit 20):\n", 0) == 0);
  CHECK(li.find("  |- (1) y (MatMul)  [ran]\n  |  |- (2) x (Placeholder)\n  |  |- (2) w (VariableV2)\n") != std::string::npos);
  // Without -r (and for the node stopped at, without a name): one level.
  std::string one = console("li");
  CHECK(one.find("(1) y (MatMul)") != std::string::npos);
  CHECK(one.find("(2)") == std::string::npos);
  CHECK(console("li -r -d 1 z").find("(2)") == std::string::npos);

  std::string lo = console("lo -r x");
  CAPTURE(lo);
  CHECK(lo.find("Recipients of node \"x\" (Placeholder, depth limit 20):\n") == 0);
  CHECK(lo.find("  |- (1) y (MatMul)  [ran]\n  |  |- (2) z (Relu)  [ran]\n  |  |  |- (3) (Ctrl) done (NoOp)\n") != std::string::npos);
  // Tensor names work too; unknown nodes say so; bad depths are errors.
  CHECK(console("lo y:0").find("(1) z (Relu)") != std::string::npos);
  CHECK(console("li nosuch") == "no node 'nosuch' in the graphs built so far\n");
  CHECK(c.request("evaluate", {{"expression", "li -r -d 0 z"}, {"context", "repl"}})["message"] == "-d takes a depth of at least 1");
  // Python that starts with li/lo is still Python.
  CHECK(c.request("evaluate", {{"expression", "lo = 3"}, {"context", "repl"}, {"frameId", 0}})["success"] == true);
  // Completions offer the new commands.
  json comp = c.request("completions", {{"text", "l"}, {"column", 2}});
  std::set<std::string> labels;
  for (const json& t : comp["body"]["targets"]) labels.insert(t["label"]);
  CHECK(labels.count("li"));
  CHECK(labels.count("lo"));
  REQUIRE(c.request("disconnect")["success"] == true);
}
