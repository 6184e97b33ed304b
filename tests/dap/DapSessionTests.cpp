// Transcript tests: a real DapSession driven over the in-memory channel pair with annotated
// example programs, asserting the fields of responses and events.
#include <sys/stat.h>

#include <cstdlib>

#include "tests/dap/DapTestSupport.h"

using namespace tlens::dap::testing;

namespace {

const char* kGraphLoop = R"(import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 3], name="x")
w = tf.Variable(tf.ones([3, 2]), name="w")
y = tf.matmul(x, w, name="y")  #$ matmul
z = tf.nn.relu(y)


def run_once(sess, feed):
    return sess.run(z, feed_dict={x: feed})  #$ run


sess = tf.Session()
sess.run(tf.global_variables_initializer())
for i in range(3):
    out = run_once(sess, [[1.0, 2.0, float(i)]])
print("done", out.shape)  #$ done
)";

}  // namespace

TEST_CASE("a line breakpoint stops at graph construction and at every run of the node it created", "[dap]") {
  Fixture f = Fixture::fromText("graph_loop.py", kGraphLoop);
  Client c;
  c.start(f.path, {{f.line("matmul"), json()}});

  // 1. The Python statement that builds the node.
  json s = c.event("stopped");
  REQUIRE(s.is_object());
  CHECK(s["body"]["reason"] == "breakpoint");
  json frames = c.stackTrace();
  CHECK(frames[0]["line"] == f.line("matmul"));
  CHECK(frames[0]["name"] == "<module>");

  // 2-4. The node, once per sess.run in the loop.
  for (int run = 0; run < 3; ++run) {
    REQUIRE(c.request("continue", {{"threadId", 1}})["success"] == true);
    s = c.event("stopped");
    REQUIRE(s.is_object());
    CHECK(s["body"]["reason"] == "breakpoint");
    CHECK(s["body"]["description"] == "y (MatMul) on /cpu:0");
    frames = c.stackTrace();
    CHECK(frames[0]["name"] == "y (MatMul)");
    CHECK(frames[0]["line"] == f.line("matmul"));
    CHECK(frames[0]["source"]["path"] == f.path);
    // Then the Python stack of the sess.run call site: run_once, then the loop.
    bool sawRun = false, sawModule = false;
    for (const json& fr : frames) {
      if (fr["name"] == "run_once" && fr["line"] == f.line("run")) sawRun = true;
      if (fr["name"] == "<module>" && sawRun) sawModule = true;
    }
    CHECK(sawRun);
    CHECK(sawModule);

    json node = c.scope(0, "Node");
    json out = Client::named(node, "out y:0");
    // x = [[1, 2, i]] times ones(3, 2): every element is 3 + i.
    CHECK(out["value"].get<std::string>().rfind("float32[1, 2] /cpu:0 min=" + std::to_string(3 + run), 0) == 0);
    CHECK(out["value"].get<std::string>().find("nan=0 inf=0") != std::string::npos);
    if (run == 0) {
      // tfdbg's console commands over the run.
      json r = c.request("evaluate", {{"expression", "lt -t MatMul"}, {"context", "repl"}});
      REQUIRE(r["success"] == true);
      CHECK(r["body"]["result"].get<std::string>().find("y:0 (MatMul) float32[1, 2]") != std::string::npos);
      r = c.request("evaluate", {{"expression", "ni -t y"}, {"context", "repl"}});
      CHECK(r["body"]["result"].get<std::string>().find("created at " + f.path + ":" + std::to_string(f.line("matmul"))) !=
            std::string::npos);
      r = c.request("evaluate", {{"expression", "pt y[0, :1]"}, {"context", "repl"}});
      REQUIRE(r["success"] == true);
      CHECK(r["body"]["result"].get<std::string>().find("3.") != std::string::npos);
      // A condition-style expression sees the computed value of the graph tensor y.
      r = c.request("evaluate", {{"expression", "float(tf.reduce_max(y))"}, {"frameId", 0}});
      REQUIRE(r["success"] == true);
      CHECK(r["body"]["result"] == "3.0");
    }
  }
  REQUIRE(c.request("continue", {{"threadId", 1}})["success"] == true);
  json exited = c.event("exited");
  REQUIRE(exited.is_object());
  CHECK(exited["body"]["exitCode"] == 0);
  CHECK(c.event("terminated").is_object());
  CHECK(c.output().find("done (1, 2)") != std::string::npos);
}

TEST_CASE("nan_inf stops at the tf.log line of the tfdbg example and explains the cause", "[dap]") {
  Fixture f = Fixture::fromFile(std::string(TLENS_SOURCE_DIR) + "/examples/tfdbg_nan.py");
  Client c;
  c.start(f.path);
  json s = c.event("stopped", std::chrono::seconds(120));
  REQUIRE(s.is_object());
  CHECK(s["body"]["reason"] == "exception");
  CHECK(s["body"]["description"].get<std::string>().find("cross_entropy/Log (Log)") != std::string::npos);

  json frames = c.stackTrace();
  CHECK(frames[0]["line"] == f.find("tf.log(y)"));
  CHECK(frames[0]["name"] == "cross_entropy/Log (Log)");

  json info = c.request("exceptionInfo", {{"threadId", 1}});
  REQUIRE(info["success"] == true);
  CHECK(info["body"]["exceptionId"] == "nan_inf");
  const std::string why = info["body"]["description"];
  CAPTURE(why);
  CHECK(why.find("-inf") != std::string::npos);
  // The engine names tf.nn.softmax(..., name="softmax") "softmax", as TensorFlow does.
  CHECK(why.find("because its input softmax:0 held") != std::string::npos);
  CHECK(why.find("exact zeros") != std::string::npos);
  CHECK(why.find("tfdbg_nan.py:" + std::to_string(f.find("tf.log(y)"))) != std::string::npos);

  // The Node scope shows the input that held the zeros.
  json node = c.scope(0, "Node");
  json in = Client::named(node, "in softmax:0");
  CHECK(in["value"].get<std::string>().find("float32[100, 10]") == 0);
  // The Run scope lists what ran before, in order.
  json run = c.scope(0, "Run");
  CHECK(run.size() > 5);

  REQUIRE(c.request("disconnect")["success"] == true);
}

TEST_CASE("tensor variables page through slices and never send a large tensor whole", "[dap]") {
  Fixture f = Fixture::fromText("big.py", R"(import numpy as np
import tensorflow as tf

big = tf.zeros([1000, 1000, 10])
small = tf.constant([[1.0, 2.0], [3.0, 4.0]])
items = [1, "two", 3.0]
print("ready")  #$ stop
)");
  Client c;
  c.start(f.path, {{f.line("stop"), json()}});
  REQUIRE(c.event("stopped").is_object());
  json globals = c.scope(0, "Globals");

  json small = Client::named(globals, "small");
  CHECK(small["value"] == "float32[2, 2] /cpu:0 min=1 max=4 mean=2.5 std=1.118 nan=0 inf=0");
  CHECK(small["indexedVariables"] == 2);
  json rows = c.variables(small["variablesReference"]);
  REQUIRE(rows.size() == 3);  // histogram, [0], [1]
  CHECK(rows[0]["name"] == "histogram");
  CHECK(rows[2]["name"] == "[1]");
  const int row1Ref = rows[2]["variablesReference"];
  json row1 = c.variables(row1Ref);
  REQUIRE(row1.size() == 2);
  CHECK(row1[0]["value"] == "3");
  CHECK(row1[1]["value"] == "4");

  json big = Client::named(globals, "big");
  CHECK(big["indexedVariables"] == 1000);
  const auto t0 = std::chrono::steady_clock::now();
  json chunks = c.variables(big["variablesReference"], {{"filter", "indexed"}});
  CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::milliseconds(50));
  REQUIRE(chunks.size() == 10);  // 1000 rows in ranges of 100
  CHECK(chunks[0]["name"] == "[0:100]");
  json page = c.variables(big["variablesReference"], {{"filter", "indexed"}, {"start", 500}, {"count", 3}});
  REQUIRE(page.size() == 3);
  CHECK(page[0]["name"] == "[500]");
  CHECK(page[0]["indexedVariables"] == 1000);

  // setVariable on a tensor element writes the buffer; on a global rebinds it.
  json set = c.request("setVariable", {{"variablesReference", row1Ref}, {"name", "[1]"}, {"value", "40"}});
  REQUIRE(set["success"] == true);
  CHECK(set["body"]["value"] == "40");
  json r = c.request("evaluate", {{"expression", "float(tf.reduce_sum(small))"}, {"frameId", 0}});
  CHECK(r["body"]["result"] == "46.0");
  const int globalsRef = c.scopeRef(0, "Globals");
  set = c.request("setVariable", {{"variablesReference", globalsRef}, {"name", "items"}, {"value", "[7]"}});
  REQUIRE(set["success"] == true);
  CHECK(c.request("evaluate", {{"expression", "items"}, {"frameId", 0}})["body"]["result"] == "[7]");
  set = c.request("setVariable", {{"variablesReference", small["variablesReference"]}, {"name", "[0]"}, {"value", "1"}});
  CHECK(set["success"] == false);  // a row, not an element
  globals = c.scope(0, "Globals");
  CHECK(Client::named(globals, "items")["value"] == "[7]");
  REQUIRE(c.request("disconnect")["success"] == true);
}

TEST_CASE("Python containers expand into their items", "[dap]") {
  Fixture f = Fixture::fromText("items.py", R"(items = [1, "two", 3.0]
print("ready")  #$ stop
)");
  Client c;
  c.start(f.path, {{f.line("stop"), json()}});
  REQUIRE(c.event("stopped").is_object());
  json globals = c.scope(0, "Globals");
  json items = Client::named(globals, "items");
  CHECK(items["value"] == "[1, 'two', 3.0]");
  json kids = c.variables(items["variablesReference"]);
  REQUIRE(kids.size() == 3);
  CHECK(kids[1]["value"] == "'two'");
  REQUIRE(c.request("disconnect")["success"] == true);
}

TEST_CASE("evaluate runs expressions in the stopped frame, tensor ops eagerly", "[dap]") {
  Fixture f = Fixture::fromText("eval.py", R"(import tensorflow as tf

a = tf.constant([1.0, -2.0, 3.0])
n = 7


def inner(k):
    return k * 2  #$ inner


inner(5)
)");
  Client c;
  c.start(f.path, {{f.line("inner"), json()}});
  REQUIRE(c.event("stopped").is_object());
  json r = c.request("evaluate", {{"expression", "k + n"}, {"frameId", 0}, {"context", "repl"}});
  REQUIRE(r["success"] == true);
  CHECK(r["body"]["result"] == "12");
  r = c.request("evaluate", {{"expression", "tf.reduce_max(a)"}, {"frameId", 0}});
  REQUIRE(r["success"] == true);
  CHECK(r["body"]["result"].get<std::string>().rfind("float32[] /cpu:0 min=3 max=3", 0) == 0);
  // Console completions: names of the frame, attributes after a dot.
  r = c.request("completions", {{"text", "tf.reduce_m"}, {"column", 12}, {"frameId", 0}});
  REQUIRE(r["success"] == true);
  bool sawMax = false;
  for (const json& t : r["body"]["targets"]) sawMax = sawMax || t["label"] == "reduce_max";
  CHECK(sawMax);
  r = c.request("completions", {{"text", "inn"}, {"column", 4}});
  REQUIRE(r["body"]["targets"].size() == 1);
  CHECK(r["body"]["targets"][0]["label"] == "inner");
  // Errors come back as error responses and the session goes on.
  r = c.request("evaluate", {{"expression", "undefined_name"}, {"frameId", 0}});
  CHECK(r["success"] == false);
  CHECK(r["message"].get<std::string>().find("NameError") != std::string::npos);
  // The caller's frame sees its own scope.
  json frames = c.stackTrace();
  REQUIRE(frames.size() == 2);
  r = c.request("evaluate", {{"expression", "n * 2"}, {"frameId", frames[1]["id"]}});
  CHECK(r["body"]["result"] == "14");
  REQUIRE(c.request("continue", {{"threadId", 1}})["success"] == true);
  CHECK(c.event("exited")["body"]["exitCode"] == 0);
}

TEST_CASE("conditions, hit counts and logpoints", "[dap]") {
  Fixture f = Fixture::fromText("cond.py", R"(total = 0
for i in range(10):
    total += i  #$ body
print(total)  #$ end
)");
  Client c;
  c.start(f.path, {{f.line("body"), json{{"condition", "i == 4"}}}, {f.line("end"), json{{"logMessage", "total is {total}"}}}});
  json s = c.event("stopped");
  REQUIRE(s.is_object());
  json r = c.request("evaluate", {{"expression", "i"}, {"frameId", 0}});
  CHECK(r["body"]["result"] == "4");
  REQUIRE(c.request("continue", {{"threadId", 1}})["success"] == true);
  REQUIRE(c.event("exited").is_object());
  CHECK(c.output().find("total is 45") != std::string::npos);
}

TEST_CASE("hit count and function breakpoints on op types and name regexes", "[dap]") {
  Fixture f = Fixture::fromText("fbp.py", kGraphLoop);
  Client c;
  json init = c.request("initialize", {{"adapterID", "tlens"}});
  REQUIRE(init["body"]["supportsFunctionBreakpoints"] == true);
  REQUIRE(c.request("launch", {{"program", f.path}})["success"] == true);
  json r = c.request("setFunctionBreakpoints", {{"breakpoints", {{{"name", "Relu"}, {"hitCondition", "2"}}, {{"name", "[("}}}}});
  REQUIRE(r["success"] == true);
  CHECK(r["body"]["breakpoints"][0]["verified"] == true);
  CHECK(r["body"]["breakpoints"][1]["verified"] == false);  // a bad regex
  REQUIRE(c.request("configurationDone")["success"] == true);
  json s = c.event("stopped");
  REQUIRE(s.is_object());
  CHECK(s["body"]["reason"] == "function breakpoint");
  CHECK(s["body"]["description"] == "Relu (Relu) on /cpu:0");
  // Hit condition "2": the second run of Relu; x[0][2] is 1.0 then.
  json node = c.scope(0, "Node");
  CHECK(Client::named(node, "out Relu:0")["value"].get<std::string>().find("min=4 max=4") != std::string::npos);
  REQUIRE(c.request("setFunctionBreakpoints", {{"breakpoints", json::array()}})["success"] == true);
  REQUIRE(c.request("continue", {{"threadId", 1}})["success"] == true);
  CHECK(c.event("exited")["body"]["exitCode"] == 0);
}

TEST_CASE("stepping by line: next steps over calls, stepIn enters them", "[dap]") {
  Fixture f = Fixture::fromText("step.py", R"(def double(v):
    r = v * 2  #$ inside
    return r


a = double(1)  #$ first
b = double(2)  #$ second
)");
  Client c;
  c.start(f.path, {{f.line("first"), json()}});
  REQUIRE(c.event("stopped").is_object());
  REQUIRE(c.request("next", {{"threadId", 1}})["success"] == true);
  REQUIRE(c.event("stopped")["body"]["reason"] == "step");
  CHECK(c.stackTrace()[0]["line"] == f.line("second"));
  REQUIRE(c.request("stepIn", {{"threadId", 1}})["success"] == true);
  REQUIRE(c.event("stopped").is_object());
  json frames = c.stackTrace();
  CHECK(frames[0]["line"] == f.line("inside"));
  CHECK(frames[0]["name"] == "double");
  REQUIRE(c.request("stepOut", {{"threadId", 1}})["success"] == true);
  REQUIRE(c.event("exited").is_object());
}

TEST_CASE("malformed and unknown requests get error responses and the server keeps running", "[dap]") {
  Client c;
  c.sendRaw("{not json");
  json r = c.anyResponse();
  CHECK(r["success"] == false);
  CHECK(r["message"].get<std::string>().find("malformed") != std::string::npos);
  r = c.request("noSuchRequest");
  CHECK(r["success"] == false);
  CHECK(r["message"] == "unknown request 'noSuchRequest'");
  r = c.request("launch", json::object());  // no program
  CHECK(r["success"] == false);
  CHECK(r["message"].get<std::string>().find("invalid arguments") != std::string::npos);
  r = c.request("launch", {{"program", "/no/such/file.py"}});
  CHECK(r["success"] == false);
  r = c.request("stackTrace", {{"threadId", 1}});  // nothing is stopped
  CHECK(r["success"] == false);
  r = c.request("setExceptionBreakpoints", {{"filters", {"bogus"}}});
  CHECK(r["success"] == false);
  r = c.request("threads");
  CHECK(r["success"] == true);
  CHECK(r["body"]["threads"][0]["id"] == 1);
}

TEST_CASE("breakpoints on lines without code move to the next statement", "[dap]") {
  Fixture f = Fixture::fromText("move.py", R"(a = 1

# a comment
b = 2  #$ b
)");
  Client c;
  REQUIRE(c.request("initialize", {{"adapterID", "tlens"}})["success"] == true);
  REQUIRE(c.request("launch", {{"program", f.path}})["success"] == true);
  json r = c.request("setBreakpoints", {{"source", {{"path", f.path}}}, {"breakpoints", {{{"line", 2}}, {{"line", 99}}}}});
  REQUIRE(r["success"] == true);
  CHECK(r["body"]["breakpoints"][0]["verified"] == true);
  CHECK(r["body"]["breakpoints"][0]["line"] == f.line("b"));
  CHECK(r["body"]["breakpoints"][1]["verified"] == false);
  r = c.request("breakpointLocations", {{"source", {{"path", f.path}}}, {"line", 1}, {"endLine", 4}});
  CHECK(r["body"]["breakpoints"] == json::parse("[{\"line\":1},{\"line\":4}]"));
}

TEST_CASE("pause stops a long Python loop", "[dap]") {
  Fixture f = Fixture::fromText("loop.py", R"(i = 0
while True:
    i += 1
)");
  Client c;
  c.start(f.path);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  const auto t0 = std::chrono::steady_clock::now();
  REQUIRE(c.request("pause", {{"threadId", 1}})["success"] == true);
  json s = c.event("stopped", std::chrono::seconds(5));
  REQUIRE(s.is_object());
  CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::milliseconds(100));
  CHECK(s["body"]["reason"] == "pause");
  REQUIRE(c.request("disconnect")["success"] == true);
}

TEST_CASE("uncaught exceptions stop post mortem when the filter is on", "[dap]") {
  Fixture f = Fixture::fromText("raise.py", R"(def check(v):
    assert v > 0, "v must be positive"  #$ assert


check(1)
check(-1)
)");
  Client c;
  c.start(f.path, {}, json::object(), {"assert"});
  json s = c.event("stopped");
  REQUIRE(s.is_object());
  CHECK(s["body"]["reason"] == "exception");
  json frames = c.stackTrace();
  CHECK(frames[0]["line"] == f.line("assert"));
  json info = c.request("exceptionInfo", {{"threadId", 1}});
  CHECK(info["body"]["exceptionId"] == "assert");
  CHECK(info["body"]["description"].get<std::string>().find("v must be positive") != std::string::npos);
  REQUIRE(c.request("continue", {{"threadId", 1}})["success"] == true);
  CHECK(c.event("exited")["body"]["exitCode"] == 1);
}

TEST_CASE("the wire format: framed requests in, framed responses and events out", "[dap]") {
  // Two requests and one broken header in one framed stream, as `tlens dap` reads stdin.
  std::string in = tlens::protocol::encodeFrame(R"({"seq":1,"type":"request","command":"initialize","arguments":{"adapterID":"tlens"}})");
  in += "Content-Length: nope\r\n\r\n";
  in += tlens::protocol::encodeFrame(R"({"seq":2,"type":"request","command":"threads"})");
  in += tlens::protocol::encodeFrame(R"({"seq":3,"type":"request","command":"disconnect"})");
  std::string out;
  {
    auto ch = tlens::protocol::memoryChannel(in, &out);
    tlens::dap::DapSession session(*ch);
    session.run();
  }
  tlens::protocol::FrameDecoder dec;
  dec.feed(out);
  std::vector<json> msgs;
  while (auto body = dec.next()) msgs.push_back(json::parse(*body));
  REQUIRE(msgs.size() >= 5);
  CHECK(msgs[0]["type"] == "response");
  CHECK(msgs[0]["command"] == "initialize");
  CHECK(msgs[0]["request_seq"] == 1);
  CHECK(msgs[0]["success"] == true);
  CHECK(msgs[0]["body"]["supportsConfigurationDoneRequest"] == true);
  CHECK(msgs[0]["body"]["exceptionBreakpointFilters"][0]["filter"] == "nan_inf");
  CHECK(msgs[0]["body"]["exceptionBreakpointFilters"][0]["default"] == true);
  CHECK(msgs[1]["type"] == "event");
  CHECK(msgs[1]["event"] == "initialized");
  // The broken header is reported and skipped; the server goes on.
  CHECK(msgs[2]["event"] == "output");
  CHECK(msgs[2]["body"]["output"].get<std::string>().find("framing error") != std::string::npos);
  CHECK(msgs[3]["command"] == "threads");
  CHECK(msgs[3]["body"]["threads"][0]["name"] == "main");
  CHECK(msgs[4]["command"] == "disconnect");
  for (size_t i = 1; i < msgs.size(); ++i) CHECK(msgs[i]["seq"].get<int>() > msgs[i - 1]["seq"].get<int>());
}

TEST_CASE("a session over TCP on 127.0.0.1 stops at a breakpoint", "[dap]") {
  Fixture f = Fixture::fromText("tcp.py", R"(x = 1
y = x + 1  #$ bp
)");
  std::promise<int> port;
  std::thread server([&] {
    tlens::protocol::serveTcp(
        0,
        [](tlens::protocol::Channel& ch) {
          tlens::dap::DapSession s(ch);
          s.run();
          return false;  // one session, then stop serving
        },
        [&](int p) { port.set_value(p); });
  });
  {
    Client c(tlens::protocol::connectTcp(port.get_future().get()));
    c.start(f.path, {{f.line("bp"), json()}});
    json s = c.event("stopped");
    REQUIRE(s.is_object());
    CHECK(c.stackTrace()[0]["line"] == f.line("bp"));
    json r = c.request("evaluate", {{"expression", "x + 41"}, {"frameId", 0}});
    CHECK(r["body"]["result"] == "42");
    REQUIRE(c.request("disconnect")["success"] == true);
  }
  server.join();
}

TEST_CASE("inside a graph run next goes to the next node and stepOut returns to Python", "[dap]") {
  Fixture f = Fixture::fromText("nodestep.py", kGraphLoop);
  Client c;
  // A condition on a tensor statistic of the graph tensor the node computes: only the third run.
  c.start(f.path, {{f.line("matmul"), json{{"condition", "tf.reduce_max(y) > 4"}}}});
  json s = c.event("stopped");  // the condition is false at graph construction (y has no value)...
  REQUIRE(s.is_object());
  // ...so the first stop is the node in the third run, where x = [1, 2, 2] gives y = 5.
  CHECK(s["body"]["description"] == "y (MatMul) on /cpu:0");
  json node = c.scope(0, "Node");
  CHECK(Client::named(node, "out y:0")["value"].get<std::string>().find("min=5 max=5") != std::string::npos);
  REQUIRE(c.request("next", {{"threadId", 1}})["success"] == true);
  s = c.event("stopped");
  REQUIRE(s.is_object());
  CHECK(s["body"]["reason"] == "step");
  CHECK(s["body"]["description"] == "Relu (Relu) on /cpu:0");
  CHECK(c.stackTrace()[0]["line"] == f.line("matmul") + 1);
  json run = c.scope(0, "Run");
  CHECK(run.size() >= 2);
  REQUIRE(c.request("stepOut", {{"threadId", 1}})["success"] == true);
  s = c.event("stopped");
  REQUIRE(s.is_object());
  CHECK(s["body"]["reason"] == "step");
  json frames = c.stackTrace();
  CHECK(frames[0]["name"] == "<module>");
  CHECK(frames[0]["line"] == f.line("done"));
  REQUIRE(c.request("continue", {{"threadId", 1}})["success"] == true);
  CHECK(c.event("exited")["body"]["exitCode"] == 0);
}

TEST_CASE("a breakpoint in a tf.function body stops while tracing and at its nodes on every call", "[dap]") {
  Fixture f = Fixture::fromText("tffunction.py", R"(import tensorflow as tf

w = tf.Variable(tf.ones([2, 2]), name="w")


@tf.function
def predict(x):
    return tf.matmul(x, w)  #$ body


for i in range(2):
    out = predict(tf.constant([[1.0, 1.0]]) * float(i + 1))  #$ call
print(out.numpy())
)");
  Client c;
  c.start(f.path, {{f.line("body"), json()}});
  // The trace runs the body as Python.
  json s = c.event("stopped");
  REQUIRE(s.is_object());
  CHECK(s["body"]["reason"] == "breakpoint");
  json frames = c.stackTrace();
  CHECK(frames[0]["name"] == "predict");
  CHECK(frames[0]["line"] == f.line("body"));
  // Then each call replays the traced MatMul.
  for (int call = 1; call <= 2; ++call) {
    REQUIRE(c.request("continue", {{"threadId", 1}})["success"] == true);
    s = c.event("stopped");
    REQUIRE(s.is_object());
    CAPTURE(call);
    CHECK(s["body"]["description"].get<std::string>().find("(MatMul) on /cpu:0") != std::string::npos);
    frames = c.stackTrace();
    CHECK(frames[0]["line"] == f.line("body"));
    bool sawCall = false;
    for (const json& fr : frames) sawCall = sawCall || (fr["name"] == "<module>" && fr["line"] == f.line("call"));
    CHECK(sawCall);
    json node = c.scope(0, "Node");
    CAPTURE(node.dump());
    CHECK(node.back()["value"].get<std::string>().find("min=" + std::to_string(2 * call)) != std::string::npos);
  }
  REQUIRE(c.request("continue", {{"threadId", 1}})["success"] == true);
  CHECK(c.event("exited")["body"]["exitCode"] == 0);
}

TEST_CASE("stopOnEntry, then terminate in the middle of a run ends the program cleanly", "[dap]") {
  Fixture f = Fixture::fromText("entry.py", R"(import tensorflow as tf  #$ first
i = 0
while True:
    i += 1
)");
  Client c;
  c.start(f.path, {}, json{{"stopOnEntry", true}, {"mode", "eager"}});
  json s = c.event("stopped");
  REQUIRE(s.is_object());
  CHECK(s["body"]["reason"] == "entry");
  CHECK(c.stackTrace()[0]["line"] == f.line("first"));
  REQUIRE(c.request("continue", {{"threadId", 1}})["success"] == true);
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  REQUIRE(c.request("terminate")["success"] == true);
  json e = c.event("exited");
  REQUIRE(e.is_object());
  CHECK(e["body"]["exitCode"] == 130);
  CHECK(c.event("terminated").is_object());
  // The session still answers after the program is gone.
  CHECK(c.request("threads")["success"] == true);
  CHECK(c.request("stackTrace", {{"threadId", 1}})["success"] == false);
}

TEST_CASE("launch rejects a bad mode", "[dap]") {
  Client c;
  json r = c.request("launch", {{"program", "x.py"}, {"mode", "fast"}});
  CHECK(r["success"] == false);
  CHECK(r["message"].get<std::string>().find("mode must be") != std::string::npos);
}

TEST_CASE("launch: env sets variables, and null removes one (launch.json semantics)", "[dap]") {
  Fixture f = Fixture::fromText("env.py", R"(import os
print("set", os.environ.get("TLENS_TEST_SET"))
print("removed", os.environ.get("TLENS_TEST_REMOVED"))
)");
  ::setenv("TLENS_TEST_REMOVED", "inherited", 1);
  Client c;
  c.start(f.path, {}, json{{"env", {{"TLENS_TEST_SET", "yes"}, {"TLENS_TEST_REMOVED", nullptr}}}});
  json e = c.event("exited");
  REQUIRE(e.is_object());
  CHECK(e["body"]["exitCode"] == 0);
  std::string out = c.output();
  CHECK(out.find("set yes\n") != std::string::npos);
  CHECK(out.find("removed None\n") != std::string::npos);
  ::unsetenv("TLENS_TEST_SET");
  ::unsetenv("TLENS_TEST_REMOVED");
}

TEST_CASE("launch: env values must be strings or null, with a clear message", "[dap]") {
  Client c;
  json r = c.request("launch", {{"program", "x.py"}, {"env", {{"N", 3}}}});
  CHECK(r["success"] == false);
  CHECK(r["message"].get<std::string>().find("env: the value of 'N' must be a string, or null to remove it, not number") !=
        std::string::npos);
  r = c.request("launch", {{"program", "x.py"}, {"env", {"A=1"}}});
  CHECK(r["success"] == false);
  CHECK(r["message"].get<std::string>().find("env must be an object") != std::string::npos);
  r = c.request("launch", {{"program", "x.py"}, {"env", {{"A=B", "1"}}}});
  CHECK(r["success"] == false);
  CHECK(r["message"].get<std::string>().find("'A=B' is not a valid variable name") != std::string::npos);
}

TEST_CASE("shape_error stops post mortem at the matmul of the shape bug example", "[dap]") {
  Fixture f = Fixture::fromFile(std::string(TLENS_SOURCE_DIR) + "/examples/shape_bug.py");
  Client c;
  c.start(f.path, {}, json::object(), {"nan_inf", "shape_error"});
  json s = c.event("stopped");
  REQUIRE(s.is_object());
  CHECK(s["body"]["reason"] == "exception");
  CHECK(c.stackTrace()[0]["line"] == f.find("logits = tf.matmul(hidden, w2)"));
  json info = c.request("exceptionInfo", {{"threadId", 1}});
  CHECK(info["body"]["exceptionId"] == "shape_error");
  CHECK(info["body"]["description"].get<std::string>().find("Dimensions must be equal") != std::string::npos);
  // Post mortem, the console still sees the program's globals.
  json r = c.request("evaluate", {{"expression", "hidden.shape"}, {"context", "repl"}});
  REQUIRE(r["success"] == true);
  CHECK(r["body"]["result"].get<std::string>().find("256") != std::string::npos);
  REQUIRE(c.request("continue", {{"threadId", 1}})["success"] == true);
  CHECK(c.event("exited")["body"]["exitCode"] == 1);
}

TEST_CASE("without the filter an uncaught error ends the session with its traceback", "[dap]") {
  Fixture f = Fixture::fromFile(std::string(TLENS_SOURCE_DIR) + "/examples/shape_bug.py");
  Client c;
  c.start(f.path);
  json e = c.event("exited");
  REQUIRE(e.is_object());
  CHECK(e["body"]["exitCode"] == 1);
  CHECK(c.output().find("ValueError: Dimensions must be equal") != std::string::npos);
}

TEST_CASE("a logpoint on a graph line prints a tensor statistic at every run, the tf.Print replacement", "[dap]") {
  Fixture f = Fixture::fromText("logpoint.py", kGraphLoop);
  Client c;
  c.start(f.path, {{f.line("matmul"), json{{"logMessage", "max(y) = {float(tf.reduce_max(y))}"}}}});
  REQUIRE(c.event("exited").is_object());
  const std::string out = c.output();
  CAPTURE(out);
  CHECK(out.find("max(y) = 3.0\n") != std::string::npos);
  CHECK(out.find("max(y) = 4.0\n") != std::string::npos);
  CHECK(out.find("max(y) = 5.0\n") != std::string::npos);
}

TEST_CASE("attach: a program waiting for a debugger (tlens run --listen) runs under it", "[dap]") {
  Fixture f = Fixture::fromText("attach.py", R"(import tensorflow as tf
x = tf.constant([1.0, 2.0])
y = x * 3.0  #$ bp
print("done")
)");
  tlens::dap::LaunchConfig target;
  target.program = f.path;
  std::promise<int> port;
  std::thread server([&] {
    tlens::protocol::serveTcp(
        0,
        [&](tlens::protocol::Channel& ch) {
          tlens::dap::DapSession s(ch);
          s.setAttachTarget(target);
          s.run();
          return false;
        },
        [&](int p) { port.set_value(p); });
  });
  {
    Client c(tlens::protocol::connectTcp(port.get_future().get()));
    REQUIRE(c.request("initialize", {{"adapterID", "tlens"}})["success"] == true);
    REQUIRE(c.event("initialized").is_object());
    REQUIRE(c.request("attach", {{"port", 0}})["success"] == true);
    json bps = json::array({json{{"line", f.line("bp")}}});
    REQUIRE(c.request("setBreakpoints", {{"source", {{"path", f.path}}}, {"breakpoints", bps}})["success"] == true);
    REQUIRE(c.request("configurationDone")["success"] == true);
    json s = c.event("stopped");
    REQUIRE(s.is_object());
    CHECK(c.stackTrace()[0]["line"] == f.line("bp"));
    json r = c.request("evaluate", {{"expression", "float(tf.reduce_sum(x))"}, {"frameId", 0}});
    CHECK(r["body"]["result"] == "3.0");
    REQUIRE(c.request("continue", {{"threadId", 1}})["success"] == true);
    CHECK(c.event("exited").is_object());
    REQUIRE(c.request("disconnect")["success"] == true);
  }
  server.join();
}

TEST_CASE("attach without a waiting program says how to start one", "[dap]") {
  Client c;
  REQUIRE(c.request("initialize", {{"adapterID", "tlens"}})["success"] == true);
  json r = c.request("attach", {{"port", 4711}});
  CHECK(r["success"] == false);
  CHECK(r["message"].get<std::string>().find("tlens run --listen") != std::string::npos);
  CHECK(c.request("threads")["success"] == true);  // the session goes on
}

TEST_CASE("a request nested 200,000 deep gets an error response and the server keeps running", "[dap][robustness]") {
  // Before: nlohmann's recursive copy of the arguments overflowed the stack (issue 22.4).
  Client c;
  const std::string deep = std::string(200000, '[') + std::string(200000, ']');
  c.sendRaw(R"({"seq":900,"type":"request","command":"launch","arguments":{"program":"x.py","env":)" + deep + "}}");
  json r = c.anyResponse();
  CHECK(r["request_seq"] == 900);
  CHECK(r["success"] == false);
  CHECK(r["message"].get<std::string>().find("nested deeper") != std::string::npos);
  r = c.request("threads");
  CHECK(r["success"] == true);
}

TEST_CASE("launching a program with a syntax error fails and says where, as CPython would refuse it", "[dap]") {
  // Before: the launch succeeded and the program ran around the broken line (issue 22.3).
  Fixture f = Fixture::fromText("syntax_error.py", "print(1)\nx = (\nprint(2)\n");
  Client c;
  REQUIRE(c.request("initialize", {{"adapterID", "tlens"}})["success"] == true);
  json r = c.request("launch", {{"program", f.path}});
  CHECK(r["success"] == false);
  CHECK(r["message"].get<std::string>().find("SyntaxError: ") != std::string::npos);
  CHECK(r["message"].get<std::string>().find("line ") != std::string::npos);
  json dir = c.request("launch", {{"program", std::filesystem::path(f.path).parent_path().string()}});
  CHECK(dir["success"] == false);
  CHECK(dir["message"].get<std::string>().find("is a directory") != std::string::npos);
}

TEST_CASE("launching a FIFO named *.py fails at once instead of hanging the adapter", "[dap]") {
  auto dir = std::filesystem::temp_directory_path() / "tlens_dap_tests";
  std::filesystem::create_directories(dir);
  std::filesystem::remove(dir / "fifo.py");
  REQUIRE(::mkfifo((dir / "fifo.py").c_str(), 0600) == 0);
  Client c;
  json r = c.request("launch", {{"program", (dir / "fifo.py").string()}});
  CHECK(r["success"] == false);
  CHECK(r["message"].get<std::string>().find("not a regular file") != std::string::npos);
  std::filesystem::remove(dir / "fifo.py");
}

TEST_CASE("line numbers from the client: a huge endLine is clamped to the file, a line past 2^31 is refused", "[dap][robustness]") {
  // Before: endLine 2147483647 spun (an int counter overflowed) and line 2^40 became line 1.
  Fixture f = Fixture::fromText("lines.py", "a = 1\nb = 2\n");
  Client c;
  REQUIRE(c.request("initialize", {{"adapterID", "tlens"}})["success"] == true);
  REQUIRE(c.request("launch", {{"program", f.path}})["success"] == true);
  json r = c.request("breakpointLocations", {{"source", {{"path", f.path}}}, {"line", 1}, {"endLine", 2147483647}});
  REQUIRE(r["success"] == true);
  CHECK(r["body"]["breakpoints"] == json::parse(R"([{"line":1},{"line":2}])"));
  r = c.request("setBreakpoints", {{"source", {{"path", f.path}}}, {"breakpoints", {{{"line", int64_t(1) << 40}}}}});
  CHECK(r["success"] == false);
  CHECK(r["message"].get<std::string>().find("line number") != std::string::npos);
  r = c.request("breakpointLocations", {{"source", {{"path", f.path}}}, {"line", -5}});
  CHECK(r["success"] == false);
}

TEST_CASE("configurationDone after a failed launch ends the session with terminated, and the adapter lives on", "[dap][robustness]") {
  // Before: Debugger::start threw after the response and the exception ended the adapter (every
  // session of `tlens dap --port`), with no terminated event (issue 22.6).
  Client c;
  REQUIRE(c.request("initialize", {{"adapterID", "tlens"}})["success"] == true);
  CHECK(c.request("launch", {{"program", "/no/such/program.py"}})["success"] == false);
  CHECK(c.request("configurationDone")["success"] == true);
  CHECK(c.event("terminated", std::chrono::seconds(10)).is_object());
  CHECK(c.request("threads")["success"] == true);
}
