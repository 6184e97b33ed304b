// stepBack / reverseContinue through the run record: no kernel runs again, the Node and Run
// scopes show the values as they were, continue replays forward to the live point.
#include "tests/dap/DapTestSupport.h"

using namespace tlens::dap::testing;

namespace {

const char* kChain = R"(import numpy as np
import tensorflow as tf

two = tf.constant(2.0, name="two")
one = tf.constant(1.0, name="one")
three = tf.constant(3.0, name="three")
x = tf.placeholder(tf.float32, name="x")
a = tf.multiply(x, two, name="a")
b = tf.add(a, one, name="b")
c = tf.multiply(b, three, name="c")
d = tf.negative(c, name="d")
sess = tf.Session()
out = sess.run(d, feed_dict={x: np.array(FEED, dtype=np.float32)})
print("out", out.tolist())  #$ print
)";

std::string chain(const std::string& feed) {
  std::string s = kChain;
  s.replace(s.find("FEED"), 4, feed);
  return s;
}

std::string desc(const json& stopped) { return stopped["body"]["description"].get<std::string>(); }

/// The result of evaluating `expr` in the top frame.
std::string eval(Client& c, const std::string& expr) {
  json r = c.request("evaluate", {{"expression", expr}, {"frameId", 0}, {"context", "repl"}});
  return r["success"] == true ? r["body"]["result"].get<std::string>() : "error: " + r["message"].get<std::string>();
}

}  // namespace

TEST_CASE("stepBack walks back through the run's nodes with their values, next and continue replay forward", "[dap][stepback]") {
  Fixture f = Fixture::fromText("chain.py", chain("[1.0, 2.0]"));
  Client c;
  c.start(f.path, {}, json::object(), {"nan_inf"}, {"d"});
  json s = c.event("stopped");
  REQUIRE(desc(s) == "d (Neg) on /cpu:0");
  CHECK(Client::named(c.scope(0, "Node"), "out d:0")["value"].get<std::string>().find("min=-15 max=-9") != std::string::npos);
  const size_t liveRun = c.scope(0, "Run").size();

  REQUIRE(c.request("stepBack", {{"threadId", 1}})["success"] == true);
  s = c.event("stopped");
  REQUIRE(s.is_object());
  CHECK(s["body"]["reason"] == "step");
  CHECK(desc(s) == "c (Mul) on /cpu:0 (stepped back)");
  json frames = c.stackTrace();
  CHECK(frames[0]["name"] == "c (Mul)");
  CHECK(frames[0]["line"] == f.find("name=\"c\""));
  json node = c.scope(0, "Node");
  CHECK(Client::named(node, "out c:0")["value"].get<std::string>().find("min=9 max=15") != std::string::npos);
  CHECK(Client::named(node, "in b:0")["value"].get<std::string>().find("min=3 max=5") != std::string::npos);
  // The Run scope ends at c; the console sees the values of that moment.
  json run = c.scope(0, "Run");
  CHECK(run.size() == liveRun - 1);
  CHECK(run.back()["name"].get<std::string>().find("c:0") != std::string::npos);
  json r = c.request("evaluate", {{"expression", "lt"}, {"context", "repl"}});
  CHECK(r["body"]["result"].get<std::string>().find("d:0") == std::string::npos);
  r = c.request("evaluate", {{"expression", "float(tf.reduce_sum(c))"}, {"frameId", 0}});
  CHECK(r["body"]["result"] == "24.0");

  // Back to the first node: b, a, three, one, two; then a step past it stays there and says so.
  for (const char* name : {"b (Add)", "a (Mul)", "three (Const)", "one (Const)", "two (Const)"}) {
    REQUIRE(c.request("stepBack", {{"threadId", 1}})["success"] == true);
    s = c.event("stopped");
    CHECK(desc(s).rfind(name, 0) == 0);
  }
  REQUIRE(c.request("stepBack", {{"threadId", 1}})["success"] == true);
  s = c.event("stopped");
  CHECK(desc(s).rfind("two (Const)", 0) == 0);
  CHECK(s["body"]["text"] == "stepBack: this is the first node of the run");
  CHECK(c.output().find("first node of the run") != std::string::npos);

  // next replays forward one node.
  REQUIRE(c.request("next", {{"threadId", 1}})["success"] == true);
  s = c.event("stopped");
  CHECK(s["body"]["reason"] == "step");
  CHECK(desc(s) == "one (Const) on /cpu:0 (replayed from the run record)");

  // continue replays forward and stops at a breakpoint in the record...
  REQUIRE(c.request("setFunctionBreakpoints", {{"breakpoints", {{{"name", "b"}}, {{"name", "d"}}}}})["success"] == true);
  REQUIRE(c.request("continue", {{"threadId", 1}})["success"] == true);
  s = c.event("stopped");
  CHECK(s["body"]["reason"] == "function breakpoint");
  CHECK(desc(s) == "b (Add) on /cpu:0 (replayed from the run record)");
  CHECK(Client::named(c.scope(0, "Node"), "out b:0")["value"].get<std::string>().find("min=3 max=5") != std::string::npos);
  // ...and past the live point (d, where it stopped) the program runs on; d is not hit again.
  REQUIRE(c.request("continue", {{"threadId", 1}})["success"] == true);
  json e = c.event("exited");
  REQUIRE(e.is_object());
  CHECK(e["body"]["exitCode"] == 0);
  CHECK(c.output().find("out [-9.0, -15.0]") != std::string::npos);
}

TEST_CASE("reverseContinue stops at the previous breakpoint node, else at the run's first node", "[dap][stepback]") {
  Fixture f = Fixture::fromText("chain_rc.py", chain("[1.0, 2.0]"));
  Client c;
  c.start(f.path, {}, json::object(), {"nan_inf"}, {"d"});
  REQUIRE(desc(c.event("stopped")) == "d (Neg) on /cpu:0");
  REQUIRE(c.request("setFunctionBreakpoints", {{"breakpoints", {{{"name", "d"}}, {{"name", "Mul"}}}}})["success"] == true);
  REQUIRE(c.request("reverseContinue", {{"threadId", 1}})["success"] == true);
  json s = c.event("stopped");
  CHECK(s["body"]["reason"] == "function breakpoint");
  CHECK(desc(s) == "c (Mul) on /cpu:0 (stepped back)");
  REQUIRE(c.request("reverseContinue", {{"threadId", 1}})["success"] == true);
  CHECK(desc(c.event("stopped")) == "a (Mul) on /cpu:0 (stepped back)");
  REQUIRE(c.request("reverseContinue", {{"threadId", 1}})["success"] == true);
  s = c.event("stopped");
  CHECK(desc(s) == "two (Const) on /cpu:0 (stepped back)");
  CHECK(s["body"]["text"].get<std::string>().find("no breakpoint matched; stopped at the first node of the run") != std::string::npos);
  // A line breakpoint condition on the replayed values: c's line, only where b is above 4.
  REQUIRE(c.request("setFunctionBreakpoints", {{"breakpoints", json::array()}})["success"] == true);
  REQUIRE(c.request("setBreakpoints", {{"source", {{"path", f.path}}},
                                       {"breakpoints", {{{"line", f.find("name=\"c\"")}, {"condition", "float(tf.reduce_max(b)) > 4"}}}}})["success"] == true);
  REQUIRE(c.request("continue", {{"threadId", 1}})["success"] == true);
  s = c.event("stopped");
  CHECK(s["body"]["reason"] == "breakpoint");
  CHECK(desc(s) == "c (Mul) on /cpu:0 (replayed from the run record)");
  REQUIRE(c.request("disconnect")["success"] == true);
}

TEST_CASE("stepping back stops at the oldest node the run record's memory cap kept", "[dap][stepback]") {
  // Each output is 512 KiB; with a 1 MiB record only the last two nodes' outputs stay.
  Fixture f = Fixture::fromText("chain_cap.py", chain("np.ones((512, 256))"));
  Client c;
  c.start(f.path, {}, json{{"runRecordMB", 1}}, {"nan_inf"}, {"d"});
  REQUIRE(desc(c.event("stopped")) == "d (Neg) on /cpu:0");
  REQUIRE(c.request("stepBack", {{"threadId", 1}})["success"] == true);
  json s = c.event("stopped");
  CHECK(desc(s) == "c (Mul) on /cpu:0 (stepped back)");
  REQUIRE(c.request("stepBack", {{"threadId", 1}})["success"] == true);
  s = c.event("stopped");
  CHECK(desc(s) == "c (Mul) on /cpu:0 (stepped back)");
  const std::string text = s["body"]["text"];
  CAPTURE(text);
  CHECK(text.find("oldest node the run record keeps") != std::string::npos);
  CHECK(text.find("5 earlier node(s) were let go") != std::string::npos);
  CHECK(text.find("1 MiB (launch option runRecordMB)") != std::string::npos);
  // The Run scope lists the let-go outputs as not kept.
  json run = c.scope(0, "Run");
  CHECK(run[3]["value"].get<std::string>().find("not kept") != std::string::npos);
  REQUIRE(c.request("disconnect")["success"] == true);
}

TEST_CASE("stepBack at the first line stays there and says so, and launch rejects a bad runRecordMB", "[dap][stepback]") {
  Fixture f = Fixture::fromText("nothing.py", "x = 1  #$ first\nprint(x)\n");
  Client c;
  c.start(f.path, {{f.line("first"), json()}});
  REQUIRE(c.event("stopped").is_object());
  json r = c.request("stepBack", {{"threadId", 1}});
  CHECK(r["success"] == true);
  json s = c.event("stopped");
  CHECK(s["body"]["text"] == "stepBack: this is the first line the program ran");
  CHECK(c.stackTrace()[0]["line"] == f.line("first"));
  REQUIRE(c.request("continue", {{"threadId", 1}})["success"] == true);
  REQUIRE(c.event("exited").is_object());
  CHECK(c.output() == "stepBack: this is the first line the program ran\n1\n");

  Client bad;
  r = bad.request("launch", {{"program", f.path}, {"runRecordMB", 0}});
  CHECK(r["success"] == false);
  CHECK(r["message"].get<std::string>().find("runRecordMB must be between 1 and") != std::string::npos);
}

TEST_CASE("stepBack goes through the eager ops of a tf.function call", "[dap][stepback]") {
  Fixture f = Fixture::fromText("fn_back.py", R"(import tensorflow as tf


@tf.function
def f(x):
    a = x * 2.0  #$ mul
    b = a + 1.0  #$ add
    return tf.nn.relu(b)


print(f(tf.constant([1.0, -3.0])).numpy())
)");
  Client c;
  c.start(f.path, {}, json::object(), {"nan_inf"}, {"Relu"});
  json s = c.event("stopped");
  REQUIRE(s.is_object());
  REQUIRE(s["body"]["description"].get<std::string>().rfind("Relu (Relu)", 0) == 0);
  REQUIRE(c.request("stepBack", {{"threadId", 1}})["success"] == true);
  s = c.event("stopped");
  const std::string d = s["body"]["description"];
  CAPTURE(d);
  CHECK(d.find("(stepped back)") != std::string::npos);
  CHECK(c.stackTrace()[0]["line"] == f.line("add"));
  json node = c.scope(0, "Node");
  bool sawOut = false;
  for (const json& v : node)
    if (v["name"].get<std::string>().rfind("out ", 0) == 0) {
      sawOut = true;
      CHECK(v["value"].get<std::string>().find("min=-5 max=3") != std::string::npos);
    }
  CHECK(sawOut);
  // Its input is the previous op's output, found in the record by its buffer.
  CHECK(Client::named(node, "in input:0")["value"].get<std::string>().find("min=-6 max=2") != std::string::npos);
  REQUIRE(c.request("continue", {{"threadId", 1}})["success"] == true);
  REQUIRE(c.event("exited").is_object());
  CHECK(c.output().find("[3. 0.]") != std::string::npos);
}

namespace {

const char* kLines = R"(a = 1  #$ one
def f(x):
    y = x * 2  #$ inside
    return y + a  #$ ret
b = f(5)  #$ call
a = a + 10  #$ two
print(a, b)  #$ print
)";

}  // namespace

TEST_CASE("stepBack at a Python stop goes back through the lines that ran, with the names they saw", "[dap][stepback]") {
  Fixture f = Fixture::fromText("lines.py", kLines);
  Client c;
  c.start(f.path, {{f.line("print"), json()}});
  REQUIRE(c.event("stopped").is_object());
  // Back one line: module level, before `a = a + 10` ran.
  REQUIRE(c.request("stepBack", {{"threadId", 1}})["success"] == true);
  json s = c.event("stopped");
  CHECK(s["body"]["reason"] == "step");
  CHECK(desc(s) == "line " + std::to_string(f.line("two")) + " in <module> (stepped back)");
  json frames = c.stackTrace();
  REQUIRE(frames.size() == 1);
  CHECK(frames[0]["name"] == "<module> (stepped back)");
  CHECK(frames[0]["line"] == f.line("two"));
  CHECK(Client::named(c.scope(0, "Globals (as the line started)"), "a")["value"] == "1");
  CHECK(eval(c, "a + b") == "12");  // b = f(5) = 11
  // Back into the function the call ran: its locals as each line started.
  REQUIRE(c.request("stepBack", {{"threadId", 1}})["success"] == true);
  s = c.event("stopped");
  CHECK(desc(s) == "line " + std::to_string(f.line("ret")) + " in f (stepped back)");
  json locals = c.scope(0, "Locals (as the line started)");
  CHECK(Client::named(locals, "x")["value"] == "5");
  CHECK(Client::named(locals, "y")["value"] == "10");
  CHECK(eval(c, "y * 3") == "30");
  REQUIRE(c.request("stepBack", {{"threadId", 1}})["success"] == true);
  c.event("stopped");
  CHECK(c.stackTrace()[0]["line"] == f.line("inside"));
  locals = c.scope(0, "Locals (as the line started)");
  CHECK(locals.size() == 1);  // only x: y is not bound yet
  // Forward again: next by line, then continue runs on from the live stop.
  REQUIRE(c.request("next", {{"threadId", 1}})["success"] == true);
  s = c.event("stopped");
  CHECK(desc(s) == "line " + std::to_string(f.line("ret")) + " in f (stepped back)");
  REQUIRE(c.request("continue", {{"threadId", 1}})["success"] == true);
  json exited = c.event("exited");
  REQUIRE(exited.is_object());
  CHECK(c.output() == "11 11\n");
}

TEST_CASE("reverseContinue at a Python stop goes back to the last line with a breakpoint, and continue replays forward to it", "[dap][stepback]") {
  Fixture f = Fixture::fromText("lines_bp.py", kLines);
  Client c;
  c.start(f.path, {{f.line("print"), json()}});
  REQUIRE(c.event("stopped").is_object());
  c.request("setBreakpoints", {{"source", {{"path", f.path}}},
                               {"breakpoints", json::array({{{"line", f.line("inside")}}, {{"line", f.line("print")}}})}});
  REQUIRE(c.request("reverseContinue", {{"threadId", 1}})["success"] == true);
  json s = c.event("stopped");
  CHECK(s["body"]["reason"] == "breakpoint");
  CHECK(desc(s) == "line " + std::to_string(f.line("inside")) + " in f (stepped back)");
  CHECK(c.stackTrace()[0]["line"] == f.line("inside"));
  // A second reverseContinue finds no earlier breakpoint: the first line, with a note.
  REQUIRE(c.request("reverseContinue", {{"threadId", 1}})["success"] == true);
  s = c.event("stopped");
  CHECK(s["body"]["text"].get<std::string>().find("no breakpoint matched") != std::string::npos);
  CHECK(c.stackTrace()[0]["line"] == f.line("one"));
  // continue replays forward: it stops at the breakpoint inside f, then reaches the live stop
  // and the program runs on.
  REQUIRE(c.request("continue", {{"threadId", 1}})["success"] == true);
  s = c.event("stopped");
  CHECK(desc(s) == "line " + std::to_string(f.line("inside")) + " in f (stepped back)");
  REQUIRE(c.request("continue", {{"threadId", 1}})["success"] == true);
  REQUIRE(c.event("exited").is_object());
  CHECK(c.output().find("\n11 11\n") != std::string::npos);
}
