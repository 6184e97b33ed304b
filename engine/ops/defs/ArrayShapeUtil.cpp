#include "engine/ops/defs/ArrayShapeUtil.h"

#include <cstdio>
#include <cstring>

#include "engine/graph/Builder.h"

namespace tlens::arrayfn {

std::optional<ShapeResult> checkRank(const InferContext& c, size_t i, int rank) {
  if (i >= c.numInputs()) return std::nullopt;
  const Shape& s = c.shape(i);
  if (!s.rankKnown() || s.rank() == rank) return std::nullopt;
  return shapeError(c, "Shape must be rank " + std::to_string(rank) + " but is rank " +
                           std::to_string(s.rank()), {static_cast<int>(i)});
}

std::optional<ShapeResult> checkRankAtLeast(const InferContext& c, size_t i, int rank) {
  if (i >= c.numInputs()) return std::nullopt;
  const Shape& s = c.shape(i);
  if (!s.rankKnown() || s.rank() >= rank) return std::nullopt;
  return shapeError(c, "Shape must be at least rank " + std::to_string(rank) + " but is rank " +
                           std::to_string(s.rank()), {static_cast<int>(i)});
}

bool isIndexDType(DType t) { return t == DType::Int32 || t == DType::Int64; }

std::optional<ShapeResult> checkIndexDType(const InferContext& c, size_t i, const char* attr) {
  if (i >= c.numInputs() || c.dtype(i) == DType::Invalid || isIndexDType(c.dtype(i))) return std::nullopt;
  return shapeError(c, "Value for attr '" + std::string(attr) + "' of " +
                           std::string(dtypeName(c.dtype(i))) +
                           " is not in the list of allowed values: int32, int64 (input '" +
                           c.inputName(i) + "')", {static_cast<int>(i)});
}

std::optional<ShapeResult> checkListDType(const InferContext& c, size_t first, size_t count,
                                          const std::string& arg) {
  std::optional<size_t> ref;
  for (size_t i = first; i < first + count && i < c.numInputs(); ++i) {
    if (c.dtype(i) == DType::Invalid) continue;
    if (!ref) { ref = i; continue; }
    if (c.dtype(i) != c.dtype(*ref))
      return dtypeError(shapeError(c, "Input '" + arg + "' (" + c.inputName(i) + ") of '" + c.op().type +
                               "' has type " + std::string(dtypeName(c.dtype(i))) +
                               " that does not match type " + std::string(dtypeName(c.dtype(*ref))) +
                               " of argument '" + arg + "' (" + c.inputName(*ref) + ")",
                        {static_cast<int>(*ref), static_cast<int>(i)}));
  }
  return std::nullopt;
}

DType listDType(const InferContext& c, size_t first, size_t count) {
  for (size_t i = first; i < first + count && i < c.numInputs(); ++i)
    if (c.dtype(i) != DType::Invalid) return c.dtype(i);
  return DType::Invalid;
}

std::optional<std::vector<int64_t>> intValues(const InferContext& c, size_t i) {
  const Tensor* v = c.value(i);
  if (!v) return std::nullopt;
  return v->toInt64Vector();
}

std::optional<int64_t> intScalar(const InferContext& c, size_t i) {
  const Tensor* v = c.value(i);
  if (!v || v->numElements() != 1) return std::nullopt;
  return v->getInt(0);
}

Dim dimFromValue(int64_t v) { return v >= 0 ? Dim::known(v) : v == -1 ? Dim::minusOne() : Dim::unknown(); }

std::optional<std::vector<Dim>> elementDims(const InferContext& c, size_t i) {
  if (i >= c.numInputs()) return std::nullopt;
  const TensorType& t = c.input(i);
  if (t.value && t.value->rank() <= 1) {
    std::vector<Dim> d;
    for (int64_t v : t.value->toInt64Vector()) d.push_back(dimFromValue(v));
    return d;
  }
  if (t.asShape && t.asShape->rankKnown()) return t.asShape->dims();
  if (t.shape.rank() == 0) return std::vector<Dim>{Dim::unknown()};
  if (t.shape.rank() == 1 && t.shape[0].isKnown())
    return std::vector<Dim>(static_cast<size_t>(t.shape[0].size), Dim::unknown());
  return std::nullopt;
}

void setElements(TensorType& t, const std::optional<std::vector<Dim>>& elems) {
  if (!elems || !isIndexDType(t.dtype) || !t.shape.rankKnown() || t.shape.rank() > 1) return;
  const int64_t n = static_cast<int64_t>(elems->size());
  if (t.shape.rank() == 0 && n != 1) return;
  if (t.shape.rank() == 1) {
    if (t.shape[0].isKnown() && t.shape[0].size != n) return;
    t.shape = Shape{Dim::known(n)};
  }
  t.asShape = Shape(*elems);
  // Every element known: so is the value.
  if (!t.value) {
    bool known = true;
    for (const Dim& d : *elems) known = known && (d.isKnown() || d.isMinusOne());
    if (known) {
      Tensor v(t.dtype, t.shape.rank() == 0 ? ConcreteShape{} : ConcreteShape{n});
      for (int64_t i = 0; i < n; ++i) {
        const Dim& d = (*elems)[static_cast<size_t>(i)];
        v.setDouble(i, d.isKnown() ? static_cast<double>(d.size) : -1.0);
      }
      t.value = std::make_shared<const Tensor>(std::move(v));
    }
  }
}

std::shared_ptr<const Tensor> takeElements(const Tensor& src, const std::vector<int64_t>& idx,
                                           const ConcreteShape& shape) {
  Tensor out(src.dtype(), shape);
  const size_t es = dtypeSize(src.dtype());
  const auto* s = static_cast<const unsigned char*>(src.raw());
  auto* d = static_cast<unsigned char*>(out.raw());
  for (size_t k = 0; k < idx.size() && static_cast<int64_t>(k) < out.numElements(); ++k) {
    if (idx[k] < 0 || idx[k] >= src.numElements()) std::memset(d + k * es, 0, es);
    else std::memcpy(d + k * es, s + static_cast<size_t>(idx[k]) * es, es);
  }
  return std::make_shared<const Tensor>(std::move(out));
}

std::shared_ptr<const Tensor> joinRuns(DType dtype, const std::vector<Run>& parts,
                                       const ConcreteShape& shape) {
  Tensor out(dtype, shape);
  const size_t es = dtypeSize(dtype);
  auto* d = static_cast<unsigned char*>(out.raw());
  int64_t at = 0;
  for (const Run& r : parts) {
    if (r.count <= 0) continue;
    if (at + r.count > out.numElements() || r.src->dtype() != dtype ||
        r.begin + r.count > r.src->numElements())
      return nullptr;
    std::memcpy(d + static_cast<size_t>(at) * es,
                static_cast<const unsigned char*>(r.src->raw()) + static_cast<size_t>(r.begin) * es,
                static_cast<size_t>(r.count) * es);
    at += r.count;
  }
  if (at != out.numElements()) return nullptr;
  return std::make_shared<const Tensor>(std::move(out));
}

std::optional<ConcreteShape> smallConcrete(const Shape& s) {
  auto n = s.numElements();
  if (!n || *n > kMaxValueElements) return std::nullopt;
  return s.concrete();
}

std::string tfShapeStr(const Shape& s) {
  if (!s.rankKnown()) return "?";
  std::string r = "[";
  for (size_t i = 0; i < s.dims().size(); ++i) {
    if (i) r += ",";
    r += s[i].isKnown() ? std::to_string(s[i].size) : std::string("?");
  }
  return r + "]";
}

std::string numStr(double v) {
  // The range check first: casting NaN, an infinity or a huge value to an integer is undefined.
  if (v > -1e15 && v < 1e15 && v == static_cast<double>(static_cast<int64_t>(v)))
    return std::to_string(static_cast<int64_t>(v));
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

std::vector<int64_t> stridesOf(const ConcreteShape& s) {
  std::vector<int64_t> st(s.size(), 1);
  for (size_t i = s.size(); i-- > 1;) st[i - 1] = st[i] * s[i];
  return st;
}

ShapeResult passThrough(const InferContext& c) {
  ShapeResult r;
  r.outputs.push_back(c.input(0));
  if (!r.outputs[0].asShape && c.value(0)) setElements(r.outputs[0], elementDims(c, 0));
  return r;
}

void carryReshaped(const InferContext& c, TensorType& out) {
  const Tensor* v = c.value(0);
  if (v && out.shape.fullyKnown() && v->dtype() == out.dtype) {
    ConcreteShape s = out.shape.concrete();
    if (numElements(s) == v->numElements() && v->numElements() <= kMaxValueElements)
      out.value = std::make_shared<const Tensor>(v->reshaped(s));
  }
  const Shape& in = c.input(0).shape;
  if (in.rankKnown() && in.rank() <= 1) {
    // Only short index vectors carry shape-valued elements (not a million floats reshaped).
    if (isIndexDType(out.dtype) && (in.rank() == 0 || !in[0].isKnown() || in[0].size <= kMaxValueElements))
      setElements(out, elementDims(c, 0));
  } else if (v && v->numElements() <= kMaxValueElements) {
    std::vector<Dim> elems;
    for (int64_t x : v->toInt64Vector()) elems.push_back(dimFromValue(x));
    setElements(out, elems);
  }
}

Output constInts(Graph& g, const std::vector<int64_t>& v, DType dtype) {
  Tensor t(dtype, {static_cast<int64_t>(v.size())});
  for (size_t i = 0; i < v.size(); ++i) t.setDouble(static_cast<int64_t>(i), static_cast<double>(v[i]));
  return ops::constant(g, t);
}

Output shapeOf(Graph& g, Output x, DType dtype) { return g.op("Shape", {x}, {{"out_type", dtype}}); }

Output elementAt(Graph& g, Output vec, int64_t i) {
  return g.op("StridedSlice", {vec, constInts(g, {i}), constInts(g, {i + 1}), constInts(g, {1})},
              {{"shrink_axis_mask", int64_t{1}}});
}

}  // namespace tlens::arrayfn
