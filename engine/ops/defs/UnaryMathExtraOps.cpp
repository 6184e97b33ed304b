// More unary math, for numpy's ufuncs: Tan, Asin, Acos, Atan, Sinh, Cosh, Asinh, Acosh, Atanh,
// Expm1 (TensorFlow's names) and Log2, Log10, Cbrt (numpy's). Float inputs, same dtype and shape
// out; each with its gradient. CPU only: the kernels call the C library per element, as numpy does.
#include "engine/graph/Builder.h"
#include "engine/ops/OpRegistry.h"
#include "engine/ops/ShapeFns.h"

namespace tlens {

namespace {
using namespace shapefn;

constexpr const char* kWhy = "numpy-accurate libm elementwise math on the host (no GPU kernel yet)";

Output scalarOf(Graph& G, Output like, double v) { return ops::scalar(G, like.type().dtype, v); }
Output un(Graph& G, const char* type, Output x) { return G.op(type, {x}); }
Output bin(Graph& G, const char* type, Output a, Output b) { return G.op(type, {a, b}); }

/// dy / f where f is built from x.
std::vector<Output> over(GradContext& g, Output f) {
  return std::vector<Output>{bin(g.graph, "RealDiv", g.dys[0], f)};
}

void unary(OpRegistry& r, const char* name, const char* doc, GradFn grad) {
  OpBuilder(r, name).cpuOnly(kWhy).input("x").doc(doc).shape(unchangedFloat).grad(std::move(grad));
}

}  // namespace

void registerUnaryMathExtraOps(OpRegistry& r) {
  unary(r, "Tan", "Tangent elementwise (radians).", [](GradContext& g) {
    Output c = un(g.graph, "Cos", g.input(0));
    return over(g, ops::mul(g.graph, c, c));
  });
  unary(r, "Asin", "Arcsine elementwise: nan outside [-1, 1].", [](GradContext& g) {
    Graph& G = g.graph;
    Output x = g.input(0);
    return over(g, un(G, "Sqrt", bin(G, "Sub", scalarOf(G, x, 1.0), ops::mul(G, x, x))));
  });
  unary(r, "Acos", "Arccosine elementwise: nan outside [-1, 1].", [](GradContext& g) {
    Graph& G = g.graph;
    Output x = g.input(0);
    Output s = un(G, "Sqrt", bin(G, "Sub", scalarOf(G, x, 1.0), ops::mul(G, x, x)));
    return std::vector<Output>{ops::neg(G, bin(G, "RealDiv", g.dys[0], s))};
  });
  unary(r, "Atan", "Arctangent elementwise.", [](GradContext& g) {
    Graph& G = g.graph;
    Output x = g.input(0);
    return over(g, ops::add(G, scalarOf(G, x, 1.0), ops::mul(G, x, x)));
  });
  unary(r, "Sinh", "Hyperbolic sine elementwise.", [](GradContext& g) {
    return std::vector<Output>{ops::mul(g.graph, g.dys[0], un(g.graph, "Cosh", g.input(0)))};
  });
  unary(r, "Cosh", "Hyperbolic cosine elementwise.", [](GradContext& g) {
    return std::vector<Output>{ops::mul(g.graph, g.dys[0], un(g.graph, "Sinh", g.input(0)))};
  });
  unary(r, "Asinh", "Inverse hyperbolic sine elementwise.", [](GradContext& g) {
    Graph& G = g.graph;
    Output x = g.input(0);
    return over(g, un(G, "Sqrt", ops::add(G, ops::mul(G, x, x), scalarOf(G, x, 1.0))));
  });
  unary(r, "Acosh", "Inverse hyperbolic cosine elementwise: nan below 1.", [](GradContext& g) {
    Graph& G = g.graph;
    Output x = g.input(0);
    return over(g, un(G, "Sqrt", bin(G, "Sub", ops::mul(G, x, x), scalarOf(G, x, 1.0))));
  });
  unary(r, "Atanh", "Inverse hyperbolic tangent elementwise: +-inf at +-1, nan beyond.", [](GradContext& g) {
    Graph& G = g.graph;
    Output x = g.input(0);
    return over(g, bin(G, "Sub", scalarOf(G, x, 1.0), ops::mul(G, x, x)));
  });
  unary(r, "Expm1", "exp(x) - 1 elementwise, accurate for small x.", [](GradContext& g) {
    return std::vector<Output>{ops::mul(g.graph, g.dys[0], un(g.graph, "Exp", g.input(0)))};
  });
  unary(r, "Log2", "Base-2 logarithm elementwise (exact at powers of two).", [](GradContext& g) {
    Output x = g.input(0);
    return over(g, ops::mul(g.graph, x, scalarOf(g.graph, x, 0.69314718055994530942)));
  });
  unary(r, "Log10", "Base-10 logarithm elementwise (exact at powers of ten).", [](GradContext& g) {
    Output x = g.input(0);
    return over(g, ops::mul(g.graph, x, scalarOf(g.graph, x, 2.30258509299404568402)));
  });
  unary(r, "Cbrt", "Cube root elementwise (real: cbrt(-8) = -2).", [](GradContext& g) {
    Graph& G = g.graph;
    Output y = g.output(0);
    return over(g, ops::mul(G, scalarOf(G, y, 3.0), ops::mul(G, y, y)));
  });
}

}  // namespace tlens
