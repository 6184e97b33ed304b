#include "engine/runtime/Eager.h"

#include <algorithm>

#include "engine/graph/Builder.h"
#include "engine/graph/Gradients.h"
#include "engine/ops/OpRegistry.h"
#include "engine/runtime/OpRunner.h"

namespace tlens {

EagerContext::EagerContext() = default;

void EagerContext::popTape(GradientTape* t) {
  auto it = std::find(tapes_.begin(), tapes_.end(), t);
  if (it != tapes_.end()) tapes_.erase(it);
}

std::vector<EagerValue> EagerContext::execute(std::string_view type,
                                              const std::vector<EagerValue>& inputs,
                                              const Attrs& attrs,
                                              const std::vector<std::string>& varNames) {
  return execute(OpRegistry::global().get(type), inputs, attrs, varNames);
}

std::vector<EagerValue> EagerContext::execute(const OpDef& op, const std::vector<EagerValue>& in,
                                              const Attrs& rawAttrs,
                                              const std::vector<std::string>& varNames) {
  const Attrs attrs = op.attrs.empty() ? rawAttrs : op.withDefaults(rawAttrs);
  std::vector<Tensor> inputs;
  inputs.reserve(in.size());
  for (const EagerValue& v : in) inputs.push_back(v.tensor);
  const std::string& name = op.type;
  bool strings = false;
  for (const Tensor& t : inputs) strings = strings || t.dtype() == DType::String;
  lastPlacement_ = placement(op, varNames, strings);
  const Device device = lastPlacement_.device;
  const DeviceInfo* where = nullptr;
  if (devices_ && devices_->gpuCount() > 0) where = devices_->find(device);
  if (where && !op.readsOnlyShapes) {
    Allocator* home = where && where->allocator ? where->allocator : cpuAllocator();
    for (size_t k = 0; k < inputs.size(); ++k) {
      if (!inputs[k].valid()) continue;
      const bool hostIn = op.isHostInput(k, inputs.size());
      Allocator* to = hostIn ? (inputs[k].hostAccessible() ? nullptr : cpuAllocator()) : home;
      if (to) inputs[k] = transfers_.place(inputs[k], to, op.type + " input " + std::to_string(k), false);
    }
  }
  OpCall call;
  call.op = &op;
  call.attrs = &attrs;
  call.inputs = &inputs;
  call.name = &name;
  call.device = device;
  call.where = where;
  call.resources = &resources_;
  call.varNames = varNames.empty() ? nullptr : &varNames;

  NodeEvent ev;
  if (hooks_ || checkNumerics_) {
    ev.op = &op;
    ev.name = &name;
    ev.device = device;
    ev.inputs = &inputs;
    ev.step = opCount_;
    ev.location = &creation_.location;
    ev.stack = &creation_.stack;
    ev.varNames = call.varNames;
    ev.resources = &resources_;
  }
  ++opCount_;
  if (hooks_ && hooks_->beforeNode(ev) == HookAction::Cancel)
    throwError(ErrorCode::Cancelled, "Cancelled before eager op " + op.type);
  std::vector<Tensor> outs = runOp(call);
  ev.outputs = &outs;
  if (checkNumerics_) {
    for (size_t k = 0; k < outs.size(); ++k) {
      if (!outs[k].valid() || sharesBufferWith(outs[k], inputs) || allFinite(outs[k])) continue;
      NumericsReport rep = makeNumericsReport(ev, static_cast<int>(k), countNonFinite(outs[k]), {});
      if (!hooks_ || hooks_->nonFinite(ev, rep) == HookAction::Cancel) throw NumericsError(rep);
      break;
    }
  }
  if (hooks_ && hooks_->afterNode(ev) == HookAction::Cancel)
    throwError(ErrorCode::Cancelled, "Cancelled after eager op " + op.type);

  std::vector<EagerValue> result;
  result.reserve(outs.size());
  for (Tensor& t : outs) result.push_back(EagerValue{std::move(t), nextId()});
  if (recording())
    for (GradientTape* tape : tapes_) tape->record(op, attrs, in, result, creation_);
  return result;
}

Placement EagerContext::placement(const OpDef& op, const std::vector<std::string>& varNames, bool strings) {
  // The common case costs nothing: no GPU and no tf.device scope is always the CPU.
  if (deviceScopes_.empty() && (!devices_ || devices_->gpuCount() == 0)) return Placement{};
  // An op that updates a variable runs where the variable lives.
  if (!op.refInputs.empty()) {
    size_t r = static_cast<size_t>(op.refInputs[0]);
    if (r < varNames.size() && !varNames[r].empty())
      if (const Tensor* v = resources_.variable(varNames[r]); v && v->valid()) {
        Device d = v->device();
        return placeOp(op, {}, devices_, &d);
      }
  }
  return placeOp(op, deviceScope(), devices_, nullptr, strings);
}

void GradientTape::watch(const EagerValue& v) {
  watched_.insert(v.id);
  outputFor(v);
}

Output GradientTape::outputFor(const EagerValue& v) {
  auto it = onTape_.find(v.id);
  if (it != onTape_.end()) return it->second;
  // A tensor from outside the tape enters as a placeholder fed with its value.
  Output o = ops::placeholder(graph_, v.tensor.dtype(), Shape::fromConcrete(v.tensor.shape()));
  onTape_.emplace(v.id, o);
  values_.emplace_back(o, v.tensor);
  return o;
}

void GradientTape::record(const OpDef& op, const Attrs& attrs, const std::vector<EagerValue>& inputs,
                          const std::vector<EagerValue>& outputs, const CreationContext& where) {
  bool touches = false;
  for (const EagerValue& v : inputs) touches = touches || watching(v.id);
  if (!touches || !op.differentiable) return;
  std::vector<Output> ins;
  ins.reserve(inputs.size());
  for (const EagerValue& v : inputs) ins.push_back(outputFor(v));
  graph_.creation() = where;
  Graph::NodeOptions opts;
  opts.tolerateShapeErrors = true;
  Node* n = graph_.addNode(op.type, std::move(ins), attrs, opts);
  for (size_t k = 0; k < outputs.size() && k < n->numOutputs(); ++k) {
    Output o{n, static_cast<int>(k)};
    onTape_[outputs[k].id] = o;
    recorded_.insert(outputs[k].id);
    values_.emplace_back(o, outputs[k].tensor);
  }
}

std::vector<Tensor> GradientTape::gradient(EagerContext& ctx, const EagerValue& target,
                                           const std::vector<EagerValue>& sources,
                                           const Tensor* outputGradient) {
  if (used_ && !persistent_)
    throwError(ErrorCode::FailedPrecondition,
               "A non-persistent GradientTape can only be used to compute one set of gradients (or "
               "jacobians)");
  used_ = true;
  std::vector<Tensor> result(sources.size());
  auto t = onTape_.find(target.id);
  if (t == onTape_.end()) return result;  // target not computed from anything watched
  std::vector<Output> xs;
  std::vector<size_t> which;
  for (size_t i = 0; i < sources.size(); ++i) {
    if (!watching(sources[i].id)) continue;  // TF: no gradient to an unwatched tensor
    auto s = onTape_.find(sources[i].id);
    if (s == onTape_.end()) continue;
    xs.push_back(s->second);
    which.push_back(i);
  }
  if (xs.empty()) return result;
  std::vector<Output> seeds;
  Feeds feeds = values_;
  if (outputGradient) {
    Output seed = ops::placeholder(graph_, outputGradient->dtype(),
                                   Shape::fromConcrete(outputGradient->shape()));
    seeds.push_back(seed);
    feeds.emplace_back(seed, *outputGradient);
  }
  std::vector<Output> grads = gradients(graph_, {t->second}, xs, seeds);
  std::vector<Output> fetch;
  std::vector<size_t> fetchIdx;
  for (size_t i = 0; i < grads.size(); ++i)
    if (grads[i]) {
      fetch.push_back(grads[i]);
      fetchIdx.push_back(which[i]);
    }
  Session s(graph_);
  ctx.pauseRecording_ = true;
  std::vector<Tensor> vals;
  try {
    vals = s.run(fetch, feeds);
  } catch (...) {
    ctx.pauseRecording_ = false;
    throw;
  }
  ctx.pauseRecording_ = false;
  for (size_t i = 0; i < vals.size(); ++i) result[fetchIdx[i]] = vals[i];
  return result;
}

}  // namespace tlens
