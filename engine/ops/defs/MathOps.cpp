// Elementwise math: broadcasting binary ops (Add ... Pow, Maximum, FloorMod), the select ops
// (SelectV2, Select), ClipByValue, AddN and Cast. Unary math lives in UnaryOps.cpp, comparisons
// in ComparisonOps.cpp.
#include "engine/graph/Builder.h"
#include "engine/ops/OpRegistry.h"
#include "engine/ops/ShapeFns.h"

namespace tlens {

namespace {
using namespace shapefn;

// ---- constant folding of small integer results (shape arithmetic) ----

/// How an integer binary op acts on values and on dims: `f` on known values (nullopt: no
/// result, e.g. division by zero); `rightIdentity` r with a op r == a (Mul 1, Add 0); likewise
/// `leftIdentity`; `idempotent` when a op a == a (Maximum), so a symbol survives.
struct IntArith {
  std::optional<int64_t> (*f)(int64_t, int64_t);
  std::optional<int64_t> rightIdentity;
  std::optional<int64_t> leftIdentity;
  bool idempotent = false;
};

int64_t floorDivInt(int64_t a, int64_t b) {
  int64_t q = a / b;
  if (a % b != 0 && ((a < 0) != (b < 0))) --q;
  return q;
}

int64_t floorModInt(int64_t a, int64_t b) {
  int64_t m = a % b;
  if (m != 0 && ((m < 0) != (b < 0))) m += b;
  return m;
}

// Wrapping arithmetic (as the kernels do), never signed overflow.
int64_t wrap(uint64_t v) { return static_cast<int64_t>(v); }
const IntArith kAdd{[](int64_t a, int64_t b) -> std::optional<int64_t> {
                      return wrap(static_cast<uint64_t>(a) + static_cast<uint64_t>(b)); }, 0, 0};
const IntArith kSub{[](int64_t a, int64_t b) -> std::optional<int64_t> {
                      return wrap(static_cast<uint64_t>(a) - static_cast<uint64_t>(b)); }, 0, {}};
const IntArith kMul{[](int64_t a, int64_t b) -> std::optional<int64_t> {
                      return wrap(static_cast<uint64_t>(a) * static_cast<uint64_t>(b)); }, 1, 1};
const IntArith kFloorDiv{[](int64_t a, int64_t b) -> std::optional<int64_t> {
                           if (b == 0) return std::nullopt;
                           if (b == -1) return wrap(0 - static_cast<uint64_t>(a));
                           return floorDivInt(a, b);
                         }, 1, {}};
const IntArith kFloorMod{[](int64_t a, int64_t b) -> std::optional<int64_t> {
                           if (b == 0) return std::nullopt;
                           if (b == -1) return 0;
                           return floorModInt(a, b);
                         }, {}, {}};
const IntArith kMax{[](int64_t a, int64_t b) -> std::optional<int64_t> { return std::max(a, b); }, {}, {}, true};
const IntArith kMin{[](int64_t a, int64_t b) -> std::optional<int64_t> { return std::min(a, b); }, {}, {}, true};

/// The value of a dim used as an operand: known size, the literal -1, or nothing.
std::optional<int64_t> dimValue(const Dim& d) {
  if (d.isKnown()) return d.size;
  if (d.isMinusOne()) return -1;
  return std::nullopt;
}

Dim valueDim(int64_t v) {
  if (v >= 0) return Dim::known(v);
  return v == -1 ? Dim::minusOne() : Dim::unknown();
}

/// Sets the value (both operands known, small) or the asShape (vectors/scalars of dims, such as
/// tf.shape(x)[1] * tf.shape(x)[2]) of an int32/int64 result.
void foldInts(const InferContext& c, ShapeResult& r, const IntArith& op) {
  if (!r.ok() || r.outputs.size() != 1) return;
  TensorType& out = r.outputs[0];
  if (out.dtype != DType::Int32 && out.dtype != DType::Int64) return;
  const Tensor* va = c.value(0);
  const Tensor* vb = c.value(1);
  if (va && vb && out.shape.fullyKnown() && *out.shape.numElements() <= 4096 &&
      c.shape(0).accepts(va->shape()) && c.shape(1).accepts(vb->shape())) {
    const ConcreteShape os = out.shape.concrete();
    const std::vector<int64_t> a = va->toInt64Vector(), b = vb->toInt64Vector();
    auto strides = [&](const ConcreteShape& s) {
      std::vector<int64_t> st(os.size(), 0);
      int64_t k = 1;
      for (size_t i = 0; i < s.size(); ++i) {
        const size_t d = s.size() - 1 - i, o = os.size() - 1 - i;
        st[o] = s[d] == 1 ? 0 : k;
        k *= s[d];
      }
      return st;
    };
    const std::vector<int64_t> sa = strides(va->shape()), sb = strides(vb->shape());
    Tensor t(out.dtype, os);
    const int64_t n = numElements(os);
    for (int64_t i = 0; i < n; ++i) {
      int64_t ia = 0, ib = 0, rem = i;
      for (size_t d = os.size(); d-- > 0;) {
        const int64_t idx = rem % os[d];
        rem /= os[d];
        ia += idx * sa[d];
        ib += idx * sb[d];
      }
      std::optional<int64_t> v = op.f(a[static_cast<size_t>(ia)], b[static_cast<size_t>(ib)]);
      if (!v) return;  // e.g. division by zero: the kernel reports it
      if (out.dtype == DType::Int32) t.data<int32_t>()[i] = static_cast<int32_t>(*v);
      else t.data<int64_t>()[i] = *v;
    }
    out.value = std::make_shared<const Tensor>(std::move(t));
    return;
  }
  // Dims arithmetic on scalars / vectors.
  if (!out.shape.rankKnown() || out.shape.rank() > 1) return;
  if (!c.input(0).asShape && !c.input(1).asShape) return;  // nothing symbolic to carry
  auto dimsOf = [&](size_t i) -> std::optional<Shape> {
    Shape s = c.valueAsShape(i);
    if (!s.rankKnown()) return std::nullopt;
    if (s.rank() == 0) return Shape{Dim::unknown()};  // a scalar of unknown value
    return s;
  };
  auto A = dimsOf(0), B = dimsOf(1);
  if (!A || !B) return;
  const size_t la = A->dims().size(), lb = B->dims().size();
  const size_t n = std::max(la, lb);
  if (!(la == lb || la == 1 || lb == 1)) return;
  if (out.shape.rank() == 1 && out.shape[0].isKnown() && static_cast<size_t>(out.shape[0].size) != n) return;
  if (out.shape.rank() == 0 && n != 1) return;
  std::vector<Dim> dims;
  for (size_t k = 0; k < n; ++k) {
    const Dim& x = (*A)[la == 1 ? 0 : k];
    const Dim& y = (*B)[lb == 1 ? 0 : k];
    const auto xv = dimValue(x), yv = dimValue(y);
    if (xv && yv) {
      const auto v = op.f(*xv, *yv);
      dims.push_back(v ? valueDim(*v) : Dim::unknown());
    } else if (yv && op.rightIdentity && *yv == *op.rightIdentity) {
      dims.push_back(x);
    } else if (xv && op.leftIdentity && *xv == *op.leftIdentity) {
      dims.push_back(y);
    } else if (op.idempotent && x.sameAs(y)) {
      dims.push_back(x);
    } else {
      dims.push_back(Dim::unknown());
    }
  }
  out.asShape = Shape(std::move(dims));
}

// ---- shape functions ----

#define TLENS_NUMERIC DType::Float32, DType::Float64, DType::Float16, DType::Int32, DType::Int64, DType::UInt8
#define TLENS_SIGNED DType::Float32, DType::Float64, DType::Float16, DType::Int32, DType::Int64

ShapeResult numericBinary(const InferContext& c) {
  if (auto e = checkSameDType(c, {0, 1})) return *e;
  if (auto e = checkDType(c, 0, {TLENS_NUMERIC})) return *e;
  if (auto e = checkDType(c, 1, {TLENS_NUMERIC})) return *e;
  return broadcastBinary(c);
}

ShapeResult signedBinary(const InferContext& c) {
  if (auto e = checkSameDType(c, {0, 1})) return *e;
  if (auto e = checkDType(c, 0, {TLENS_SIGNED})) return *e;
  if (auto e = checkDType(c, 1, {TLENS_SIGNED})) return *e;
  return broadcastBinary(c);
}

template <const IntArith& Op>
ShapeResult foldedBinary(const InferContext& c) {
  ShapeResult r = numericBinary(c);
  foldInts(c, r, Op);
  return r;
}

/// Broadcasts input `i` into `acc` (the shape of the inputs before it), naming the inputs whose
/// dims conflict.
std::optional<ShapeResult> broadcastInto(const InferContext& c, Shape& acc, size_t i,
                                         const std::vector<size_t>& before) {
  int axis = 0;
  auto s = broadcastShapes(acc, c.shape(i), &axis);
  if (s) {
    acc = *s;
    return std::nullopt;
  }
  const Shape& si = c.shape(i);
  const Dim di = si[static_cast<size_t>(si.rank() + axis)];
  const Dim da = acc[static_cast<size_t>(acc.rank() + axis)];
  std::vector<int> blame;
  for (size_t j : before) {
    const Shape& sj = c.shape(j);
    if (sj.rankKnown() && sj.rank() + axis >= 0 && sj[static_cast<size_t>(sj.rank() + axis)].sameAs(da))
      blame.push_back(static_cast<int>(j));
  }
  blame.push_back(static_cast<int>(i));
  return shapeError(c, "Dimensions must be equal, but are " + da.str() + " and " + di.str(), blame);
}

ShapeResult selectV2Shape(const InferContext& c) {
  if (c.dtype(0) != DType::Invalid && c.dtype(0) != DType::Bool)
    return shapeError(c, "Input 'condition' (" + c.inputName(0) + ") of 'SelectV2' has type " +
                             std::string(dtypeName(c.dtype(0))) + " that does not match expected type of bool",
                      {0});
  if (auto e = checkSameDType(c, {1, 2})) return *e;
  Shape s = c.shape(0);
  if (auto e = broadcastInto(c, s, 1, {0})) return *e;
  if (auto e = broadcastInto(c, s, 2, {0, 1})) return *e;
  return ShapeResult::single(commonDType(c, {1, 2}), s);
}

/// TensorFlow's Merge of two shapes, with its wording.
std::optional<ShapeResult> mergeShapes(const InferContext& c, const Shape& a, const Shape& b,
                                       std::vector<int> blame, Shape* out) {
  if (a.rankKnown() && b.rankKnown()) {
    if (a.rank() != b.rank())
      return shapeError(c, "Shapes must be equal rank, but are " + std::to_string(a.rank()) + " and " +
                               std::to_string(b.rank()), blame);
    for (size_t i = 0; i < a.dims().size(); ++i)
      if (a[i].conflicts(b[i]))
        return shapeError(c, "Dimension " + std::to_string(i) + " in both shapes must be equal, but are " +
                                 a[i].str() + " and " + b[i].str() + ". Shapes are " + a.str() + " and " +
                                 b.str(), blame);
  }
  *out = a.merge(b);
  return std::nullopt;
}

// TF1 Select: t and e of one shape; condition a scalar, the same shape, or a vector over dim 0.
ShapeResult selectShape(const InferContext& c) {
  if (c.dtype(0) != DType::Invalid && c.dtype(0) != DType::Bool)
    return shapeError(c, "Input 'condition' (" + c.inputName(0) + ") of 'Select' has type " +
                             std::string(dtypeName(c.dtype(0))) + " that does not match expected type of bool",
                      {0});
  if (auto e = checkSameDType(c, {1, 2})) return *e;
  const DType dt = commonDType(c, {1, 2});
  Shape data;
  if (auto e = mergeShapes(c, c.shape(1), c.shape(2), {1, 2}, &data)) return *e;
  const Shape& cond = c.shape(0);
  if (!cond.rankKnown() || !data.rankKnown() || cond.rank() == 0) return ShapeResult::single(dt, data);
  if (cond.rank() != 1 || data.rank() == 0) {
    Shape m;
    if (auto e = mergeShapes(c, data, cond, {0, 1}, &m)) return *e;
    return ShapeResult::single(dt, m);
  }
  // A vector condition picks whole rows of t / e.
  if (cond[0].conflicts(data[0]))
    return shapeError(c, "Dimension 0 in both shapes must be equal, but are " + cond[0].str() + " and " +
                             data[0].str() + ". Shapes are " + cond.str() + " and [" + data[0].str() + "]",
                      {0, 1});
  if (!data[0].isKnown() && (cond[0].isKnown() || (cond[0].isSymbolic() && !data[0].isSymbolic())))
    data[0] = cond[0];
  return ShapeResult::single(dt, data);
}

ShapeResult clipShape(const InferContext& c) {
  if (auto e = checkSameDType(c, {0, 1, 2})) return *e;
  if (auto e = checkDType(c, 0, {TLENS_NUMERIC})) return *e;
  Shape t = c.shape(0);
  for (size_t i = 1; i < 3; ++i) {
    Shape b = c.shape(0);
    if (auto e = broadcastInto(c, b, i, {0})) return *e;
    // The clip values broadcast into t, never t into something larger (tf.clip_by_value).
    if (!t.compatible(b))
      return shapeError(c, "Shapes " + c.shape(0).tfStr() + " and " + b.tfStr() +
                               " are incompatible: clip_value_" + (i == 1 ? "min" : "max") +
                               " must be a scalar or broadcast to the shape of t", {0, static_cast<int>(i)});
    t = t.merge(b);
  }
  return ShapeResult::single(commonDType(c, {0, 1, 2}), t);
}

ShapeResult addNShape(const InferContext& c) {
  if (c.numInputs() == 0) return shapeError(c, "AddN needs at least one input");
  if (auto e = checkDType(c, 0, {TLENS_NUMERIC})) return *e;
  Shape s = c.shape(0);
  for (size_t i = 1; i < c.numInputs(); ++i) {
    if (c.dtype(i) != DType::Invalid && c.dtype(0) != DType::Invalid && c.dtype(i) != c.dtype(0))
      return shapeError(c, "AddN inputs must have one dtype, but input " + std::to_string(i) + " is " +
                               std::string(dtypeName(c.dtype(i))) + " and input 0 is " +
                               std::string(dtypeName(c.dtype(0))), {0, static_cast<int>(i)});
    if (!s.compatible(c.shape(i)))
      return shapeError(c, "Shapes must be equal rank and compatible, but are " + s.str() + " and " +
                               c.shape(i).str(), {0, static_cast<int>(i)});
    s = s.merge(c.shape(i));
  }
  return ShapeResult::single(c.dtype(0), s);
}

// ---- gradient helpers ----

Output zeroLike(Graph& G, Output like) { return ops::scalar(G, like.type().dtype, 0.0); }
Output select2(Graph& G, Output cond, Output a, Output b) { return G.op("SelectV2", {cond, a, b}); }

/// Maximum / Minimum: dy goes to x where `mask` (x >= y for Maximum: ties to x), else to y.
std::vector<Output> maxMinGrad(GradContext& g, const char* cmp) {
  Graph& G = g.graph;
  Output x = g.input(0), y = g.input(1), dy = g.dys[0];
  Output mask = G.op(cmp, {x, y});
  Output zero = zeroLike(G, dy);
  return {ops::unbroadcast(G, select2(G, mask, dy, zero), x),
          ops::unbroadcast(G, select2(G, mask, zero, dy), y)};
}

}  // namespace

void registerMathOps(OpRegistry& r) {
  OpBuilder(r, "Add")
      .api("tf.add").api("tf.math.add")
      .input("x").input("y")
      .doc("x + y elementwise, with numpy broadcasting.")
      .shape(foldedBinary<kAdd>)
      .grad([](GradContext& g) {
        Graph& G = g.graph;
        return std::vector<Output>{ops::unbroadcast(G, g.dys[0], g.input(0)),
                                   ops::unbroadcast(G, g.dys[0], g.input(1))};
      });

  OpBuilder(r, "Sub")
      .api("tf.subtract").api("tf.math.subtract")
      .input("x").input("y")
      .doc("x - y elementwise, with numpy broadcasting.")
      .shape(foldedBinary<kSub>)
      .grad([](GradContext& g) {
        Graph& G = g.graph;
        return std::vector<Output>{ops::unbroadcast(G, g.dys[0], g.input(0)),
                                   ops::unbroadcast(G, ops::neg(G, g.dys[0]), g.input(1))};
      });

  OpBuilder(r, "Mul")
      .api("tf.multiply").api("tf.math.multiply")
      .input("x").input("y")
      .doc("x * y elementwise, with numpy broadcasting.")
      .shape(foldedBinary<kMul>)
      .grad([](GradContext& g) {
        Graph& G = g.graph;
        return std::vector<Output>{
            ops::unbroadcast(G, ops::mul(G, g.dys[0], g.input(1)), g.input(0)),
            ops::unbroadcast(G, ops::mul(G, g.input(0), g.dys[0]), g.input(1))};
      });

  OpBuilder(r, "RealDiv")
      .api("tf.divide").api("tf.math.divide").api("tf.realdiv").api("tf.div")
      .input("x").input("y")
      .doc("x / y elementwise, with numpy broadcasting.")
      .shape(numericBinary)
      .grad([](GradContext& g) {
        Graph& G = g.graph;
        Output x = g.input(0), y = g.input(1), dy = g.dys[0];
        Output dx = ops::div(G, dy, y);
        Output dyv = ops::neg(G, ops::mul(G, dy, ops::div(G, ops::div(G, x, y), y)));
        return std::vector<Output>{ops::unbroadcast(G, dx, x), ops::unbroadcast(G, dyv, y)};
      });

  OpBuilder(r, "FloorDiv")
      .api("tf.floordiv").api("tf.math.floordiv").api("tf.floor_div")
      .input("x").input("y")
      .doc("floor(x / y) elementwise (Python's //), with numpy broadcasting; integer division by zero is an error.")
      .shape(foldedBinary<kFloorDiv>)
      .grad([](GradContext&) { return std::vector<Output>{Output{}, Output{}}; });  // TensorFlow: None

  OpBuilder(r, "FloorMod")
      .api("tf.floormod").api("tf.math.floormod").api("tf.mod").api("tf.math.mod")
      .input("x").input("y")
      .doc("x - floor(x / y) * y elementwise (Python's %: the sign of y), with numpy broadcasting.")
      .shape(foldedBinary<kFloorMod>)
      .grad([](GradContext& g) {
        Graph& G = g.graph;
        Output x = g.input(0), y = g.input(1), dy = g.dys[0];
        Output q = G.op("FloorDiv", {x, y});
        return std::vector<Output>{ops::unbroadcast(G, dy, x),
                                   ops::unbroadcast(G, ops::mul(G, dy, ops::neg(G, q)), y)};
      });

  OpBuilder(r, "Pow")
      .api("tf.pow").api("tf.math.pow")
      .input("x").input("y")
      .doc("x ** y elementwise, with numpy broadcasting; integers to negative powers are an error.")
      .shape(signedBinary)
      .grad([](GradContext& g) {
        Graph& G = g.graph;
        Output x = g.input(0), y = g.input(1), z = g.output(0), dy = g.dys[0];
        const DType dt = x.type().dtype;
        if (!isFloating(dt)) return std::vector<Output>{Output{}, Output{}};
        Output one = ops::scalar(G, dt, 1.0), zero = ops::scalar(G, dt, 0.0);
        Output gx = ops::mul(G, dy, ops::mul(G, y, G.op("Pow", {x, ops::sub(G, y, one)})));
        // log(x) where x > 0, else 0: no false singularity at x = 0.
        Output pos = G.op("Greater", {x, zero});
        Output logx = select2(G, pos, G.op("Log", {select2(G, pos, x, one)}), zero);
        Output gy = ops::mul(G, ops::mul(G, dy, z), logx);
        return std::vector<Output>{ops::unbroadcast(G, gx, x), ops::unbroadcast(G, gy, y)};
      });

  OpBuilder(r, "Maximum")
      .api("tf.maximum").api("tf.math.maximum")
      .input("x").input("y")
      .doc("max(x, y) elementwise, with numpy broadcasting (NaN propagates).")
      .shape(foldedBinary<kMax>)
      .grad([](GradContext& g) { return maxMinGrad(g, "GreaterEqual"); });

  OpBuilder(r, "Minimum")
      .api("tf.minimum").api("tf.math.minimum")
      .input("x").input("y")
      .doc("min(x, y) elementwise, with numpy broadcasting (NaN propagates).")
      .shape(foldedBinary<kMin>)
      .grad([](GradContext& g) { return maxMinGrad(g, "LessEqual"); });

  OpBuilder(r, "SquaredDifference")
      .api("tf.squared_difference").api("tf.math.squared_difference")
      .input("x").input("y")
      .doc("(x - y) * (x - y) elementwise, with numpy broadcasting.")
      .shape(signedBinary)
      .grad([](GradContext& g) {
        Graph& G = g.graph;
        Output x = g.input(0), y = g.input(1), dy = g.dys[0];
        Output two = ops::scalar(G, x.type().dtype, 2.0);
        Output gx = ops::mul(G, ops::mul(G, two, dy), ops::sub(G, x, y));
        return std::vector<Output>{ops::unbroadcast(G, gx, x), ops::unbroadcast(G, ops::neg(G, gx), y)};
      });

  OpBuilder(r, "SelectV2").strings(OpDef::Strings::ByIndex)
      .api("tf.where").api("tf.where_v2")
      .input("condition").input("t").input("e")
      .doc("t where condition, else e; all three numpy-broadcast together.")
      .shape(selectV2Shape)
      .grad([](GradContext& g) {
        Graph& G = g.graph;
        Output cond = g.input(0), t = g.input(1), e = g.input(2), dy = g.dys[0];
        Output zero = zeroLike(G, dy);
        return std::vector<Output>{Output{}, ops::unbroadcast(G, select2(G, cond, dy, zero), t),
                                   ops::unbroadcast(G, select2(G, cond, zero, dy), e)};
      });

  OpBuilder(r, "Select").strings(OpDef::Strings::ByIndex)
      .api("tf.compat.v1.where")
      .input("condition").input("t").input("e")
      .doc("t where condition, else e (TF1 tf.where): condition is a scalar, has the shape of t, "
           "or is a vector that picks whole rows.")
      .shape(selectShape)
      .grad([](GradContext& g) {
        Graph& G = g.graph;
        Output cond = g.input(0), dy = g.dys[0];
        Output zeros = ops::zerosLike(G, dy);
        return std::vector<Output>{Output{}, G.op("Select", {cond, dy, zeros}),
                                   G.op("Select", {cond, zeros, dy})};
      });

  OpBuilder(r, "ClipByValue")
      .api("tf.clip_by_value")
      .input("t").input("clip_value_min").input("clip_value_max")
      .doc("t clipped to [clip_value_min, clip_value_max] elementwise; the bounds are scalars or "
           "broadcast to t's shape.")
      .shape(clipShape)
      .grad([](GradContext& g) {
        Graph& G = g.graph;
        Output t = g.input(0), lo = g.input(1), hi = g.input(2), dy = g.dys[0];
        Output zero = zeroLike(G, dy);
        Output below = G.op("Less", {t, lo});
        Output above = G.op("Greater", {t, hi});
        Output outside = G.op("LogicalOr", {below, above});
        return std::vector<Output>{select2(G, outside, zero, dy),
                                   ops::unbroadcast(G, select2(G, below, dy, zero), lo),
                                   ops::unbroadcast(G, select2(G, above, dy, zero), hi)};
      });

  OpBuilder(r, "AddN")
      .api("tf.add_n").api("tf.math.add_n")
      .inputList("inputs")
      .doc("Sums a list of tensors of one shape and dtype.")
      .shape(addNShape)
      .grad([](GradContext& g) {
        return std::vector<Output>(g.node.inputs.size(), g.dys[0]);
      });

  OpBuilder(r, "Cast")
      .api("tf.cast")
      .input("x")
      .attr("DstT")
      .doc("Converts a tensor to another dtype.")
      .shape([](const InferContext& c) {
        DType to = c.getDType("DstT");
        if (to == DType::Invalid) return shapeError(c, "Cast needs a destination dtype");
        TensorType t(to, c.shape(0));
        if (const Tensor* v = c.value(0)) t.value = std::make_shared<const Tensor>(v->cast(to));
        t.asShape = c.input(0).asShape;
        ShapeResult r;
        r.outputs.push_back(std::move(t));
        return r;
      })
      .grad([](GradContext& g) {
        DType from = g.input(0).type().dtype;
        DType to = g.output(0).type().dtype;
        if (!isFloating(from) || !isFloating(to)) return std::vector<Output>{Output{}};
        return std::vector<Output>{ops::cast(g.graph, g.dys[0], from)};
      });
}

}  // namespace tlens
