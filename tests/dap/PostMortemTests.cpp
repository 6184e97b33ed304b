// The post-mortem stop reads the uncaught exception's fields (type, message, traceback frames),
// never the diagnostic's wording: a reworded diagnostic gives the same stack and exception.
#include "dap/backend/PostMortem.h"
#include "lang/interp/Interpreter.h"
#include "tests/dap/DapTestSupport.h"

using namespace tlens::dap::testing;
using tlens::dap::FrameInfo;
using tlens::dap::PostMortemStop;
using tlens::dap::postMortemStop;
namespace interp = tlens::interp;

namespace {

// Raised inside a `try` whose handler does not match: no live stop at the raise, so the
// debugger stops post mortem.
const char* kProgram = R"(def inner(v):
    try:
        raise ValueError("called from nowhere: " + str(v))  #$ raise
    except KeyError:
        pass


def outer(v):
    return inner(v) + 1  #$ inner


outer(3)  #$ outer
)";

interp::Diagnostic uncaught(interp::Interpreter& in) {
  for (const interp::Diagnostic& d : in.diagnostics())
    if (d.code == "uncaught-exception") return d;
  FAIL("no uncaught-exception diagnostic");
  return {};
}

void checkStop(const PostMortemStop& pm, const Fixture& f) {
  REQUIRE(pm.traceback.size() == 3);
  CHECK(pm.traceback[0].name == "<raised here>");
  CHECK(pm.traceback[0].line == f.line("raise"));
  CHECK(pm.traceback[0].column == 15);  // the raised expression
  CHECK(pm.traceback[1].name == "outer");
  CHECK(pm.traceback[1].line == f.line("inner"));
  CHECK(pm.traceback[2].name == "<module>");
  CHECK(pm.traceback[2].line == f.line("outer"));
  for (const FrameInfo& fr : pm.traceback) {
    CHECK(fr.kind == FrameInfo::Kind::Traceback);
    CHECK(fr.path == f.path);
  }
  CHECK(pm.filter == "uncaught");
  CHECK(pm.exception.typeName == "ValueError");
  CHECK(pm.exception.description == "ValueError: called from nowhere: 3");
  CHECK(pm.stop.reason == tlens::dap::StopReason::Exception);
  CHECK(pm.stop.description == "Uncaught ValueError");
  CHECK(pm.stop.text == "ValueError: called from nowhere: 3");
}

}  // namespace

TEST_CASE("post mortem: the stack and the exception come from the diagnostic's fields", "[dap][postmortem]") {
  Fixture f = Fixture::fromText("pm.py", kProgram);
  interp::Interpreter in;
  CHECK(in.runSource(f.path, kProgram) == interp::Interpreter::kExitError);
  interp::Diagnostic d = uncaught(in);
  CHECK(d.exception.type == "ValueError");
  CHECK(d.exception.message == "called from nowhere: 3");
  REQUIRE(d.exception.traceback.size() == 3);
  CHECK(d.exception.traceback.back().function == "inner");

  std::optional<PostMortemStop> pm = postMortemStop(d);
  REQUIRE(pm);
  checkStop(*pm, f);

  // Reworded: another message, related locations that say something else (or nothing). A reader
  // of the text would now find another type and other frame names.
  d.message = "Fehler: ValueError ist aufgetreten";
  for (interp::RelatedLocation& r : d.related) r.message = "aufgerufen von " + r.message;
  pm = postMortemStop(d);
  REQUIRE(pm);
  checkStop(*pm, f);
  d.related.clear();
  pm = postMortemStop(d);
  REQUIRE(pm);
  checkStop(*pm, f);
}

TEST_CASE("post mortem: a diagnostic without an exception makes no stop", "[dap][postmortem]") {
  interp::Diagnostic d;
  d.code = "uncaught-exception";
  d.message = "ValueError: looks like one";
  d.related.push_back({"a.py", {1, 0}, {1, 0}, "called from f"});
  CHECK_FALSE(postMortemStop(d));
}

TEST_CASE("post mortem: filters follow the exception's type and message", "[dap][postmortem]") {
  using tlens::dap::exceptionFilter;
  CHECK(exceptionFilter({"AssertionError", "", {}}) == "assert");
  CHECK(exceptionFilter({"InvalidArgumentError", "assertion failed: [x > 0]", {}}) == "assert");
  CHECK(exceptionFilter({"ValueError", "Dimensions must be equal, but are 3 and 4", {}}) == "shape_error");
  CHECK(exceptionFilter({"TypeError", "expected dtype float32", {}}) == "shape_error");
  CHECK(exceptionFilter({"KeyError", "'a'", {}}) == "uncaught");
}

TEST_CASE("post mortem over the protocol: the traceback's frames and the exception's fields", "[dap][postmortem]") {
  Fixture f = Fixture::fromText("pm_dap.py", kProgram);
  Client c;
  c.start(f.path, {}, json::object(), {"uncaught"});
  json s = c.event("stopped");
  REQUIRE(s.is_object());
  CHECK(s["body"]["reason"] == "exception");
  json frames = c.stackTrace();
  REQUIRE(frames.size() >= 3);
  CHECK(frames[0]["name"] == "<raised here>");
  CHECK(frames[0]["line"] == f.line("raise"));
  CHECK(frames[1]["name"] == "outer");
  CHECK(frames[1]["line"] == f.line("inner"));
  CHECK(frames[2]["line"] == f.line("outer"));
  json info = c.request("exceptionInfo", {{"threadId", 1}});
  CHECK(info["body"]["exceptionId"] == "uncaught");
  CHECK(info["body"]["description"] == "ValueError: called from nowhere: 3");
  REQUIRE(c.request("continue", {{"threadId", 1}})["success"] == true);
  CHECK(c.event("exited")["body"]["exitCode"] == 1);
}
