#include "OpTestUtil.h"

#include <cmath>
#include <limits>
#include <random>

#include "engine/graph/Builder.h"
#include "engine/graph/Gradients.h"
#include "engine/runtime/Eager.h"
#include "engine/runtime/Session.h"

namespace tlens::test {

Tensor F32(std::vector<float> v, ConcreteShape s) { return Tensor::fromVector(v, std::move(s)); }
Tensor F64(std::vector<double> v, ConcreteShape s) { return Tensor::fromVector(v, std::move(s)); }
Tensor I32(std::vector<int32_t> v, ConcreteShape s) { return Tensor::fromVector(v, std::move(s)); }
Tensor I64(std::vector<int64_t> v, ConcreteShape s) { return Tensor::fromVector(v, std::move(s)); }
Tensor B(std::vector<bool> v, ConcreteShape s) {
  Tensor t(DType::Bool, std::move(s));
  if (static_cast<size_t>(t.numElements()) != v.size()) invalidArgument("B(): wrong element count");
  for (size_t i = 0; i < v.size(); ++i) t.data<bool>()[i] = v[i];
  return t;
}

Tensor randomF64(ConcreteShape s, double lo, double hi, uint64_t seed) {
  Tensor t(DType::Float64, std::move(s));
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<double> d(lo, hi);
  for (int64_t i = 0; i < t.numElements(); ++i) t.data<double>()[i] = d(g);
  return t;
}

Tensor randomF32(ConcreteShape s, double lo, double hi, uint64_t seed) {
  return randomF64(std::move(s), lo, hi, seed).cast(DType::Float32);
}

std::string normalizeShapes(std::string s) {
  s.erase(std::remove(s.begin(), s.end(), ' '), s.end());
  for (size_t p; (p = s.find("<unknown>")) != std::string::npos;) s.replace(p, 9, "?");
  return s;
}

InferResult infer(const std::string& op, const std::string& inputs, const Attrs& attrs) {
  const OpDef& def = OpRegistry::global().get(op);
  std::map<std::string, uint32_t> names;
  std::vector<TensorType> types;
  std::string rest = inputs;
  while (!rest.empty() || types.empty()) {
    size_t semi = rest.find(';');
    std::string tok = rest.substr(0, semi);
    rest = semi == std::string::npos ? "" : rest.substr(semi + 1);
    if (tok.empty() && types.empty() && rest.empty()) break;
    TensorType t;
    t.dtype = DType::Float32;
    size_t colon = tok.find(':'), eq = tok.find('=');
    if (eq != std::string::npos) {  // "int32=[2,-1]": a constant int vector
      t.dtype = *parseDType(tok.substr(0, eq));
      std::string body = tok.substr(eq + 1);
      std::vector<int64_t> vals;
      for (char& ch : body) if (ch == '[' || ch == ']' || ch == ',') ch = ' ';
      std::istringstream is(body);
      for (int64_t x; is >> x;) vals.push_back(x);
      Tensor v = Tensor::fromVector(vals).cast(t.dtype);
      t.shape = Shape{Dim::known(static_cast<int64_t>(vals.size()))};
      if (tok.find('[') == std::string::npos && vals.size() == 1) {  // "int32=3": a constant scalar
        v = v.reshaped({});
        t.shape = Shape::scalar();
      }
      t.value = std::make_shared<const Tensor>(v);
    } else {
      if (colon != std::string::npos) {
        t.dtype = *parseDType(tok.substr(0, colon));
        tok = tok.substr(colon + 1);
      }
      t.shape = parseShape(tok, &names);
    }
    types.push_back(std::move(t));
    if (semi == std::string::npos) break;
  }
  ShapeResult r = def.infer(types, def.withDefaults(attrs));
  InferResult out;
  out.ok = r.ok();
  out.error = r.error;
  for (size_t i = 0; i < r.outputs.size(); ++i) {
    if (i) out.outputs += ";";
    out.outputs += r.outputs[i].shape.str();
  }
  return out;
}

std::vector<Tensor> runEager(const std::string& op, const std::vector<Tensor>& inputs, const Attrs& attrs) {
  EagerContext ctx;
  std::vector<EagerValue> in;
  for (const Tensor& t : inputs) in.push_back(ctx.wrap(t));
  std::vector<Tensor> out;
  for (EagerValue& v : ctx.execute(op, in, attrs)) out.push_back(v.tensor);
  return out;
}

std::vector<Tensor> runGraph(const std::string& op, const std::vector<Tensor>& inputs, const Attrs& attrs) {
  Graph g;
  std::vector<Output> ins;
  Feeds feeds;
  for (const Tensor& t : inputs) {
    Output p = ops::placeholder(g, t.dtype(), Shape::fromConcrete(t.shape()));
    ins.push_back(p);
    feeds.emplace_back(p, t);
  }
  Node* n = g.addNode(op, ins, attrs);
  std::vector<Output> fetches;
  for (size_t i = 0; i < n->numOutputs(); ++i) fetches.push_back(n->out(static_cast<int>(i)));
  Session s(g);
  return s.run(fetches, feeds);
}

namespace {

/// sum(w * y) for the op's first output, in double.
double weightedLoss(const std::string& op, const std::vector<Tensor>& inputs, const Attrs& attrs,
                    const Tensor& w) {
  Tensor y = runEager(op, inputs, attrs)[0];
  double s = 0;
  for (int64_t i = 0; i < y.numElements(); ++i) s += y.getDouble(i) * w.getDouble(i);
  return s;
}

}  // namespace

double gradientError(const std::string& op, const std::vector<Tensor>& rawInputs, const Attrs& attrs,
                     const std::vector<int>& wrtIn) {
  std::vector<Tensor> inputs;
  for (const Tensor& t : rawInputs) inputs.push_back(isFloating(t.dtype()) ? t.cast(DType::Float64) : t);
  std::vector<int> wrt = wrtIn;
  if (wrt.empty())
    for (size_t i = 0; i < inputs.size(); ++i)
      if (isFloating(inputs[i].dtype())) wrt.push_back(static_cast<int>(i));

  // Analytic: graph gradients of sum(w * y).
  Graph g;
  std::vector<Output> ins;
  Feeds feeds;
  for (const Tensor& t : inputs) {
    Output p = ops::placeholder(g, t.dtype(), Shape::fromConcrete(t.shape()));
    ins.push_back(p);
    feeds.emplace_back(p, t);
  }
  Output y = g.addNode(op, ins, attrs)->out(0);
  Tensor y0 = runEager(op, inputs, attrs)[0];
  Tensor w = randomF64(y0.shape(), 0.5, 1.5, 7).cast(y0.dtype());
  Output loss = ops::reduceSum(g, ops::mul(g, y, ops::constant(g, w)), {});
  std::vector<Output> xs;
  for (int i : wrt) xs.push_back(ins[static_cast<size_t>(i)]);
  std::vector<Output> grads = gradients(g, {loss}, xs);
  std::vector<Output> fetch;
  for (const Output& gr : grads) fetch.push_back(gr);
  Session s(g);
  std::vector<Tensor> analytic;
  for (size_t k = 0; k < grads.size(); ++k)
    analytic.push_back(grads[k] ? s.run({grads[k]}, feeds)[0]
                                : Tensor::filled(DType::Float64, inputs[static_cast<size_t>(wrt[k])].shape(), 0));

  // Numeric: central differences.
  double worst = 0;
  const double eps = 1e-6;
  for (size_t k = 0; k < wrt.size(); ++k) {
    Tensor& x = inputs[static_cast<size_t>(wrt[k])];
    Tensor base = x.clone();
    for (int64_t i = 0; i < x.numElements(); ++i) {
      std::vector<Tensor> plus = inputs, minus = inputs;
      Tensor xp = base.clone(), xm = base.clone();
      xp.data<double>()[i] += eps;
      xm.data<double>()[i] -= eps;
      plus[static_cast<size_t>(wrt[k])] = xp;
      minus[static_cast<size_t>(wrt[k])] = xm;
      double num = (weightedLoss(op, plus, attrs, w) - weightedLoss(op, minus, attrs, w)) / (2 * eps);
      double ana = analytic[k].getDouble(i);
      double err = std::fabs(num - ana) / std::max(1.0, std::fabs(num));
      if (!(err <= worst)) worst = std::isnan(err) ? std::numeric_limits<double>::infinity() : err;  // NaN sticks
    }
  }
  return worst;
}

std::vector<OpCase>& allCases() {
  static std::vector<OpCase> cases;
  return cases;
}

CaseRegistrar::CaseRegistrar(std::vector<OpCase> cases) {
  for (OpCase& c : cases) allCases().push_back(std::move(c));
}

}  // namespace tlens::test
