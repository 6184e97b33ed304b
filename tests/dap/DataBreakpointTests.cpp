// Data breakpoints on tf.Variables: stop after a node or eager op writes the variable, with the
// old and new values; `not finite` stops only when the new value holds NaN/Inf.
#include "tests/dap/DapTestSupport.h"

using namespace tlens::dap::testing;

TEST_CASE("a data breakpoint on a graph variable stops after every node that writes it", "[dap][data]") {
  Fixture f = Fixture::fromText("data_graph.py", R"(import tensorflow as tf

w = tf.Variable(tf.constant([1.0, 2.0]), name="w")
inc = tf.assign_add(w, tf.constant([1.0, 1.0]), name="inc")
sess = tf.Session()
sess.run(tf.global_variables_initializer())
for i in range(2):  #$ loop
    sess.run(inc)
print("w", sess.run(w).tolist())
)");
  Client c;
  c.start(f.path, {{f.line("loop"), json()}});
  REQUIRE(c.event("stopped").is_object());
  const int globals = c.scopeRef(0, "Globals");
  json info = c.request("dataBreakpointInfo", {{"variablesReference", globals}, {"name", "w"}});
  REQUIRE(info["success"] == true);
  CHECK(info["body"]["dataId"] == "var:w");
  CHECK(info["body"]["accessTypes"] == json::array({"write"}));
  CHECK(info["body"]["description"] == "tf.Variable w (float32[2])");
  CHECK(info["body"]["canPersist"] == true);
  json notVar = c.request("dataBreakpointInfo", {{"variablesReference", globals}, {"name", "inc"}});
  REQUIRE(notVar["success"] == true);
  CHECK(notVar["body"]["dataId"].is_null());
  CHECK(notVar["body"]["description"].get<std::string>().find("not a tf.Variable") != std::string::npos);
  // The expression form (no variablesReference).
  CHECK(c.request("dataBreakpointInfo", {{"name", "w"}, {"frameId", 0}})["body"]["dataId"] == "var:w");

  json set = c.request("setDataBreakpoints", {{"breakpoints", {{{"dataId", "var:w"}, {"accessType", "write"}}, {{"dataId", "var:w"}, {"accessType", "read"}}, {{"dataId", "bogus"}}}}});
  REQUIRE(set["success"] == true);
  CHECK(set["body"]["breakpoints"][0]["verified"] == true);
  CHECK(set["body"]["breakpoints"][1]["verified"] == false);
  CHECK(set["body"]["breakpoints"][1]["message"].get<std::string>().find("only writes") != std::string::npos);
  CHECK(set["body"]["breakpoints"][2]["verified"] == false);
  const int id = set["body"]["breakpoints"][0]["id"];

  for (int run = 0; run < 2; ++run) {
    REQUIRE(c.request("continue", {{"threadId", 1}})["success"] == true);
    json s = c.event("stopped");
    REQUIRE(s.is_object());
    CHECK(s["body"]["reason"] == "data breakpoint");
    CHECK(s["body"]["hitBreakpointIds"] == json::array({id}));
    CHECK(s["body"]["description"] == "data breakpoint: w written by inc (AssignAdd)");
    const std::string text = s["body"]["text"];
    CAPTURE(text);
    const std::string before = "min=" + std::to_string(1 + run) + " max=" + std::to_string(2 + run);
    const std::string after = "min=" + std::to_string(2 + run) + " max=" + std::to_string(3 + run);
    CHECK(text.find("old float32[2] /cpu:0 " + before) != std::string::npos);
    CHECK(text.find("-> new float32[2] /cpu:0 " + after) != std::string::npos);
    CHECK(c.stackTrace()[0]["name"] == "inc (AssignAdd)");
    // The variable input of the writing node can be watched from the Node scope too.
    json fromNode = c.request("dataBreakpointInfo", {{"variablesReference", c.scopeRef(0, "Node")}, {"name", "in w:0"}});
    CHECK(fromNode["body"]["dataId"] == "var:w");
  }
  REQUIRE(c.request("setDataBreakpoints", {{"breakpoints", json::array()}})["success"] == true);
  REQUIRE(c.request("continue", {{"threadId", 1}})["success"] == true);
  REQUIRE(c.event("exited").is_object());
  CHECK(c.output().find("w [3.0, 4.0]") != std::string::npos);
}

TEST_CASE("the 'not finite' condition stops only when an eager write makes the variable NaN/Inf", "[dap][data]") {
  Fixture f = Fixture::fromText("data_eager.py", R"(import tensorflow as tf

v = tf.Variable([1.0, 2.0])
steps = tf.Variable([0.0])
print("ready")  #$ ready
for i in range(4):
    steps.assign_add([1.0])
    v.assign(v * 1e20)
print("end")
)");
  Client c;
  // nan_inf off: the multiply that overflows would stop first.
  c.start(f.path, {{f.line("ready"), json()}}, json{{"mode", "eager"}}, {});
  REQUIRE(c.event("stopped").is_object());
  json info = c.request("dataBreakpointInfo", {{"variablesReference", c.scopeRef(0, "Globals")}, {"name", "v"}});
  REQUIRE(info["body"]["dataId"].is_string());
  json set = c.request("setDataBreakpoints", {{"breakpoints", {{{"dataId", info["body"]["dataId"]}, {"condition", " Not  Finite "}}}}});
  REQUIRE(set["body"]["breakpoints"][0]["verified"] == true);
  REQUIRE(c.request("setBreakpoints", {{"source", {{"path", f.path}}}, {"breakpoints", json::array()}})["success"] == true);
  REQUIRE(c.request("continue", {{"threadId", 1}})["success"] == true);
  json s = c.event("stopped");
  REQUIRE(s.is_object());
  CHECK(s["body"]["reason"] == "data breakpoint");
  const std::string text = s["body"]["text"];
  CAPTURE(text);
  CHECK(text.find("nan=0 inf=2") != std::string::npos);  // the new value: 1e40 overflows float32
  CHECK(text.find("old float32[2] /cpu:0 min=1e+20") != std::string::npos);
  // The second iteration (1e20 * 1e20), not the first.
  CHECK(c.request("evaluate", {{"expression", "i"}, {"frameId", c.stackTrace().size() - 1}})["body"]["result"] == "1");
  // Every later write keeps it infinite: the next one stops too.
  REQUIRE(c.request("continue", {{"threadId", 1}})["success"] == true);
  s = c.event("stopped");
  REQUIRE(s.is_object());
  CHECK(c.request("evaluate", {{"expression", "i"}, {"frameId", c.stackTrace().size() - 1}})["body"]["result"] == "2");
  REQUIRE(c.request("setDataBreakpoints", {{"breakpoints", json::array()}})["success"] == true);
  REQUIRE(c.request("continue", {{"threadId", 1}})["success"] == true);
  REQUIRE(c.event("exited").is_object());
  CHECK(c.output().find("end") != std::string::npos);
}

TEST_CASE("a data breakpoint set before the program starts (a persisted one) holds from the first write", "[dap][data]") {
  Fixture f = Fixture::fromText("data_early.py", R"(import tensorflow as tf

w = tf.Variable(tf.constant([1.0, 2.0]), name="w")
sess = tf.Session()
sess.run(tf.global_variables_initializer())
print("done")
)");
  Client c;
  REQUIRE(c.request("initialize", {{"adapterID", "tlens"}})["success"] == true);
  REQUIRE(c.request("launch", {{"program", f.path}})["success"] == true);
  json set = c.request("setDataBreakpoints", {{"breakpoints", {{{"dataId", "var:w"}, {"accessType", "write"}}}}});
  REQUIRE(set["body"]["breakpoints"][0]["verified"] == true);
  REQUIRE(c.request("configurationDone")["success"] == true);
  json s = c.event("stopped");
  REQUIRE(s.is_object());
  CHECK(s["body"]["reason"] == "data breakpoint");
  const std::string text = s["body"]["text"];
  CAPTURE(text);
  // The initializer's Assign: no value before, [1, 2] after.
  CHECK(text.find("(Assign): old <uninitialised> -> new float32[2] /cpu:0 min=1 max=2") != std::string::npos);
  REQUIRE(c.request("continue", {{"threadId", 1}})["success"] == true);
  CHECK(c.event("exited")["body"]["exitCode"] == 0);
}

TEST_CASE("an optimizer's update op trips a data breakpoint on the weights it trains", "[dap][data]") {
  Fixture f = Fixture::fromText("data_sgd.py", R"(import tensorflow as tf

x = tf.constant([[1.0, 2.0]])
w = tf.Variable(tf.ones([2, 1]), name="w")
loss = tf.reduce_sum(tf.matmul(x, w))
train = tf.train.GradientDescentOptimizer(0.5).minimize(loss)
sess = tf.Session()
sess.run(tf.global_variables_initializer())
print("ready")  #$ ready
sess.run(train)
print("w", sess.run(w).tolist())
)");
  Client c;
  c.start(f.path, {{f.line("ready"), json()}});
  REQUIRE(c.event("stopped").is_object());
  json info = c.request("dataBreakpointInfo", {{"variablesReference", c.scopeRef(0, "Globals")}, {"name", "w"}});
  REQUIRE(c.request("setDataBreakpoints", {{"breakpoints", {{{"dataId", info["body"]["dataId"]}}}}})["success"] == true);
  REQUIRE(c.request("continue", {{"threadId", 1}})["success"] == true);
  json s = c.event("stopped");
  REQUIRE(s.is_object());
  CHECK(s["body"]["reason"] == "data breakpoint");
  const std::string text = s["body"]["text"];
  CAPTURE(text);
  // d(loss)/dw = x^T = [1, 2]: w goes from [1, 1] to [0.5, 0].
  CHECK(text.find("(ApplyGradientDescent): old float32[2, 1] /cpu:0 min=1 max=1") != std::string::npos);
  CHECK(text.find("-> new float32[2, 1] /cpu:0 min=0 max=0.5") != std::string::npos);
  REQUIRE(c.request("continue", {{"threadId", 1}})["success"] == true);
  REQUIRE(c.event("exited").is_object());
  CHECK(c.output().find("w [[0.5], [0.0]]") != std::string::npos);
}
