// Capabilities, restart, cancel, value formatting, and that terminate/disconnect in the middle
// of a run leave no thread behind.
#include <dirent.h>

#include "tests/dap/DapTestSupport.h"

using namespace tlens::dap::testing;

namespace {

int threadCount() {
  int n = 0;
  if (DIR* d = ::opendir("/proc/self/task")) {
    while (dirent* e = ::readdir(d))
      if (e->d_name[0] != '.') ++n;
    ::closedir(d);
  }
  return n;
}

}  // namespace

TEST_CASE("initialize advertises exactly what the adapter does", "[dap][lifecycle]") {
  Client c;
  json r = c.request("initialize", {{"adapterID", "tlens"}});
  REQUIRE(r["success"] == true);
  json caps = r["body"];
  std::set<std::string> on;
  for (auto& [k, v] : caps.items())
    if (v.is_boolean() && v.get<bool>()) on.insert(k);
  CHECK(on == std::set<std::string>{"supportsConfigurationDoneRequest", "supportsFunctionBreakpoints",
                                    "supportsConditionalBreakpoints", "supportsHitConditionalBreakpoints",
                                    "supportsEvaluateForHovers", "supportsLogPoints", "supportsExceptionInfoRequest",
                                    "supportsTerminateRequest", "supportsBreakpointLocationsRequest",
                                    "supportsDelayedStackTraceLoading", "supportsSetVariable", "supportsCompletionsRequest",
                                    "supportsStepBack", "supportsDataBreakpoints", "supportsRestartRequest",
                                    "supportsCancelRequest", "supportsValueFormattingOptions"});
  std::set<std::string> filters;
  for (const json& f : caps["exceptionBreakpointFilters"]) filters.insert(f["filter"]);
  CHECK(filters == std::set<std::string>{"nan_inf", "shape_error", "assert", "uncaught"});
  // Every advertised request has a handler: none answers "unknown request".
  for (const char* cmd : {"stepBack", "reverseContinue", "dataBreakpointInfo", "setDataBreakpoints", "restart",
                          "breakpointLocations", "completions", "setVariable", "exceptionInfo", "tensorlens/graph"}) {
    json x = c.request(cmd, json::object());
    CAPTURE(cmd, x.dump());
    CHECK(x["message"].get<std::string>().find("unknown request") == std::string::npos);
  }
}

TEST_CASE("restart launches the program again, with new arguments, and the session goes on", "[dap][lifecycle]") {
  Fixture f = Fixture::fromText("restart.py", R"(import sys
print("args", sys.argv[1:])
x = 1  #$ stop
print("end")
)");
  Client c;
  c.start(f.path, {{f.line("stop"), json()}}, json{{"args", {"one"}}});
  REQUIRE(c.event("stopped").is_object());
  CHECK(c.output().find("args ['one']") != std::string::npos);

  // Same arguments.
  REQUIRE(c.request("restart", json::object())["success"] == true);
  REQUIRE(c.event("stopped").is_object());
  CHECK(c.output().find("args ['one']") != std::string::npos);
  // Updated arguments, as VS Code sends them.
  REQUIRE(c.request("restart", {{"arguments", {{"program", f.path}, {"args", {"two", "three"}}}}})["success"] == true);
  json s = c.event("stopped");
  REQUIRE(s.is_object());
  CHECK(s["body"]["reason"] == "breakpoint");
  CHECK(c.output().find("args ['two', 'three']") != std::string::npos);
  // The old runs ended without ending the session.
  CHECK(c.event("terminated", std::chrono::milliseconds(200)).is_null());
  REQUIRE(c.request("continue", {{"threadId", 1}})["success"] == true);
  CHECK(c.event("exited")["body"]["exitCode"] == 0);
  CHECK(c.event("terminated").is_object());
  // Restart also works after the program ended, and runs the edited file: the breakpoint's line
  // is now a comment, so it moves to the next statement.
  std::ofstream(f.path) << "import sys\nprint(\"args\", sys.argv[1:])\n# x = 1 was here\nz = 3\nprint(\"edited\")\n";
  REQUIRE(c.request("restart", json::object())["success"] == true);
  s = c.event("stopped");
  REQUIRE(s.is_object());
  json frames = c.stackTrace();
  CHECK(frames[0]["line"] == f.line("stop") + 1);
  REQUIRE(c.request("continue", {{"threadId", 1}})["success"] == true);
  REQUIRE(c.event("exited").is_object());
  CHECK(c.output().find("edited") != std::string::npos);
  REQUIRE(c.request("disconnect")["success"] == true);
}

TEST_CASE("cancel interrupts a long evaluate and the session keeps answering", "[dap][lifecycle]") {
  Fixture f = Fixture::fromText("cancel.py", R"(import tensorflow as tf


def slow():
    n = 0
    while True:
        n += 1


x = 41
print(x)  #$ stop
)");
  Client c;
  c.start(f.path, {{f.line("stop"), json()}});
  REQUIRE(c.event("stopped").is_object());
  for (const char* expr : {"slow()", "[tf.reduce_sum(tf.ones([100])) for _ in range(100000000)]"}) {
    const int seq = c.send("evaluate", {{"expression", expr}, {"frameId", 0}, {"context", "repl"}});
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    json r = c.request("cancel", {{"requestId", seq}});
    CHECK(r["success"] == true);
    json ev = c.responseTo(seq);
    CAPTURE(expr);
    CHECK(ev["success"] == false);
    CHECK(ev["message"] == "cancelled");
    json after = c.request("evaluate", {{"expression", "x + 1"}, {"frameId", 0}});
    CAPTURE(after.dump());
    CHECK(after["body"]["result"] == "42");
  }
  // A request still queued behind a running one is answered "cancelled" without running.
  const int slow = c.send("evaluate", {{"expression", "slow()"}, {"frameId", 0}});
  const int queued = c.send("evaluate", {{"expression", "x"}, {"frameId", 0}});
  CHECK(c.request("cancel", {{"requestId", queued}})["success"] == true);
  CHECK(c.request("cancel", {{"requestId", slow}})["success"] == true);
  CHECK(c.responseTo(slow)["message"] == "cancelled");
  json q = c.responseTo(queued);
  CHECK(q["success"] == false);
  CHECK(q["message"] == "cancelled");
  // progressId form and unknown ids: nothing to cancel, still a success.
  CHECK(c.request("cancel", {{"progressId", "p1"}})["success"] == true);
  CHECK(c.request("cancel", {{"requestId", 9999}})["success"] == true);
  // The program itself was not disturbed.
  REQUIRE(c.request("continue", {{"threadId", 1}})["success"] == true);
  CHECK(c.event("exited")["body"]["exitCode"] == 0);
}

TEST_CASE("disconnect while an evaluate hangs interrupts it and ends the session", "[dap][lifecycle]") {
  Fixture f = Fixture::fromText("hang.py", R"(def slow():
    while True:
        pass


print("x")  #$ stop
)");
  Client c;
  c.start(f.path, {{f.line("stop"), json()}});
  REQUIRE(c.event("stopped").is_object());
  const int seq = c.send("evaluate", {{"expression", "slow()"}, {"frameId", 0}});
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  CHECK(c.request("disconnect")["success"] == true);
  CHECK(c.responseTo(seq)["message"] == "cancelled");
}

TEST_CASE("format.hex shows integers in hex", "[dap][lifecycle]") {
  Fixture f = Fixture::fromText("hex.py", R"(import tensorflow as tf
n = 255
t = tf.constant([10, -1], dtype=tf.int32)
print(n)  #$ stop
)");
  Client c;
  c.start(f.path, {{f.line("stop"), json()}});
  REQUIRE(c.event("stopped").is_object());
  CHECK(c.request("evaluate", {{"expression", "n"}, {"frameId", 0}, {"format", {{"hex", true}}}})["body"]["result"] == "0xff");
  CHECK(c.request("evaluate", {{"expression", "n"}, {"frameId", 0}})["body"]["result"] == "255");
  const int globals = c.scopeRef(0, "Globals");
  json vars = c.variables(globals, {{"format", {{"hex", true}}}});
  CHECK(Client::named(vars, "n")["value"] == "0xff");
  json t = c.variables(Client::named(vars, "t")["variablesReference"], {{"filter", "indexed"}, {"format", {{"hex", true}}}});
  REQUIRE(t.size() == 2);
  CHECK(t[0]["value"] == "0xa");
  CHECK(t[1]["value"] == "-0x1");
  REQUIRE(c.request("disconnect")["success"] == true);
}

TEST_CASE("terminate or disconnect in the middle of a run leaves no thread behind", "[dap][lifecycle]") {
  Fixture f = Fixture::fromText("spin.py", R"(import tensorflow as tf
x = tf.placeholder(tf.float32, [64, 64])
y = tf.matmul(x, x)
sess = tf.Session()
while True:
    sess.run(y, feed_dict={x: [[1.0] * 64] * 64})
)");
  auto session = [&](bool viaTerminate, bool restartFirst = false) {
    Client c;
    c.start(f.path);
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    if (restartFirst) {
      REQUIRE(c.request("restart", json::object())["success"] == true);
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
    json g = c.request("tensorlens/graph");
    CHECK(g["success"] == false);
    CHECK(g["message"] == "the program is running; pause it first");
    if (viaTerminate) {
      REQUIRE(c.request("terminate")["success"] == true);
      CHECK(c.event("exited")["body"]["exitCode"] == 130);
    }
    REQUIRE(c.request("disconnect")["success"] == true);
  };
  session(true);  // warms up what lives for the process (the kernels' thread pool)
  const int before = threadCount();
  session(true);
  session(false);
  session(false, true);  // restarted while running, then disconnected
  CHECK(threadCount() == before);
}
