// Issue 19: names at node stops (a node frame and its construction frames see the names their
// statement bound, with this run's values), evaluating never changes the program's graph, and
// evaluations run under caps. Finer-grained than tests/dap/e2e/test/names.test.js.
#include "tests/dap/DapTestSupport.h"

using namespace tlens::dap::testing;

namespace {

constexpr const char* kLayer = R"(import tensorflow as tf


def layer(inp, n_out):
    w = tf.Variable(tf.ones([3, n_out]), name="w")
    pre = tf.matmul(inp, w)  #$ pre
    inp = tf.nn.relu(pre)  #$ rebind
    return inp


x = tf.placeholder(tf.float32, [None, 3], name="x")
h = layer(x, 2)
sess = tf.Session()
sess.run(tf.global_variables_initializer())
for i in range(2):
    sess.run(h, feed_dict={x: [[1.0, 2.0, 3.0 + i]]})  #$ run
ops = [op.name for op in tf.get_default_graph().get_operations()]
print("ops", ",".join(ops))
)";

json evaluate(Client& c, const std::string& expr, int frameId, const std::string& context = "repl") {
  return c.request("evaluate", {{"expression", expr}, {"frameId", frameId}, {"context", context}});
}

std::string result(Client& c, const std::string& expr, int frameId, const std::string& context = "repl") {
  json r = evaluate(c, expr, frameId, context);
  INFO(expr << " -> " << r.dump());
  REQUIRE(r["success"] == true);
  return r["body"]["result"].get<std::string>();
}

}  // namespace

TEST_CASE("a construction frame sees the names its statement saw, not a later rebinding", "[dap][names]") {
  Fixture f = Fixture::fromText("names.py", kLayer);
  Client c;
  c.start(f.path, {}, json::object(), {"nan_inf"}, {"MatMul"});
  for (int run = 0; run < 2; ++run) {
    json s = c.event("stopped");
    REQUIRE(s["body"]["description"] == "MatMul (MatMul) on /cpu:0");
    json frames = c.stackTrace();
    REQUIRE(frames[1]["name"] == "layer [graph construction]");
    // `inp` was rebound to the Relu by the next statement; the MatMul's statement saw the feed.
    CHECK(result(c, "float(tf.reduce_sum(inp))", 1) == std::to_string(6 + run) + ".0");
    CHECK(result(c, "float(tf.reduce_sum(pre))", 0, "hover") == std::to_string(2 * (6 + run)) + ".0");
    // The variable's current value, and a Python value of the frame.
    CHECK(result(c, "float(tf.reduce_sum(w))", 1, "watch") == "6.0");
    CHECK(result(c, "n_out", 1) == "2");
    // The live frame of the sess.run call site is unchanged: its `i` is this run's.
    CHECK(result(c, "i", static_cast<int>(frames.size()) - 1) == std::to_string(run));
    REQUIRE(c.request("continue", {{"threadId", 1}})["success"] == true);
  }
  REQUIRE(c.event("exited").is_object());
}

TEST_CASE("at the statement that builds a node, an op on a graph tensor is refused, not added to the graph", "[dap][names]") {
  Fixture f = Fixture::fromText("freeze.py", kLayer);
  Client c;
  c.start(f.path, {{f.line("pre"), json::object()}});
  REQUIRE(c.event("stopped").is_object());
  json frames = c.stackTrace();
  json r = evaluate(c, "tf.reduce_max(inp)", frames[0]["id"]);
  REQUIRE(r["success"] == false);
  CHECK(r["message"].get<std::string>().find("never adds nodes to the program's graph") != std::string::npos);
  // A name scope or a variable of the graph is refused too; eager tensor ops still work.
  CHECK(evaluate(c, "tf.Variable(1.0, name=\"probe\")", frames[0]["id"])["success"] == true);
  CHECK(result(c, "float(tf.reduce_sum(tf.ones([2, 2])))", frames[0]["id"]) == "4.0");
  const std::string before = result(c, "len(tf.get_default_graph().get_operations())", frames[0]["id"]);
  evaluate(c, "tf.matmul(inp, w)", frames[0]["id"]);
  evaluate(c, "tf.identity(inp, name='MatMul')", frames[0]["id"]);
  CHECK(result(c, "len(tf.get_default_graph().get_operations())", frames[0]["id"]) == before);
  // The line also stops at its node in every run: clear it, then run to the end.
  REQUIRE(c.request("setBreakpoints", {{"source", {{"path", f.path}}}, {"breakpoints", json::array()}})["success"] == true);
  REQUIRE(c.request("continue", {{"threadId", 1}})["success"] == true);
  REQUIRE(c.event("exited").is_object());
  // The program's own MatMul kept its name (not MatMul_1).
  const std::string out = c.output();
  CAPTURE(out);
  CHECK(out.find(",MatMul,") != std::string::npos);
  CHECK(out.find("MatMul_1") == std::string::npos);
  CHECK(out.find("probe") == std::string::npos);
}

TEST_CASE("an evaluation past the memory cap fails with a clear message and the session goes on", "[dap][names]") {
  Fixture f = Fixture::fromText("cap.py", kLayer);
  Client c;
  c.start(f.path, {{f.line("run"), json::object()}});
  REQUIRE(c.event("stopped").is_object());
  const int top = c.stackTrace()[0]["id"];
  json r = evaluate(c, "tf.zeros([100000, 100000])", top);
  REQUIRE(r["success"] == false);
  CHECK(r["message"].get<std::string>().find("evaluation stopped: it needs more memory than the debugger allows") !=
        std::string::npos);
  CHECK(result(c, "i + 1", top) == "1");
}

TEST_CASE("an exception no try catches stops at the raise with the raising frame alive", "[dap][names]") {
  Fixture f = Fixture::fromText("live.py", R"(def check(v):
    doubled = v * 2
    assert v > 0, "v must be positive"  #$ assert


try:
    check(-5)
except AssertionError:
    pass
check(1)
check(-1)  #$ call
)");
  Client c;
  c.start(f.path, {}, json::object(), {"assert"});
  json s = c.event("stopped");
  REQUIRE(s["body"]["reason"] == "exception");
  json frames = c.stackTrace();
  CHECK(frames[0]["name"] == "check");
  CHECK(frames[0]["line"] == f.line("assert"));
  CHECK(frames[1]["line"] == f.line("call"));
  CHECK(result(c, "doubled", frames[0]["id"], "hover") == "-2");
  json locals = c.scope(frames[0]["id"], "Locals");
  bool sawV = false;
  for (const json& v : locals)
    if (v["name"] == "v") sawV = v["value"] == "-1";
  CHECK(sawV);
  REQUIRE(c.request("continue", {{"threadId", 1}})["success"] == true);
  // No second (post-mortem) stop for the same exception: the program ends at once.
  json e = c.event("exited", std::chrono::seconds(10));
  REQUIRE(e.is_object());
  CHECK(e["body"]["exitCode"] == 1);
}
