#include "engine/runtime/Session.h"

#include <algorithm>

#include "engine/runtime/OpRunner.h"
#include "engine/runtime/SessionPlan.h"

namespace tlens {

namespace {
bool isVariable(const Node* n) { return n->op->type == "VariableV2"; }

}  // namespace

Session::Session(Graph& g) : graph_(g), loops_(std::make_unique<LoopState>()) {}

const Tensor& Session::readVariable(const Node* var, const Node* consumer) {
  Tensor* v = resources_.variable(var->name);
  if (!v || !v->valid())
    throwError(ErrorCode::FailedPrecondition,
               "Attempting to use uninitialized value " + var->name + "\n\t [[node " +
                   (consumer ? consumer->name : var->name) + "]]");
  return *v;
}
Session::~Session() = default;

// Fetched values are the program's (numpy arrays in TensorFlow): they leave device memory,
// virtual GPUs' included, so per-device byte counts show only what the device holds.
Tensor Session::fetched(const Tensor& t, const Output& o) {
  if (!t.valid() || t.device().kind != Device::GPU) return t;
  return transfers_.place(t, cpuAllocator(), o.name(), false);
}

Tensor validateFeed(const Output& target, const Tensor& value) {
  const TensorType& t = target.type();
  if (!t.shape.accepts(value.shape()))
    invalidArgument("Cannot feed value of shape " + concreteTfStr(value.shape()) + " for Tensor '" +
                    target.name() + "', which has shape '" + t.shape.tfStr() + "'");
  if (t.dtype != DType::Invalid && t.dtype != value.dtype()) {
    // feed_dict converts with np.asarray(value, dtype): floats to ints truncate, as numpy does.
    return value.cast(t.dtype);
  }
  return value;
}

const Session::Plan& Session::planFor(const std::vector<Output>& fetches, const Feeds& feeds,
                                      const std::vector<Node*>& targets) {
  std::vector<int64_t> key;
  key.reserve(fetches.size() * 2 + feeds.size() * 2 + targets.size() + 3);
  key.push_back(static_cast<int64_t>(graph_.size()));
  for (const Output& f : fetches) { key.push_back(f.node->id); key.push_back(f.index); }
  key.push_back(-1);
  for (const auto& [o, t] : feeds) { key.push_back(o.node->id); key.push_back(o.index); }
  key.push_back(-2);
  for (const Node* n : targets) key.push_back(n->id);
  auto it = plans_.find(key);
  if (it != plans_.end()) return *it->second;
  // Fed outputs cut the walk: their producers run only if something else needs them.
  std::map<Output, bool> fed;
  for (const auto& [o, t] : feeds) fed[o] = true;
  auto plan = buildPlan(fetches, fed, targets, 0, static_cast<int>(graph_.size()));
  return *plans_.emplace(std::move(key), std::move(plan)).first->second;
}

std::unique_ptr<Session::Plan> Session::buildPlan(const std::vector<Output>& fetches, const std::map<Output, bool>& fed,
                                                  const std::vector<Node*>& targets, int lo, int hi) {
  auto plan = std::make_unique<Plan>();
  plan->base = lo;
  const size_t n = static_cast<size_t>(hi - lo);
  const bool frame = lo > 0 || static_cast<size_t>(hi) < graph_.size();
  std::vector<char> needed(n, 0);
  // In a loop frame, what comes from outside it is fed (captures) or a variable (read directly).
  auto outside = [&](const Node* node) { return node->id < lo || node->id >= hi; };
  auto reachable = [&](const Output& in) {
    if (!outside(in.node)) return true;
    if (!isVariable(in.node) && !fed.count(in))
      throwError(ErrorCode::Internal, "Input " + in.name() + " of a loop frame has no value");
    return false;
  };
  // Fetching a fed tensor needs no producer.
  std::vector<Node*> work;
  for (const Output& f : fetches)
    if (!fed.count(f) && reachable(f)) work.push_back(f.node);
  for (Node* t : targets) work.push_back(t);
  while (!work.empty()) {
    Node* node = work.back();
    work.pop_back();
    if (needed[static_cast<size_t>(node->id - lo)]) continue;
    needed[static_cast<size_t>(node->id - lo)] = 1;
    for (size_t i = 0; i < node->inputs.size(); ++i) {
      const Output& in = node->inputs[i];
      bool isRef = std::find(node->op->refInputs.begin(), node->op->refInputs.end(),
                             static_cast<int>(i)) != node->op->refInputs.end();
      if (isRef || fed.count(in) || !reachable(in)) continue;
      work.push_back(in.node);
    }
    // A control input whose outputs are all fed is satisfied by the feed, as in TensorFlow.
    for (Node* c : node->controlInputs) {
      if (frame && outside(c)) continue;  // the loop node waited for it
      bool allFed = c->numOutputs() > 0;
      for (size_t k = 0; k < c->numOutputs() && allFed; ++k) allFed = fed.count(Output{c, static_cast<int>(k)}) > 0;
      if (!allFed) work.push_back(c);
    }
  }
  plan->uses.assign(n, 0);
  for (size_t i = 0; i < n; ++i) {
    if (!needed[i]) continue;
    Node* node = graph_.node(static_cast<int>(i) + lo);
    plan->constOrder.push_back(node);
    // Variables are read when a consumer runs (TensorFlow's ref semantics), not in id order, so
    // an Assign under a control dependency is seen by the reads that depend on it.
    if (isVariable(node)) continue;
    plan->order.push_back(node);
    std::vector<std::string> names(node->inputs.size());
    for (size_t k = 0; k < node->inputs.size(); ++k) {
      const Output& in = node->inputs[k];
      bool isRef = std::find(node->op->refInputs.begin(), node->op->refInputs.end(),
                             static_cast<int>(k)) != node->op->refInputs.end();
      if (isRef) {
        if (in.node->type() != "VariableV2")
          invalidArgument("Input " + std::to_string(k) + " of '" + node->name + "' (" +
                          node->type() + ") must be a variable, but is '" + in.node->name +
                          "' (" + in.node->type() + ")");
        names[k] = in.node->name;
      } else if (!fed.count(in) && !isVariable(in.node)) {
        plan->uses[static_cast<size_t>(in.node->id - lo)]++;
      }
    }
    plan->varNames.push_back(std::move(names));
  }
  for (const Output& f : fetches)
    if (!fed.count(f) && !outside(f.node)) plan->uses[static_cast<size_t>(f.node->id - lo)]++;
  return plan;
}

std::vector<Tensor> Session::run(const std::vector<Output>& fetches, const Feeds& feeds,
                                 const std::vector<Node*>& targets, const RunOptions& opts) {
  for (const Output& f : fetches)
    if (!f.node) invalidArgument("Fetch argument None is invalid");
  const Plan& plan = planFor(fetches, feeds, targets);
  lastPlan_ = plan.constOrder;

  // Values by node id; fed outputs are placed first.
  Values values(graph_.size());
  FedValues fedValues;
  for (const auto& [o, t] : feeds) fedValues[o] = validateFeed(o, t);

  DebugHooks* hooks = opts.hooks;
  if (hooks) hooks->runStarted(plan.constOrder);
  transfers_.clear();
  try {
    execute(plan, values, fedValues, opts, hooks);
  } catch (...) {
    endLoops();
    transfers_.forgetAll();
    if (hooks) hooks->runFinished(false);
    throw;
  }
  endLoops();
  if (hooks) hooks->runFinished(true);

  std::vector<Tensor> result;
  result.reserve(fetches.size());
  for (const Output& f : fetches) {
    auto fv = fedValues.find(f);
    if (fv != fedValues.end()) {
      result.push_back(fv->second);
      continue;
    }
    if (isVariable(f.node)) {
      result.push_back(fetched(readVariable(f.node, nullptr), f));
      continue;
    }
    const Tensor& v = values[static_cast<size_t>(f.node->id)][static_cast<size_t>(f.index)];
    if (!v.valid())  // a tensor of tf.cond's branch not taken
      invalidArgument("Retval[" + std::to_string(result.size()) + "] does not have value (" + f.name() +
                      " is in a branch of tf.cond that was not taken)");
    result.push_back(fetched(v, f));
  }
  transfers_.forgetAll();
  return result;
}

void Session::execute(const Plan& plan, Values& values, const FedValues& fedValues, const RunOptions& opts,
                      DebugHooks* hooks) {
  const size_t base = static_cast<size_t>(plan.base);
  std::vector<int32_t> remaining = plan.uses;
  const DeviceSet* devices = graph_.devices();
  const bool multiDevice = devices && devices->gpuCount() > 0;
  std::vector<int8_t> finite;
  std::vector<Tensor> inputs;
  std::vector<std::string> inputNames;
  // Dead nodes (tf.cond's branch not taken): a node is dead when an input comes from a dead
  // output or a control input is dead; Merge is dead only when all its inputs are. Dead nodes
  // do not run and their outputs stay empty. A fed empty value (a dead tensor a loop recorded)
  // is dead too.
  std::vector<char> dead;
  auto isDead = [&](const Node* n) {
    const size_t id = static_cast<size_t>(n->id);
    return !dead.empty() && id >= base && id - base < dead.size() && dead[id - base];
  };
  auto release = [&](size_t step, Node* node) {
    for (size_t k = 0; k < node->inputs.size(); ++k) {
      if (!plan.varNames[step][k].empty()) continue;
      const Output& in = node->inputs[k];
      if (!fedValues.empty() && fedValues.count(in)) continue;
      if (isVariable(in.node)) continue;
      const size_t id = static_cast<size_t>(in.node->id) - base;
      if (--remaining[id] == 0) {
        if (multiDevice)
          for (const Tensor& t : values[id]) transfers_.forget(t);
        values[id].clear();
      }
    }
  };
  for (size_t step = 0; step < plan.order.size(); ++step) {
    Node* node = plan.order[step];
    inputs.clear();
    bool deadInput = false, liveInput = false;
    for (size_t k = 0; k < node->inputs.size(); ++k) {
      const Output& in = node->inputs[k];
      if (!plan.varNames[step][k].empty()) {
        inputs.emplace_back();  // ref input: the kernel goes through Resources
        continue;
      }
      auto f = fedValues.find(in);
      if (f != fedValues.end()) {
        inputs.push_back(f->second);
        if (f->second.valid()) liveInput = true;
        else deadInput = true;
        continue;
      }
      if (isVariable(in.node)) {
        inputs.push_back(readVariable(in.node, node));
        continue;
      }
      const Tensor& v = values[static_cast<size_t>(in.node->id) - base][static_cast<size_t>(in.index)];
      if (!v.valid()) {
        if (!in.node->op->deadOutputs && !isDead(in.node))
          throwError(ErrorCode::Internal, "Input " + in.name() + " of " + node->name + " has no value");
        deadInput = true;
      } else {
        liveInput = true;
      }
      inputs.push_back(v);
    }
    if (!dead.empty())
      for (const Node* ctl : node->controlInputs)
        if (isDead(ctl)) deadInput = true;
    const bool isMerge = node->op->deadOutputs && node->op->type == "Merge";
    if (isMerge ? !liveInput : deadInput) {
      if (dead.empty()) dead.assign(values.size(), 0);
      dead[static_cast<size_t>(node->id) - base] = 1;
      values[static_cast<size_t>(node->id) - base].assign(node->numOutputs(), Tensor());
      release(step, node);
      continue;
    }
    // Where the node runs, and the copies its inputs need to get there.
    const DeviceInfo* where = multiDevice ? devices->find(node->device) : nullptr;
    if (multiDevice && !node->op->readsOnlyShapes) {
      Allocator* home = where && where->allocator ? where->allocator : cpuAllocator();
      for (size_t k = 0; k < inputs.size(); ++k) {
        if (!inputs[k].valid()) continue;
        const bool hostIn = node->op->isHostInput(k, inputs.size());
        Allocator* to = hostIn ? (inputs[k].hostAccessible() ? nullptr : cpuAllocator()) : home;
        if (to) inputs[k] = transfers_.place(inputs[k], to, node->inputs[k].name(), !isVariable(node->inputs[k].node));
      }
    }
    NodeEvent ev;
    if (hooks) {
      ev.node = node;
      ev.op = node->op;
      ev.name = &node->name;
      ev.device = node->device;
      ev.inputs = &inputs;
      ev.step = static_cast<int64_t>(step);
      ev.location = &node->location;
      ev.stack = &node->stack;
      ev.varNames = &plan.varNames[step];
      ev.resources = &resources_;
      if (hooks->beforeNode(ev) == HookAction::Cancel)
        throwError(ErrorCode::Cancelled, "Run cancelled before node " + node->name);
    }
    std::vector<Tensor>& outs = values[static_cast<size_t>(node->id) - base];
    finite.clear();
    if (node->op->type == "While") {
      outs = runWhile(node, inputs, opts);
    } else if (node->op->type == "WhileGrad") {
      outs = runWhileGrad(node, inputs, opts);
    } else {
      OpCall call;
      call.op = node->op;
      call.attrs = &node->attrs;
      call.inputs = &inputs;
      call.name = &node->name;
      call.device = node->device;
      call.where = where;
      call.resources = &resources_;
      call.varNames = &plan.varNames[step];
      call.checkNumerics = opts.checkNumerics;
      call.finite = opts.checkNumerics ? &finite : nullptr;
      outs = runOp(call);
    }
    if (opts.checkNumerics || hooks) {
      ev.node = node;
      ev.op = node->op;
      ev.name = &node->name;
      ev.device = node->device;
      ev.inputs = &inputs;
      ev.outputs = &outs;
      ev.step = static_cast<int64_t>(step);
      ev.location = &node->location;
      ev.stack = &node->stack;
      ev.varNames = &plan.varNames[step];
      ev.resources = &resources_;
    }
    if (opts.checkNumerics) {
      for (size_t k = 0; k < outs.size(); ++k) {
        if (!outs[k].valid() || !isFloating(outs[k].dtype())) continue;
        const int8_t tested = k < finite.size() ? finite[k] : -1;
        if (tested == 1 || (tested < 0 && (sharesBufferWith(outs[k], inputs) || allFinite(outs[k]))))
          continue;
        inputNames.clear();
        for (const Output& in : node->inputs) inputNames.push_back(in.name());
        NumericsReport rep = makeNumericsReport(ev, static_cast<int>(k), countNonFinite(outs[k]), inputNames);
        if (!hooks || hooks->nonFinite(ev, rep) == HookAction::Cancel) throw NumericsError(rep);
        break;
      }
    }
    if (hooks && hooks->afterNode(ev) == HookAction::Cancel)
      throwError(ErrorCode::Cancelled, "Run cancelled after node " + node->name);
    // Release producers whose last consumer this was.
    release(step, node);
  }
}

}  // namespace tlens
