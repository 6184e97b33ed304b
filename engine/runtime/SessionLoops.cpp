// The Session's loops (engine/graph/Loops.h): a While node runs its condition frame, then its body
// frame, with nested runs of the executor until the condition fails; when a gradient of it exists
// it records, per iteration, the body tensors that gradient reads. A WhileGrad node runs the
// body's gradient frame once per recorded iteration, last first, summing the gradients of the
// tensors the body captured and stacking those of its sliced inputs.
#include <cstring>

#include "engine/graph/Loops.h"
#include "engine/ops/OpRegistry.h"
#include "engine/runtime/OpRunner.h"
#include "engine/runtime/SessionPlan.h"

namespace tlens {

namespace {

bool isVariable(const Node* n) { return n->type() == "VariableV2"; }

Tensor onHost(const Tensor& t) { return t.valid() && !t.hostAccessible() ? t.toHost() : t; }

/// Element i of `t` along its first axis.
Tensor sliceRow(const Tensor& src, int64_t i) {
  const Tensor t = onHost(src);
  ConcreteShape shape(t.shape().begin() + 1, t.shape().end());
  const int64_t row = numElements(shape);
  if (t.dtype() == DType::String) {
    std::vector<std::string> v(t.strings() + i * row, t.strings() + (i + 1) * row);
    return Tensor::fromStrings(std::move(v), shape);
  }
  Tensor out(t.dtype(), shape, cpuAllocator(), "while_loop slice");
  const size_t bytes = out.bytes();
  if (bytes) std::memcpy(out.raw(), static_cast<const char*>(t.raw()) + static_cast<size_t>(i) * bytes, bytes);
  return out;
}

/// Copies `row` into element i of `dst` (a host tensor of the same dtype).
void setRow(Tensor& dst, int64_t i, const Tensor& src) {
  const Tensor row = onHost(src);
  const int64_t per = dst.rank() > 0 && dst.dim(0) > 0 ? dst.numElements() / dst.dim(0) : 0;
  if (row.numElements() != per)
    invalidArgument("tf.while_loop: an iteration's value of shape " + concreteStr(row.shape()) +
                    " does not fit the stacked shape " + concreteStr(dst.shape()));
  if (dst.dtype() == DType::String) {
    for (int64_t k = 0; k < per; ++k) dst.strings()[i * per + k] = row.strings()[k];
    return;
  }
  const size_t bytes = row.bytes();
  if (bytes) std::memcpy(static_cast<char*>(dst.raw()) + static_cast<size_t>(i) * bytes, row.raw(), bytes);
}

/// The per-iteration values stacked along a new first axis; `elem` gives the shape of an empty result.
Tensor stackRows(const std::vector<Tensor>& rows, DType dtype, const Shape& elem) {
  ConcreteShape shape{static_cast<int64_t>(rows.size())};
  if (!rows.empty()) {
    shape.insert(shape.end(), rows[0].shape().begin(), rows[0].shape().end());
  } else if (elem.rankKnown()) {
    for (const Dim& d : elem.dims()) shape.push_back(d.isKnown() ? d.size : 0);
  }
  Tensor out = dtype == DType::String ? Tensor::fromStrings(std::vector<std::string>(static_cast<size_t>(numElements(shape))), shape)
                                      : Tensor(dtype, shape, cpuAllocator(), "while_loop stack");
  for (size_t i = 0; i < rows.size(); ++i) {
    if (rows[i].shape() != rows[0].shape())
      invalidArgument("tf.while_loop: the values stacked across iterations have different shapes: " +
                      concreteStr(rows[0].shape()) + " and " + concreteStr(rows[i].shape()));
    setRow(out, static_cast<int64_t>(i), rows[i]);
  }
  return out;
}

Tensor zerosOf(const Tensor& like) {
  if (like.dtype() == DType::String) return like;
  return Tensor::filled(like.dtype(), like.shape(), 0.0);
}

/// a + b on the CPU, through the registry's Add (the sums of per-iteration gradients).
Tensor addTensors(const Tensor& a, const Tensor& b, Resources& res) {
  static const std::string name = "while_grad/accumulate";
  std::vector<Tensor> in{onHost(a), onHost(b)};
  Attrs attrs;
  OpCall call;
  call.op = &OpRegistry::global().get("Add");
  call.attrs = &attrs;
  call.inputs = &in;
  call.name = &name;
  call.resources = &res;
  return runOp(call).at(0);
}

}  // namespace

void Session::endLoops() { loops_->traces.clear(); }

std::vector<Tensor> Session::runFrame(const Plan& plan, const FedValues& fedValues, const std::vector<Output>& fetches,
                                      const RunOptions& opts) {
  Values values(plan.uses.size());
  // The debugger sees each iteration's nodes (a breakpoint on a body line stops once per iteration).
  execute(plan, values, fedValues, opts, opts.hooks);
  std::vector<Tensor> out;
  out.reserve(fetches.size());
  for (const Output& f : fetches) {
    if (!f) {
      out.emplace_back();
      continue;
    }
    auto fv = fedValues.find(f);
    if (fv != fedValues.end()) {
      out.push_back(fv->second);
    } else if (isVariable(f.node)) {
      out.push_back(readVariable(f.node, nullptr));
    } else {
      const auto& vs = values[static_cast<size_t>(f.node->id - plan.base)];
      out.push_back(static_cast<size_t>(f.index) < vs.size() ? vs[static_cast<size_t>(f.index)] : Tensor());
    }
  }
  return out;
}

std::vector<Tensor> Session::runWhile(Node* node, const std::vector<Tensor>& inputs, const RunOptions& opts) {
  const WhileInfo w = WhileInfo::of(graph_, *node);
  const size_t n = static_cast<size_t>(w.numVars), ns = static_cast<size_t>(w.numSliced),
               ne = static_cast<size_t>(w.numEmits);
  // Feeds every iteration shares: the captured tensors (variables are read where used).
  FedValues feeds;
  std::map<Output, bool> fed;
  for (size_t k = n + ns; k < node->inputs.size(); ++k) {
    const Output& in = node->inputs[k];
    if (isVariable(in.node)) continue;
    feeds[in] = inputs[k];
    fed[in] = true;
  }
  for (Node* p : w.params) fed[p->out(0)] = true;
  std::vector<Output> bodyFetches = w.body;
  bodyFetches.insert(bodyFetches.end(), w.record.begin(), w.record.end());
  auto framePlan = [&](int which, const std::vector<Output>& fetches) -> const Plan& {
    auto& slot = loops_->plans[{node->id, which}];
    if (!slot.second || slot.first != graph_.size()) {
      slot.second = buildPlan(fetches, fed, {}, w.frameFirst, w.frameEnd);
      slot.first = graph_.size();
    }
    return *slot.second;
  };
  const Plan& condPlan = framePlan(0, {w.cond});
  const Plan& bodyPlan = framePlan(1, bodyFetches);

  std::vector<Tensor> vars(inputs.begin(), inputs.begin() + static_cast<std::ptrdiff_t>(n));
  for (size_t i = 0; i < ns; ++i)
    if (inputs[n + i].rank() == 0) invalidArgument(node->name + ": a sliced input of a loop must have rank >= 1");
  std::vector<std::vector<Tensor>> emitted(ne);
  std::vector<FedValues>* trace = nullptr;
  int64_t handle = 0;
  if (!w.record.empty() || AttrReader(node->attrs).getBool("has_gradient")) {
    handle = loops_->nextTrace++;
    trace = &loops_->traces[handle];
  }
  for (int64_t iter = 0;; ++iter) {
    for (size_t j = 0; j < n; ++j) feeds[w.params[j]->out(0)] = vars[j];
    bool sliceable = true;
    for (size_t i = 0; i < ns; ++i) {
      const Tensor& src = inputs[n + i];
      if (iter < src.dim(0)) feeds[w.params[n + i]->out(0)] = sliceRow(src, iter);
      else sliceable = false;
    }
    const Tensor c = onHost(runFrame(condPlan, feeds, {w.cond}, opts).at(0));
    if (!c.valid() || c.dtype() != DType::Bool || c.numElements() != 1)
      invalidArgument(node->name + ": the loop condition must be a scalar bool, but is " +
                      (c.valid() ? c.typeStr() : std::string("dead")));
    if (!c.data<bool>()[0]) break;
    if (!sliceable)
      invalidArgument(node->name + ": iteration " + std::to_string(iter) +
                      " reads past the end of a sliced input (the loop runs longer than its input)");
    std::vector<Tensor> outs = runFrame(bodyPlan, feeds, bodyFetches, opts);
    for (size_t j = 0; j < n; ++j) {
      const Tensor& v = outs[j];
      if (!v.valid()) invalidArgument(node->name + ": loop variable " + std::to_string(j) + " has no value after an iteration");
      if (!node->outputs[j].shape.accepts(v.shape()))
        invalidArgument(node->name + ": loop variable " + std::to_string(j) + " has shape " + concreteTfStr(v.shape()) +
                        " after an iteration, which does not fit its shape invariant " +
                        node->outputs[j].shape.tfStr());
    }
    for (size_t k = 0; k < ne; ++k) emitted[k].push_back(onHost(outs[n + k]));
    if (trace) {
      FedValues rec;
      for (size_t r = 0; r < w.record.size(); ++r) rec[w.record[r]] = outs[n + ne + r];
      trace->push_back(std::move(rec));
    }
    vars.assign(outs.begin(), outs.begin() + static_cast<std::ptrdiff_t>(n));
  }
  std::vector<Tensor> result = std::move(vars);
  for (size_t k = 0; k < ne; ++k) {
    const TensorType& t = w.body[n + k].type();
    result.push_back(stackRows(emitted[k], node->outputs[n + k].dtype, t.shape));
  }
  result.push_back(Tensor::scalar<int64_t>(handle));
  return result;
}

std::vector<Tensor> Session::runWhileGrad(Node* node, const std::vector<Tensor>& inputs, const RunOptions& opts) {
  const WhileGradInfo w = WhileGradInfo::of(graph_, *node);
  const size_t n = static_cast<size_t>(w.numVars), ns = static_cast<size_t>(w.numSliced),
               ne = static_cast<size_t>(w.numEmits), nf = static_cast<size_t>(w.numForwardInputs);
  const size_t firstDy = 1, firstFwd = 1 + n + ne, firstExt = firstFwd + nf;
  const Tensor handle = onHost(inputs[0]);
  auto it = loops_->traces.find(handle.getInt(0));
  if (handle.getInt(0) == 0 || it == loops_->traces.end())
    throwError(ErrorCode::Internal, node->name + ": the forward loop recorded no iterations in this run");
  const std::vector<FedValues>& trace = it->second;

  FedValues feeds;
  std::map<Output, bool> fed;
  for (size_t k = firstExt; k < node->inputs.size(); ++k) {
    const Output& in = node->inputs[k];
    if (isVariable(in.node)) continue;
    feeds[in] = inputs[k];
    fed[in] = true;
  }
  for (Node* d : w.dparams)
    if (d) fed[d->out(0)] = true;
  if (w.forward)
    for (const Output& r : WhileInfo::of(graph_, *w.forward).record) fed[r] = true;
  auto& slot = loops_->plans[{node->id, 2}];
  if (!slot.second || slot.first != graph_.size()) {
    std::vector<Output> fetches;
    for (const Output& r : w.results)
      if (r) fetches.push_back(r);
    slot.second = buildPlan(fetches, fed, {}, w.frameFirst, w.frameEnd);
    slot.first = graph_.size();
  }
  const Plan& plan = *slot.second;

  std::vector<Tensor> dvars(inputs.begin() + firstDy, inputs.begin() + static_cast<std::ptrdiff_t>(firstDy + n));
  std::vector<Tensor> demits;
  for (size_t k = 0; k < ne; ++k) demits.push_back(onHost(inputs[firstDy + n + k]));
  std::vector<Tensor> dsliced;
  for (size_t i = 0; i < ns; ++i) {
    const Tensor& src = inputs[firstFwd + n + i];
    dsliced.push_back(w.results[n + i] ? Tensor::filled(src.dtype(), src.shape(), 0.0) : src);
  }
  const size_t nc = w.captures.size();
  std::vector<Tensor> dcaps(nc);
  const int64_t iters = static_cast<int64_t>(trace.size());
  for (int64_t t = iters - 1; t >= 0; --t) {
    FedValues f = feeds;
    for (const auto& [o, v] : trace[static_cast<size_t>(t)]) f[o] = v;
    for (size_t j = 0; j < n; ++j)
      if (w.dparams[j]) f[w.dparams[j]->out(0)] = dvars[j];
    for (size_t k = 0; k < ne; ++k)
      if (w.dparams[n + k]) {
        if (demits[k].rank() == 0 || demits[k].dim(0) != iters)
          invalidArgument(node->name + ": the gradient of a stacked loop output has shape " +
                          concreteTfStr(demits[k].shape()) + " for " + std::to_string(iters) + " iterations");
        f[w.dparams[n + k]->out(0)] = sliceRow(demits[k], t);
      }
    std::vector<Tensor> res = runFrame(plan, f, w.results, opts);
    for (size_t j = 0; j < n; ++j)
      if (w.results[j] && res[j].valid()) dvars[j] = res[j];
    for (size_t i = 0; i < ns; ++i)
      if (w.results[n + i] && res[n + i].valid()) setRow(dsliced[i], t, res[n + i]);
    for (size_t c = 0; c < nc; ++c) {
      const Tensor& g = res[n + ns + c];
      if (!g.valid()) continue;
      dcaps[c] = dcaps[c].valid() ? addTensors(dcaps[c], g, resources_) : g;
    }
  }
  std::vector<Tensor> out;
  for (size_t j = 0; j < n; ++j) out.push_back(w.results[j] ? dvars[j] : inputs[firstFwd + j]);
  for (size_t i = 0; i < ns; ++i) out.push_back(dsliced[i]);
  for (size_t c = 0; c < nc; ++c)
    out.push_back(dcaps[c].valid() ? dcaps[c] : zerosOf(inputs[firstFwd + static_cast<size_t>(w.captures[c])]));
  return out;
}

}  // namespace tlens
