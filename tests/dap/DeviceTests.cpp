// Devices in the debugger: `virtualGpus` and `device` launch arguments, node stops that say
// where the node runs, and the live graph's placement notes.
#include "tests/dap/DapTestSupport.h"

using namespace tlens::dap::testing;

TEST_CASE("virtualGpus: node stops and the live graph say where each node runs and why", "[dap][devices]") {
  Fixture f = Fixture::fromText("placed.py", R"(import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 3], name="x")
with tf.device("/gpu:1"):
    y = tf.matmul(x, tf.ones([3, 2]), name="y")
with tf.device("/gpu:7"):
    z = tf.nn.relu(y, name="z")
sess = tf.Session(config=tf.ConfigProto(allow_soft_placement=True))
out = sess.run(z, feed_dict={x: [[1.0, 2.0, 3.0]]})
)");
  Client c;
  c.start(f.path, {}, json{{"virtualGpus", 2}, {"stopOnEntry", true}});
  REQUIRE(c.event("stopped")["body"]["reason"] == "entry");
  REQUIRE(c.request("setFunctionBreakpoints", {{"breakpoints", {{{"name", "y"}}, {{"name", "z"}}}}})["success"] == true);
  REQUIRE(c.request("continue", {{"threadId", 1}})["success"] == true);
  json s = c.event("stopped");
  CHECK(s["body"]["description"] == "y (MatMul) on /gpu:1");
  json g = c.request("tensorlens/graph");
  REQUIRE(g["success"] == true);
  bool sawNote = false;
  for (const json& n : g["body"]["graphs"][0]["nodes"])
    if (n["name"] == "z") {
      CHECK(n["device"] == "/cpu:0");
      CHECK(n["requestedDevice"] == "/gpu:7");
      CHECK(n["placementNote"].get<std::string>().find("requested /gpu:7, which this program does not have") !=
            std::string::npos);
      sawNote = true;
    }
  CHECK(sawNote);
  REQUIRE(c.request("continue", {{"threadId", 1}})["success"] == true);
  s = c.event("stopped");
  CHECK(s["body"]["description"] == "z (Relu) on /cpu:0");
  json ni = c.request("evaluate", {{"expression", "ni z"}, {"context", "repl"}});
  REQUIRE(ni["success"] == true);
  CHECK(ni["body"]["result"].get<std::string>().find(
            "Node z (Relu) on /cpu:0\n  placement: requested /gpu:7, which this program does not have") != std::string::npos);
  REQUIRE(c.request("disconnect")["success"] == true);
}

TEST_CASE("launch: device must be cpu or gpu, virtualGpus a small count", "[dap][devices]") {
  Client c;
  c.request("initialize", {{"adapterID", "tensorlens"}});
  json r = c.request("launch", {{"program", "x.py"}, {"device", "tpu"}});
  CHECK(r["success"] == false);
  CHECK(r["message"].get<std::string>().find("device must be 'cpu' or 'gpu'") != std::string::npos);
  r = c.request("launch", {{"program", "x.py"}, {"virtualGpus", 1000}});
  CHECK(r["success"] == false);
  CHECK(r["message"].get<std::string>().find("virtualGpus must be from 0 to 64") != std::string::npos);
}
