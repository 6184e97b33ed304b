#include "lsp/analysis/Analyzer.h"

#include "lang/syntax/SourceText.h"

#include <algorithm>
#include <cctype>
#include <deque>
#include <fstream>
#include <sstream>
#include <thread>
#include <unordered_map>

#include "lang/interp/Interpreter.h"
#include "lang/syntax/ChildCache.h"
#include "lang/syntax/TextDiff.h"
#include "lang/tf/TensorObj.h"
#include "lang/tf/TfRuntime.h"
#include "lsp/analysis/Collector.h"
#include "lsp/analysis/Render.h"

namespace tlens::lsp {

namespace {

using namespace interp;

/// Stops the run when the analysis went stale; tells how far it is (AnalysisInput::progress).
class CancelWatch : public StatementObserver {
 public:
  void set(std::function<bool()> c, std::atomic<uint32_t>* progress = nullptr) {
    cancelled_ = std::move(c);
    progress_ = progress;
  }
  void beforeStatement(const StatementEvent& e) override {
    if (progress_ && e.depth == 1) progress_->store(ts_node_start_byte(e.node), std::memory_order_relaxed);
    if (cancelled_ && cancelled_()) throw InterpCancelled();
  }
  /// A long comprehension or builtin (`sum(range(10**9))`) starts no statement: poll there too.
  void poll(Interpreter&) override {
    if (cancelled_ && cancelled_()) throw InterpCancelled();
  }

 private:
  std::function<bool()> cancelled_;
  std::atomic<uint32_t>* progress_ = nullptr;
};

/// The name of a namespace object of the embedded tensorflow module (`tf.nn` is a `_Namespace`
/// whose `__name__` is "tensorflow.nn"), or "" for anything else.
std::string embeddedNamespace(const Value& v) {
  auto* inst = as<InstanceObj>(v);
  if (!inst || !inst->cls ||
      std::none_of(inst->cls->mro.begin(), inst->cls->mro.end(), [](const auto& c) { return c->name == "_Namespace"; }))
    return {};
  const Value* name = inst->dict.find("__name__");
  auto* str = name ? as<StrObj>(*name) : nullptr;
  if (!str || str->value.rfind("tensorflow.", 0) != 0) return {};
  return str->value;
}


}  // namespace

const ValueInfo* Snapshot::valueAt(uint32_t offset) const {
  const ValueInfo* best = nullptr;
  for (const ValueInfo& v : values) {
    if (v.start > offset) break;
    if (offset >= v.end) continue;
    if (!best || (v.end - v.start) <= (best->end - best->start)) best = &v;
  }
  return best;
}

const ValueInfo* Snapshot::valueOf(uint32_t start, uint32_t end) const {
  if (pendingValueOf) return pendingValueOf(start, end);
  auto it = std::lower_bound(values.begin(), values.end(), start,
                             [](const ValueInfo& v, uint32_t s) { return v.start < s; });
  for (; it != values.end() && it->start == start; ++it)
    if (it->end == end) return &*it;
  return nullptr;
}

/// One interpreter set up for a document, with its observers (a paused analysis is one of these
/// stopped between two top-level statements).
struct Run {
  std::unique_ptr<Interpreter> in;
  std::unique_ptr<CancelWatch> watch = std::make_unique<CancelWatch>();
  std::unique_ptr<Collector> collector;
  tf::ApiStyle style = tf::ApiStyle::Eager;
};

namespace {
bool sameOverlay(const std::shared_ptr<const std::map<std::string, std::string>>& a,
                 const std::shared_ptr<const std::map<std::string, std::string>>& b);
}  // namespace

/// What an analysis ran with besides the text: a run is reused (continued, or its snapshot kept)
/// only for an input with the same.
struct RunSettings {
  std::string path;
  std::vector<std::string> roots;
  std::shared_ptr<const std::map<std::string, std::string>> overlay;
  int timeBudgetMs = 0;
  uint64_t workBudget = 0;
  DeviceRequest devices;

  static RunSettings of(const AnalysisInput& input) {
    return {input.path, input.roots, input.overlay, input.timeBudgetMs, input.workBudget, input.devices};
  }
  bool matches(const AnalysisInput& input) const {
    return path == input.path && roots == input.roots && timeBudgetMs == input.timeBudgetMs &&
           workBudget == input.workBudget && devices == input.devices && sameOverlay(overlay, input.overlay);
  }
};

struct PausedAnalysis {
  Run run;
  std::shared_ptr<const lang::SourceFile> file;  ///< the version whose prefix ran
  size_t count = 0;                              ///< top-level statements run
  uint32_t end = 0;                              ///< where the last of them ends
  RunSettings settings;                          ///< what the prefix ran with
  bool collectValues = true;
};

/// A run that stopped at the work budget in top-level statement `statement`, and what it ran
/// with. Nothing of the file after that statement runs but the unbinding of the names its
/// assignments bind (`unbound`), so a later version that agrees up to there, binds the same names
/// after it and has no syntax error analyses to the same snapshot (stoppedFits).
struct StoppedRun {
  size_t statement = 0;
  std::vector<std::string> unbound;  ///< interp::namesUnboundAfterStop(file, statement)
  RunSettings settings;
  tf::ApiStyle style = tf::ApiStyle::Eager;
};

namespace {

std::shared_ptr<const lang::SourceFile> parse(const AnalysisInput& input) {
  if (input.file && input.file->path() == input.path && input.file->text() == input.text) return input.file;
  if (input.previous && input.previous->path() == input.path)
    return std::make_shared<lang::SourceFile>(*input.previous, input.text);
  return std::make_shared<lang::SourceFile>(input.path, input.text);
}

Run setUp(const AnalysisInput& input, tf::ApiStyle style, const lang::SourceFile& file) {
  InterpOptions io;
  io.mode = Mode::Abstract;
  io.timeBudgetMs = input.timeBudgetMs;
  io.workBudget = input.workBudget;
  io.workspaceRoots = input.roots;
  if (input.overlay) {
    auto overlay = input.overlay;
    io.loadFile = [overlay](const std::string& path) -> std::shared_ptr<const lang::SourceFile> {
      if (auto it = overlay->find(path); it != overlay->end()) return std::make_shared<lang::SourceFile>(path, it->second);
      // Regular files within the size cap only (a FIFO or /dev/zero would hang or fill memory).
      std::optional<std::string> text = lang::tryReadSourceFile(path);
      if (!text) return nullptr;
      return std::make_shared<lang::SourceFile>(path, std::move(*text));
    };
  }
  Run r;
  r.in = std::make_unique<Interpreter>(io);
  r.style = style;
  tf::TfOptions to;
  to.style = style;
  to.devices = input.devices;
  tf::installTensorFlow(*r.in, to);
  r.watch->set(input.cancelled, input.progress);
  r.in->setStatementObserver(r.watch.get());
  if (input.collectValues) {
    r.collector = std::make_unique<Collector>(*r.in);
    r.collector->watch(&file);
    r.in->setValueObserver(r.collector.get());
  }
  return r;
}

bool sameOverlay(const std::shared_ptr<const std::map<std::string, std::string>>& a,
                 const std::shared_ptr<const std::map<std::string, std::string>>& b) {
  if (a == b) return true;
  auto empty = [](const auto& m) { return !m || m->empty(); };
  if (empty(a) || empty(b)) return empty(a) && empty(b);
  return *a == *b;
}

/// How many top-level statements a run may stop after, for a later text that agrees with this
/// one before byte `limit` (a line start): those that end before it, with no syntax error, less the last of them
/// (an edit or a cut can change how the statement before it parses: `else:` after an `if`).
size_t statementsBefore(const lang::SourceFile& f, uint32_t limit) {
  auto stmts = lang::ChildCache::lookup(f.root()).named;
  size_t count = 0;
  while (count < stmts.size() && ts_node_end_byte(stmts[count]) < limit && !ts_node_has_error(stmts[count])) ++count;
  return count > 0 ? count - 1 : 0;
}

/// Whether the first `count` top-level statements of `a` and `b` are the same nodes at the same
/// bytes (the caller knows the texts agree up to there), none with a syntax error.
bool sameStatements(const lang::SourceFile& a, const lang::SourceFile& b, size_t count) {
  auto x = lang::ChildCache::lookup(a.root()).named;
  auto y = lang::ChildCache::lookup(b.root()).named;
  if (x.size() < count || y.size() < count) return false;
  for (size_t i = 0; i < count; ++i)
    if (ts_node_start_byte(x[i]) != ts_node_start_byte(y[i]) || ts_node_end_byte(x[i]) != ts_node_end_byte(y[i]) ||
        ts_node_symbol(x[i]) != ts_node_symbol(y[i]) || ts_node_has_error(y[i]))
      return false;
  return true;
}

/// Whether `p` can continue into `file` (see analyze()).
bool fits(const PausedAnalysis& p, const AnalysisInput& input, tf::ApiStyle style, const lang::SourceFile& file) {
  if (!p.run.in || !p.settings.matches(input) || p.collectValues != input.collectValues || p.run.style != style)
    return false;
  const std::string& before = p.file->text();
  if (input.text.size() < p.end || input.text.compare(0, p.end, before, 0, p.end) != 0) return false;
  return sameStatements(*p.file, file, p.count);
}

/// Where a big text can be cut for runPipelined: the start of a line, about a third in, that
/// begins a top-level statement (an identifier at column 0, not a clause of the statement
/// before, after no decorator or line continuation). 0 when there is none.
size_t pipelineCut(const std::string& t) {
  constexpr size_t kMinBytes = 64 * 1024;
  if (t.size() < kMinBytes) return 0;
  for (size_t at = t.find('\n', t.size() / 3); at != std::string::npos && at < (2 * t.size()) / 3; at = t.find('\n', at + 1)) {
    size_t line = at + 1;
    if (line >= t.size()) return 0;
    char c = t[line];
    if (!(std::isalpha(static_cast<unsigned char>(c)) || c == '_')) continue;
    std::string_view rest(t.data() + line, std::min<size_t>(8, t.size() - line));
    if (rest.rfind("else", 0) == 0 || rest.rfind("elif", 0) == 0 || rest.rfind("except", 0) == 0 ||
        rest.rfind("finally", 0) == 0 || rest.rfind("case", 0) == 0)
      continue;
    size_t prev = t.rfind('\n', at > 0 ? at - 1 : 0);
    std::string_view prevLine(t.data() + (prev == std::string::npos ? 0 : prev + 1), at - (prev == std::string::npos ? 0 : prev + 1));
    if (!prevLine.empty() && (prevLine.back() == '\\' || prevLine.front() == '@')) continue;
    return line;
  }
  return 0;
}

/// A first analysis of a big text on two threads: the first third is parsed and run while
/// another thread parses the whole text (incrementally, from the first third's tree); then the
/// run continues on the whole tree as an edit's would (Interpreter::resume). The result is the
/// one run() gives. False when the text has no clean cut (nothing was run).
bool runPipelined(const AnalysisInput& input, tf::ApiStyle style, Run& run, std::shared_ptr<const lang::SourceFile>& file,
                  int& status) {
  size_t cut = pipelineCut(input.text);
  if (cut == 0) return false;
  auto head = std::make_shared<lang::SourceFile>(input.path, input.text.substr(0, cut));
  if (ts_node_has_error(head->root())) return false;  // cut inside a string or a bracket
  std::shared_ptr<const lang::SourceFile> whole;
  std::thread parser([&] {
    try {
      whole = std::make_shared<lang::SourceFile>(*head, input.text);
      // Error recovery after an incremental parse may differ from a fresh one: a text with
      // syntax errors is parsed afresh, so a first analysis reports what `tlens check` does.
      if (ts_node_has_error(whole->root())) whole = std::make_shared<lang::SourceFile>(input.path, input.text);
    } catch (...) {
    }
  });
  size_t count = statementsBefore(*head, static_cast<uint32_t>(cut));
  run = setUp(input, style, *head);
  int prefix = count > 0 ? run.in->runPrefix(head, count) : 0;
  parser.join();
  file = whole ? whole : std::make_shared<lang::SourceFile>(input.path, input.text);
  if (prefix == Interpreter::kExitCancelled || (input.cancelled && input.cancelled())) {
    status = Interpreter::kExitCancelled;
    return true;
  }
  if (prefix != 0 || (run.in->budgetExceeded() && !run.in->stoppedAtWorkBudget()) ||
      !sameStatements(*head, *file, count)) {
    run = setUp(input, style, *file);  // the cut was not clean after all: from the beginning
    status = run.in->run(file);
    return true;
  }
  if (run.collector) run.collector->watch(file.get());
  status = run.in->resume(file, count);
  return true;
}

/// What a later version needs to know of a run that stopped at the work budget (null when it did
/// not, or when the file has a syntax error: those diagnostics come first in a fresh run).
std::shared_ptr<const StoppedRun> stoppedRunOf(const AnalysisInput& input, tf::ApiStyle style, Interpreter& in,
                                               const lang::SourceFile& file) {
  if (!in.stoppedAtWorkBudget() || ts_node_has_error(file.root())) return nullptr;
  // The stop is reported at the top-level statement it happened in.
  const Diagnostic* stop = nullptr;
  for (const Diagnostic& d : in.diagnostics())
    if (d.code == "budget-exceeded" && d.file == input.path) stop = &d;
  if (!stop) return nullptr;
  auto stmts = lang::ChildCache::lookup(file.root()).named;
  size_t i = 0;
  for (; i < stmts.size(); ++i) {
    TSPoint p = ts_node_start_point(stmts[i]);
    if (static_cast<int>(p.row) == stop->start.line && static_cast<int>(p.column) == stop->start.column) break;
  }
  if (i == stmts.size()) return nullptr;
  auto s = std::make_shared<StoppedRun>();
  s->statement = i;
  s->unbound = namesUnboundAfterStop(file, i);
  s->settings = RunSettings::of(input);
  s->style = style;
  return s;
}

/// Whether `input` analyses to `base`'s snapshot with another text: `base` stopped at the work
/// budget, and the new text agrees with its text up to a line after the statement it stopped in
/// (the same statements at the same bytes, as a paused run needs), binds the same names after it,
/// has no syntax error and is analysed with the same settings. A run would stop at the same step,
/// unbind the same names and analyse the same uncalled functions: the diagnostics, values and
/// globals are the same (tests/lsp/ResumeTests). `count`: the top-level statements before the
/// edit.
bool stoppedFits(const AnalysisInput& input, tf::ApiStyle style, const Snapshot& base, const lang::SourceFile& file,
                 size_t& count) {
  if (!base.stopped || !base.file || !base.pool || !input.collectValues) return false;
  const StoppedRun& s = *base.stopped;
  if (!s.settings.matches(input) || s.style != style || ts_node_has_error(file.root())) return false;
  size_t common = lang::commonPrefix(base.file->text(), input.text);
  uint32_t line = file.offsetOf({file.positionOf(static_cast<uint32_t>(common)).line, 0});
  count = statementsBefore(file, line);
  if (count <= s.statement || !sameStatements(*base.file, file, count)) return false;
  return namesUnboundAfterStop(file, s.statement) == s.unbound;
}

/// The modules the program binds at the top level, their members and one level of submodules
/// (completion after a dot, the unknown-attribute lint).
void addModuleFacts(Interpreter& in, Collector& collector, Snapshot& snap) {
  auto mod = in.mainModule();
  if (!mod) return;
  std::vector<std::string> registry = in.modules().names();
  mod->globals->vars.forEach([&](const std::string& name, const Value& v) {
    if ((name.size() > 1 && name[0] == '_' && name[1] == '_') || !v || v->kind() != Kind::Module) return;
    RenderedValue info = renderValue(in, v, collector.cache(), /*callPython=*/false);
    // Submodules the registry would import on first use (`tf.keras`, `tf.compat.v1`) are
    // members too.
    auto withSubmodules = [&](std::vector<Member> base, const std::string& moduleName) {
      auto members = std::make_shared<std::vector<Member>>(std::move(base));
      std::string prefix = moduleName + ".";
      for (const std::string& reg : registry)
        if (reg.compare(0, prefix.size(), prefix) == 0 && reg.find('.', prefix.size()) == std::string::npos) {
          std::string sub = reg.substr(prefix.size());
          if (std::none_of(members->begin(), members->end(), [&](const Member& m) { return m.name == sub; }))
            members->push_back(Member{sub, Member::Kind::Module, "", ""});
        }
      return members;
    };
    auto members = withSubmodules(info.members ? *info.members : std::vector<Member>{},
                                  static_cast<ModuleObj*>(v.get())->name);
    snap.moduleMembers[name] = members;
    snap.modulePaths.push_back(name);
    snap.moduleNames[name] = static_cast<ModuleObj*>(v.get())->name;
    // One level of submodules: `tf.nn.`, `tf.train.`.
    static_cast<ModuleObj*>(v.get())->globals->vars.forEach([&](const std::string& sub, const Value& sv) {
      if (!sv || sub.empty() || sub[0] == '_' ||
          (sv->kind() != Kind::Module && sv->kind() != Kind::Class && sv->kind() != Kind::Instance))
        return;
      snap.moduleMembers[name + "." + sub] = memberNames(in, sv, collector.cache());
      if (sv->kind() == Kind::Module) {
        const Members& listed = snap.moduleMembers[name + "." + sub];
        snap.moduleMembers[name + "." + sub] =
            withSubmodules(listed ? *listed : std::vector<Member>{}, static_cast<ModuleObj*>(sv.get())->name);
        snap.modulePaths.push_back(name + "." + sub);
        snap.moduleNames[name + "." + sub] = static_cast<ModuleObj*>(sv.get())->name;
      } else if (std::string ns = embeddedNamespace(sv); !ns.empty()) {
        // `tf.nn`, `tf.train`: namespaces the embedded tensorflow module builds as objects; to
        // the user (and the unknown-attribute lint) they are modules.
        snap.modulePaths.push_back(name + "." + sub);
        snap.moduleNames[name + "." + sub] = ns;
      }
    });
  });
}

}  // namespace

std::shared_ptr<PausedAnalysis> analyzePrefix(const AnalysisInput& input, uint32_t editAt) {
  auto file = parse(input);
  auto stmts = lang::ChildCache::lookup(file->root()).named;
  size_t count = statementsBefore(*file, file->offsetOf({file->positionOf(editAt).line, 0}));
  if (count == 0) return nullptr;
  auto p = std::make_shared<PausedAnalysis>();
  p->run = setUp(input, tf::detectApiStyle(input.text), *file);
  p->file = file;
  p->count = count;
  p->end = ts_node_end_byte(stmts[count - 1]);
  p->settings = RunSettings::of(input);
  p->collectValues = input.collectValues;
  int status = p->run.in->runPrefix(file, count);
  // A prefix stopped by the work budget continues (it stops at the same place); by the clock,
  // not (where it stops depends on the machine).
  if (status != 0 || (p->run.in->budgetExceeded() && !p->run.in->stoppedAtWorkBudget()) ||
      (input.cancelled && input.cancelled()))
    return nullptr;
  p->run.watch->set(nullptr);
  return p;
}

std::shared_ptr<const Snapshot> analyze(const AnalysisInput& input, std::shared_ptr<void>* leftovers,
                                        std::shared_ptr<PausedAnalysis> paused, const EarlyDiagnostics& early,
                                        const Snapshot* base) {
  tf::ApiStyle style = tf::detectApiStyle(input.text);
  if (base && base->stopped) {
    auto file = parse(input);
    size_t count = 0;
    if (stoppedFits(input, style, *base, *file, count)) {
      auto reused = std::make_shared<Snapshot>(*base);
      reused->uri = input.uri;
      reused->version = input.version;
      reused->file = file;
      reused->reusedStatements = count;
      if (early) early(*reused);
      return reused;
    }
  }
  auto snap = std::make_shared<Snapshot>();
  snap->uri = input.uri;
  snap->version = input.version;
  snap->graphStyle = style == tf::ApiStyle::Graph;

  Run run;
  int status = 0;
  std::shared_ptr<const lang::SourceFile> file;
  bool first = !paused && !input.file && !input.previous;
  if (!(first && input.pipeline && runPipelined(input, style, run, file, status))) {
    file = parse(input);
    if (paused && fits(*paused, input, style, *file)) {
      run = std::move(paused->run);
      run.watch->set(input.cancelled);
      if (run.collector) run.collector->watch(file.get());
      snap->reusedStatements = paused->count;
      status = run.in->resume(file, paused->count);
    } else {
      run = setUp(input, style, *file);
      status = run.in->run(file);
    }
  }
  snap->file = file;
  paused.reset();  // the earlier version's objects it still holds go now
  Interpreter* in = run.in.get();
  // The interpreter goes to the caller (or dies here) whatever the outcome.
  auto handOver = [&] {
    in->setStatementObserver(nullptr);
    in->setValueObserver(nullptr);
    if (leftovers) *leftovers = std::make_shared<Run>(std::move(run));
  };
  if (status == Interpreter::kExitCancelled || (input.cancelled && input.cancelled())) {
    handOver();
    return nullptr;
  }
  snap->diagnostics = in->diagnostics();
  if (!run.collector) {
    if (early) early(*snap);
    handOver();
    return snap;
  }
  Collector& collector = *run.collector;
  in->setValueObserver(nullptr);
  addModuleFacts(*in, collector, *snap);
  if (early) {
    // The diagnostics go out now; the few values the lints ask for are rendered on demand.
    std::deque<ValueInfo> asked;
    snap->pendingValueOf = [&](uint32_t start, uint32_t end) -> const ValueInfo* {
      std::optional<ValueInfo> v = collector.valueOf(start, end);
      if (!v) return nullptr;
      return &asked.emplace_back(*v);
    };
    early(*snap);
    snap->pendingValueOf = nullptr;
  }
  // After the diagnostics are out: it lists the statements after the stop, which never ran.
  if (status == 0) snap->stopped = stoppedRunOf(input, style, *in, *file);
  // Then every value; a newer edit stops this (the snapshot would serve no one), unless the run
  // stopped at the work budget and the edit is after the stop: it takes this snapshot as it is
  // (stoppedFits), which beats any run.
  std::function<bool()> stop = input.cancelled;
  if (snap->stopped && input.cancelledStopped) {
    uint32_t stopEnd = ts_node_end_byte(lang::ChildCache::lookup(file->root()).named[snap->stopped->statement]);
    stop = [&input, stopEnd] { return input.cancelledStopped(stopEnd); };
  }
  if (!collector.render(stop)) {
    handOver();
    return nullptr;
  }
  snap->values = collector.take();
  if (auto mod = in->mainModule()) {
    mod->globals->vars.forEach([&](const std::string& name, const Value& v) {
      if (name.size() > 1 && name[0] == '_' && name[1] == '_') return;
      snap->globals.emplace(name, collector.pool()->add(renderValue(*in, v, collector.cache(), /*callPython=*/false)));
    });
  }
  collector.pool()->finish();
  snap->pool = collector.pool();
  handOver();
  return snap;
}

bool reusesStopped(const AnalysisInput& input, const Snapshot& base) {
  if (!base.stopped) return false;
  size_t count = 0;
  return stoppedFits(input, tf::detectApiStyle(input.text), base, *parse(input), count);
}

}  // namespace tlens::lsp
