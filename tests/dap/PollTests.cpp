// The debugger's pause and disconnect inside a long comprehension, where no statement starts
// (issue #22 items 1 and 2): the interpreter polls the debugger every ~1,000 steps.
#include <chrono>
#include <thread>

#include "tests/dap/DapTestSupport.h"

using namespace tlens::dap::testing;

TEST_CASE("pause stops inside a long comprehension and continue resumes it", "[dap]") {
  Fixture f = Fixture::fromText("comp.py", R"(x = [i * 2 for i in range(10**9)]
print('done')
)");
  Client c;
  c.start(f.path);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  const auto t0 = std::chrono::steady_clock::now();
  REQUIRE(c.request("pause", {{"threadId", 1}})["success"] == true);
  json s = c.event("stopped", std::chrono::seconds(5));
  REQUIRE(s.is_object());
  CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(2));
  CHECK(s["body"]["reason"] == "pause");
  json st = c.request("stackTrace", {{"threadId", 1}});
  REQUIRE(st["success"] == true);
  CHECK(st["body"]["stackFrames"][0]["line"] == 1);
  REQUIRE(c.request("disconnect")["success"] == true);
}

TEST_CASE("disconnect ends a program inside a long generator expression", "[dap]") {
  Fixture f = Fixture::fromText("gen.py", R"(import itertools
n = sum(i for i in itertools.count() if i < 0)
)");
  Client c;
  c.start(f.path);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  const auto t0 = std::chrono::steady_clock::now();
  REQUIRE(c.request("disconnect")["success"] == true);
  CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(5));
}
