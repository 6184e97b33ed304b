// The analysis budget counts work (interpreter steps), not time: the same file gives the same
// diagnostics idle or next to a heavy CPU load, in `tlens check` (no value collection) and in the
// editor; the wall-clock limit is only a safety net and says so when it is hit.
#include <atomic>
#include <thread>

#include "tests/lsp/LspTestSupport.h"

using namespace tlens::lsp;
using namespace tlens::lsp::test;

namespace {

/// Many cheap top-level statements, then a shape error: the work budget below stops the analysis
/// in the middle of them, before the error.
std::string longProgram() {
  std::string s = "import tensorflow as tf\n";
  for (int i = 0; i < 400; ++i) s += "a" + std::to_string(i) + " = tf.zeros([3, " + std::to_string(i % 7 + 1) + "])\n";
  return s + "bad = tf.matmul(tf.zeros([3, 4]), tf.ones([5, 6]))\n";
}

std::vector<std::string> lines(const Snapshot& snap) {
  std::vector<std::string> out;
  for (const DiagnosticInfo& d : diagnostics(snap)) out.push_back(describe(d));
  return out;
}

std::vector<std::string> check(const std::string& text, uint64_t steps, bool collectValues = false) {
  AnalysisInput in;
  in.uri = "file:///budget.py";
  in.path = "/budget.py";
  in.text = text;
  in.workBudget = steps;
  in.timeBudgetMs = 0;  // no clock at all: only the work budget can stop it
  in.collectValues = collectValues;
  auto snap = analyze(in);
  REQUIRE(snap);
  return lines(*snap);
}

/// Runs `fn` while 2x the machine's cores spin (the load that made the old wall-clock budget cut
/// analyses at a different place).
template <class F>
auto underLoad(F fn) {
  std::atomic<bool> stop{false};
  std::vector<std::thread> spinners;
  unsigned n = std::max(2u, 2 * std::thread::hardware_concurrency());
  for (unsigned i = 0; i < n; ++i)
    spinners.emplace_back([&stop] {
      volatile uint64_t x = 0;
      while (!stop.load(std::memory_order_relaxed)) x = x * 31 + 7;
    });
  auto r = fn();
  stop = true;
  for (auto& t : spinners) t.join();
  return r;
}

}  // namespace

TEST_CASE("the work budget stops the analysis at one statement, idle or under heavy CPU load", "[lsp][budget]") {
  std::string text = longProgram();
  // The import of the tensorflow module is about 1,900 steps; the 400 statements after it (two or
  // three steps each) are more than the rest of this budget.
  constexpr uint64_t kSteps = 2000;
  std::vector<std::string> idle = check(text, kSteps);
  REQUIRE(!idle.empty());
  CHECK(idle.back().find("budget-exceeded") != std::string::npos);
  CHECK(idle.back().find("work budget of 2000 steps") != std::string::npos);
  for (const auto& l : idle) CHECK(l.find("Dimensions must be equal") == std::string::npos);
  std::vector<std::string> loaded = underLoad([&] { return check(text, kSteps); });
  CHECK(loaded == idle);
  // With the default budget the whole file runs and the error is found, idle and loaded alike.
  std::vector<std::string> full = check(text, tlens::interp::InterpOptions::kDefaultWorkBudget);
  REQUIRE(full.size() == 1);
  CHECK(full[0].find("Dimensions must be equal, but are 4 and 5") != std::string::npos);
  CHECK(underLoad([&] { return check(text, tlens::interp::InterpOptions::kDefaultWorkBudget); }) == full);
}

TEST_CASE("tlens check and the editor stop at the same place of the work budget", "[lsp][budget]") {
  // The editor collects values (rendering a Keras model runs Python for its summary table); that
  // work is not counted, so both stop at the same statement.
  std::string text = longProgram();
  text.insert(text.find('\n') + 1, R"(from tensorflow import keras
model = keras.Sequential([keras.layers.Dense(8, input_shape=(4,)), keras.layers.Dense(2)])
m = model
)");
  for (uint64_t steps : {1500u, 2500u, 4000u}) {
    INFO("budget " << steps);
    CHECK(check(text, steps, /*collectValues=*/true) == check(text, steps, /*collectValues=*/false));
  }
}

TEST_CASE("rendering a model seen as a parameter (`self` in its call) is not counted as work", "[lsp][budget]") {
  // Parameters are observed on entry to a call, outside observe(): rendering `self` of a
  // subclassed model ran its summary rows' Python as counted steps, so the editor (and any run
  // collecting values) stopped earlier than a run that does not.
  std::string text = longProgram();
  text.insert(text.find('\n') + 1, R"(from tensorflow import keras
class Net(keras.Model):
    def __init__(self):
        super().__init__()
        self.d = keras.layers.Dense(2)
    def call(self, x):
        return self.d(x)
net = Net()
y1 = net(tf.zeros([3, 4]))
y2 = net(tf.zeros([3, 4]))
y3 = net(tf.zeros([3, 4]))
)");
  // The budgets stop the analysis in the statements after the three calls.
  for (uint64_t steps : {7000u, 7500u, 8000u}) {
    INFO("budget " << steps);
    std::vector<std::string> collected = check(text, steps, /*collectValues=*/true);
    REQUIRE(!collected.empty());
    CHECK(collected.back().find("budget-exceeded") != std::string::npos);
    CHECK(collected == check(text, steps, /*collectValues=*/false));
  }
}

TEST_CASE("the wall-clock safety limit reports itself when it is hit", "[lsp][budget]") {
  std::string text = "import tensorflow as tf\n";
  for (int i = 0; i < 20000; ++i) text += "v" + std::to_string(i) + " = tf.zeros([2, 2])\n";
  AnalysisInput in;
  in.uri = "file:///slow.py";
  in.path = "/slow.py";
  in.text = text;
  in.workBudget = 0;    // unlimited work: only the clock can stop it
  in.timeBudgetMs = 1;  // far below what 20,000 statements take
  in.collectValues = false;
  auto snap = analyze(in);
  REQUIRE(snap);
  bool said = false;
  for (const DiagnosticInfo& d : diagnostics(*snap))
    if (d.code == "time-limit") {
      said = true;
      CHECK(d.message.find("safety time limit") != std::string::npos);
      CHECK(d.message.find("depends on the machine") != std::string::npos);
    }
  CHECK(said);
}

TEST_CASE("an edit's continued analysis stops at the work budget where a run from the beginning does", "[lsp][budget]") {
  // The work count goes on from the paused prefix into its continuation (Interpreter::resume).
  std::string text = longProgram();
  AnalysisInput in;
  in.uri = "file:///budget.py";
  in.path = "/budget.py";
  in.text = text;
  in.workBudget = 2600;  // import tensorflow is about 1,900 steps of it; 58 statements fit, 400 do not
  in.timeBudgetMs = 0;
  auto fresh = analyze(in);
  REQUIRE(fresh);
  uint32_t editAt = static_cast<uint32_t>(text.find("a60 = "));
  auto paused = analyzePrefix(in, editAt);
  REQUIRE(paused);  // the prefix (the import and 58 statements) is inside the budget
  auto continued = analyze(in, nullptr, paused);
  REQUIRE(continued);
  CHECK(lines(*continued) == lines(*fresh));
  bool stopped = false;
  for (const auto& l : lines(*fresh)) stopped |= l.find("budget-exceeded") != std::string::npos;
  CHECK(stopped);
}
