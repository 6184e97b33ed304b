#include "engine/graph/Loops.h"

#include <algorithm>
#include <set>

#include "engine/core/Error.h"
#include "engine/graph/Builder.h"

namespace tlens {

namespace {

bool isVariable(const Node* n) { return n->type() == "VariableV2"; }

bool isRefInput(const Node* n, size_t k) {
  const auto& refs = n->op->refInputs;
  return std::find(refs.begin(), refs.end(), static_cast<int>(k)) != refs.end();
}

int64_t encodeDim(const Dim& d) {
  if (d.isKnown()) return d.size;
  if (d.isSymbolic()) return -static_cast<int64_t>(d.sym) - 2;
  return -1;
}

Dim decodeDim(int64_t v) {
  if (v >= 0) return Dim::known(v);
  if (v == -1) return Dim::unknown();
  return Dim::symbol(static_cast<uint32_t>(-v - 2));
}

std::vector<int64_t> intsAttr(const Node& n, const char* name) {
  return AttrReader(n.attrs).getInts(name).value_or(std::vector<int64_t>{});
}

Node* nodeOrNull(Graph& g, int64_t id) {
  return id < 0 || static_cast<size_t>(id) >= g.size() ? nullptr : g.node(static_cast<int>(id));
}

}  // namespace

std::vector<int64_t> encodeTypes(const std::vector<TensorType>& types) {
  std::vector<int64_t> code;
  for (const TensorType& t : types) {
    code.push_back(static_cast<int64_t>(t.dtype));
    code.push_back(t.shape.rank());
    if (t.shape.rankKnown())
      for (const Dim& d : t.shape.dims()) code.push_back(encodeDim(d));
  }
  return code;
}

std::vector<TensorType> decodeTypes(const std::vector<int64_t>& code) {
  std::vector<TensorType> types;
  for (size_t i = 0; i + 1 < code.size();) {
    TensorType t;
    t.dtype = static_cast<DType>(code[i]);
    const int64_t rank = code[i + 1];
    i += 2;
    if (rank >= 0) {
      std::vector<Dim> dims;
      for (int64_t k = 0; k < rank && i < code.size(); ++k) dims.push_back(decodeDim(code[i++]));
      t.shape = Shape(std::move(dims));
    }
    types.push_back(std::move(t));
  }
  return types;
}

std::vector<int64_t> encodeOutputs(const std::vector<Output>& outs) {
  std::vector<int64_t> code;
  for (const Output& o : outs) {
    code.push_back(o ? o.node->id : -1);
    code.push_back(o ? o.index : 0);
  }
  return code;
}

std::vector<Output> decodeOutputs(Graph& g, const std::vector<int64_t>& code) {
  std::vector<Output> outs;
  for (size_t i = 0; i + 1 < code.size(); i += 2) {
    Node* n = nodeOrNull(g, code[i]);
    outs.push_back(n ? Output{n, static_cast<int>(code[i + 1])} : Output{});
  }
  return outs;
}

/// The attributes a While and its WhileGrad share: the variable counts and the frame's id range.
template <class Info>
void readLoopCounts(const Node& n, Info& w) {
  AttrReader a(n.attrs);
  w.numVars = static_cast<int>(a.getInt("num_vars"));
  w.numSliced = static_cast<int>(a.getInt("num_sliced"));
  w.numEmits = static_cast<int>(a.getInt("num_emits"));
  std::vector<int64_t> frame = intsAttr(n, "frame");
  if (frame.size() == 2) {
    w.frameFirst = static_cast<int>(frame[0]);
    w.frameEnd = static_cast<int>(frame[1]);
  }
}

WhileInfo WhileInfo::of(Graph& g, const Node& n) {
  WhileInfo w;
  readLoopCounts(n, w);
  for (int64_t id : intsAttr(n, "params")) w.params.push_back(nodeOrNull(g, id));
  std::vector<Output> cond = decodeOutputs(g, intsAttr(n, "cond"));
  if (!cond.empty()) w.cond = cond[0];
  w.body = decodeOutputs(g, intsAttr(n, "body"));
  w.record = decodeOutputs(g, intsAttr(n, "record"));
  return w;
}

WhileGradInfo WhileGradInfo::of(Graph& g, const Node& n) {
  AttrReader a(n.attrs);
  WhileGradInfo w;
  readLoopCounts(n, w);
  w.numForwardInputs = static_cast<int>(a.getInt("num_forward_inputs"));
  w.forward = nodeOrNull(g, a.getInt("forward", -1));
  for (int64_t id : intsAttr(n, "dparams")) w.dparams.push_back(nodeOrNull(g, id));
  w.results = decodeOutputs(g, intsAttr(n, "results"));
  for (int64_t k : intsAttr(n, "captures")) w.captures.push_back(static_cast<int>(k));
  return w;
}

Node* addWhile(Graph& g, const WhileSpec& s, const std::string& name) {
  const size_t n = s.inits.size(), ns = s.sliced.size();
  if (s.params.size() != n + ns || s.next.size() != n || s.varTypes.size() != n || !s.cond)
    invalidArgument("tf.while_loop: the loop's parameters and results do not match its variables");
  for (size_t j = 0; j < n; ++j) {
    const TensorType& want = s.varTypes[j];
    const TensorType& got = s.next[j].type();
    if (want.dtype != DType::Invalid && got.dtype != DType::Invalid && want.dtype != got.dtype)
      invalidArgument("Input tensor '" + s.inits[j].name() + "' enters the loop with type " +
                      std::string(dtypeName(want.dtype)) + ", but has type " + std::string(dtypeName(got.dtype)) +
                      " after 1 iteration.");
    if (!want.shape.compatible(got.shape))
      invalidArgument("Input tensor '" + s.inits[j].name() + "' enters the loop with shape " + want.shape.tfStr() +
                      ", but has shape " + got.shape.tfStr() + " after one iteration.");
  }
  const int first = s.frameFirst, end = static_cast<int>(g.size());
  // The frame's nodes the results need, and what they read from outside it.
  std::vector<Output> fetches{s.cond};
  fetches.insert(fetches.end(), s.next.begin(), s.next.end());
  fetches.insert(fetches.end(), s.emits.begin(), s.emits.end());
  std::vector<Output> captures;
  std::set<Output> captured;
  std::vector<Node*> controls;
  std::vector<char> seen(static_cast<size_t>(std::max(0, end - first)), 0);
  std::vector<Node*> work;
  auto reach = [&](const Output& o) {
    if (o.node->id < first || isVariable(o.node)) {
      if (captured.insert(o).second) captures.push_back(o);
    } else {
      work.push_back(o.node);
    }
  };
  for (const Output& f : fetches) reach(f);
  while (!work.empty()) {
    Node* node = work.back();
    work.pop_back();
    char& mark = seen[static_cast<size_t>(node->id - first)];
    if (mark) continue;
    mark = 1;
    for (size_t k = 0; k < node->inputs.size(); ++k)
      if (!isRefInput(node, k)) reach(node->inputs[k]);
    for (Node* c : node->controlInputs) {
      if (c->id >= first) work.push_back(c);
      else if (std::find(controls.begin(), controls.end(), c) == controls.end()) controls.push_back(c);
    }
  }
  std::vector<Output> inputs = s.inits;
  inputs.insert(inputs.end(), s.sliced.begin(), s.sliced.end());
  inputs.insert(inputs.end(), captures.begin(), captures.end());
  std::vector<TensorType> outTypes = s.varTypes;
  for (const Output& e : s.emits) {
    const TensorType& t = e.type();
    TensorType stacked(t.dtype, Shape::unknownRank());
    if (t.shape.rankKnown()) {
      std::vector<Dim> dims{Dim::unknown()};
      dims.insert(dims.end(), t.shape.dims().begin(), t.shape.dims().end());
      stacked.shape = Shape(std::move(dims));
    }
    outTypes.push_back(std::move(stacked));
  }
  std::vector<int64_t> params;
  for (Node* p : s.params) params.push_back(p->id);
  std::vector<Output> body = s.next;
  body.insert(body.end(), s.emits.begin(), s.emits.end());
  Attrs attrs{{"num_vars", static_cast<int64_t>(n)},
              {"num_sliced", static_cast<int64_t>(ns)},
              {"num_emits", static_cast<int64_t>(s.emits.size())},
              {"frame", std::vector<int64_t>{first, end}},
              {"params", params},
              {"cond", encodeOutputs({s.cond})},
              {"body", encodeOutputs(body)},
              {"out_types", encodeTypes(outTypes)},
              {"record", std::vector<int64_t>{}}};
  NodeOptions o;
  o.name = name.empty() ? "While" : name;
  g.pushControlDependencies(controls);
  Node* w = nullptr;
  try {
    w = g.addNode("While", std::move(inputs), std::move(attrs), o);
  } catch (...) {
    g.popControlDependencies();
    throw;
  }
  g.popControlDependencies();
  return w;
}

std::vector<Output> whileGradient(GradContext& ctx) {
  Graph& g = ctx.graph;
  Node& w = *g.node(ctx.node.id);
  const WhileInfo wi = WhileInfo::of(g, w);
  const size_t n = static_cast<size_t>(wi.numVars), ns = static_cast<size_t>(wi.numSliced),
               ne = static_cast<size_t>(wi.numEmits);
  const size_t numIn = w.inputs.size(), m = numIn - n - ns;
  std::vector<Output> none(numIn);

  // The gradient frame: the incoming gradients as parameters, and the body's gradient.
  const int first = static_cast<int>(g.size());
  std::vector<Node*> dparams(n + ne, nullptr);
  std::vector<Output> ys, gys;
  for (size_t k = 0; k < n + ne; ++k) {
    const Output y = wi.body[k];
    const TensorType& t = k < n ? w.outputs[k] : y.type();
    if (!isFloating(t.dtype) || !isFloating(y.type().dtype)) continue;
    NodeOptions o;
    o.name = k < n ? "dvar" : "demit";
    dparams[k] = g.addNode("LoopArg", {}, {{"dtype", t.dtype}, {"shape", t.shape}}, o);
    ys.push_back(y);
    gys.push_back(dparams[k]->out(0));
  }
  if (ys.empty()) return none;
  std::vector<Output> xs;
  for (Node* p : wi.params) xs.push_back(p->out(0));
  for (size_t c = n + ns; c < numIn; ++c) xs.push_back(w.inputs[c]);
  std::vector<Output> grads = gradientsInRange(g, ys, xs, gys, wi.frameFirst, wi.frameEnd);
  std::vector<Output> results(n + ns);
  std::vector<int64_t> captures;
  for (size_t k = 0; k < n + ns; ++k) {
    if (!isFloating(xs[k].type().dtype)) continue;
    results[k] = grads[k] ? grads[k] : ops::zerosLike(g, xs[k]);
  }
  for (size_t c = 0; c < m; ++c) {
    const Output& gr = grads[n + ns + c];
    if (!gr || !isFloating(xs[n + ns + c].type().dtype)) continue;
    results.push_back(gr);
    captures.push_back(static_cast<int64_t>(n + ns + c));
  }
  const int end = static_cast<int>(g.size());

  // What the gradient frame reads: the forward body's tensors (recorded per iteration) and
  // tensors from outside both frames (inputs of the WhileGrad node); variables are read directly.
  std::set<Output> record;
  for (const Output& r : wi.record) if (r) record.insert(r);
  std::vector<Output> externals;
  std::set<Output> external;
  auto classify = [&](const Output& in) {
    const int id = in.node->id;
    if ((id >= first && id < end) || isVariable(in.node)) return;
    if (id >= wi.frameFirst && id < wi.frameEnd) record.insert(in);
    else if (external.insert(in).second) externals.push_back(in);
  };
  // Walked from the results, as the WhileGrad's plan will: the frames of loops nested in the body
  // (their own gradient frames included) are run by their own nodes, not by this frame.
  std::vector<char> seen(static_cast<size_t>(end - first), 0);
  std::vector<Node*> work;
  auto visit = [&](const Output& o) {
    if (o.node->id >= first && o.node->id < end) work.push_back(o.node);
    else classify(o);
  };
  for (const Output& r : results)
    if (r) visit(r);
  while (!work.empty()) {
    Node* node = work.back();
    work.pop_back();
    char& mark = seen[static_cast<size_t>(node->id - first)];
    if (mark) continue;
    mark = 1;
    for (size_t k = 0; k < node->inputs.size(); ++k)
      if (!isRefInput(node, k)) visit(node->inputs[k]);
    for (Node* c : node->controlInputs)
      if (c->id >= first && c->id < end) work.push_back(c);
  }
  w.attrs["record"] = encodeOutputs(std::vector<Output>(record.begin(), record.end()));
  w.attrs["has_gradient"] = true;  // recorded even when the gradient reads no body tensor

  std::vector<Output> inputs{w.out(static_cast<int>(n + ne))};
  for (size_t k = 0; k < n + ne; ++k) {
    const Output out = w.out(static_cast<int>(k));
    inputs.push_back(!dparams[k] ? out : ctx.dys[k] ? ctx.dys[k] : ops::zerosLike(g, out));
  }
  inputs.insert(inputs.end(), w.inputs.begin(), w.inputs.end());
  inputs.insert(inputs.end(), externals.begin(), externals.end());
  std::vector<int64_t> dparamIds;
  for (Node* d : dparams) dparamIds.push_back(d ? d->id : -1);
  Attrs attrs{{"forward", static_cast<int64_t>(w.id)},
              {"num_vars", static_cast<int64_t>(n)},
              {"num_sliced", static_cast<int64_t>(ns)},
              {"num_emits", static_cast<int64_t>(ne)},
              {"num_forward_inputs", static_cast<int64_t>(numIn)},
              {"frame", std::vector<int64_t>{first, end}},
              {"dparams", dparamIds},
              {"results", encodeOutputs(results)},
              {"captures", captures}};
  NodeOptions o;
  o.name = "WhileGrad";
  Node* wg = g.addNode("WhileGrad", std::move(inputs), std::move(attrs), o);
  std::vector<Output> dxs(numIn);
  for (size_t k = 0; k < n + ns; ++k)
    if (results[k]) dxs[k] = wg->out(static_cast<int>(k));
  for (size_t c = 0; c < captures.size(); ++c)
    dxs[static_cast<size_t>(captures[c])] = wg->out(static_cast<int>(n + ns + c));
  return dxs;
}

}  // namespace tlens
