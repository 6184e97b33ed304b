// tensorlens/graph: the running program's graphs as `tlens graph --format json` prints them (one
// serializer, protocol/GraphJson), with what ran, NaN/Inf producers and the stopped node.
#include "engine/graph/Builder.h"
#include "protocol/GraphJson.h"
#include "tests/dap/DapTestSupport.h"

using namespace tlens::dap::testing;

namespace {

const char* kTwoRuns = R"(import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 3], name="x")
w = tf.Variable(tf.ones([3, 2]), name="w")
y = tf.matmul(x, w, name="y")  #$ matmul
z = tf.nn.relu(y, name="z")

sess = tf.Session()
sess.run(tf.global_variables_initializer())
for i in range(2):
    out = sess.run(z, feed_dict={x: [[1.0, 2.0, float(i)]]})
print("done")  #$ done
)";

const json* nodeNamed(const json& graph, const std::string& name) {
  for (const json& n : graph["nodes"])
    if (n["name"] == name) return &n;
  return nullptr;
}

}  // namespace

TEST_CASE("the graph serializer writes tlens graph's JSON and the run state only when given", "[dap][graph]") {
  tlens::Graph g;
  tlens::Output x = tlens::ops::placeholder(g, tlens::DType::Float32, tlens::Shape{tlens::Dim::known(2), tlens::Dim::known(3)}, "x");
  tlens::Output y = tlens::ops::matmul(g, x, tlens::ops::placeholder(g, tlens::DType::Float32, tlens::Shape{tlens::Dim::known(3), tlens::Dim::known(4)}, "w"));
  tlens::Graph empty;
  json plain = tlens::protocol::graphsToJson({&empty, &g});
  REQUIRE(plain["graphs"].size() == 1);  // empty graphs are left out
  CHECK(!plain.contains("stopped"));
  const json* mm = nodeNamed(plain["graphs"][0], y.node->name);
  REQUIRE(mm);
  CHECK((*mm)["op"] == "MatMul");
  CHECK((*mm)["inputs"] == json::array({"x:0", "w:0"}));
  CHECK((*mm)["outputs"] == json::array({"float32[2, 4]"}));
  CHECK((*mm)["controlInputs"] == json::array());
  CHECK(!mm->contains("ran"));

  tlens::protocol::GraphRunState st;
  st.ran = {y.node};
  st.numerics[y.node] = "nan";
  st.stopped = y.node;
  json live = tlens::protocol::graphsToJson({&empty, &g}, &st);
  CHECK(live["stopped"] == json{{"graph", 0}, {"node", y.node->name}});
  CHECK((*nodeNamed(live["graphs"][0], y.node->name))["ran"] == true);
  CHECK((*nodeNamed(live["graphs"][0], y.node->name))["numerics"] == "nan");
  CHECK(!nodeNamed(live["graphs"][0], "x")->contains("ran"));
  // Without the run fields, the live document is the plain one.
  json stripped = live;
  stripped.erase("stopped");
  for (json& n : stripped["graphs"][0]["nodes"]) {
    n.erase("ran");
    n.erase("numerics");
  }
  CHECK(stripped == plain);
}

TEST_CASE("tensorlens/graph answers while stopped, marks what ran and where it stopped", "[dap][graph]") {
  Fixture f = Fixture::fromText("graph_req.py", kTwoRuns);
  Client c;
  json r = c.request("tensorlens/graph");
  CHECK(r["success"] == false);
  CHECK(r["message"].get<std::string>().find("no program is running") != std::string::npos);

  c.start(f.path, {{f.line("matmul"), json()}, {f.line("done"), json()}});
  // 1. At graph construction of y: x and w exist, nothing ran yet, no stopped node.
  REQUIRE(c.event("stopped").is_object());
  r = c.request("tensorlens/graph", json::object());
  REQUIRE(r["success"] == true);
  json g = r["body"]["graphs"][0];
  CHECK(nodeNamed(g, "x"));
  CHECK(nodeNamed(g, "w"));
  CHECK(!nodeNamed(g, "y"));
  CHECK(!r["body"].contains("stopped"));

  // 2. At the node y in the first run: y ran, z not yet; stopped names y.
  REQUIRE(c.request("continue", {{"threadId", 1}})["success"] == true);
  json s = c.event("stopped");
  REQUIRE(s["body"]["description"] == "y (MatMul) on /cpu:0");
  r = c.request("tensorlens/graph");
  REQUIRE(r["success"] == true);
  g = r["body"]["graphs"][0];
  CHECK(r["body"]["stopped"] == json{{"graph", 0}, {"node", "y"}});
  REQUIRE(nodeNamed(g, "y"));
  CHECK((*nodeNamed(g, "y"))["ran"] == true);
  CHECK((*nodeNamed(g, "y"))["source"]["line"] == f.line("matmul"));
  CHECK((*nodeNamed(g, "y"))["inputs"] == json::array({"x:0", "w:0"}));
  REQUIRE(nodeNamed(g, "z"));
  CHECK(!nodeNamed(g, "z")->contains("ran"));

  // 3. At the Python line after the loop: the last run's nodes are marked, nothing is stopped.
  REQUIRE(c.request("continue", {{"threadId", 1}})["success"] == true);
  REQUIRE(c.event("stopped").is_object());  // y in the second run
  REQUIRE(c.request("continue", {{"threadId", 1}})["success"] == true);
  s = c.event("stopped");
  REQUIRE(s["body"]["reason"] == "breakpoint");
  r = c.request("tensorlens/graph");
  g = r["body"]["graphs"][0];
  CHECK((*nodeNamed(g, "z"))["ran"] == true);
  CHECK(!r["body"].contains("stopped"));

  REQUIRE(c.request("continue", {{"threadId", 1}})["success"] == true);
  REQUIRE(c.event("exited").is_object());
  r = c.request("tensorlens/graph");
  CHECK(r["success"] == false);
  CHECK(r["message"] == "the program has ended");
}

TEST_CASE("tensorlens/graph at a nan_inf stop marks the producer", "[dap][graph]") {
  Fixture f = Fixture::fromFile(std::string(TLENS_SOURCE_DIR) + "/examples/tfdbg_nan.py");
  Client c;
  c.start(f.path);
  json s = c.event("stopped", std::chrono::seconds(120));
  REQUIRE(s["body"]["reason"] == "exception");
  json r = c.request("tensorlens/graph");
  REQUIRE(r["success"] == true);
  CHECK(r["body"]["stopped"]["node"] == "cross_entropy/Log");
  const json& g = r["body"]["graphs"][r["body"]["stopped"]["graph"].get<int>()];
  const json* log = nodeNamed(g, "cross_entropy/Log");
  REQUIRE(log);
  CHECK((*log)["numerics"] == "inf");
  CHECK((*log)["ran"] == true);
  CHECK((*nodeNamed(g, "softmax"))["ran"] == true);
  CHECK(!nodeNamed(g, "softmax")->contains("numerics"));
  REQUIRE(c.request("disconnect")["success"] == true);
}
