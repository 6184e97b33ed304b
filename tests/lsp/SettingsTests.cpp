// The client's settings over the protocol: initializationOptions and
// workspace/didChangeConfiguration (flat keys as Neovim and Emacs send them, the VS Code
// `tensorlens` section), and bad values, which are warnings and never errors.
#include <string>

#include <nlohmann/json.hpp>

#include "lsp/protocol/Json.h"
#include "lsp/protocol/LspServer.h"
#include "tests/lsp/LspTestSupport.h"

using namespace tlens::lsp;
using namespace tlens::lsp::test;
using nlohmann::json;

namespace {

/// A shape error after 600 statements: tens of milliseconds of analysis, far inside the
/// sessions' 2 s budget; a 1 ms budget cannot reach it.
std::string slowProgram() {
  std::string s = "import tensorflow as tf\n";
  for (int i = 0; i < 600; ++i) s += "a" + std::to_string(i) + " = tf.matmul(tf.zeros([3, 4]), tf.ones([4, 5]))\n";
  return s + "bad = tf.matmul(tf.zeros([3, 4]), tf.ones([5, 6]))\n";
}

bool hasCode(const json& published, const std::string& code) {
  for (const auto& d : published["diagnostics"])
    if (d.value("code", "") == code) return true;
  return false;
}

bool hasShapeError(const json& published) {
  for (const auto& d : published["diagnostics"])
    if (d["message"].get<std::string>().find("Dimensions must be equal, but are 4 and 5") != std::string::npos) return true;
  return false;
}

json initializeWith(ProtocolSession& s, json options) {
  json r = s.request("initialize", {{"processId", nullptr}, {"rootUri", nullptr}, {"capabilities", json::object()},
                                    {"initializationOptions", std::move(options)}});
  s.notify("initialized", json::object());
  return r;
}

json hintsFor(ProtocolSession& s, const std::string& uri) {
  return s.request("textDocument/inlayHint", {{"textDocument", {{"uri", uri}}},
                                              {"range", {{"start", {{"line", 0}, {"character", 0}}},
                                                         {"end", {{"line", 9}, {"character", 0}}}}}});
}

const char* kHints = "import tensorflow as tf\nx = tf.zeros([3, 4])\ny = tf.matmul(x, tf.ones([4, 5]))\n";

const char* kPlaced = R"(import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 4])
y = tf.matmul(x, tf.zeros([4, 2]))
)";

std::string hoverText(ProtocolSession& s, const std::string& uri, int line, int character) {
  json r = s.request("textDocument/hover", {{"textDocument", {{"uri", uri}}}, {"position", {{"line", line}, {"character", character}}}});
  if (!r.contains("result") || !r["result"].is_object()) return "";
  return r["result"]["contents"]["value"].get<std::string>();
}

}  // namespace

TEST_CASE("settings: both spellings are read, wrong types and ranges become warnings", "[lsp][settings]") {
  SettingsChange flat = parseSettings({{"analysisBudgetMs", 800}, {"inlayHints", false}, {"virtualGpus", 2}});
  CHECK(flat.analysisBudgetMs == 800);
  CHECK(flat.inlayHints == false);
  CHECK(flat.virtualGpus == 2);
  CHECK(flat.warnings.empty());
  // What vscode-languageclient sends for synchronize.configurationSection "tensorlens".
  SettingsChange section = parseSettings(
      {{"tensorlens", {{"path", "tlens"}, {"analysis", {{"budgetMs", 300}}}, {"inlayHints", {{"enabled", true}}}, {"virtualGpus", 0}}}});
  CHECK(section.analysisBudgetMs == 300);
  CHECK(section.inlayHints == true);
  CHECK(section.virtualGpus == -1);  // 0: the machine's own devices
  CHECK(section.warnings.empty());
  SettingsChange bad = parseSettings({{"analysisBudgetMs", "fast"}, {"inlayHints", 1}, {"virtualGpus", -1}});
  CHECK(bad.empty());
  REQUIRE(bad.warnings.size() == 3);
  CHECK(bad.warnings[0].find("analysisBudgetMs = \"fast\"") != std::string::npos);
  CHECK(bad.warnings[1].find("inlayHints = 1: it must be true or false") != std::string::npos);
  CHECK(bad.warnings[2].find("virtualGpus = -1: it must be from 0 to 64") != std::string::npos);
  CHECK(parseSettings({{"analysisBudgetMs", -5}}).warnings.size() == 1);
  CHECK(parseSettings({{"analysisBudgetMs", 2.5}}).warnings.size() == 1);
  CHECK(parseSettings({{"analysisBudgetMs", 1000.0}}).analysisBudgetMs == 1000);
  CHECK(parseSettings({{"virtualGpus", 65}}).warnings.size() == 1);
  CHECK(parseSettings(nullptr).warnings.empty());  // a client without settings for us
  CHECK(parseSettings({{"tensorlens", 3}}).warnings.size() == 1);
  CHECK(parseSettings({{"somethingElse", true}}).warnings.empty());  // unknown keys: ignored
}

TEST_CASE("initializationOptions.analysisBudgetMs is the analysis budget", "[lsp][settings]") {
  ProtocolSession cut;
  initializeWith(cut, {{"analysisBudgetMs", 1}});
  cut.open("file:///slow.py", slowProgram());
  json d = cut.diagnostics("file:///slow.py", 1);
  CHECK(hasCode(d, "time-limit"));  // the setting is the wall-clock safety limit; it says so
  CHECK_FALSE(hasShapeError(d));
  // The same file within the (2 s) budget reaches the error: the check above is not vacuous.
  ProtocolSession whole;
  initializeWith(whole, {{"analysisBudgetMs", 20000}});
  whole.open("file:///slow.py", slowProgram());
  json full = whole.diagnostics("file:///slow.py", 1);
  CHECK(hasShapeError(full));
  CHECK_FALSE(hasCode(full, "time-limit"));
}

TEST_CASE("workspace/didChangeConfiguration changes the budget and re-analyses open documents", "[lsp][settings]") {
  ProtocolSession s;
  s.initialize();
  s.open("file:///slow.py", slowProgram());
  REQUIRE(hasShapeError(s.diagnostics("file:///slow.py", 1)));
  size_t before = s.allSent("textDocument/publishDiagnostics").size();
  s.notify("workspace/didChangeConfiguration", {{"settings", {{"tensorlens", {{"analysisBudgetMs", 1}}}}}});
  // No edit: the new budget alone re-analyses the open document.
  json again = s.sent("textDocument/publishDiagnostics", static_cast<int>(before));
  REQUIRE(again.is_object());
  CHECK(hasCode(again["params"], "time-limit"));
  // The VS Code section's spelling, back to a generous budget.
  before = s.allSent("textDocument/publishDiagnostics").size();
  s.notify("workspace/didChangeConfiguration",
           {{"settings", {{"tensorlens", {{"analysis", {{"budgetMs", 20000}}}, {"inlayHints", {{"enabled", true}}}}}}}});
  json back = s.sent("textDocument/publishDiagnostics", static_cast<int>(before));
  REQUIRE(back.is_object());
  CHECK(hasShapeError(back["params"]));
}

TEST_CASE("inlayHints: false answers no hints, at start-up and after a change", "[lsp][settings]") {
  ProtocolSession s;
  initializeWith(s, {{"inlayHints", false}});
  s.open("file:///h.py", kHints);
  s.diagnostics("file:///h.py", 1);
  json off = hintsFor(s, "file:///h.py");
  REQUIRE(off.contains("result"));
  CHECK(off["result"].empty());
  s.notify("workspace/didChangeConfiguration", {{"settings", {{"tensorlens", {{"inlayHints", true}}}}}});
  json on = hintsFor(s, "file:///h.py");
  REQUIRE(on.contains("result"));
  CHECK(on["result"].size() >= 2);
  s.notify("workspace/didChangeConfiguration", {{"settings", {{"tensorlens", {{"inlayHints", {{"enabled", false}}}}}}}});
  CHECK(hintsFor(s, "file:///h.py")["result"].empty());
  // An unknown document is still an error, hints or not.
  CHECK(hintsFor(s, "file:///nope.py")["error"]["code"] == -32602);
}

TEST_CASE("virtualGpus: hovers show placement as on a machine with that many GPUs", "[lsp][settings][devices]") {
  ProtocolSession s;
  initializeWith(s, {{"virtualGpus", 2}});
  s.open("file:///g.py", kPlaced);
  s.diagnostics("file:///g.py", 1);
  CHECK(hoverText(s, "file:///g.py", 2, 0).find("/gpu:0") != std::string::npos);
  size_t before = s.allSent("textDocument/publishDiagnostics").size();
  s.notify("workspace/didChangeConfiguration", {{"settings", {{"tensorlens", {{"virtualGpus", 0}}}}}});
  REQUIRE(s.sent("textDocument/publishDiagnostics", static_cast<int>(before)).is_object());
  // 0 is the devices the server knows without asking the driver (it loads no CUDA library,
  // docs/architecture.md): the CPU, on any machine.
  std::string own = hoverText(s, "file:///g.py", 2, 0);
  CHECK(own.find("/cpu:0") != std::string::npos);
  CHECK(own.find("/gpu:") == std::string::npos);
}

TEST_CASE("bad settings are logged as warnings, ignored, and the server goes on", "[lsp][settings][robustness]") {
  ProtocolSession s;
  json r = initializeWith(s, {{"analysisBudgetMs", -3}, {"inlayHints", "no"}, {"virtualGpus", "two"}});
  REQUIRE(r.contains("result"));
  json first = s.sent("window/logMessage", 0);
  REQUIRE(first.is_object());
  CHECK(first["params"]["type"] == 2);
  CHECK(first["params"]["message"].get<std::string>().find("analysisBudgetMs = -3") != std::string::npos);
  REQUIRE(s.sent("window/logMessage", 2).is_object());
  s.notify("workspace/didChangeConfiguration", {{"settings", {{"tensorlens", {{"analysisBudgetMs", nullptr}}}}}});
  json later = s.sent("window/logMessage", 3);
  REQUIRE(later.is_object());
  CHECK(later["params"]["message"].get<std::string>().find("analysisBudgetMs = null") != std::string::npos);
  s.notify("workspace/didChangeConfiguration", json::object());      // no settings at all
  s.notify("workspace/didChangeConfiguration", {{"settings", 42}});  // not an object
  // The defaults still hold: hints on, the (2 s) budget reaches the error.
  s.open("file:///slow.py", slowProgram());
  CHECK(hasShapeError(s.diagnostics("file:///slow.py", 1)));
  s.open("file:///h.py", kHints);
  CHECK(hintsFor(s, "file:///h.py")["result"].size() >= 2);
  CHECK(s.request("shutdown", nullptr).contains("result"));
}
