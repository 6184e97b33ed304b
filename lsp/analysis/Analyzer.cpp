// The observer below renders each value as it is reported (values do not outlive the
// interpreter) and merges observations of the same span. Rendering must not run user code: it
// reads object fields, calls repr only on built-in values, and calls Python only for a Keras
// model's `_tlens_summary_rows()` (embedded library code, observed by nobody: its frames are in
// "<...>" files, which the observer ignores).
#include "lsp/analysis/Analyzer.h"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <sstream>
#include <unordered_map>

#include "lang/interp/Interpreter.h"
#include "lang/tf/TensorObj.h"
#include "lang/tf/TfRuntime.h"
#include "lsp/analysis/Render.h"

namespace tlens::lsp {

namespace {

using namespace interp;

/// Stops the run when the analysis went stale.
class CancelWatch : public StatementObserver {
 public:
  explicit CancelWatch(std::function<bool()> c) : cancelled_(std::move(c)) {}
  void beforeStatement(const StatementEvent&) override {
    if (cancelled_ && cancelled_()) throw InterpCancelled();
  }

 private:
  std::function<bool()> cancelled_;
};

class Collector : public ValueObserver {
 public:
  Collector(Interpreter& in, const lang::SourceFile& main) : in_(in), main_(main) {}

  void onValue(const lang::SourceFile& file, TSNode expr, const Value& v) override {
    if (&file != &main_ || rendering_ || !v) return;
    rendering_ = true;
    struct Reset {
      bool& b;
      ~Reset() { b = false; }
    } reset{rendering_};
    uint32_t s = ts_node_start_byte(expr), e = ts_node_end_byte(expr);
    uint64_t key = (static_cast<uint64_t>(s) << 32) | e;
    auto [it, fresh] = index_.try_emplace(key, values_.size());
    ValueInfo info = renderValue(in_, v, cache_);
    info.start = s;
    info.end = e;
    if (fresh) {
      values_.push_back(std::move(info));  // `types` stays empty while only `type` was seen
      return;
    }
    ValueInfo& old = values_[it->second];
    std::vector<std::string> types = std::move(old.types);
    if (types.empty() && info.type != old.type) types.push_back(old.type);
    if (!types.empty() && types.size() < 8 && std::find(types.begin(), types.end(), info.type) == types.end())
      types.push_back(info.type);
    // An Unknown seen later (the second run of a loop body) does not hide what was known.
    if (info.kind == ValueInfo::Kind::Unknown && old.kind != ValueInfo::Kind::Unknown) {
      old.types = std::move(types);
      return;
    }
    old = std::move(info);
    old.types = std::move(types);
  }

  std::vector<ValueInfo> take() {
    std::sort(values_.begin(), values_.end(), [](const ValueInfo& a, const ValueInfo& b) {
      return a.start != b.start ? a.start < b.start : a.end > b.end;
    });
    return std::move(values_);
  }
  RenderCache& cache() { return cache_; }

 private:
  Interpreter& in_;
  const lang::SourceFile& main_;
  bool rendering_ = false;
  std::vector<ValueInfo> values_;
  std::unordered_map<uint64_t, size_t> index_;
  RenderCache cache_;
};

std::string readDisk(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return {};
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
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
  auto it = std::lower_bound(values.begin(), values.end(), start,
                             [](const ValueInfo& v, uint32_t s) { return v.start < s; });
  for (; it != values.end() && it->start == start; ++it)
    if (it->end == end) return &*it;
  return nullptr;
}

std::shared_ptr<const Snapshot> analyze(const AnalysisInput& input, std::shared_ptr<void>* leftovers) {
  auto t0 = std::chrono::steady_clock::now();
  auto snap = std::make_shared<Snapshot>();
  snap->uri = input.uri;
  snap->version = input.version;
  auto file = std::make_shared<lang::SourceFile>(input.path, input.text);
  snap->file = file;

  InterpOptions io;
  io.mode = Mode::Abstract;
  io.timeBudgetMs = input.timeBudgetMs;
  io.workspaceRoots = input.roots;
  if (input.overlay) {
    auto overlay = input.overlay;
    io.loadFile = [overlay](const std::string& path) -> std::shared_ptr<const lang::SourceFile> {
      if (auto it = overlay->find(path); it != overlay->end()) return std::make_shared<lang::SourceFile>(path, it->second);
      std::ifstream probe(path, std::ios::binary);
      if (!probe) return nullptr;
      return std::make_shared<lang::SourceFile>(path, readDisk(path));
    };
  }
  auto in = std::make_unique<Interpreter>(io);
  tf::TfOptions to;
  to.style = tf::detectApiStyle(input.text);
  to.devices = input.devices;
  snap->graphStyle = *to.style == tf::ApiStyle::Graph;
  tf::installTensorFlow(*in, to);

  CancelWatch watch(input.cancelled);
  if (input.cancelled) in->setStatementObserver(&watch);
  Collector collector(*in, *file);
  if (input.collectValues) in->setValueObserver(&collector);

  int status = in->run(file);
  if (status == Interpreter::kExitCancelled) return nullptr;
  if (input.cancelled && input.cancelled()) return nullptr;
  snap->diagnostics = in->diagnostics();
  if (input.collectValues) {
    in->setValueObserver(nullptr);
    snap->values = collector.take();
    std::vector<std::string> registry = in->modules().names();
    if (auto mod = in->mainModule()) {
      mod->globals->vars.forEach([&](const std::string& name, const Value& v) {
        if (name.size() > 1 && name[0] == '_' && name[1] == '_') return;
        ValueInfo info = renderValue(*in, v, collector.cache(), /*callPython=*/false);
        if (v->kind() == Kind::Module) {
          // Submodules the registry would import on first use (`tf.keras`) are members too.
          auto members = std::make_shared<std::vector<Member>>(info.members ? *info.members : std::vector<Member>{});
          std::string prefix = static_cast<ModuleObj*>(v.get())->name + ".";
          for (const std::string& reg : registry)
            if (reg.compare(0, prefix.size(), prefix) == 0 && reg.find('.', prefix.size()) == std::string::npos) {
              std::string sub = reg.substr(prefix.size());
              if (std::none_of(members->begin(), members->end(), [&](const Member& m) { return m.name == sub; }))
                members->push_back(Member{sub, Member::Kind::Module, "", ""});
            }
          snap->moduleMembers[name] = members;
          snap->modulePaths.push_back(name);
          snap->moduleNames[name] = static_cast<ModuleObj*>(v.get())->name;
          // One level of submodules: `tf.nn.`, `tf.train.`.
          if (auto* m = as<ModuleObj>(v))
            m->globals->vars.forEach([&](const std::string& sub, const Value& sv) {
              if (sv && (sv->kind() == Kind::Module || sv->kind() == Kind::Class || sv->kind() == Kind::Instance) && !sub.empty() && sub[0] != '_')
              {
                snap->moduleMembers[name + "." + sub] = memberNames(*in, sv, collector.cache());
                if (sv->kind() == Kind::Module) {
                  snap->modulePaths.push_back(name + "." + sub);
                  snap->moduleNames[name + "." + sub] = static_cast<ModuleObj*>(sv.get())->name;
                }
              }
            });
        }
        snap->globals.emplace(name, std::move(info));
      });
    }
  }
  snap->analysisMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  if (leftovers) {
    in->setStatementObserver(nullptr);  // the observers die with this frame
    in->setValueObserver(nullptr);
    *leftovers = std::shared_ptr<Interpreter>(std::move(in));
  }
  return snap;
}

}  // namespace tlens::lsp
