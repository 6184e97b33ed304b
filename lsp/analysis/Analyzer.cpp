#include "lsp/analysis/Analyzer.h"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <sstream>
#include <unordered_map>

#include "lang/interp/Interpreter.h"
#include "lang/tf/TensorObj.h"
#include "lang/tf/TfRuntime.h"
#include "lsp/analysis/Collector.h"
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
  Collector collector(*in);
  collector.watch(file.get());
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
