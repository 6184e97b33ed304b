// The debugger inside graph loops (a tf.while_loop whose condition is fed): the nodes of the
// loop's body keep their creation lines, so a line breakpoint there stops at each iteration's run
// of the node, with that iteration's values.
#include "tests/dap/DapTestSupport.h"

using namespace tlens::dap::testing;

namespace {

const char* kWhileLoop = R"(import tensorflow as tf

n = tf.placeholder(tf.int32, [], name="n")
two = tf.constant(2.0, name="two")


def body(i, v):
    doubled = tf.multiply(v, two, name="doubled")  #$ double
    return i + 1, doubled


_, v = tf.while_loop(lambda i, v: i < n, body, [0, tf.ones([2])])
with tf.Session() as sess:
    out = sess.run(v, {n: 3})
print("done", out.tolist())
)";

}  // namespace

TEST_CASE("a line breakpoint in a graph loop's body stops at every iteration of the node", "[dap][while]") {
  Fixture f = Fixture::fromText("while_loop.py", kWhileLoop);
  Client c;
  c.start(f.path, {{f.line("double"), json()}});

  // 1. The Python statement that builds the node (the body is built once).
  json s = c.event("stopped");
  REQUIRE(s.is_object());
  CHECK(s["body"]["reason"] == "breakpoint");
  CHECK(c.stackTrace()[0]["name"] == "body");

  // 2-4. The node, once per iteration of the run: 2, 4, 8.
  for (int k = 0; k < 3; ++k) {
    REQUIRE(c.request("continue", {{"threadId", 1}})["success"] == true);
    s = c.event("stopped");
    REQUIRE(s.is_object());
    CHECK(s["body"]["reason"] == "breakpoint");
    CHECK(s["body"]["description"] == "while/doubled (Mul) on /cpu:0");
    json frames = c.stackTrace();
    CHECK(frames[0]["line"] == f.line("double"));
    json out = Client::named(c.scope(0, "Node"), "out while/doubled:0");
    CHECK(out["value"].get<std::string>().rfind("float32[2] /cpu:0 min=" + std::to_string(2 << k), 0) == 0);
  }
  REQUIRE(c.request("continue", {{"threadId", 1}})["success"] == true);
  json exited = c.event("exited");
  REQUIRE(exited.is_object());
  CHECK(exited["body"]["exitCode"] == 0);
  CHECK(c.output().find("done [8.0, 8.0]") != std::string::npos);
}
