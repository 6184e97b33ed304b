#include "lang/tf/exec/Agreement.h"

#include <map>
#include <tuple>

#include "engine/runtime/DebugHooks.h"
#include "lang/syntax/SourceFile.h"
#include "lang/tf/TfRuntime.h"
#include "lang/tf/exec/KernelExecution.h"

namespace tlens::tf {

using namespace interp;

namespace {

using Key = std::tuple<std::string, int, int, int, int, std::string, int>;

Key keyOf(const SourceLocation& l, const std::string& op, int index) {
  return {l.file, l.line, l.column, l.endLine, l.endColumn, op, index};
}

bool fullyKnown(const TensorType& t) { return t.dtype != DType::Invalid && t.shape.fullyKnown(); }

std::string typeStr(const TensorType& t) { return std::string(dtypeName(t.dtype)) + t.shape.str(); }

/// Records the type of every graph node output when it runs.
class ObservingHooks : public DebugHooks {
 public:
  std::vector<TensorRecord> seen;
  HookAction afterNode(const NodeEvent& e) override {
    if (!e.node || !e.outputs || isGradientNode(*e.node)) return HookAction::Continue;
    for (size_t i = 0; i < e.outputs->size(); ++i) {
      const Tensor& t = (*e.outputs)[i];
      if (!t.valid()) continue;
      seen.push_back(TensorRecord{e.node->location, e.node->type(), static_cast<int>(i),
                                  TensorType(t.dtype(), Shape::fromConcrete(t.shape())), false});
    }
    return HookAction::Continue;
  }
};

}  // namespace

std::string AgreementReport::str() const {
  std::string s = std::to_string(compared) + " observations checked against " + std::to_string(staticKnown) +
                  " statically known types, " + std::to_string(disagreements.size()) + " disagreements";
  for (const Disagreement& d : disagreements)
    s += "\n  " + d.where.str() + " " + d.op + ":" + std::to_string(d.outputIndex) + ": static " + d.staticType +
         ", observed " + d.observed;
  return s;
}

AgreementReport checkAgreement(const std::string& path, const std::string& text, const std::vector<std::string>& argv) {
  AgreementReport report;
  ApiStyle style = detectApiStyle(text);

  std::vector<TensorRecord> abstractRecords;
  {
    InterpOptions o;
    o.mode = Mode::Abstract;
    o.argv = argv;
    o.timeBudgetMs = 0;
    o.workBudget = 0;  // the whole program: every type it gives is compared with the run's
    o.analyzeUncalledFunctions = false;
    Interpreter in(o);
    TfOptions to;
    to.style = style;
    to.execution = &kernelExecution();  // the machine's devices, as the concrete run has
    auto rt = installTensorFlow(in, to);
    rt->records = &abstractRecords;
    in.run(std::make_shared<lang::SourceFile>(path, text));
    rt->records = nullptr;
  }

  std::vector<TensorRecord> concreteRecords;
  ObservingHooks hooks;
  {
    InterpOptions o;
    o.mode = Mode::Concrete;
    o.argv = argv;
    o.out = [](std::string_view) {};
    o.err = [&](std::string_view s) { report.concreteErrors += s; };
    Interpreter in(o);
    TfOptions to;
    to.style = style;
    to.hooks = &hooks;
    to.execution = &kernelExecution();
    auto rt = installTensorFlow(in, to);
    rt->records = &concreteRecords;
    report.concreteExit = in.run(std::make_shared<lang::SourceFile>(path, text));
    rt->records = nullptr;
  }

  // The static type at each place, when abstract mode always gave the same fully known one.
  std::map<Key, std::string> known;
  std::map<Key, bool> ambiguous;
  for (const TensorRecord& r : abstractRecords) {
    if (!r.where.known()) continue;
    Key k = keyOf(r.where, r.opType, r.outputIndex);
    if (!fullyKnown(r.type)) {
      ambiguous[k] = true;
      continue;
    }
    auto [it, inserted] = known.emplace(k, typeStr(r.type));
    if (!inserted && it->second != typeStr(r.type)) ambiguous[k] = true;
  }
  for (const auto& [k, a] : ambiguous) known.erase(k);
  report.staticKnown = static_cast<int>(known.size());

  auto check = [&](const TensorRecord& r) {
    auto it = known.find(keyOf(r.where, r.opType, r.outputIndex));
    if (it == known.end()) return;
    ++report.compared;
    std::string observed = typeStr(r.type);
    if (observed != it->second && report.disagreements.size() < 50)
      report.disagreements.push_back(Disagreement{r.where, r.opType, r.outputIndex, it->second, observed});
  };
  for (const TensorRecord& r : concreteRecords)
    if (!r.symbolic) check(r);
  for (const TensorRecord& r : hooks.seen) check(r);
  return report;
}

}  // namespace tlens::tf
