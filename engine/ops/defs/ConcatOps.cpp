// Array ops that join, split, repeat or pad tensors: ConcatV2 (+ ConcatOffset for its gradient),
// Pack/Unpack, Split/SplitV, Tile, Pad/PadV2. Registered from registerArrayOps.
#include <algorithm>
#include <cctype>
#include <cstring>

#include "engine/graph/Builder.h"
#include "engine/ops/OpRegistry.h"
#include "engine/ops/ShapeFns.h"
#include "engine/ops/defs/ArrayShapeUtil.h"

namespace tlens {

namespace {

using namespace shapefn;
using namespace arrayfn;

ShapeResult single(TensorType t) {
  ShapeResult r;
  r.outputs.push_back(std::move(t));
  return r;
}

/// Merges `b` into `a` (shapes of one rank): prefers known dims, then symbols.
void mergeDims(std::vector<Dim>& a, const std::vector<Dim>& b) {
  for (size_t i = 0; i < a.size() && i < b.size(); ++i)
    if (!a[i].isKnown() && (b[i].isKnown() || (!a[i].isSymbolic() && b[i].isSymbolic()))) a[i] = b[i];
}

/// Product of dims [from, to) of a concrete shape.
int64_t prod(const ConcreteShape& s, size_t from, size_t to) {
  int64_t p = 1;
  for (size_t i = from; i < to && i < s.size(); ++i) p *= s[i];
  return p;
}

/// Values of outputs that take, for each outer index, a run of `chunk[i]` elements from input i
/// (concat) -- or the reverse (split): the generic layout of data-movement ops along one axis.
std::shared_ptr<const Tensor> joinAlongAxis(const std::vector<const Tensor*>& parts, size_t axis,
                                            const ConcreteShape& outShape) {
  if (parts.empty()) return nullptr;
  std::vector<Run> runs;
  const int64_t outer = prod(outShape, 0, axis);
  for (int64_t o = 0; o < outer; ++o)
    for (const Tensor* t : parts) {
      const int64_t chunk = prod(t->shape(), axis, t->shape().size());
      runs.push_back({t, o * chunk, chunk});
    }
  return joinRuns(parts[0]->dtype(), runs, outShape);
}

// ---- ConcatV2 ----

ShapeResult concatShape(const InferContext& c) {
  if (c.numInputs() < 2) return shapeError(c, "ConcatV2 needs at least one value and an axis");
  const size_t n = c.numInputs() - 1;
  if (auto e = checkListDType(c, 0, n, "values")) return *e;
  if (auto e = checkRank(c, n, 0)) return *e;
  if (auto e = checkIndexDType(c, n, "Tidx")) return *e;
  const DType dt = listDType(c, 0, n);
  // Ranks must agree.
  int rank = -1;
  size_t rankFrom = 0;
  for (size_t i = 0; i < n; ++i) {
    const Shape& s = c.shape(i);
    if (!s.rankKnown()) continue;
    if (s.rank() == 0) return shapeError(c, "Can't concatenate scalars (use tf.pack instead)", {static_cast<int>(i)});
    if (rank < 0) {
      rank = s.rank();
      rankFrom = i;
    } else if (s.rank() != rank) {
      return shapeError(c, "Shape must be rank " + std::to_string(rank) + " but is rank " +
                               std::to_string(s.rank()), {static_cast<int>(rankFrom), static_cast<int>(i)});
    }
  }
  auto axisV = intScalar(c, n);
  if (!axisV) return ShapeResult::single(dt, rank < 0 ? Shape::unknownRank() : Shape::unknownDims(rank));
  if (rank < 0) return ShapeResult::single(dt, Shape::unknownRank());
  const int64_t a = *axisV;
  if (a >= rank || a < -rank)
    return shapeError(c, "Shape must be at least rank " + std::to_string(a >= 0 ? a + 1 : -a) +
                             " but is rank " + std::to_string(rank), {static_cast<int>(rankFrom), static_cast<int>(n)});
  const size_t axis = static_cast<size_t>(a < 0 ? a + rank : a);
  std::vector<Dim> out;
  bool haveOut = false;
  int64_t sum = 0;
  bool sumKnown = true;
  Dim only = Dim::unknown();
  size_t first = 0;
  for (size_t i = 0; i < n; ++i) {
    const Shape& s = c.shape(i);
    if (!s.rankKnown()) {
      sumKnown = false;
      continue;
    }
    if (s[axis].isKnown()) sum += s[axis].size;
    else sumKnown = false;
    only = s[axis];
    if (!haveOut) {
      out = s.dims();
      haveOut = true;
      first = i;
      continue;
    }
    for (size_t d = 0; d < out.size(); ++d) {
      if (d == axis) continue;
      if (out[d].conflicts(s[d]))
        return shapeError(c, "Dimension " + std::to_string(d) + " in both shapes must be equal, but are " +
                                 out[d].str() + " and " + s[d].str() + ". Shapes are " +
                                 tfShapeStr(c.shape(first)) + " and " + tfShapeStr(s) + ".",
                          {static_cast<int>(first), static_cast<int>(i)});
    }
    mergeDims(out, s.dims());
  }
  out[axis] = sumKnown ? Dim::known(sum) : (n == 1 ? only : Dim::unknown());
  TensorType t(dt, Shape(std::move(out)));
  // Values and shape-valued elements.
  std::vector<const Tensor*> vals;
  for (size_t i = 0; i < n; ++i)
    if (const Tensor* v = c.value(i)) vals.push_back(v);
  if (vals.size() == n)
    if (auto os = smallConcrete(t.shape)) t.value = joinAlongAxis(vals, axis, *os);
  if (rank == 1 && isIndexDType(dt)) {
    std::vector<Dim> elems;
    bool all = true;
    for (size_t i = 0; i < n && all; ++i) {
      auto e = elementDims(c, i);
      if (!e) all = false;
      else elems.insert(elems.end(), e->begin(), e->end());
    }
    if (all) setElements(t, elems);
  }
  return single(t);
}

ShapeResult concatOffsetShape(const InferContext& c) {
  if (c.numInputs() < 2) return shapeError(c, "ConcatOffset needs a concat_dim and at least one shape");
  if (auto e = checkRank(c, 0, 0)) return *e;
  ShapeResult r;
  const size_t n = c.numInputs() - 1;
  for (size_t i = 1; i <= n; ++i) {
    if (auto e = checkRank(c, i, 1)) return *e;
    r.outputs.emplace_back(c.dtype(i) == DType::Invalid ? DType::Int32 : c.dtype(i),
                           c.shape(i).rankKnown() ? c.shape(i) : Shape{Dim::unknown()});
  }
  // The lengths are the shapes' own dims, known even when the values are not read.
  for (size_t i = 2; i <= n; ++i) {
    const Dim first = c.shape(1).rankKnown() ? c.shape(1)[0] : Dim::unknown();
    const Dim len = c.shape(i).rankKnown() ? c.shape(i)[0] : Dim::unknown();
    if (first.conflicts(len))
      return shapeError(c, "input " + std::to_string(i) + " should contain " + first.str() + " elements, but got " +
                               len.str(), {1, static_cast<int>(i)});
  }
  auto axisV = intScalar(c, 0);
  std::vector<std::vector<int64_t>> shapes;
  for (size_t i = 1; i <= n; ++i)
    if (auto v = intValues(c, i)) shapes.push_back(*v);
  if (!axisV || shapes.size() != n) return r;
  const int64_t rank = static_cast<int64_t>(shapes[0].size());
  int64_t a = *axisV < 0 ? *axisV + rank : *axisV;
  if (a < 0 || a >= rank)
    return shapeError(c, "Concat dim is out of range: " + std::to_string(*axisV) + " vs. " + std::to_string(rank), {0});
  int64_t off = 0;
  for (size_t i = 0; i < n; ++i) {
    if (static_cast<int64_t>(shapes[i].size()) != rank)
      return shapeError(c, "input " + std::to_string(i + 1) + " should contain " + std::to_string(rank) +
                               " elements, but got " + std::to_string(shapes[i].size()), {1, static_cast<int>(i + 1)});
    Tensor v(r.outputs[i].dtype, {rank});
    for (int64_t d = 0; d < rank; ++d) {
      if (d != a && shapes[i][static_cast<size_t>(d)] != shapes[0][static_cast<size_t>(d)])
        return shapeError(c, "All dimensions except " + std::to_string(a) + " must match. Input " +
                                 std::to_string(i + 1) + " has shape " + concreteStr(shapes[i]) +
                                 " and doesn't match input 1 with shape " + concreteStr(shapes[0]) + ".",
                          {1, static_cast<int>(i + 1)});
      v.setDouble(d, d == a ? static_cast<double>(off) : 0.0);
    }
    off += shapes[i][static_cast<size_t>(a)];
    r.outputs[i].value = std::make_shared<const Tensor>(std::move(v));
  }
  return r;
}

std::vector<Output> concatGrad(GradContext& g) {
  Graph& G = g.graph;
  const size_t n = g.node.inputs.size() - 1;
  std::vector<Output> r(n + 1);
  if (n == 1) {
    r[0] = g.dys[0];
    return r;
  }
  std::vector<Output> in{g.input(n)};
  std::vector<Output> shapes;
  for (size_t i = 0; i < n; ++i) shapes.push_back(shapeOf(G, g.input(i)));
  in.insert(in.end(), shapes.begin(), shapes.end());
  Node* offsets = G.addNode("ConcatOffset", in);
  for (size_t i = 0; i < n; ++i)
    r[i] = G.op("Slice", {g.dys[0], offsets->out(static_cast<int>(i)), shapes[i]});
  return r;
}

// ---- Pack / Unpack ----

ShapeResult packShape(const InferContext& c) {
  const size_t n = c.numInputs();
  if (n == 0) return shapeError(c, "Pack needs at least one value");
  if (auto e = checkListDType(c, 0, n, "values")) return *e;
  const DType dt = listDType(c, 0, n);
  Shape s = Shape::unknownRank();
  for (size_t i = 0; i < n; ++i) {
    const Shape& si = c.shape(i);
    if (!si.rankKnown()) continue;
    if (!s.rankKnown()) {
      s = si;
      continue;
    }
    if (si.rank() != s.rank())
      return shapeError(c, "Shapes must be equal rank, but are " + std::to_string(s.rank()) + " and " +
                               std::to_string(si.rank()) + ". From merging shape 0 with other shapes",
                        {0, static_cast<int>(i)});
    for (size_t d = 0; d < s.dims().size(); ++d)
      if (s[d].conflicts(si[d]))
        return shapeError(c, "Dimension " + std::to_string(d) + " in both shapes must be equal, but are " +
                                 s[d].str() + " and " + si[d].str() + ". Shapes are " + tfShapeStr(s) +
                                 " and " + tfShapeStr(si) + ". From merging shape 0 with other shapes",
                          {0, static_cast<int>(i)});
    mergeDims(s.dims(), si.dims());
  }
  if (!s.rankKnown()) return ShapeResult::single(dt, Shape::unknownRank());
  const int64_t r = s.rank() + 1;
  const int64_t axis = c.getInt("axis", 0);
  if (axis < -r || axis >= r)
    return shapeError(c, "Invalid axis: " + std::to_string(axis) + "; must be in [" + std::to_string(-r) +
                             "," + std::to_string(r) + ")", {});
  const size_t at = static_cast<size_t>(axis < 0 ? axis + r : axis);
  std::vector<Dim> out = s.dims();
  out.insert(out.begin() + static_cast<int64_t>(at), Dim::known(static_cast<int64_t>(n)));
  TensorType t(dt, Shape(std::move(out)));
  std::vector<const Tensor*> vals;
  for (size_t i = 0; i < n; ++i)
    if (const Tensor* v = c.value(i)) vals.push_back(v);
  if (vals.size() == n)
    if (auto os = smallConcrete(t.shape)) {
      // Each input is a block of `inner` elements per outer index.
      std::vector<Run> runs;
      const int64_t outer = prod(*os, 0, at), inner = prod(*os, at + 1, os->size());
      for (int64_t o = 0; o < outer; ++o)
        for (const Tensor* v : vals) runs.push_back({v, o * inner, inner});
      t.value = joinRuns(dt, runs, *os);
    }
  if (r == 1 && isIndexDType(dt)) {
    std::vector<Dim> elems;
    for (size_t i = 0; i < n; ++i) {
      auto e = elementDims(c, i);
      elems.push_back(e && e->size() == 1 ? (*e)[0] : Dim::unknown());
    }
    setElements(t, elems);
  }
  return single(t);
}

ShapeResult unpackShape(const InferContext& c) {
  Shape in = c.shape(0);
  if (in.rank() == 1 && !in[0].isKnown())
    if (auto e = elementDims(c, 0)) in = Shape{Dim::known(static_cast<int64_t>(e->size()))};
  const int64_t axis = c.getInt("axis", 0);
  const bool hasNum = c.has("num");
  int64_t num = c.getInt("num", -1);
  if (hasNum && num < 0) return shapeError(c, "Value for attr 'num' of " + std::to_string(num) + " must be at least minimum 0");
  ShapeResult res;
  if (!in.rankKnown()) {
    if (!hasNum) return shapeError(c, "Cannot infer argument `num` from shape <unknown>", {0});
    for (int64_t i = 0; i < num; ++i) res.outputs.emplace_back(c.dtype(0), Shape::unknownRank());
    return res;
  }
  const int64_t r = in.rank();
  if (axis < -r || axis >= r)
    return shapeError(c, "Invalid axis: " + std::to_string(axis) + "; must be in [" + std::to_string(-r) +
                             "," + std::to_string(r) + ")", {0});
  const size_t at = static_cast<size_t>(axis < 0 ? axis + r : axis);
  const Dim d = in[at];
  if (hasNum && d.isKnown() && d.size != num)
    return shapeError(c, "Dimension must be " + std::to_string(num) + " but is " + std::to_string(d.size), {0});
  if (!hasNum) {
    if (!d.isKnown()) return shapeError(c, "Cannot infer argument `num` from shape " + in.tfStr(), {0});
    num = d.size;
  }
  std::vector<Dim> out = in.dims();
  out.erase(out.begin() + static_cast<int64_t>(at));
  const Tensor* v = c.value(0);
  auto elems = r == 1 ? elementDims(c, 0) : std::nullopt;
  for (int64_t k = 0; k < num; ++k) {
    TensorType t(c.dtype(0), Shape(out));
    if (v)
      if (auto os = smallConcrete(t.shape)) {
        const int64_t outer = prod(v->shape(), 0, at), inner = prod(v->shape(), at + 1, v->shape().size());
        std::vector<Run> runs;
        for (int64_t o = 0; o < outer; ++o) runs.push_back({v, (o * num + k) * inner, inner});
        t.value = joinRuns(v->dtype(), runs, *os);
      }
    if (elems && static_cast<int64_t>(elems->size()) == num) setElements(t, std::vector<Dim>{(*elems)[static_cast<size_t>(k)]});
    res.outputs.push_back(std::move(t));
  }
  return res;
}

// ---- Split / SplitV ----

/// Outputs of splitting `c.shape(valueIdx)` along `axis` into parts of `sizes` (entries -1 are
/// unknown), with values and shape-valued elements when the input's are known.
ShapeResult splitOutputs(const InferContext& c, size_t valueIdx, size_t axis, const std::vector<int64_t>& sizes) {
  const Shape& in = c.shape(valueIdx);
  const Tensor* v = c.value(valueIdx);
  auto elems = in.rank() == 1 ? elementDims(c, valueIdx) : std::nullopt;
  ShapeResult r;
  int64_t off = 0;
  bool offKnown = true;
  for (int64_t size : sizes) {
    std::vector<Dim> d = in.dims();
    d[axis] = size >= 0 ? Dim::known(size) : (sizes.size() == 1 ? in[axis] : Dim::unknown());
    TensorType t(c.dtype(valueIdx), Shape(std::move(d)));
    if (offKnown && size >= 0) {
      if (v)
        if (auto os = smallConcrete(t.shape)) {
          const int64_t outer = prod(v->shape(), 0, axis), dimN = v->shape()[axis];
          const int64_t inner = prod(v->shape(), axis + 1, v->shape().size());
          std::vector<Run> runs;
          for (int64_t o = 0; o < outer; ++o) runs.push_back({v, (o * dimN + off) * inner, size * inner});
          t.value = joinRuns(v->dtype(), runs, *os);
        }
      if (elems && off + size <= static_cast<int64_t>(elems->size()))
        setElements(t, std::vector<Dim>(elems->begin() + off, elems->begin() + off + size));
    }
    if (size >= 0) off += size;
    else offKnown = false;
    r.outputs.push_back(std::move(t));
  }
  return r;
}

/// Normalises a split axis; returns an error message or "".
std::string splitAxis(int64_t a, int64_t rank, size_t* out) {
  if (a < -rank || a >= rank)
    return "-input rank(-" + std::to_string(rank) + ") <= split_dim < input rank (" + std::to_string(rank) +
           "), but got " + std::to_string(a);
  *out = static_cast<size_t>(a < 0 ? a + rank : a);
  return "";
}

ShapeResult splitShape(const InferContext& c) {
  const int64_t num = c.getInt("num_split", 0);
  if (num < 1) return shapeError(c, "Value for attr 'num_split' of " + std::to_string(num) + " must be at least minimum 1");
  if (const Tensor* v = c.value(0); v && v->rank() != 0)
    return shapeError(c, "Input must be scalar but has rank " + std::to_string(v->rank()), {0});
  if (auto e = checkRank(c, 0, 0)) return *e;
  if (auto e = checkIndexDType(c, 0, "split_dim")) return *e;
  const Shape& in = c.shape(1);
  auto axisV = intScalar(c, 0);
  ShapeResult r;
  if (!axisV || !in.rankKnown()) {
    for (int64_t i = 0; i < num; ++i)
      r.outputs.emplace_back(c.dtype(1), in.rankKnown() ? (num == 1 ? in : Shape::unknownDims(in.rank())) : Shape::unknownRank());
    return r;
  }
  size_t axis = 0;
  std::string err = splitAxis(*axisV, in.rank(), &axis);
  if (!err.empty()) return shapeError(c, err, {0, 1});
  const Dim d = in[axis];
  std::vector<int64_t> sizes(static_cast<size_t>(num), -1);
  if (d.isKnown()) {
    if (d.size % num != 0)
      return shapeError(c, "Dimension size must be evenly divisible by " + std::to_string(num) + " but is " +
                               std::to_string(d.size), {1});
    std::fill(sizes.begin(), sizes.end(), d.size / num);
  }
  return splitOutputs(c, 1, axis, sizes);
}

ShapeResult splitVShape(const InferContext& c) {
  if (auto e = checkIndexDType(c, 1, "Tlen")) return *e;
  if (auto e = checkRank(c, 1, 1)) return *e;
  if (auto e = checkRank(c, 2, 0)) return *e;
  auto sizesV = intValues(c, 1);
  int64_t lenKnown = sizesV ? static_cast<int64_t>(sizesV->size())
                            : (c.shape(1).rank() == 1 && c.shape(1)[0].isKnown() ? c.shape(1)[0].size : -1);
  int64_t num = c.getInt("num_split", -1);
  if (!c.has("num_split")) {
    if (lenKnown < 0) return shapeError(c, "Cannot infer argument `num` from the shape of size_splits", {1});
    num = lenKnown;
  }
  if (num < 1) return shapeError(c, "Value for attr 'num_split' of " + std::to_string(num) + " must be at least minimum 1");
  if (lenKnown >= 0 && lenKnown != num)
    return shapeError(c, "Length of size_splits should be equal to num_split: " + std::to_string(lenKnown) +
                             " vs. " + std::to_string(num), {1});
  const Shape& in = c.shape(0);
  auto axisV = intScalar(c, 2);
  ShapeResult r;
  if (!axisV || !in.rankKnown()) {
    for (int64_t i = 0; i < num; ++i)
      r.outputs.emplace_back(c.dtype(0), in.rankKnown() ? (num == 1 ? in : Shape::unknownDims(in.rank())) : Shape::unknownRank());
    return r;
  }
  size_t axis = 0;
  std::string err = splitAxis(*axisV, in.rank(), &axis);
  if (!err.empty()) return shapeError(c, err, {0, 2});
  std::vector<int64_t> sizes(static_cast<size_t>(num), -1);
  if (sizesV) {
    sizes = *sizesV;
    int64_t minusOne = -1, determined = 0;
    for (size_t i = 0; i < sizes.size(); ++i) {
      if (sizes[i] == -1) {
        if (minusOne >= 0) return shapeError(c, "There can only be one -1 in the input.", {1});
        minusOne = static_cast<int64_t>(i);
      } else if (sizes[i] < 0) {
        return shapeError(c, "Split size at index " + std::to_string(i) + " must be >= 0. Got: " +
                                 std::to_string(sizes[i]), {1});
      } else {
        determined += sizes[i];
      }
    }
    const Dim d = in[axis];
    if (d.isKnown()) {
      if ((minusOne < 0 && determined != d.size) || (minusOne >= 0 && determined > d.size))
        return shapeError(c, "Determined shape must either match input shape along split_dim exactly if "
                             "fully specified, or be less than the size of the input along split_dim if "
                             "not fully specified.  Got: " + std::to_string(determined), {0, 1});
      if (minusOne >= 0) sizes[static_cast<size_t>(minusOne)] = d.size - determined;
    } else if (minusOne >= 0 && sizes.size() == 1) {
      sizes[0] = -1;  // the whole dim: keeps its symbol
    }
  }
  return splitOutputs(c, 0, axis, sizes);
}

std::vector<Output> concatOfDys(GradContext& g, Output axis) {
  Graph& G = g.graph;
  std::vector<Output> parts;
  for (size_t i = 0; i < g.dys.size(); ++i)
    parts.push_back(g.dys[i] ? g.dys[i] : ops::zerosLike(G, g.output(i)));
  if (parts.size() == 1) return parts;
  parts.push_back(axis);
  return {G.op("ConcatV2", parts)};
}

// ---- Tile ----

ShapeResult tileShape(const InferContext& c) {
  if (auto e = checkIndexDType(c, 1, "Tmultiples")) return *e;
  if (auto e = checkRank(c, 1, 1)) return *e;
  const Shape& in = c.shape(0);
  auto mult = elementDims(c, 1);
  if (c.shape(1).rank() != 1 && !c.value(1)) mult = std::nullopt;
  const int64_t mlen = mult ? static_cast<int64_t>(mult->size()) : -1;
  if (in.rankKnown() && mlen >= 0 && mlen != in.rank())
    return shapeError(c, "Expected multiples argument to be a vector of length " + std::to_string(in.rank()) +
                             " but got length " + std::to_string(mlen), {0, 1});
  if (auto v = intValues(c, 1))
    for (size_t i = 0; i < v->size(); ++i)
      if ((*v)[i] < 0)
        return shapeError(c, "Expected multiples[" + std::to_string(i) + "] >= 0, but got " + std::to_string((*v)[i]), {1});
  const int64_t rank = in.rankKnown() ? in.rank() : mlen;
  if (rank < 0) return ShapeResult::single(c.dtype(0), Shape::unknownRank());
  std::vector<Dim> out(static_cast<size_t>(rank));
  for (size_t i = 0; i < out.size(); ++i) {
    const Dim d = in.rankKnown() ? in[i] : Dim::unknown();
    const Dim m = mult ? (*mult)[i] : Dim::unknown();
    if (m.isKnown() && m.size == 1) out[i] = d;
    else if (d.isKnown() && d.size == 1 && !m.isMinusOne()) out[i] = m;
    else if (d.isKnown() && m.isKnown()) out[i] = Dim::known(d.size * m.size);
    else if ((d.isKnown() && d.size == 0) || (m.isKnown() && m.size == 0)) out[i] = Dim::known(0);
  }
  TensorType t(c.dtype(0), Shape(std::move(out)));
  if (const Tensor* v = c.value(0))
    if (auto os = smallConcrete(t.shape)) {
      const std::vector<int64_t> inSt = stridesOf(v->shape());
      const int64_t n = numElements(*os);
      std::vector<int64_t> idx, oi(static_cast<size_t>(rank), 0);
      for (int64_t k = 0; k < n; ++k) {
        int64_t off = 0;
        for (size_t d = 0; d < oi.size(); ++d) off += (oi[d] % v->shape()[d]) * inSt[d];
        idx.push_back(off);
        for (size_t d = oi.size(); d-- > 0;) {
          if (++oi[d] < (*os)[d]) break;
          oi[d] = 0;
        }
      }
      t.value = takeElements(*v, idx, *os);
    }
  if (rank == 1 && mult && (*mult)[0].isKnown())
    if (auto e = elementDims(c, 0)) {
      std::vector<Dim> elems;
      for (int64_t k = 0; k < (*mult)[0].size; ++k) elems.insert(elems.end(), e->begin(), e->end());
      setElements(t, elems);
    }
  return single(t);
}

std::vector<Output> tileGrad(GradContext& g) {
  // dy has shape [m0*d0, m1*d1, ...]: view it as [m0, d0, m1, d1, ...] and sum the m axes.
  Graph& G = g.graph;
  Output x = g.input(0), m = g.input(1);
  const Shape& xs = x.type().shape;
  if (!xs.rankKnown())
    invalidArgument("The gradient of Tile needs the rank of its input (" + x.name() + ")");
  const int64_t r = xs.rank();
  auto mv = m.type().value;
  std::vector<Output> parts;
  Output xShape, mInt;
  std::vector<int64_t> axes;
  for (int64_t i = 0; i < r; ++i) {
    if (mv) {
      parts.push_back(ops::scalar(G, DType::Int32, static_cast<double>(mv->getInt(i))));
    } else {
      if (!mInt) mInt = m.type().dtype == DType::Int32 ? m : ops::cast(G, m, DType::Int32);
      parts.push_back(elementAt(G, mInt, i));
    }
    const Dim d = xs[static_cast<size_t>(i)];
    if (d.isKnown()) {
      parts.push_back(ops::scalar(G, DType::Int32, static_cast<double>(d.size)));
    } else {
      if (!xShape) xShape = shapeOf(G, x);
      parts.push_back(elementAt(G, xShape, i));
    }
    axes.push_back(2 * i);
  }
  Output split = parts.empty() ? constInts(G, {}) : G.op("Pack", parts);
  Output reshaped = ops::reshape(G, g.dys[0], split);
  Output dx = r == 0 ? reshaped : ops::reduceSum(G, reshaped, axes);
  return {dx, {}};
}

// ---- Pad / PadV2 ----

ShapeResult padShape(const InferContext& c) {
  std::string mode = c.getString("mode", "CONSTANT");
  for (char& ch : mode) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  if (mode != "CONSTANT")
    return shapeError(c, "Padding mode " + mode + " is not supported (MirrorPad is not implemented); use CONSTANT");
  if (auto e = checkIndexDType(c, 1, "Tpaddings")) return *e;
  if (auto e = checkRank(c, 1, 2)) return *e;
  const Shape& p = c.shape(1);
  if (p.rankKnown() && p[1].isKnown() && p[1].size != 2)
    return shapeError(c, "Dimension must be 2 but is " + std::to_string(p[1].size), {1});
  const Shape& in = c.shape(0);
  const int64_t prows = p.rankKnown() && p[0].isKnown() ? p[0].size : -1;
  if (in.rankKnown() && prows >= 0 && prows != in.rank())
    return shapeError(c, "Shape must be rank " + std::to_string(prows) + " but is rank " + std::to_string(in.rank()),
                      {0, 1});
  const bool v2 = c.numInputs() > 2;
  if (v2) {
    if (auto e = checkRank(c, 2, 0)) return *e;
    if (auto e = checkSameDType(c, {0, 2})) return *e;
  }
  const int64_t rank = in.rankKnown() ? in.rank() : prows;
  if (rank < 0) return ShapeResult::single(c.dtype(0), Shape::unknownRank());
  auto pads = intValues(c, 1);
  if (pads && static_cast<int64_t>(pads->size()) != 2 * rank) pads.reset();
  if (pads)
    for (int64_t i = 0; i < rank; ++i) {
      const int64_t a = (*pads)[static_cast<size_t>(2 * i)], b = (*pads)[static_cast<size_t>(2 * i + 1)];
      if (a < 0 || b < 0)
        return shapeError(c, "Paddings must be non-negative: " + std::to_string(a) + " " + std::to_string(b), {1});
    }
  std::vector<Dim> out(static_cast<size_t>(rank));
  for (int64_t i = 0; i < rank && pads; ++i) {
    const Dim d = in.rankKnown() ? in[static_cast<size_t>(i)] : Dim::unknown();
    const int64_t extra = (*pads)[static_cast<size_t>(2 * i)] + (*pads)[static_cast<size_t>(2 * i + 1)];
    out[static_cast<size_t>(i)] = d.isKnown() ? Dim::known(d.size + extra) : extra == 0 ? d : Dim::unknown();
  }
  TensorType t(c.dtype(0), Shape(std::move(out)));
  const Tensor* v = c.value(0);
  const Tensor* cv = v2 ? c.value(2) : nullptr;
  if (v && pads && (!v2 || (cv && cv->numElements() == 1)))
    if (auto os = smallConcrete(t.shape)) {
      const std::vector<int64_t> inSt = stridesOf(v->shape());
      const int64_t n = numElements(*os);
      std::vector<int64_t> idx, oi(static_cast<size_t>(rank), 0);
      for (int64_t k = 0; k < n; ++k) {
        int64_t off = 0;
        for (size_t d = 0; d < oi.size() && off >= 0; ++d) {
          const int64_t x = oi[d] - (*pads)[2 * d];
          off = (x < 0 || x >= v->shape()[d]) ? -1 : off + x * inSt[d];
        }
        idx.push_back(off);
        for (size_t d = oi.size(); d-- > 0;) {
          if (++oi[d] < (*os)[d]) break;
          oi[d] = 0;
        }
      }
      if (cv) {  // PadV2: padding elements take the constant
        Tensor full(v->dtype(), {v->numElements() + 1});
        const size_t es = dtypeSize(v->dtype());
        std::memcpy(full.raw(), v->raw(), v->bytes());
        std::memcpy(static_cast<unsigned char*>(full.raw()) + v->bytes(), cv->raw(), es);
        for (int64_t& i : idx)
          if (i < 0) i = v->numElements();
        t.value = takeElements(full, idx, *os);
      } else {
        t.value = takeElements(*v, idx, *os);
      }
    }
  return single(t);
}

std::vector<Output> padGrad(GradContext& g) {
  Graph& G = g.graph;
  Output p = g.input(1);
  // begin = paddings[:, 0]
  Output begin = G.op("StridedSlice", {p, constInts(G, {0, 0}), constInts(G, {0, 1}), constInts(G, {1, 1})},
                      {{"begin_mask", int64_t{1}}, {"end_mask", int64_t{1}}, {"shrink_axis_mask", int64_t{2}}});
  DType dt = p.type().dtype == DType::Int64 ? DType::Int64 : DType::Int32;
  Output dx = G.op("Slice", {g.dys[0], begin, shapeOf(G, g.input(0), dt)});
  std::vector<Output> r(g.node.inputs.size());
  r[0] = dx;
  return r;
}

}  // namespace

void registerConcatOps(OpRegistry& r) {
  OpBuilder(r, "ConcatV2").strings(OpDef::Strings::ByIndex).hostInput(-1)
      .api("tf.concat")
      .inputList("values")
      .doc("Concatenates tensors along one dimension. Inputs: the values, then the axis (a scalar "
           "tensor) as the last input.")
      .shape(concatShape)
      .grad(concatGrad);

  OpBuilder(r, "ConcatOffset").cpuOnly("computes shapes on the host")
      .input("concat_dim")
      .inputList("shape")
      .notDifferentiable()
      .doc("The offsets of each input of a concatenation in its output (for ConcatV2's gradient).")
      .shape(concatOffsetShape);

  OpBuilder(r, "Pack").strings(OpDef::Strings::ByIndex)
      .api("tf.stack")
      .inputList("values")
      .attr("axis", int64_t{0})
      .doc("Stacks tensors of one shape into a tensor of rank + 1 along a new axis.")
      .shape(packShape)
      .grad([](GradContext& g) {
        const int64_t n = static_cast<int64_t>(g.node.inputs.size());
        Node* u = g.graph.addNode("Unpack", {g.dys[0]},
                                  {{"num", n}, {"axis", AttrReader(g.node.attrs).getInt("axis", 0)}});
        std::vector<Output> r;
        for (int64_t i = 0; i < n; ++i) r.push_back(u->out(static_cast<int>(i)));
        return r;
      });

  OpBuilder(r, "Unpack").strings(OpDef::Strings::ByIndex)
      .api("tf.unstack")
      .input("value")
      .attr("num", {}, "number of outputs; inferred from the shape when absent")
      .attr("axis", int64_t{0})
      .doc("Splits a tensor into its slices along `axis` (rank - 1 each).")
      .shape(unpackShape)
      .grad([](GradContext& g) {
        Graph& G = g.graph;
        std::vector<Output> parts;
        for (size_t i = 0; i < g.dys.size(); ++i)
          parts.push_back(g.dys[i] ? g.dys[i] : ops::zerosLike(G, g.output(i)));
        return std::vector<Output>{G.op("Pack", parts, {{"axis", AttrReader(g.node.attrs).getInt("axis", 0)}})};
      });

  OpBuilder(r, "Split").strings(OpDef::Strings::ByIndex).hostInput(0)
      .api("tf.split")
      .input("axis")
      .input("value")
      .attr("num_split", {}, "number of equal parts")
      .doc("Splits a tensor into num_split equal parts along `axis` (tf.split with an int).")
      .shape(splitShape)
      .grad([](GradContext& g) {
        std::vector<Output> c = concatOfDys(g, g.input(0));
        return std::vector<Output>{{}, c[0]};
      });

  OpBuilder(r, "SplitV").strings(OpDef::Strings::ByIndex).hostInput(1).hostInput(2)
      .input("value")
      .input("size_splits")
      .input("axis")
      .attr("num_split", {}, "number of parts (the length of size_splits)")
      .doc("Splits a tensor into parts of the given sizes along `axis` (one size may be -1).")
      .shape(splitVShape)
      .grad([](GradContext& g) {
        std::vector<Output> c = concatOfDys(g, g.input(2));
        return std::vector<Output>{c[0], {}, {}};
      });

  OpBuilder(r, "Tile").strings(OpDef::Strings::ByIndex).hostInput(1)
      .api("tf.tile")
      .input("input")
      .input("multiples")
      .doc("Repeats a tensor multiples[i] times along dim i.")
      .shape(tileShape)
      .grad(tileGrad);

  OpBuilder(r, "Pad").hostInput(1)
      .api("tf.pad")
      .input("input")
      .input("paddings")
      .attr("mode", std::string("CONSTANT"), "tf.pad's mode; only CONSTANT is supported")
      .doc("Pads with zeros: paddings is [rank, 2] (before, after) per dim (mode CONSTANT).")
      .shape(padShape)
      .grad(padGrad);

  OpBuilder(r, "PadV2").hostInput(1)
      .input("input")
      .input("paddings")
      .input("constant_values")
      .attr("mode", std::string("CONSTANT"), "tf.pad's mode; only CONSTANT is supported")
      .doc("Pads with a constant scalar: paddings is [rank, 2] (before, after) per dim.")
      .shape(padShape)
      .grad(padGrad);
}

}  // namespace tlens
