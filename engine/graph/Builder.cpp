#include "engine/graph/Builder.h"

namespace tlens::ops {

Output constant(Graph& g, const Tensor& value, std::string name) {
  return g.op("Const", {}, {{"value", value}, {"dtype", value.dtype()}}, std::move(name));
}

Output scalar(Graph& g, DType dtype, double value) {
  return constant(g, Tensor::filled(dtype, {}, value));
}

Output placeholder(Graph& g, DType dtype, Shape shape, std::string name) {
  return g.op("Placeholder", {}, {{"dtype", dtype}, {"shape", std::move(shape)}}, std::move(name));
}

Output variable(Graph& g, Output initialValue, std::string name, bool trainable) {
  // A variable and its initializer never wait for the control dependencies around their creation
  // (TensorFlow creates them under init_scope): the initializer must run before any training op.
  g.pushControlDependencies({}, true);
  struct Pop {
    Graph& g;
    ~Pop() { g.popControlDependencies(); }
  } pop{g};
  Graph::NodeOptions o;
  o.name = name.empty() ? "Variable" : std::move(name);
  const TensorType& t = initialValue.type();
  Node* v = g.addNode("VariableV2", {},
                      {{"dtype", t.dtype}, {"shape", t.shape}, {"trainable", trainable}}, o);
  g.pushNameScope(v->name + "/");
  Graph::NodeOptions ao;
  ao.name = "Assign";
  v->initializer = g.addNode("Assign", {v->out(), initialValue}, {}, ao);
  g.popNameScope();
  return v->out();
}

Output variable(Graph& g, const Tensor& init, std::string name, bool trainable) {
  std::string base = name.empty() ? "Variable" : name;
  g.pushControlDependencies({}, true);
  Output initial = constant(g, init, base + "/initial_value");
  g.popControlDependencies();
  return variable(g, initial, std::move(name), trainable);
}

Output identity(Graph& g, Output x) { return g.op("Identity", {x}); }
Output add(Graph& g, Output a, Output b) { return g.op("Add", {a, b}); }
Output sub(Graph& g, Output a, Output b) { return g.op("Sub", {a, b}); }
Output mul(Graph& g, Output a, Output b) { return g.op("Mul", {a, b}); }
Output div(Graph& g, Output a, Output b) { return g.op("RealDiv", {a, b}); }
Output neg(Graph& g, Output x) { return g.op("Neg", {x}); }
Output square(Graph& g, Output x) { return g.op("Square", {x}); }

Output matmul(Graph& g, Output a, Output b, bool ta, bool tb) {
  return g.op("MatMul", {a, b}, {{"transpose_a", ta}, {"transpose_b", tb}});
}

static Attrs reductionAttrs(std::vector<int64_t> axes, bool keep) {
  Attrs a{{"keep_dims", keep}};
  if (!axes.empty()) a.emplace("axis", std::move(axes));
  return a;
}

Output reduceSum(Graph& g, Output x, std::vector<int64_t> axes, bool keep) {
  return g.op("Sum", {x}, reductionAttrs(std::move(axes), keep));
}

Output reduceMean(Graph& g, Output x, std::vector<int64_t> axes, bool keep) {
  return g.op("Mean", {x}, reductionAttrs(std::move(axes), keep));
}

Output shape(Graph& g, Output x) { return g.op("Shape", {x}, {{"out_type", DType::Int32}}); }
Output reshape(Graph& g, Output x, Output s) { return g.op("Reshape", {x, s}); }

Output reshapeTo(Graph& g, Output x, const ConcreteShape& s) {
  std::vector<int32_t> v(s.begin(), s.end());
  return reshape(g, x, constant(g, Tensor::fromVector(v)));
}

Output sumToShape(Graph& g, Output x, Output s) { return g.op("SumToShape", {x, s}); }

Output unbroadcast(Graph& g, Output dy, Output like) {
  const Shape& a = dy.type().shape;
  const Shape& b = like.type().shape;
  if (a.fullyKnown() && a == b) return dy;
  if (a.rankKnown() && b.rankKnown() && a.rank() == b.rank()) {
    bool same = true;
    for (int i = 0; i < a.rank(); ++i) same = same && a[static_cast<size_t>(i)].sameAs(b[static_cast<size_t>(i)]);
    if (same) return dy;
  }
  return sumToShape(g, dy, shape(g, like));
}

Output broadcastTo(Graph& g, Output x, Output s) { return g.op("BroadcastTo", {x, s}); }
Output zerosLike(Graph& g, Output x) { return g.op("ZerosLike", {x}); }
Output onesLike(Graph& g, Output x) { return g.op("OnesLike", {x}); }
Output cast(Graph& g, Output x, DType to) { return g.op("Cast", {x}, {{"DstT", to}}); }
Output assign(Graph& g, Output var, Output value) { return g.op("Assign", {var, value}); }

Output addN(Graph& g, std::vector<Output> xs) {
  if (xs.size() == 1) return xs[0];
  return g.op("AddN", std::move(xs));
}

}  // namespace tlens::ops
