#include "engine/graph/Gradients.h"

#include <map>

#include "engine/core/Error.h"
#include "engine/graph/Builder.h"
#include "engine/graph/Loops.h"

namespace tlens {

namespace {

// The nodes with ids in [lo, hi) are differentiated; the whole graph for tf.gradients, a loop's
// body frame for its gradient (engine/graph/Loops.h).
std::vector<Output> gradientsImpl(Graph& g, const std::vector<Output>& ys, const std::vector<Output>& xs,
                                  const std::vector<Output>& gradYs, int lo, int hi) {
  const size_t n = g.size();
  // Nodes that depend on some x (forward reachable) and on which some y depends (backward).
  std::vector<char> fromX(n, 0), toY(n, 0);
  for (const Output& x : xs) fromX[static_cast<size_t>(x.node->id)] = 1;
  for (size_t i = static_cast<size_t>(lo); i < static_cast<size_t>(hi); ++i) {
    Node& node = g.nodes()[i];
    if (fromX[i]) continue;
    for (const Output& in : node.inputs)
      if (fromX[static_cast<size_t>(in.node->id)] && node.op->differentiable) fromX[i] = 1;
  }
  int maxY = -1;
  for (const Output& y : ys) {
    toY[static_cast<size_t>(y.node->id)] = 1;
    maxY = std::max(maxY, y.node->id);
  }
  for (int i = maxY; i >= lo; --i) {
    if (!toY[static_cast<size_t>(i)] || i >= hi) continue;
    for (const Output& in : g.nodes()[static_cast<size_t>(i)].inputs) toY[static_cast<size_t>(in.node->id)] = 1;
  }

  // Pending partial gradients per output.
  std::map<Output, std::vector<Output>> pending;
  g.pushNameScope("gradients");
  for (size_t i = 0; i < ys.size(); ++i) {
    Output seed = i < gradYs.size() && gradYs[i] ? gradYs[i] : ops::onesLike(g, ys[i]);
    pending[ys[i]].push_back(seed);
  }

  auto sumOf = [&](std::vector<Output>& parts) -> Output {
    if (parts.empty()) return {};
    if (parts.size() == 1) return parts[0];
    return ops::addN(g, parts);
  };

  std::map<Output, Output> result;
  for (int i = maxY; i >= lo; --i) {
    const size_t ui = static_cast<size_t>(i);
    if (!fromX[ui] || !toY[ui] || i >= hi) continue;
    Node& node = g.nodes()[ui];
    std::vector<Output> dys(node.numOutputs());
    bool any = false;
    for (size_t k = 0; k < node.numOutputs(); ++k) {
      auto it = pending.find(Output{&node, static_cast<int>(k)});
      if (it == pending.end()) continue;
      dys[k] = sumOf(it->second);
      result[Output{&node, static_cast<int>(k)}] = dys[k];
      any = true;
    }
    if (!any || node.inputs.empty()) continue;
    if (!node.op->differentiable) continue;
    if (!node.op->grad)
      invalidArgument("No gradient defined for operation '" + node.name + "' (op type: " +
                      node.type() + ")");
    CreationContext saved = g.creation();
    g.creation().location = node.location;  // gradient nodes point back at the forward line
    g.creation().stack = node.stack;
    g.pushNameScope(node.name + "_grad");
    GradContext ctx{g, node, dys};
    std::vector<Output> dxs = node.op->grad(ctx);
    g.popNameScope();
    g.creation() = saved;
    for (size_t k = 0; k < node.inputs.size() && k < dxs.size(); ++k) {
      if (!dxs[k]) continue;
      const Output& in = node.inputs[k];
      if (!fromX[static_cast<size_t>(in.node->id)]) continue;
      pending[in].push_back(dxs[k]);
    }
  }
  // xs themselves may be sources with pending grads not yet summed (when x is not a y).
  std::vector<Output> out;
  for (const Output& x : xs) {
    auto r = result.find(x);
    if (r != result.end()) {
      out.push_back(r->second);
      continue;
    }
    auto it = pending.find(x);
    out.push_back(it == pending.end() ? Output{} : sumOf(it->second));
  }
  g.popNameScope();
  return out;
}

}  // namespace

std::vector<Output> gradients(Graph& g, const std::vector<Output>& ys, const std::vector<Output>& xs,
                              const std::vector<Output>& gradYs) {
  return gradientsImpl(g, ys, xs, gradYs, 0, static_cast<int>(g.size()));
}

std::vector<Output> gradientsInRange(Graph& g, const std::vector<Output>& ys, const std::vector<Output>& xs,
                                     const std::vector<Output>& gradYs, int lo, int hi) {
  return gradientsImpl(g, ys, xs, gradYs, lo, hi);
}

}  // namespace tlens
