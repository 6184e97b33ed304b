// Continued analyses (Analyzer.h): analysing an edited document by continuing a paused run of an
// earlier version must publish exactly what a run from the beginning publishes: the same
// diagnostics (features' view, lints included), the same values at the same spans (hovers,
// inlay hints), the same globals (completion). Checked on every example program and on a
// generated TF-style file, at several edit places each; and through the scheduler, whose pauser
// thread prepares the paused runs.
#include <filesystem>
#include <fstream>
#include <future>
#include <regex>

#include "bench/TfStyleFile.h"
#include "lsp/server/Scheduler.h"
#include "tests/ExampleFiles.h"
#include "tests/lsp/LspTestSupport.h"

using namespace tlens;
using namespace tlens::lsp;
using namespace tlens::lsp::test;

namespace {

/// The work budget of the analyses below (0: the default).
uint64_t gWorkBudget = 0;

AnalysisInput inputOf(const std::string& path, const std::string& text) {
  AnalysisInput in;
  if (gWorkBudget) in.workBudget = gWorkBudget;
  in.uri = "file://" + path;
  in.path = path;
  in.text = text;
  in.timeBudgetMs = testBudgetMs(5000);  // a loaded test machine must not cut analyses short
  return in;
}

/// The diagnostics as the server publishes them (features' view, lints included), as text.
std::string renderDiagnostics(const Snapshot& s) {
  std::ostringstream o;
  for (const DiagnosticInfo& d : diagnostics(s)) o << describe(d) << "\n";
  return o.str();
}

/// Everything a feature can read from a snapshot, as text.
std::string render(const Snapshot& s) {
  std::ostringstream o;
  o << renderDiagnostics(s);
  for (const ValueInfo& v : s.values) {
    o << v.start << "-" << v.end << " " << static_cast<int>(v.kind) << " " << v.type() << " " << v.value() << " " << v.device()
      << " " << v.node() << " " << v.op() << " " << v.signature() << " " << v.doc() << " " << v.placementNote();
    for (const auto& p : v.params()) o << " ," << p;
    for (const auto& row : v.summaryRows()) o << " " << row.size() << ":" << (row.empty() ? "" : row.back());
    for (const auto& t : v.types()) o << " |" << t;
    o << "\n";
  }
  for (const auto& [name, v] : s.globals) o << name << ": " << v.type() << " " << v.value() << "\n";
  return o.str();
}

/// `text` with the first integer literal of top-level statement `index` changed (or, when it
/// has none, with a new statement inserted before it), and where the edit is.
std::pair<std::string, uint32_t> editStatement(const std::string& text, const lang::SourceFile& f, size_t index) {
  TSNode stmt = ts_node_named_child(f.root(), static_cast<uint32_t>(index));
  uint32_t a = ts_node_start_byte(stmt), b = ts_node_end_byte(stmt);
  std::string body = text.substr(a, b - a);
  std::smatch m;
  if (std::regex_search(body, m, std::regex("[0-9]+"))) {
    uint32_t at = a + static_cast<uint32_t>(m.position(0));
    std::string edited = text;
    edited.insert(at, "1");  // 784 -> 1784, 0 -> 10, ...
    return {edited, at};
  }
  std::string edited = text;
  edited.insert(a, "inserted_by_test = [1, 2, 3]\n");
  return {edited, a};
}

/// For statements spread over the file: pause a run of `text` before the statement's line,
/// continue it with the edited text, and compare with a run from the beginning.
void checkContinuations(const std::string& path, const std::string& text, int* continued) {
  lang::SourceFile f(path, text);
  uint32_t n = ts_node_named_child_count(f.root());
  for (uint32_t index : {n / 3, n / 2, (2 * n) / 3, n > 0 ? n - 1 : 0}) {
    if (index == 0 || index >= n) continue;
    auto [edited, at] = editStatement(text, f, index);
    CAPTURE(path, index, at);
    auto paused = analyzePrefix(inputOf(path, text), at);
    AnalysisInput in = inputOf(path, edited);
    // The diagnostics published before the values are rendered are the final ones.
    std::string earlyPaused, earlyFresh;
    auto viaPause = analyze(in, nullptr, paused, [&](const Snapshot& s) { earlyPaused = renderDiagnostics(s); });
    auto fresh = analyze(in, nullptr, nullptr, [&](const Snapshot& s) { earlyFresh = renderDiagnostics(s); });
    REQUIRE(viaPause);
    REQUIRE(fresh);
    CHECK(earlyPaused == renderDiagnostics(*viaPause));
    CHECK(earlyFresh == renderDiagnostics(*fresh));
    if (viaPause->reusedStatements > 0) ++*continued;
    CHECK(fresh->reusedStatements == 0);
    CHECK(render(*viaPause) == render(*fresh));
  }
}

/// What a scheduler published (the diagnostics of an analysis, before its values are rendered).
struct Publication {
  std::string uri;
  int version = 0;
  size_t reusedStatements = 0;
  std::shared_ptr<const lang::SourceFile> file;
  std::string diagnostics;  ///< renderDiagnostics()
};

/// The publications of a scheduler, in order, for tests to wait on.
struct Published {
  std::mutex mu;
  std::condition_variable cv;
  std::vector<Publication> seen;
  std::function<void(const Snapshot&)> listener() {
    return [this](const Snapshot& snap) {
      Publication p{snap.uri, snap.version, snap.reusedStatements, snap.file, renderDiagnostics(snap)};
      std::lock_guard<std::mutex> l(mu);
      seen.push_back(std::move(p));
      cv.notify_all();
    };
  }
  size_t count() {
    std::lock_guard<std::mutex> l(mu);
    return seen.size();
  }
  /// The last publication that `match`es among those from the `from`-th on, once there is one
  /// (REQUIREd within 60 s).
  Publication waitFor(const std::function<bool(const Publication&)>& match, size_t from = 0) {
    const Publication* found = nullptr;
    std::unique_lock<std::mutex> l(mu);
    REQUIRE(cv.wait_for(l, std::chrono::seconds(60), [&] {
      for (size_t i = from; i < seen.size(); ++i)
        if (match(seen[i])) found = &seen[i];
      return found != nullptr;
    }));
    return *found;
  }
  Publication waitFor(const std::string& uri, int version) {
    return waitFor([&](const Publication& p) { return p.uri == uri && p.version == version; });
  }
};

/// The snapshot of the document's latest text, values and all (what hovers read).
std::shared_ptr<const Snapshot> latest(Scheduler& s, const std::string& uri) {
  std::promise<std::shared_ptr<const Snapshot>> promise;
  auto future = promise.get_future();
  s.read(uri, [&](Expected<std::shared_ptr<const Snapshot>> snap) { promise.set_value(snap ? *snap : nullptr); });
  REQUIRE(future.wait_for(std::chrono::seconds(60)) == std::future_status::ready);
  return future.get();
}

SchedulerOptions schedulerOptions() {
  SchedulerOptions o;
  o.threads = 1;  // a worker and the background thread, as in the server
  o.debounceMs = 0;
  o.timeBudgetMs = testBudgetMs(5000);
  return o;
}

}  // namespace

TEST_CASE("resume: a continued analysis publishes what a full one does, on every example", "[lsp][resume]") {
  int continued = 0, files = 0;
  for (const auto& path : tlens::test::examplePaths()) {
    checkContinuations(path.string(), tlens::test::readFile(path), &continued);
    ++files;
  }
  CHECK(files >= 8);
  CHECK(continued >= files);  // most edits continue a paused run (not the first statements)
}

TEST_CASE("resume: a continued analysis of a generated TF-style file", "[lsp][resume]") {
  int continued = 0;
  checkContinuations("/big.py", bench::tfStyleFile(400), &continued);
  CHECK(continued >= 3);
}

TEST_CASE("resume: a prefix stopped by the work budget continues and publishes what a full run does", "[lsp][resume]") {
  // The statements after the stop run in neither; the continued run only makes their names
  // unknown and analyses the uncalled functions, as the full run does after its stop.
  struct Restore {
    ~Restore() { gWorkBudget = 0; }
  } restore;
  for (uint64_t budget : {300, 1500, 3500}) {  // the file takes about 5,100 steps
    gWorkBudget = budget;
    CAPTURE(budget);
    std::string text = bench::tfStyleFile(400);
    auto full = analyze(inputOf("/big.py", text));
    REQUIRE(full);
    CHECK(renderDiagnostics(*full).find("budget-exceeded") != std::string::npos);
    int continued = 0;
    checkContinuations("/big.py", text, &continued);
    CHECK(continued >= 3);
    int files = 0;
    for (const auto& path : tlens::test::examplePaths()) {
      checkContinuations(path.string(), tlens::test::readFile(path), &continued);
      ++files;
    }
    CHECK(files >= 8);
  }
}

namespace {

/// render() and the module facts completion and the unknown-attribute lint read.
std::string renderAll(const Snapshot& s) {
  std::ostringstream o;
  o << render(s);
  for (const auto& [name, members] : s.moduleMembers) {
    o << name << ":";
    for (const Member& m : *members) o << " " << m.name << "/" << static_cast<int>(m.kind) << "/" << m.detail;
    o << "\n";
  }
  for (const auto& p : s.modulePaths) o << p << " ";
  for (const auto& [a, b] : s.moduleNames) o << a << "=" << b << " ";
  o << s.graphStyle << "\n";
  return o.str();
}

/// `text` with the first number that is not part of a name changed (784 -> 1784), in top-level
/// statement `index` or the first one after it that has one; `text` when none has.
std::string editNumber(const std::string& text, const lang::SourceFile& f, size_t index) {
  for (uint32_t i = static_cast<uint32_t>(index); i < ts_node_named_child_count(f.root()); ++i) {
    TSNode stmt = ts_node_named_child(f.root(), i);
    uint32_t a = ts_node_start_byte(stmt), b = ts_node_end_byte(stmt);
    std::string body = text.substr(a, b - a);
    std::smatch m;
    if (!std::regex_search(body, m, std::regex("\\b[0-9]+\\b"))) continue;
    std::string edited = text;
    edited.insert(a + static_cast<uint32_t>(m.position(0)), "1");
    return edited;
  }
  return text;
}

/// Analyses `edited` with `base` and from the beginning: the same snapshot either way. True when
/// `base` was taken as it is (nothing ran).
bool checkReuse(const std::string& path, const std::string& edited, const std::shared_ptr<const Snapshot>& base,
                std::shared_ptr<const Snapshot>* out = nullptr) {
  AnalysisInput in = inputOf(path, edited);
  in.previous = base->file;
  std::string early;
  auto viaBase = analyze(in, nullptr, nullptr, [&](const Snapshot& s) { early = renderDiagnostics(s); }, base.get());
  auto fresh = analyze(inputOf(path, edited));
  REQUIRE(viaBase);
  REQUIRE(fresh);
  CHECK(early == renderDiagnostics(*viaBase));
  CHECK(viaBase->file->text() == edited);
  CHECK(renderAll(*viaBase) == renderAll(*fresh));
  CHECK((viaBase->stopped != nullptr) == (fresh->stopped != nullptr));
  if (out) *out = viaBase;
  return viaBase->pool == base->pool;
}

}  // namespace

TEST_CASE("resume: an edit after the place where the run stopped at the work budget takes its snapshot as it is", "[lsp][resume]") {
  struct Restore {
    ~Restore() { gWorkBudget = 0; }
  } restore;
  std::string text = bench::tfStyleFile(400);  // about 5,100 steps
  lang::SourceFile f("/big.py", text);
  uint32_t n = ts_node_named_child_count(f.root());
  for (uint64_t budget : {300, 1500, 3500}) {
    gWorkBudget = budget;
    CAPTURE(budget);
    auto full = analyze(inputOf("/big.py", text));
    REQUIRE(full);
    REQUIRE(full->stopped);
    int reused = 0, ran = 0;
    for (uint32_t index : {n / 10, n / 3, n / 2, (2 * n) / 3, n - 3}) {
      CAPTURE(index);
      std::string edited = editNumber(text, f, index);
      REQUIRE(edited != text);
      std::shared_ptr<const Snapshot> snap;
      bool r = checkReuse("/big.py", edited, full, &snap);
      (r ? reused : ran) += 1;
      if (!r) continue;
      // And from that snapshot on: the edit undone, then another one.
      CHECK(checkReuse("/big.py", text, snap));
      CHECK(checkReuse("/big.py", editNumber(edited, f, n - 3), snap));
    }
    CHECK(reused >= 2);  // the edits after the stop
    if (budget == 3500) CHECK(ran >= 1);  // an edit before the stop runs
    // After the stop: a statement that binds another name, a syntax error, another budget. Each
    // runs, and gives what a run gives.
    uint32_t last = ts_node_start_byte(ts_node_named_child(f.root(), n - 1));
    CHECK_FALSE(checkReuse("/big.py", text.substr(0, last) + "another_name = 3\n" + text.substr(last), full));
    CHECK_FALSE(checkReuse("/big.py", text.substr(0, last) + "x = (\n" + text.substr(last), full));
    gWorkBudget = budget + 1;
    CHECK_FALSE(checkReuse("/big.py", text + "x = 1\n", full));
    gWorkBudget = budget;
    // The same name bound again after the stop is fine.
    CHECK(checkReuse("/big.py", text.substr(0, last) + "x = 3\nx = 4\n" + text.substr(last),
                     analyze(inputOf("/big.py", text.substr(0, last) + "x = 5\nx = 6\n" + text.substr(last)))));
  }
  // On the examples, with budgets that stop them early.
  for (uint64_t budget : {200, 1000}) {
    gWorkBudget = budget;
    for (const auto& path : tlens::test::examplePaths()) {
      std::string t = tlens::test::readFile(path);
      auto full = analyze(inputOf(path.string(), t));
      REQUIRE(full);
      if (!full->stopped) continue;
      CAPTURE(path.string(), budget);
      lang::SourceFile g(path.string(), t);
      uint32_t m = ts_node_named_child_count(g.root());
      for (uint32_t index : {m / 2, m - 1}) checkReuse(path.string(), editNumber(t, g, index), full);
      // TF1 names after the stop make a TF2 program's run another one.
      if (!full->graphStyle) CHECK_FALSE(checkReuse(path.string(), t + "\ntf.Session()\n", full));
    }
  }
}

TEST_CASE("resume: a big first analysis run while the rest of the text parses gives the same snapshot", "[lsp][resume]") {
  std::string text = bench::tfStyleFile(2500);
  REQUIRE(text.size() > 64 * 1024);
  AnalysisInput in = inputOf("/big.py", text);
  auto pipelined = analyze(in);
  in.pipeline = false;
  auto plain = analyze(in);
  REQUIRE(pipelined);
  REQUIRE(plain);
  CHECK(pipelined->file->text() == text);
  CHECK(render(*pipelined) == render(*plain));
  // A text whose cut falls inside a triple-quoted string still gives the same result.
  std::string tricky = text.substr(0, text.size() / 3) + "doc = \"\"\"\n" + std::string(text.size() / 3, 'x') +
                       "\nx = 1\n\"\"\"\n" + text.substr(text.size() / 3);
  tricky.replace(tricky.find('\n', text.size() / 3 + 8), 1, "\n");  // keep lines
  in = inputOf("/big.py", tricky);
  auto a = analyze(in);
  in.pipeline = false;
  auto b = analyze(in);
  REQUIRE(a);
  REQUIRE(b);
  std::string ra = render(*a), rb = render(*b);
  if (ra != rb) {
    std::ofstream("/tmp/ra.txt") << ra;
    std::ofstream("/tmp/rb.txt") << rb;
  }
  CHECK(ra == rb);
  // The first third stops at the work budget: the run continues from the cut (it stops there).
  in = inputOf("/big.py", text);
  in.workBudget = 3000;
  auto stopped = analyze(in);
  in.pipeline = false;
  auto stoppedPlain = analyze(in);
  REQUIRE(stopped);
  REQUIRE(stoppedPlain);
  CHECK(renderDiagnostics(*stoppedPlain).find("budget-exceeded") != std::string::npos);
  CHECK(render(*stopped) == render(*stoppedPlain));
}

TEST_CASE("resume: a paused run that does not fit the new text is not continued", "[lsp][resume]") {
  std::string text = "import tensorflow as tf\nx = tf.zeros([2, 3])\ny = tf.zeros([3, 4])\nz = tf.matmul(x, y)\nw = z + 1\n";
  uint32_t at = static_cast<uint32_t>(text.find("w = z"));
  // An edit before the paused place, a change of TF style, another path, other settings.
  std::string earlier = text;
  earlier.replace(earlier.find("[2, 3]"), 6, "[2, 4]");
  std::string tf1 = text + "p = tf.placeholder(tf.float32, [None, 3])\n";
  for (const auto& [name, edited, path, budget] :
       std::vector<std::tuple<std::string, std::string, std::string, int>>{
           {"edit before the pause", earlier, "/m.py", testBudgetMs(5000)},
           {"TF style changes", tf1, "/m.py", testBudgetMs(5000)},
           {"another file", text, "/other.py", testBudgetMs(5000)},
           {"another time budget", text, "/m.py", testBudgetMs(5000) - 1000},
       }) {
    CAPTURE(name);
    auto paused = analyzePrefix(inputOf("/m.py", text), at);
    REQUIRE(paused);
    AnalysisInput in = inputOf(path, edited);
    in.timeBudgetMs = budget;
    auto snap = analyze(in, nullptr, paused);
    REQUIRE(snap);
    CHECK(snap->reusedStatements == 0);
    CHECK(render(*snap) == render(*analyze(in)));
  }
  // And one that fits is continued.
  std::string later = text;
  later.replace(later.find("z + 1"), 5, "z + 2");
  auto paused = analyzePrefix(inputOf("/m.py", text), at);
  auto snap = analyze(inputOf("/m.py", later), nullptr, paused);
  REQUIRE(snap);
  CHECK(snap->reusedStatements == 3);  // import, x, y (z, the statement before the edit, runs again)
}

TEST_CASE("resume: the scheduler continues paused runs while a document is edited", "[lsp][resume]") {
  Published pub;
  Scheduler s(schedulerOptions(), pub.listener());
  std::string text = bench::tfStyleFile(300);
  auto waitFor = [&](int version) { return pub.waitFor("file:///w.py", version); };
  s.update("file:///w.py", "/w.py", text, 1);
  CHECK(waitFor(1).reusedStatements == 0);
  size_t at = text.find("[None, 784]", text.size() / 2) + 7;
  int reused = 0;
  for (int v = 2; v <= 6; ++v) {
    text.replace(at, 3, v % 2 == 0 ? "785" : "784");
    s.update("file:///w.py", "/w.py", text, v);
    Publication p = waitFor(v);
    if (p.reusedStatements > 0) ++reused;
    auto fresh = analyze(inputOf("/w.py", text));
    CHECK(p.diagnostics == renderDiagnostics(*fresh));
    auto snap = latest(s, "file:///w.py");
    REQUIRE(snap);
    CHECK(snap->version == v);
    CHECK(render(*snap) == render(*fresh));
  }
  CHECK(reused >= 3);  // the first edit runs from the beginning; the next ones continue
}

TEST_CASE("resume: the scheduler publishes an edit after the work budget's stop without running it", "[lsp][resume]") {
  // 2^18 calls: far over the default work budget, which stops the run in `b = f18(1)`.
  std::string text = "import tensorflow as tf\n\ndef f0(x):\n    return x + 1\n\n";
  for (int k = 1; k <= 18; ++k)
    text += "def f" + std::to_string(k) + "(x):\n    return f" + std::to_string(k - 1) + "(x) + f" + std::to_string(k - 1) + "(x)\n\n";
  text += "a = tf.zeros([2, 3])\nb = f18(1)\nc = tf.matmul(a, tf.zeros([4, 5]))\nd = 7\ne = d + 1\n";
  Published pub;
  Scheduler s(schedulerOptions(), pub.listener());
  s.update("file:///s.py", "/s.py", text, 1);
  Publication first = pub.waitFor("file:///s.py", 1);
  CHECK(first.diagnostics.find("budget-exceeded") != std::string::npos);
  int reused = 0;
  for (int v = 2; v <= 5; ++v) {
    std::string t = text;
    if (v % 2 == 0) t.replace(t.find("d = 7"), 5, "d = " + std::to_string(v));
    else t.replace(t.find("d + 1"), 5, "d + " + std::to_string(v));
    s.update("file:///s.py", "/s.py", t, v);
    Publication p = pub.waitFor("file:///s.py", v);
    if (p.reusedStatements > 0) ++reused;
    auto fresh = analyze(inputOf("/s.py", t));
    CHECK(p.diagnostics == renderDiagnostics(*fresh));
    auto snap = latest(s, "file:///s.py");
    REQUIRE(snap);
    CHECK(snap->version == v);
    CHECK(snap->file->text() == t);
    CHECK(render(*snap) == render(*fresh));
  }
  CHECK(reused == 4);
  // An edit in the statement right after the stop runs (it could change how that one parses).
  std::string t = text;
  t.replace(t.find("[4, 5]"), 6, "[3, 5]");
  s.update("file:///s.py", "/s.py", t, 6);
  Publication p = pub.waitFor("file:///s.py", 6);
  CHECK(p.reusedStatements == 0);
  CHECK(p.diagnostics == renderDiagnostics(*analyze(inputOf("/s.py", t))));
}

TEST_CASE("resume: edits before the paused place, closing and reopening while a run is paused", "[lsp][resume]") {
  Published pub;
  Scheduler s(schedulerOptions(), pub.listener());
  auto waitFor = [&](const std::string& uri, int version) { return pub.waitFor(uri, version); };
  std::string text = bench::tfStyleFile(200);
  s.update("file:///a.py", "/a.py", text, 1);
  waitFor("file:///a.py", 1);
  // Edit late in the file, then (without waiting) early, then late again: every published
  // snapshot equals a fresh analysis of its text.
  size_t late = text.rfind("[None, 784]") + 7, early = text.find("[None, 784]") + 7;
  std::vector<std::string> texts = {text};
  for (size_t at : {late, early, late, late}) {
    std::string t = texts.back();
    t.replace(at, 3, t.compare(at, 3, "784") == 0 ? "785" : "784");
    texts.push_back(t);
    s.update("file:///a.py", "/a.py", t, static_cast<int>(texts.size()));
  }
  Publication last = waitFor("file:///a.py", static_cast<int>(texts.size()));
  auto fresh = analyze(inputOf("/a.py", texts.back()));
  CHECK(last.diagnostics == renderDiagnostics(*fresh));
  CHECK(render(*latest(s, "file:///a.py")) == render(*fresh));
  // Close while a pauser job may be running, reopen with other text under the same name.
  std::string t = texts.back();
  t.replace(late, 3, "786");
  s.update("file:///a.py", "/a.py", t, 10);
  s.remove("file:///a.py");
  size_t before = pub.count();
  std::string other = "import tensorflow as tf\nx = tf.zeros([2, 3])\ny = tf.matmul(x, x)\n";
  s.update("file:///a.py", "/a.py", other, 1);
  Publication reopened = pub.waitFor([&](const Publication& p) { return p.version == 1 && p.file->text() == other; }, before);
  CHECK(reopened.file->text() == other);
  auto snap = latest(s, "file:///a.py");
  REQUIRE(snap);
  CHECK(snap->file->text() == other);
  CHECK(render(*snap) == render(*analyze(inputOf("/a.py", other))));
}

TEST_CASE("scheduler: the warm-up after initialize runs beside the first analysis", "[lsp][resume]") {
  Published pub;
  Scheduler s(schedulerOptions(), pub.listener());
  s.warmUp();  // on the background thread, while the worker analyses the document
  std::string text = bench::tfStyleFile(120);
  s.update("file:///first.py", "/first.py", text, 1);
  Publication first = pub.waitFor([](const Publication&) { return true; });
  CHECK(first.uri == "file:///first.py");  // the warm-up publishes nothing
  CHECK(render(*latest(s, "file:///first.py")) == render(*analyze(inputOf("/first.py", text))));
}
