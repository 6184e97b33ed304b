// Array ops: constants, placeholders, identity, shapes and reshapes, fills, ranges, transposes,
// expand/squeeze, one-hot. Concatenation, stacking, splitting, tiling and padding are in
// ConcatOps.cpp (registered from here).
#include <algorithm>
#include <cmath>

#include "engine/graph/Builder.h"
#include "engine/ops/OpRegistry.h"
#include "engine/ops/ShapeFns.h"
#include "engine/ops/defs/ArrayShapeUtil.h"

namespace tlens {

void registerConcatOps(OpRegistry& r);

namespace {

using namespace shapefn;
using namespace arrayfn;

/// Shape/Size/Rank values are known when the input's dims are.
TensorType shapeOutput(const Shape& s, DType out) {
  TensorType t(out, s.rankKnown() ? Shape{Dim::known(s.rank())} : Shape{Dim::unknown()});
  if (s.rankKnown()) {
    t.asShape = s;
    if (s.fullyKnown()) {
      Tensor v(out, {s.rank()});
      for (int i = 0; i < s.rank(); ++i) v.setDouble(i, static_cast<double>(s[static_cast<size_t>(i)].size));
      t.value = std::make_shared<const Tensor>(std::move(v));
    }
  }
  return t;
}

ShapeResult single(TensorType t) {
  ShapeResult r;
  r.outputs.push_back(std::move(t));
  return r;
}

/// "b*784" for the element count of a partly symbolic shape, "784" when known.
std::string countStr(int64_t known, const std::vector<Dim>& unknown) {
  std::string s;
  for (const Dim& d : unknown) s += d.str() + "*";
  return s + std::to_string(known);
}

ShapeResult reshapeInfer(const InferContext& c) {
  if (auto e = checkIndexDType(c, 1, "Tshape")) return *e;
  if (auto v = intValues(c, 1))
    for (size_t i = 0; i < v->size(); ++i)
      if ((*v)[i] < -1)
        return shapeError(c, "Size " + std::to_string(i) + " must be non-negative, not " +
                                 std::to_string((*v)[i]), {1});
  const Shape& in = c.shape(0);
  Shape target = c.valueAsShape(1);
  if (!target.rankKnown()) return ShapeResult::single(c.dtype(0), Shape::unknownRank());
  int inferAt = -1;
  int64_t knownTarget = 1;
  std::vector<Dim> unknownTarget;
  for (int i = 0; i < target.rank(); ++i) {
    const Dim& d = target[static_cast<size_t>(i)];
    if (d.isMinusOne()) {
      if (inferAt >= 0)
        return shapeError(c, "Cannot infer multiple unknown dimensions in shape " + target.str(), {1});
      inferAt = i;
    } else if (d.isKnown()) {
      knownTarget *= d.size;
    } else {
      unknownTarget.push_back(d);
    }
  }
  std::vector<Dim> out = target.dims();
  if (inferAt >= 0) out[static_cast<size_t>(inferAt)] = Dim::unknown();
  TensorType result(c.dtype(0), Shape(out));
  if (!in.rankKnown()) return single(result);
  // Known product and unknown dims of the input; a symbol on both sides cancels out, so
  // [b, 28, 28] -> [b, -1] infers 784.
  int64_t knownIn = 1;
  std::vector<Dim> unknownIn;
  for (const Dim& d : in.dims()) {
    if (d.isKnown()) knownIn *= d.size;
    else unknownIn.push_back(d);
  }
  std::vector<Dim> restIn = unknownIn, restTarget;
  for (const Dim& t : unknownTarget) {
    auto it = std::find_if(restIn.begin(), restIn.end(), [&](const Dim& d) { return d.sameAs(t); });
    if (it != restIn.end()) restIn.erase(it);
    else restTarget.push_back(t);
  }
  if (restIn.empty() && restTarget.empty()) {
    if (inferAt < 0) {
      if (knownIn != knownTarget)
        return shapeError(c, "Cannot reshape a tensor with " + countStr(knownIn, unknownIn) +
                                 " elements to shape " + target.str() + " (" +
                                 countStr(knownTarget, unknownTarget) + " elements)", {0, 1});
    } else if (knownTarget == 0) {
      if (knownIn != 0)
        return shapeError(c, "Cannot reshape a tensor with " + countStr(knownIn, unknownIn) +
                                 " elements to shape " + target.str() +
                                 " (the known dims have 0 elements)", {0, 1});
    } else {
      if (knownIn % knownTarget != 0)
        return shapeError(c, "Cannot reshape a tensor with " + countStr(knownIn, unknownIn) +
                                 " elements to shape " + target.str() + " (the known dims have " +
                                 std::to_string(knownTarget) + " elements, which does not divide " +
                                 std::to_string(knownIn) + ")", {0, 1});
      out[static_cast<size_t>(inferAt)] = Dim::known(knownIn / knownTarget);
    }
  } else if (restTarget.empty() && restIn.size() == 1 && inferAt >= 0 && knownTarget != 0 &&
             knownIn == knownTarget) {
    out[static_cast<size_t>(inferAt)] = restIn[0];  // [b, 7, 7, 64] -> [-1, 3136] gives [b, 3136]
  } else if (restIn.empty() && restTarget.size() == 1 && inferAt < 0 && knownTarget != 0 &&
             knownIn % knownTarget == 0 && !restTarget[0].isSymbolic()) {
    // [12] -> [?, 4]: the unknown target dim is 3.
    for (Dim& d : out)
      if (!d.isKnown() && d == restTarget[0]) { d = Dim::known(knownIn / knownTarget); break; }
  }
  result.shape = Shape(out);
  carryReshaped(c, result);
  return single(result);
}

/// Reshape's failures carry the requested shape as the shape function read it ("target").
ShapeResult reshapeShape(const InferContext& c) {
  ShapeResult r = reshapeInfer(c);
  if (!r.ok()) r.data.shapes.push_back(NamedShape{"target", shapeInfo(c.valueAsShape(1))});
  return r;
}

ShapeResult broadcastToShape(const InferContext& c) {
  Shape target = c.valueAsShape(1);
  if (!target.rankKnown()) return ShapeResult::single(c.dtype(0), Shape::unknownRank());
  int axis = 0;
  auto s = broadcastShapes(c.shape(0), target, &axis);
  if (!s || (c.shape(0).rankKnown() && c.shape(0).rank() > target.rank()))
    return shapeError(c, "Unable to broadcast tensor of shape " + c.shape(0).str() +
                             " to shape " + target.str(), {0, 1});
  return ShapeResult::single(c.dtype(0), target.merge(*s));
}

// ---- Transpose ----

/// Validates a permutation of `rank`; returns an error message or "".
std::string checkPermutation(const std::vector<int64_t>& perm, int64_t rank) {
  std::vector<char> seen(static_cast<size_t>(std::max<int64_t>(rank, 0)), 0);
  for (int64_t p : perm) {
    if (p < 0 || p >= rank)
      return "perm dim " + std::to_string(p) + " is out of range of input rank " + std::to_string(rank);
    seen[static_cast<size_t>(p)] = 1;
  }
  for (int64_t i = 0; i < rank; ++i)
    if (!seen[static_cast<size_t>(i)]) {
      std::string list;
      for (size_t k = 0; k < perm.size(); ++k) {
        if (k) list += ",";
        list += std::to_string(perm[k]);
      }
      return std::to_string(i) + " is missing from {" + list + "}.";
    }
  return "";
}

ShapeResult transposeShape(const InferContext& c) {
  if (auto e = checkIndexDType(c, 1, "Tperm")) return *e;
  if (auto e = checkRank(c, 1, 1)) return *e;
  const Shape& in = c.shape(0);
  int64_t permLen = -1;
  auto perm = intValues(c, 1);
  if (perm) permLen = static_cast<int64_t>(perm->size());
  else if (c.shape(1).rank() == 1 && c.shape(1)[0].isKnown()) permLen = c.shape(1)[0].size;
  if (in.rankKnown() && permLen >= 0 && permLen != in.rank())
    return shapeError(c, "Dimension must be " + std::to_string(in.rank()) + " but is " +
                             std::to_string(permLen), {0, 1});
  const int64_t rank = in.rankKnown() ? in.rank() : permLen;
  if (rank < 0) return ShapeResult::single(c.dtype(0), Shape::unknownRank());
  if (!perm) {
    // Unknown order: only dims that are all the same survive.
    if (in.rankKnown() && rank > 0) {
      bool same = true;
      for (const Dim& d : in.dims()) same = same && d.sameAs(in[0]);
      if (same) return ShapeResult::single(c.dtype(0), in);
    }
    return ShapeResult::single(c.dtype(0), Shape::unknownDims(rank));
  }
  std::string err = checkPermutation(*perm, rank);
  if (!err.empty()) return shapeError(c, err, {1});
  if (!in.rankKnown()) return ShapeResult::single(c.dtype(0), Shape::unknownDims(rank));
  std::vector<Dim> out;
  for (int64_t p : *perm) out.push_back(in[static_cast<size_t>(p)]);
  TensorType t(c.dtype(0), Shape(std::move(out)));
  if (const Tensor* v = c.value(0)) {
    if (auto os = smallConcrete(t.shape)) {
      const std::vector<int64_t> inSt = stridesOf(v->shape());
      std::vector<int64_t> idx;
      const int64_t n = numElements(*os);
      std::vector<int64_t> oi(static_cast<size_t>(rank), 0);
      for (int64_t k = 0; k < n; ++k) {
        int64_t off = 0;
        for (int64_t d = 0; d < rank; ++d) off += oi[static_cast<size_t>(d)] * inSt[static_cast<size_t>((*perm)[static_cast<size_t>(d)])];
        idx.push_back(off);
        for (int64_t d = rank; d-- > 0;) {
          if (++oi[static_cast<size_t>(d)] < (*os)[static_cast<size_t>(d)]) break;
          oi[static_cast<size_t>(d)] = 0;
        }
      }
      t.value = takeElements(*v, idx, *os);
    }
  }
  if (rank == 1) setElements(t, elementDims(c, 0));
  return single(t);
}

// ---- ExpandDims / Squeeze ----

ShapeResult expandDimsShape(const InferContext& c) {
  if (auto e = checkIndexDType(c, 1, "Tdim")) return *e;
  if (const Tensor* v = c.value(1); v && v->numElements() != 1)
    return shapeError(c, "'dim' input must be a tensor with a single value", {1});
  const Shape& in = c.shape(0);
  auto axis = intScalar(c, 1);
  if (!in.rankKnown()) return ShapeResult::single(c.dtype(0), Shape::unknownRank());
  const int64_t r = in.rank();
  if (!axis) return ShapeResult::single(c.dtype(0), Shape::unknownDims(r + 1));
  int64_t a = *axis;
  if (a < -r - 1 || a > r)
    return shapeError(c, "dim " + std::to_string(a) + " not in the interval [" + std::to_string(-r - 1) +
                             ", " + std::to_string(r) + "].", {0, 1});
  if (a < 0) a += r + 1;
  std::vector<Dim> out = in.dims();
  out.insert(out.begin() + a, Dim::known(1));
  TensorType t(c.dtype(0), Shape(std::move(out)));
  carryReshaped(c, t);
  return single(t);
}

std::optional<std::vector<int64_t>> squeezeDims(const AttrReader& a) {
  auto v = a.getInts("squeeze_dims");
  if (v && !v->empty()) return v;
  if (auto axis = a.getInts("axis")) return axis;  // the Python argument name
  return v;
}

ShapeResult squeezeShape(const InferContext& c) {
  const Shape& in = c.shape(0);
  std::vector<int64_t> dims = squeezeDims(c).value_or(std::vector<int64_t>{});
  if (!in.rankKnown()) return ShapeResult::single(c.dtype(0), Shape::unknownRank());
  const int64_t r = in.rank();
  std::vector<char> sq(static_cast<size_t>(r), 0);
  for (int64_t d : dims) {
    if (d < -r || d >= r)
      return shapeError(c, "Tried to squeeze dim index " + std::to_string(d) + " for tensor with " +
                               std::to_string(r) + " dimensions.", {0});
    sq[static_cast<size_t>(d < 0 ? d + r : d)] = 1;
  }
  std::vector<Dim> out;
  for (int64_t i = 0; i < r; ++i) {
    const Dim& d = in[static_cast<size_t>(i)];
    const bool explicitDim = sq[static_cast<size_t>(i)] != 0;
    if (!d.isKnown()) {
      if (explicitDim) continue;  // assumed 1; checked when the shape is concrete
      if (dims.empty()) return ShapeResult::single(c.dtype(0), Shape::unknownRank());
    } else if (d.size == 1) {
      if (explicitDim || dims.empty()) continue;
    } else if (explicitDim) {
      return shapeError(c, "Can not squeeze dim[" + std::to_string(i) +
                               "], expected a dimension of 1, got " + std::to_string(d.size), {0});
    }
    out.push_back(d);
  }
  TensorType t(c.dtype(0), Shape(std::move(out)));
  carryReshaped(c, t);
  return single(t);
}

// ---- Fill / Range / Rank / OneHot ----

ShapeResult fillShape(const InferContext& c) {
  if (auto e = checkIndexDType(c, 0, "index_type")) return *e;
  if (auto e = checkRank(c, 0, 1)) return *e;
  if (auto e = checkRank(c, 1, 0)) return *e;
  if (auto v = intValues(c, 0))
    for (int64_t x : *v)
      if (x < 0) return shapeError(c, "Fill dimensions must be >= 0", {0});
  Shape s = c.valueAsShape(0);
  if (s.rankKnown())
    for (Dim& d : s.dims())
      if (d.isMinusOne()) d = Dim::unknown();
  TensorType t(c.dtype(1), s);
  if (const Tensor* v = c.value(1); v && v->numElements() == 1)
    if (auto os = smallConcrete(s)) {
      std::vector<int64_t> idx(static_cast<size_t>(numElements(*os)), 0);
      t.value = takeElements(*v, idx, *os);
      if (os->size() <= 1 && isIndexDType(t.dtype))
        setElements(t, std::vector<Dim>(idx.size(), dimFromValue(v->getInt(0))));
    }
  return single(t);
}

ShapeResult rangeShape(const InferContext& c) {
  for (size_t i = 0; i < 3; ++i)
    if (auto e = checkRank(c, i, 0)) return *e;
  if (auto e = checkSameDType(c, {0, 1, 2})) return *e;
  if (auto e = checkDType(c, 0, {DType::Int32, DType::Int64, DType::Float32, DType::Float64, DType::Float16}))
    return *e;
  const DType dt = commonDType(c, {0, 1, 2});
  const Tensor* vs = c.value(0);
  const Tensor* vl = c.value(1);
  const Tensor* vd = c.value(2);
  if (!vs || !vl || !vd || vs->numElements() != 1 || vl->numElements() != 1 || vd->numElements() != 1)
    return ShapeResult::single(dt, Shape{Dim::unknown()});
  const double start = vs->getDouble(0), limit = vl->getDouble(0), delta = vd->getDouble(0);
  if (!std::isfinite(start) || !std::isfinite(limit) || !std::isfinite(delta))
    return shapeError(c, "Requires start, limit and delta to be finite: " + numStr(start) + ", " + numStr(limit) +
                             ", " + numStr(delta), {0, 1, 2});
  if (delta == 0) return shapeError(c, "Requires delta != 0: " + numStr(delta), {2});
  if (start > limit && delta > 0)
    return shapeError(c, "Requires start <= limit when delta > 0: " + numStr(start) + "/" + numStr(limit), {0, 1});
  if (start < limit && delta < 0)
    return shapeError(c, "Requires start >= limit when delta < 0: " + numStr(start) + "/" + numStr(limit), {0, 1});
  int64_t n;
  if (isInteger(dt)) {
    const int64_t s = vs->getInt(0), l = vl->getInt(0), d = vd->getInt(0);
    n = (std::llabs(l - s) + std::llabs(d) - 1) / std::llabs(d);
  } else {
    const double size = std::ceil(std::fabs((limit - start) / delta));
    if (!(size < 9.0e18)) return shapeError(c, "Requires the range size to fit in int64: " + numStr(size), {0, 1, 2});
    n = static_cast<int64_t>(size);
  }
  TensorType t(dt, Shape{Dim::known(n)});
  if (n <= kMaxValueElements && dt != DType::Invalid) {
    Tensor v(dt, {n});
    for (int64_t i = 0; i < n; ++i) {
      if (isInteger(dt)) v.setDouble(i, static_cast<double>(vs->getInt(0) + i * vd->getInt(0)));
      else v.setDouble(i, start + static_cast<double>(i) * delta);
    }
    t.value = std::make_shared<const Tensor>(std::move(v));
  }
  return single(t);
}

ShapeResult oneHotShape(const InferContext& c) {
  const int64_t axis = c.getInt("axis", -1);
  if (axis < -1) return shapeError(c, "axis must be >= -1", {});
  if (auto e = checkDType(c, 0, {DType::Int32, DType::Int64, DType::UInt8})) return *e;
  if (auto e = checkRank(c, 1, 0)) return *e;
  if (auto e = checkRank(c, 2, 0)) return *e;
  if (auto e = checkRank(c, 3, 0)) return *e;
  if (auto e = checkSameDType(c, {2, 3})) return *e;
  const DType dt = commonDType(c, {2, 3});
  auto depth = intScalar(c, 1);
  if (depth && *depth < 0) return shapeError(c, "depth must be non-negative, got: " + std::to_string(*depth), {1});
  const Shape& in = c.shape(0);
  if (!in.rankKnown()) return ShapeResult::single(dt, Shape::unknownRank());
  const int64_t r = in.rank();
  if (axis > r)
    return shapeError(c, "Expected axis to be -1 or between [0, " + std::to_string(r) +
                             "].  But received: " + std::to_string(axis), {0});
  std::vector<Dim> out = in.dims();
  out.insert(out.begin() + (axis == -1 ? r : axis), depth ? Dim::known(*depth) : Dim::unknown());
  return ShapeResult::single(dt, Shape(std::move(out)));
}

ShapeResult invertPermutationShape(const InferContext& c) {
  if (auto e = checkRank(c, 0, 1)) return *e;
  if (auto e = checkIndexDType(c, 0, "T")) return *e;
  TensorType t(c.dtype(0), c.shape(0).rankKnown() ? c.shape(0) : Shape{Dim::unknown()});
  if (auto v = intValues(c, 0)) {
    const int64_t n = static_cast<int64_t>(v->size());
    std::vector<int64_t> inv(v->size(), -1);
    for (int64_t i = 0; i < n; ++i) {
      const int64_t p = (*v)[static_cast<size_t>(i)];
      if (p < 0 || p >= n)
        return shapeError(c, std::to_string(p) + " is not between 0 and " + std::to_string(n), {0});
      if (inv[static_cast<size_t>(p)] >= 0)
        return shapeError(c, std::to_string(p) + " is duplicated in the input.", {0});
      inv[static_cast<size_t>(p)] = i;
    }
    Tensor out(c.dtype(0), {n});
    for (int64_t i = 0; i < n; ++i) out.setDouble(i, static_cast<double>(inv[static_cast<size_t>(i)]));
    t.value = std::make_shared<const Tensor>(std::move(out));
  }
  return single(t);
}

std::vector<Output> reshapeToInputGrad(GradContext& g) {
  std::vector<Output> r(g.node.inputs.size());
  r[0] = ops::reshape(g.graph, g.dys[0], ops::shape(g.graph, g.input(0)));
  return r;
}

}  // namespace

void registerArrayOps(OpRegistry& r) {
  OpBuilder(r, "Unique").strings(OpDef::Strings::ByValue).cpuOnly("its output size depends on the data")
      .api("tf.unique")
      .input("x")
      .attr("out_idx", DType::Int32, "the dtype of idx")
      .notDifferentiable()
      .doc("The distinct values of a vector in order of first appearance (y), and each element's index in y (idx).")
      .shape([](const InferContext& c) {
        const Shape& s = c.shape(0);
        if (s.rankKnown() && s.rank() != 1)
          return shapeError(c, "unique expects a 1D vector.", {0});
        ShapeResult r;
        r.outputs.emplace_back(c.dtype(0), Shape({Dim::unknown()}));
        r.outputs.emplace_back(c.getDType("out_idx", DType::Int32), s.rankKnown() ? s : Shape({Dim::unknown()}));
        return r;
      });

  OpBuilder(r, "Where").cpuOnly("its output size depends on the data")
      .input("condition")
      .notDifferentiable()
      .doc("The coordinates of the true (non-zero) elements of `condition`, one row each (tf.where(condition)).")
      .shape([](const InferContext& c) {
        const Shape& s = c.shape(0);
        ShapeResult r;
        r.outputs.emplace_back(DType::Int64, s.rankKnown() ? Shape({Dim::unknown(), Dim::known(s.rank())})
                                                           : Shape({Dim::unknown(), Dim::unknown()}));
        return r;
      });

  OpBuilder(r, "Const").strings(OpDef::Strings::Native)
      .api("tf.constant")
      .attr("value")
      .attr("dtype")
      .notDifferentiable()
      .doc("A constant tensor.")
      .shape([](const InferContext& c) {
        const Tensor* v = c.getTensor("value");
        if (!v) return shapeError(c, "Const needs a 'value' attribute");
        TensorType t(v->dtype(), Shape::fromConcrete(v->shape()));
        if (v->numElements() <= 4096) t.value = std::make_shared<const Tensor>(*v);
        if (v->rank() <= 1 && (v->dtype() == DType::Int32 || v->dtype() == DType::Int64)) {
          std::vector<Dim> d;
          for (int64_t x : v->toInt64Vector()) d.push_back(x >= 0 ? Dim::known(x) : x == -1 ? Dim::minusOne() : Dim::unknown());
          t.asShape = Shape(std::move(d));
        }
        ShapeResult r;
        r.outputs.push_back(std::move(t));
        return r;
      });

  OpBuilder(r, "Placeholder").strings(OpDef::Strings::Native)
      .api("tf.placeholder")
      .api("tf.compat.v1.placeholder")
      .attr("dtype")
      .attr("shape", Shape::unknownRank())
      .notDifferentiable()
      .doc("A tensor whose value must be fed when the graph runs.")
      .shape([](const InferContext& c) {
        DType t = c.getDType("dtype");
        if (t == DType::Invalid) return shapeError(c, "Placeholder needs a dtype");
        return ShapeResult::single(t, c.getShape("shape"));
      });

  OpBuilder(r, "Identity").strings(OpDef::Strings::Native)
      .api("tf.identity")
      .input("input")
      .doc("Returns a tensor with the same shape and contents as the input.")
      .shape(passThrough)
      .grad([](GradContext& g) { return std::vector<Output>{g.dys[0]}; });

  OpBuilder(r, "StopGradient").strings(OpDef::Strings::Native)
      .api("tf.stop_gradient")
      .input("input")
      .notDifferentiable()
      .doc("Returns the input unchanged, and blocks gradients from flowing through it.")
      .shape(passThrough);

  OpBuilder(r, "Shape").strings(OpDef::Strings::Native).cpuOnly("computes a shape on the host").readsOnlyShapes()
      .api("tf.shape")
      .input("input")
      .attr("out_type", DType::Int32)
      .notDifferentiable()
      .doc("The shape of a tensor, as a 1-D integer tensor.")
      .shape([](const InferContext& c) {
        ShapeResult r;
        r.outputs.push_back(shapeOutput(c.shape(0), c.getDType("out_type", DType::Int32)));
        return r;
      });

  OpBuilder(r, "Size").strings(OpDef::Strings::Native).cpuOnly("computes a shape on the host").readsOnlyShapes()
      .api("tf.size")
      .input("input")
      .attr("out_type", DType::Int32)
      .notDifferentiable()
      .doc("The number of elements of a tensor.")
      .shape([](const InferContext& c) {
        DType out = c.getDType("out_type", DType::Int32);
        TensorType t(out, Shape::scalar());
        if (auto n = c.shape(0).numElements()) {
          t.value = std::make_shared<const Tensor>(Tensor::filled(out, {}, static_cast<double>(*n)));
          t.asShape = Shape{Dim::known(*n)};
        }
        ShapeResult r;
        r.outputs.push_back(std::move(t));
        return r;
      });

  OpBuilder(r, "Rank").strings(OpDef::Strings::Native).cpuOnly("computes a shape on the host").readsOnlyShapes()
      .api("tf.rank")
      .input("input")
      .notDifferentiable()
      .doc("The number of dimensions of a tensor, as an int32 scalar.")
      .shape([](const InferContext& c) {
        TensorType t(DType::Int32, Shape::scalar());
        if (c.shape(0).rankKnown()) {
          t.value = std::make_shared<const Tensor>(Tensor::scalar<int32_t>(c.shape(0).rank()));
          t.asShape = Shape{Dim::known(c.shape(0).rank())};
        }
        return single(t);
      });

  OpBuilder(r, "Reshape").strings(OpDef::Strings::Native).hostInput(1)
      .api("tf.reshape")
      .input("tensor")
      .input("shape")
      .doc("Reshapes a tensor; one dimension of the new shape may be -1 and is inferred.")
      .shape(reshapeShape)
      .grad([](GradContext& g) {
        return std::vector<Output>{ops::reshape(g.graph, g.dys[0], ops::shape(g.graph, g.input(0))), {}};
      });

  OpBuilder(r, "BroadcastTo").strings(OpDef::Strings::ByIndex).hostInput(1)
      .api("tf.broadcast_to")
      .input("input")
      .input("shape")
      .doc("Broadcasts a tensor to a compatible shape, numpy style.")
      .shape(broadcastToShape)
      .grad([](GradContext& g) {
        return std::vector<Output>{ops::sumToShape(g.graph, g.dys[0], ops::shape(g.graph, g.input(0))), {}};
      });

  OpBuilder(r, "ZerosLike").strings(OpDef::Strings::Native)
      .api("tf.zeros_like")
      .input("x")
      .notDifferentiable()
      .doc("A tensor of zeros with the shape and dtype of the input.")
      .shape(unchanged);

  OpBuilder(r, "OnesLike")
      .api("tf.ones_like")
      .input("x")
      .notDifferentiable()
      .doc("A tensor of ones with the shape and dtype of the input.")
      .shape(unchanged);

  OpBuilder(r, "Fill").strings(OpDef::Strings::ByIndex).hostInput(0)
      .api("tf.fill").api("tf.zeros").api("tf.ones")
      .input("dims")
      .input("value")
      .doc("A tensor of shape `dims` filled with the scalar `value` (tf.zeros / tf.ones build "
           "Fill(shape, 0 or 1 of the dtype)).")
      .shape(fillShape)
      .grad([](GradContext& g) {
        return std::vector<Output>{{}, ops::reduceSum(g.graph, g.dys[0], {})};
      });

  OpBuilder(r, "Range").hostInput(0).hostInput(1).hostInput(2)
      .api("tf.range")
      .input("start")
      .input("limit")
      .input("delta")
      .notDifferentiable()
      .doc("The sequence start, start + delta, ... up to but not including limit.")
      .shape(rangeShape);

  OpBuilder(r, "Transpose").strings(OpDef::Strings::ByIndex).hostInput(1)
      .api("tf.transpose")
      .input("x")
      .input("perm")
      .doc("Permutes the dimensions: output dim i is input dim perm[i] (perm defaults to the "
           "reversed dims).")
      .shape(transposeShape)
      .grad([](GradContext& g) {
        Graph& G = g.graph;
        Output perm = g.input(1);
        Output inv;
        if (const Tensor* v = perm.type().value.get()) {
          std::vector<int64_t> p = v->toInt64Vector(), q(p.size());
          for (size_t i = 0; i < p.size(); ++i) q[static_cast<size_t>(p[i])] = static_cast<int64_t>(i);
          inv = constInts(G, q, v->dtype());
        } else {
          inv = G.op("InvertPermutation", {perm});
        }
        return std::vector<Output>{G.op("Transpose", {g.dys[0], inv}), {}};
      });

  OpBuilder(r, "InvertPermutation").cpuOnly("computes a permutation on the host")
      .api("tf.math.invert_permutation").api("tf.invert_permutation")
      .input("x")
      .notDifferentiable()
      .doc("The inverse of a permutation vector: y[x[i]] = i.")
      .shape(invertPermutationShape);

  OpBuilder(r, "ExpandDims").strings(OpDef::Strings::Native).hostInput(1)
      .api("tf.expand_dims")
      .input("input")
      .input("axis")
      .doc("Inserts a dimension of size 1 at `axis` (negative counts from the end).")
      .shape(expandDimsShape)
      .grad(reshapeToInputGrad);

  OpBuilder(r, "Squeeze").strings(OpDef::Strings::Native)
      .api("tf.squeeze")
      .input("input")
      .attr("squeeze_dims", std::vector<int64_t>{}, "dims to remove (Python: axis); empty: every size-1 dim")
      .doc("Removes dimensions of size 1.")
      .shape(squeezeShape)
      .grad(reshapeToInputGrad);

  OpBuilder(r, "OneHot").hostInput(1)
      .api("tf.one_hot")
      .input("indices")
      .input("depth")
      .input("on_value")
      .input("off_value")
      .attr("axis", int64_t{-1})
      .notDifferentiable()
      .doc("One-hot encoding: on_value where indices == position along the new axis, else off_value.")
      .shape(oneHotShape);

  registerConcatOps(r);
}

}  // namespace tlens
