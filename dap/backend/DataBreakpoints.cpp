// Data breakpoints on tf.Variables: the editor asks what a variable in a scope is
// (dataBreakpointInfo) and then watches it (setDataBreakpoints). A watched variable stops the
// program right after a graph node or eager op writes it (Assign, AssignAdd/Sub, the optimizers'
// Apply* ops, `var.assign*`): the engine's NodeEvent names the variable behind each ref input,
// beforeNode keeps the old value (holding it makes the in-place update copy, so it stays) and
// afterNode compares it with the new one. The condition `not finite` stops only when the new
// value holds NaN/Inf; any other condition is a Python expression, as on line breakpoints.
#include <cctype>
#include <sstream>

#include "dap/backend/Debugger.h"
#include "dap/backend/DebuggerImpl.h"
#include "dap/backend/Evaluate.h"
#include "engine/runtime/Numerics.h"
#include "engine/runtime/Resources.h"
#include "lang/interp/Class.h"
#include "lang/interp/Interpreter.h"
#include "lang/tf/TensorObj.h"
#include "lang/tf/TfRuntime.h"

namespace tlens::dap {

namespace {

constexpr const char* kPrefix = "var:";

DataBreakpointTarget fromValue(const interp::Value& v, const std::string& shown) {
  auto* t = dynamic_cast<tf::TensorObj*>(v.get());
  if (!t || !t->variable || t->varName.empty())
    return {"", "'" + shown + "' is not a tf.Variable: data breakpoints watch variables"};
  return {kPrefix + t->varName, "tf.Variable " + t->varName + " (" + t->staticType().str() + ")"};
}

std::string summaryOf(const Tensor& t) {
  if (!t.valid()) return "<uninitialised>";
  return tensorLine(t, t.device());
}

}  // namespace

DataBreakpointTarget Debugger::dataBreakpointInfo(int ref, const std::string& name, int frameId) {
  DataBreakpointTarget out;
  onProgramThread([&] {
    Impl& s = *impl_;
    if (ref <= 0) {
      // An expression (the editor's "Break on value change" from a watch or the editor).
      interp::Frame* frame = nullptr;
      if (frameId >= 0 && frameId < static_cast<int>(s.frames.size())) frame = s.frames[static_cast<size_t>(frameId)].pyFrame;
      if (!frame && !s.postMortem) frame = interp_->innermostUserFrame();
      try {
        out = fromValue(evaluateIn(*interp_, *runtime_, s, frame, name, false), name);
      } catch (const DebuggerError& e) {
        out = {"", std::string("cannot watch '") + name + "': " + e.what()};
      }
      return;
    }
    if (ref > static_cast<int>(s.refs.size())) throw DebuggerError("invalid variablesReference " + std::to_string(ref));
    const VarNode& n = s.refs[static_cast<size_t>(ref - 1)];
    switch (n.kind) {
      case VarNode::Kind::Locals:
      case VarNode::Kind::Globals:
        out = fromValue(n.env->vars.get(name), name);
        return;
      case VarNode::Kind::Python:
        if (auto* i = interp::as<interp::InstanceObj>(n.value)) {
          out = fromValue(i->dict.get(name), name);
          return;
        }
        out = {"", "'" + name + "' is not a tf.Variable: data breakpoints watch variables"};
        return;
      case VarNode::Kind::NodeScope:
        // "in w:0": an input read from a variable node.
        if (s.node)
          for (const Output& in : s.node->inputs)
            if ("in " + in.name() == name && in.node->type() == "VariableV2") {
              out = {kPrefix + in.node->name, "tf.Variable " + in.node->name + " (" + in.type().str() + ")"};
              return;
            }
        out = {"", "'" + name + "' is not a variable node's value"};
        return;
      default:
        out = {"", "'" + name + "' is not a tf.Variable: data breakpoints watch variables"};
        return;
    }
  });
  return out;
}

std::vector<BreakpointResult> Debugger::setDataBreakpoints(const std::vector<DataBreakpointSpec>& specs) {
  static std::atomic<int> nextId{200000};
  auto watches = std::make_shared<std::vector<Watch>>();
  std::vector<BreakpointResult> out;
  for (const DataBreakpointSpec& sp : specs) {
    BreakpointResult r;
    r.id = nextId++;
    if (sp.dataId.rfind(kPrefix, 0) != 0 || sp.dataId.size() == std::string(kPrefix).size()) {
      r.message = "unknown dataId '" + sp.dataId + "' (ask dataBreakpointInfo for one)";
    } else if (!sp.accessType.empty() && sp.accessType != "write") {
      r.message = "only writes can be watched (accessType 'write'); variables are read by every op that uses them";
    } else {
      r.verified = true;
      // "not finite", in any case and spacing: the NaN/Inf-only watch.
      std::string cond;
      for (char ch : sp.condition)
        if (!std::isspace(static_cast<unsigned char>(ch))) cond += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
      watches->push_back(Watch{r.id, sp.dataId.substr(std::string(kPrefix).size()), sp, cond == "notfinite"});
    }
    out.push_back(std::move(r));
  }
  {
    std::lock_guard<std::mutex> lk(mu_);
    watches_ = watches;
  }
  anyWatches_ = !watches->empty();
  return out;
}

bool Debugger::watchedWrite(const NodeEvent& e, StopInfo& info) {
  if (!e.resources) return false;
  std::shared_ptr<const std::vector<Watch>> w;
  {
    std::lock_guard<std::mutex> lk(mu_);
    w = watches_;
  }
  if (!w) return false;
  for (const auto& [name, old] : oldValues_) {
    Tensor* now = e.resources->variable(name);
    const Tensor value = now ? *now : Tensor();
    for (const Watch& x : *w) {
      if (x.varName != name) continue;
      if (x.notFinite) {
        if (!value.valid() || !isFloating(value.dtype()) || allFinite(value)) continue;
        if (!hitConditionPasses(x.spec.hitCondition, ++hits_[x.id])) continue;
      } else {
        captureNode(e);  // conditions may read the node's values
        LineBreakpoint asLine{x.id, 0, x.spec.condition, x.spec.hitCondition, {}};
        if (!shouldStop(asLine, 0)) continue;
      }
      captureNode(e);
      info.reason = StopReason::DataBreakpoint;
      info.hitBreakpointIds = {x.id};
      info.description = "data breakpoint: " + name + " written by " + *e.name + " (" + e.op->type + ")";
      info.text = name + " written by " + *e.name + " (" + e.op->type + "): old " + summaryOf(old) + " -> new " + summaryOf(value);
      events_.output("console", info.text + "\n");
      return true;
    }
  }
  return false;
}

void Debugger::withGraphs(const std::function<void(const GraphState&)>& fn) {
  onProgramThread([&] {
    Impl& s = *impl_;
    if (!runtime_) throw DebuggerError("no program is running: launch one first");
    GraphState g;
    for (const auto& graph : runtime_->graphs()) g.graphs.push_back(graph.get());
    g.ran = s.ranNodes;
    for (const auto& [node, what] : s.numerics) g.numerics.emplace_back(node, what);
    // Outputs this run kept that hold NaN/Inf (check-numerics reports only the first producer).
    for (size_t i = 0; i < s.visible(); ++i) {
      const Impl::RunEntry& r = s.run[i];
      if (!r.node || !r.tensor.valid() || !isFloating(r.tensor.dtype()) || s.numerics.count(r.node) || allFinite(r.tensor)) continue;
      const NonFiniteCounts c = countNonFinite(r.tensor);
      g.numerics.emplace_back(r.node, c.nan ? "nan" : "inf");
    }
    if (s.atNode && s.node) {
      g.stopped = s.node;
      if (s.exception && s.exception->id == "nan_inf" && !s.numerics.count(s.node))
        g.numerics.emplace_back(s.node, s.exception->description.find("produced nan") != std::string::npos ? "nan" : "inf");
    }
    fn(g);
  });
}

}  // namespace tlens::dap
