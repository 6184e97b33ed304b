// Slicing ops: Slice, StridedSlice (Python indexing, with its gradient StridedSliceGrad) and
// GatherV2 (with GatherV2Grad, its scatter-add gradient). Slices of shape vectors keep their
// shape-valued elements, so tf.shape(x)[0] is the dim itself (symbol included).
#include <algorithm>

#include "engine/graph/Builder.h"
#include "engine/ops/OpRegistry.h"
#include "engine/ops/ShapeFns.h"
#include "engine/ops/defs/ArrayShapeUtil.h"
#include "engine/ops/defs/StridedSliceSpec.h"

namespace tlens {

namespace {

using namespace shapefn;
using namespace arrayfn;
using namespace slicing;

ShapeResult single(TensorType t) {
  ShapeResult r;
  r.outputs.push_back(std::move(t));
  return r;
}

/// An error when a known shape vector (input i) holds a negative dim.
std::optional<ShapeResult> checkShapeValues(const InferContext& c, size_t i) {
  if (auto v = intValues(c, i))
    for (int64_t d : *v)
      if (d < 0) return shapeError(c, "Dimension " + std::to_string(d) + " must be >= 0", {static_cast<int>(i)});
  return std::nullopt;
}

/// Input 0's shape, with the length of a shape vector filled in from its value or asShape.
Shape dataShape(const InferContext& c) {
  Shape s = c.shape(0);
  if (s.rank() == 1 && !s[0].isKnown()) {
    if (const Tensor* v = c.value(0)) s = Shape{Dim::known(v->numElements())};
    else if (c.input(0).asShape && c.input(0).asShape->rankKnown())
      s = Shape{Dim::known(c.input(0).asShape->rank())};
  }
  return s;
}

/// Sets the value and shape-valued elements of a slice whose reads are described by `a`.
void sliceValues(const InferContext& c, const Shape& in, const StridedSliceAnalysis& a, TensorType& t) {
  if (!a.fullyKnown() || !in.fullyKnown()) return;
  const Tensor* v = c.value(0);
  auto os = smallConcrete(t.shape);
  // Shape-valued elements are tracked through short index vectors only: for a long data vector
  // (x[1:] of a million floats) listing every index and element made each slice cost ~100 ms.
  const bool elements = in.rank() == 1 && t.shape.rankKnown() && t.shape.rank() <= 1 && isIndexDType(t.dtype) &&
                        in[0].size <= kMaxValueElements;
  if (!os && !elements) return;
  const std::vector<int64_t> idx = a.flatIndices(in.concrete());
  if (v && os) t.value = takeElements(*v, idx, *os);
  if (elements)
    if (auto e = elementDims(c, 0)) {
      std::vector<Dim> elems;
      for (int64_t i : idx) {
        if (i < 0 || i >= static_cast<int64_t>(e->size())) return;
        elems.push_back((*e)[static_cast<size_t>(i)]);
      }
      setElements(t, elems);
    }
}

// ---- StridedSlice ----

/// Checks begin/end/strides (inputs first..first+2) and returns their common length (-1 unknown).
std::optional<ShapeResult> checkSliceSpec(const InferContext& c, size_t first, int64_t* len) {
  int64_t n = -1;
  std::string shapes[3];
  bool mismatch = false;
  for (size_t k = 0; k < 3; ++k) {
    const size_t i = first + k;
    if (auto e = checkIndexDType(c, i, "Index")) return e;
    if (auto e = checkRank(c, i, 1)) return e;
    int64_t li = -1;
    if (const Tensor* v = c.value(i)) li = v->numElements();
    else if (c.shape(i).rank() == 1 && c.shape(i)[0].isKnown()) li = c.shape(i)[0].size;
    shapes[k] = "[";
    shapes[k] += li >= 0 ? std::to_string(li) : std::string("?");
    shapes[k] += "]";
    if (li >= 0) {
      if (n >= 0 && li != n) mismatch = true;
      n = li;
    }
  }
  if (mismatch)
    return shapeError(c, "Expected begin, end, and strides to be 1D equal size tensors, but got shapes " +
                             shapes[0] + ", " + shapes[1] + ", and " + shapes[2] + " instead.",
                      {static_cast<int>(first), static_cast<int>(first + 1), static_cast<int>(first + 2)});
  *len = n;
  return std::nullopt;
}

ShapeResult stridedSliceShape(const InferContext& c) {
  int64_t n = -1;
  if (auto e = checkSliceSpec(c, 1, &n)) return *e;
  const Shape in = dataShape(c);
  StridedSliceAnalysis a = analyzeStridedSlice(in, n, intValues(c, 1), intValues(c, 2), intValues(c, 3),
                                               StridedSliceMasks::read(c));
  if (!a.ok()) return shapeError(c, a.error, {0, 1, 2, 3});
  TensorType t(c.dtype(0), a.rankKnown ? a.output : Shape::unknownRank());
  if (a.rankKnown) sliceValues(c, in, a, t);
  return single(t);
}

ShapeResult stridedSliceGradShape(const InferContext& c) {
  if (auto e = checkRank(c, 0, 1)) return *e;
  if (auto e = checkIndexDType(c, 0, "Index")) return *e;
  int64_t n = -1;
  if (auto e = checkSliceSpec(c, 1, &n)) return *e;
  if (auto e = checkShapeValues(c, 0)) return *e;
  Shape s = c.valueAsShape(0);
  if (s.rankKnown())
    for (Dim& d : s.dims())
      if (d.isMinusOne()) d = Dim::unknown();
  if (s.rankKnown()) {
    StridedSliceAnalysis a = analyzeStridedSlice(s, n, intValues(c, 1), intValues(c, 2), intValues(c, 3),
                                                 StridedSliceMasks::read(c));
    if (!a.ok()) return shapeError(c, a.error, {0, 1, 2, 3});
    if (a.rankKnown && !a.output.compatible(c.shape(4)))
      return shapeError(c, "shape of dy was " + c.shape(4).str() + " instead of " + a.output.str(), {4});
  }
  return ShapeResult::single(c.dtype(4), s);
}

// ---- Slice ----

ShapeResult sliceShape(const InferContext& c) {
  for (size_t i : {1, 2}) {
    if (auto e = checkIndexDType(c, i, "Index")) return *e;
    if (auto e = checkRank(c, i, 1)) return *e;
  }
  const Shape in = dataShape(c);
  auto begin = intValues(c, 1);
  auto size = intValues(c, 2);
  auto lenOf = [&](size_t i, const std::optional<std::vector<int64_t>>& v) -> int64_t {
    if (v) return static_cast<int64_t>(v->size());
    if (c.shape(i).rank() == 1 && c.shape(i)[0].isKnown()) return c.shape(i)[0].size;
    return -1;
  };
  const int64_t lb = lenOf(1, begin), ls = lenOf(2, size);
  const int64_t rank = in.rankKnown() ? in.rank() : (lb >= 0 ? lb : ls);
  if ((lb >= 0 && ls >= 0 && lb != ls) || (rank >= 0 && lb >= 0 && lb != rank) || (rank >= 0 && ls >= 0 && ls != rank))
    return shapeError(c, "Expected begin and size arguments to be 1-D tensors of size " + std::to_string(rank) +
                             ", but got shapes [" + (lb >= 0 ? std::to_string(lb) : "?") + "] and [" +
                             (ls >= 0 ? std::to_string(ls) : "?") + "] instead.", {0, 1, 2});
  if (rank < 0) return ShapeResult::single(c.dtype(0), Shape::unknownRank());
  std::vector<Dim> out(static_cast<size_t>(rank));
  StridedSliceAnalysis a;
  a.rankKnown = true;
  for (int64_t i = 0; i < rank; ++i) {
    const Dim d = in.rankKnown() ? in[static_cast<size_t>(i)] : Dim::unknown();
    std::optional<int64_t> b, s;
    if (begin) b = (*begin)[static_cast<size_t>(i)];
    if (size) s = (*size)[static_cast<size_t>(i)];
    const std::string n = d.isKnown() ? std::to_string(d.size) : "?";
    if (s && *s < -1)
      return shapeError(c, "Out of bounds slicing on dimension " + std::to_string(i) + " of length " + n +
                               ": sizes vector cannot be < -1, but was " + std::to_string(*s), {2});
    if (b && (*b < 0 || (d.isKnown() && *b > d.size)))
      return shapeError(c, "Expected begin[" + std::to_string(i) + "] in [0, " + n + "], but got " +
                               std::to_string(*b), {0, 1});
    SliceDim& sd = a.dims.emplace_back();
    if (b) {
      sd.begin = *b;
      sd.beginKnown = true;
    }
    Dim& o = out[static_cast<size_t>(i)];
    if (s && *s >= 0) {
      if (b && d.isKnown() && *b + *s > d.size)
        return shapeError(c, "Expected size[" + std::to_string(i) + "] in [0, " + std::to_string(d.size - *b) +
                                 "], but got " + std::to_string(*s), {0, 2});
      o = Dim::known(*s);
    } else if (s) {  // -1: to the end
      if (b && d.isKnown()) o = Dim::known(d.size - *b);
      else if (b && *b == 0) o = d;
    }
    sd.size = o.isKnown() ? o.size : -1;
    a.finalDims.push_back(static_cast<int>(i));
  }
  TensorType t(c.dtype(0), Shape(out));
  sliceValues(c, in, a, t);
  return single(t);
}

std::vector<Output> sliceGrad(GradContext& g) {
  // Pad dy back: paddings[i] = [begin[i], dim[i] - begin[i] - size[i]].
  Graph& G = g.graph;
  Output x = g.input(0), begin = g.input(1);
  const Shape& xs = x.type().shape;
  const Shape& ys = g.output(0).type().shape;
  DType dt = begin.type().dtype == DType::Int64 ? DType::Int64 : DType::Int32;
  Output paddings;
  if (const Tensor* bv = begin.type().value.get(); bv && xs.fullyKnown() && ys.fullyKnown()) {
    Tensor p(dt, {xs.rank(), 2});
    for (int i = 0; i < xs.rank(); ++i) {
      const int64_t b = bv->getInt(i);
      p.setDouble(2 * i, static_cast<double>(b));
      p.setDouble(2 * i + 1, static_cast<double>(xs[static_cast<size_t>(i)].size - b - ys[static_cast<size_t>(i)].size));
    }
    paddings = ops::constant(G, p);
  } else {
    Output after = ops::sub(G, ops::sub(G, shapeOf(G, x, dt), shapeOf(G, g.output(0), dt)), begin);
    paddings = G.op("Pack", {begin, after}, {{"axis", int64_t{1}}});
  }
  return {G.op("Pad", {g.dys[0], paddings}), {}, {}};
}

// ---- GatherV2 ----

/// "indices[1,0] = 5 is not in [0, 3)"
std::string badIndexMessage(const ConcreteShape& ishape, int64_t flat, int64_t value, int64_t limit) {
  std::string pos;
  std::vector<int64_t> st = stridesOf(ishape);
  for (size_t d = 0; d < ishape.size(); ++d) {
    if (d) pos += ",";
    pos += std::to_string(flat / st[d]);
    flat %= st[d];
  }
  return "indices[" + pos + "] = " + std::to_string(value) + " is not in [0, " + std::to_string(limit) + ")";
}

ShapeResult gatherShape(const InferContext& c) {
  if (auto e = checkIndexDType(c, 1, "Tindices")) return *e;
  if (auto e = checkIndexDType(c, 2, "Taxis")) return *e;
  if (c.shape(2).rankKnown() && c.shape(2).rank() > 1)
    return shapeError(c, "Shape must be at most rank 1 but is rank " + std::to_string(c.shape(2).rank()), {2});
  if (const Tensor* a = c.value(2); a && a->numElements() != 1)
    return shapeError(c, "axis must be a single value, got shape " + concreteStr(a->shape()), {2});
  if (c.getInt("batch_dims", 0) != 0)
    return shapeError(c, "batch_dims=" + std::to_string(c.getInt("batch_dims", 0)) + " is not supported (only 0)");
  const Shape params = dataShape(c);
  const Shape& ind = c.shape(1);
  auto axisV = intScalar(c, 2);
  if (params.rankKnown() && params.rank() == 0)
    return shapeError(c, "Shape must be at least rank 1 but is rank 0", {0});
  if (!params.rankKnown() || !ind.rankKnown()) return ShapeResult::single(c.dtype(0), Shape::unknownRank());
  const int64_t pr = params.rank();
  if (!axisV) {
    if (pr == 1) return ShapeResult::single(c.dtype(0), ind);
    return ShapeResult::single(c.dtype(0), Shape::unknownDims(pr - 1 + ind.rank()));
  }
  if (*axisV < -pr || *axisV >= pr)
    return shapeError(c, "Expected axis in the range [" + std::to_string(-pr) + ", " + std::to_string(pr) +
                             "), but got " + std::to_string(*axisV), {0, 2});
  const size_t axis = static_cast<size_t>(*axisV < 0 ? *axisV + pr : *axisV);
  const Dim limit = params[axis];
  const Tensor* iv = c.value(1);
  if (iv && limit.isKnown())
    for (int64_t k = 0; k < iv->numElements(); ++k) {
      const int64_t x = iv->getInt(k);
      if (x < 0 || x >= limit.size) return shapeError(c, badIndexMessage(iv->shape(), k, x, limit.size), {0, 1});
    }
  std::vector<Dim> out(params.dims().begin(), params.dims().begin() + static_cast<int64_t>(axis));
  out.insert(out.end(), ind.dims().begin(), ind.dims().end());
  out.insert(out.end(), params.dims().begin() + static_cast<int64_t>(axis) + 1, params.dims().end());
  TensorType t(c.dtype(0), Shape(std::move(out)));
  if (iv && params.fullyKnown()) {
    // The flat positions taken are needed only for a value (small outputs) or element dims (rank
    // 1): a big gather of unknown values (x[perm] on an image batch) builds no list of positions.
    const Tensor* pv = c.value(0);
    const std::optional<ConcreteShape> os = pv ? smallConcrete(t.shape) : std::nullopt;
    const std::optional<std::vector<Dim>> e =
        pr == 1 && t.shape.rank() <= 1 ? elementDims(c, 0) : std::nullopt;
    if (os || e) {
      const ConcreteShape ps = params.concrete();
      int64_t outer = 1, inner = 1;
      for (size_t d = 0; d < axis; ++d) outer *= ps[d];
      for (size_t d = axis + 1; d < ps.size(); ++d) inner *= ps[d];
      std::vector<int64_t> taken(static_cast<size_t>(iv->numElements()));
      for (int64_t k = 0; k < iv->numElements(); ++k) taken[static_cast<size_t>(k)] = iv->getInt(k);
      std::vector<int64_t> idx;
      idx.reserve(static_cast<size_t>(outer) * taken.size() * static_cast<size_t>(inner));
      for (int64_t o = 0; o < outer; ++o)
        for (int64_t x : taken)
          for (int64_t j = 0; j < inner; ++j) idx.push_back((o * ps[axis] + x) * inner + j);
      if (os) t.value = takeElements(*pv, idx, *os);
      if (e) {
        std::vector<Dim> elems;
        for (int64_t i : idx) elems.push_back((*e)[static_cast<size_t>(i)]);
        setElements(t, elems);
      }
    }
  }
  return single(t);
}

ShapeResult gatherGradShape(const InferContext& c) {
  if (auto e = checkDType(c, 0, {DType::Float32, DType::Float64, DType::Float16, DType::Int32, DType::Int64}))
    return *e;
  if (auto e = checkIndexDType(c, 1, "Tindices")) return *e;
  if (auto e = checkRank(c, 2, 1)) return *e;
  if (auto e = checkRank(c, 3, 0)) return *e;
  if (auto e = checkShapeValues(c, 2)) return *e;
  Shape s = c.valueAsShape(2);
  if (s.rankKnown())
    for (Dim& d : s.dims())
      if (d.isMinusOne()) d = Dim::unknown();
  return ShapeResult::single(c.dtype(0), s);
}

}  // namespace

void registerSlicingOps(OpRegistry& r) {
  OpBuilder(r, "Slice").strings(OpDef::Strings::ByIndex).hostInput(1).hostInput(2)
      .api("tf.slice")
      .input("input")
      .input("begin")
      .input("size")
      .doc("The block of `size` starting at `begin` (size -1: to the end of that dim).")
      .shape(sliceShape)
      .grad(sliceGrad);

  OpBuilder(r, "StridedSlice").strings(OpDef::Strings::ByIndex).hostInput(1).hostInput(2).hostInput(3)
      .api("tf.strided_slice")
      .input("input")
      .input("begin")
      .input("end")
      .input("strides")
      .attr("begin_mask", int64_t{0})
      .attr("end_mask", int64_t{0})
      .attr("ellipsis_mask", int64_t{0})
      .attr("new_axis_mask", int64_t{0})
      .attr("shrink_axis_mask", int64_t{0})
      .doc("Python slicing x[begin:end:stride, ...] with newaxis, ellipsis and integer indices.")
      .shape(stridedSliceShape)
      .grad([](GradContext& g) {
        Graph& G = g.graph;
        Output begin = g.input(1);
        DType dt = begin.type().dtype == DType::Int64 ? DType::Int64 : DType::Int32;
        Output dx = G.op("StridedSliceGrad",
                         {shapeOf(G, g.input(0), dt), begin, g.input(2), g.input(3), g.dys[0]}, g.node.attrs);
        return std::vector<Output>{dx, {}, {}, {}};
      });

  OpBuilder(r, "StridedSliceGrad").hostInput(0).hostInput(1).hostInput(2).hostInput(3)
      .input("shape")
      .input("begin")
      .input("end")
      .input("strides")
      .input("dy")
      .attr("begin_mask", int64_t{0})
      .attr("end_mask", int64_t{0})
      .attr("ellipsis_mask", int64_t{0})
      .attr("new_axis_mask", int64_t{0})
      .attr("shrink_axis_mask", int64_t{0})
      .doc("The gradient of StridedSlice: dy scattered into zeros of `shape`.")
      .shape(stridedSliceGradShape)
      .grad([](GradContext& g) {
        Output d = g.graph.op("StridedSlice", {g.dys[0], g.input(1), g.input(2), g.input(3)}, g.node.attrs);
        return std::vector<Output>{{}, {}, {}, {}, d};
      });

  OpBuilder(r, "GatherV2").strings(OpDef::Strings::ByIndex).hostInput(2)
      .api("tf.gather")
      .input("params")
      .input("indices")
      .input("axis")
      .attr("batch_dims", int64_t{0})
      .doc("Gathers slices of params along `axis` at `indices`.")
      .shape(gatherShape)
      .grad([](GradContext& g) {
        Graph& G = g.graph;
        Output dx = G.op("GatherV2Grad", {g.dys[0], g.input(1), shapeOf(G, g.input(0)), g.input(2)});
        return std::vector<Output>{dx, {}, {}};
      });

  OpBuilder(r, "GatherV2Grad").hostInput(2).hostInput(3)
      .input("grad")
      .input("indices")
      .input("params_shape")
      .input("axis")
      .doc("The gradient of GatherV2: grad scatter-added into zeros of params_shape at indices.")
      .shape(gatherGradShape)
      .grad([](GradContext& g) {
        Output d = g.graph.op("GatherV2", {g.dys[0], g.input(1), g.input(3)});
        return std::vector<Output>{d, {}, {}, {}};
      });
}

}  // namespace tlens
