// The debug adapter's last events when a C extension of the embedded Python crashes the process
// (Transport::lastWords, rendered by hand inside the signal handler): valid DAP events in seq
// order whatever the crash report holds. The crash itself is tested end to end by
// tests/dap/e2e/test/pybridge.test.js (the process dies, so not in this one).
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "dap/protocol/Dispatcher.h"

using nlohmann::json;
using namespace tlens;

namespace {

/// Keeps what is written, the normal way and the last-words way.
class CapturingChannel : public protocol::Channel {
 public:
  std::vector<std::string> bodies;
  bool lastWordsWritten = false;
  std::optional<std::string> read() override { return std::nullopt; }
  void write(std::string_view body) override { bodies.emplace_back(body); }
  void close() override {}
  bool writeFromSignalHandler(const std::string_view* b, size_t count) noexcept override {
    for (size_t i = 0; i < count; ++i) bodies.emplace_back(b[i]);
    lastWordsWritten = true;
    return true;
  }
};

}  // namespace

TEST_CASE("last words: output, exited and terminated events, valid JSON whatever the report holds", "[dap][lastwords]") {
  CapturingChannel ch;
  dap::proto::Transport t(ch);
  t.event("output", json{{"category", "stdout"}, {"output", "before\n"}});
  std::string report = "Fatal Python error: Segmentation fault\n\n  File \"/x/crash\\er.py\", line 7 in crash\n";
  report += std::string("\x01\tq\"\xff\xc3\xa9", 7);
  REQUIRE(t.lastWords(report.data(), report.size(), 128 + 11));
  REQUIRE(ch.lastWordsWritten);
  REQUIRE(ch.bodies.size() == 4);
  json out = json::parse(ch.bodies[1]), exited = json::parse(ch.bodies[2]), terminated = json::parse(ch.bodies[3]);
  CHECK(out["seq"] == 2);  // the numbering goes on from the session's
  CHECK(out["type"] == "event");
  CHECK(out["event"] == "output");
  CHECK(out["body"]["category"] == "stderr");
  // Bytes outside ASCII become '?': a report cut in a UTF-8 sequence must not break the message.
  CHECK(out["body"]["output"] == "Fatal Python error: Segmentation fault\n\n  File \"/x/crash\\er.py\", line 7 in crash\n"
                                 "\x01\tq\"???");
  CHECK(exited["seq"] == 3);
  CHECK(exited["event"] == "exited");
  CHECK(exited["body"]["exitCode"] == 139);
  CHECK(terminated["seq"] == 4);
  CHECK(terminated["event"] == "terminated");
}

TEST_CASE("last words: a report past the cap is cut, and the message stays valid JSON", "[dap][lastwords]") {
  CapturingChannel ch;
  dap::proto::Transport t(ch);
  std::string report(100000, '"');
  REQUIRE(t.lastWords(report.data(), report.size(), 134));
  REQUIRE(ch.bodies.size() == 3);
  json out = json::parse(ch.bodies[0]);
  std::string text = out["body"]["output"];
  CHECK(text.size() == 16000);
  CHECK(text.find_first_not_of('"') == std::string::npos);
  CHECK(json::parse(ch.bodies[1])["body"]["exitCode"] == 134);
}

TEST_CASE("last words: a transport that cannot write from a signal handler says so", "[dap][lastwords]") {
  std::string wire;
  auto ch = protocol::memoryChannel("", &wire);
  dap::proto::Transport t(*ch);
  CHECK_FALSE(t.lastWords("x", 1, 139));
  CHECK(wire.empty());
}
