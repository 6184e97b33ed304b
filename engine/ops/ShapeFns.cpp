#include "engine/ops/ShapeFns.h"

#include <algorithm>

namespace tlens::shapefn {

ShapeResult unchanged(const InferContext& c) {
  ShapeResult r;
  r.outputs.push_back(TensorType(c.dtype(0), c.shape(0)));
  return r;
}

ShapeResult unchangedFloat(const InferContext& c) {
  if (auto e = checkDType(c, 0, {DType::Float32, DType::Float64, DType::Float16})) return *e;
  return unchanged(c);
}

ShapeResult none(const InferContext&) { return ShapeResult{}; }

std::optional<ShapeResult> checkSameDType(const InferContext& c, std::initializer_list<size_t> idx) {
  std::optional<size_t> first;
  for (size_t i : idx) {
    if (i >= c.numInputs() || c.dtype(i) == DType::Invalid) continue;
    if (!first) { first = i; continue; }
    if (c.dtype(i) != c.dtype(*first)) {
      std::string argI = i < c.op().inputs.size() ? c.op().inputs[i].name : std::to_string(i);
      std::string argF = *first < c.op().inputs.size() ? c.op().inputs[*first].name : std::to_string(*first);
      return dtypeError(shapeError(c,
                        "Input '" + argI + "' (" + c.inputName(i) + ") of '" + c.op().type +
                            "' has type " + std::string(dtypeName(c.dtype(i))) +
                            " that does not match type " + std::string(dtypeName(c.dtype(*first))) +
                            " of argument '" + argF + "' (" + c.inputName(*first) + ")",
                        {static_cast<int>(*first), static_cast<int>(i)}));
    }
  }
  return std::nullopt;
}

std::optional<ShapeResult> checkDType(const InferContext& c, size_t i,
                                      std::initializer_list<DType> allowed) {
  if (i >= c.numInputs() || c.dtype(i) == DType::Invalid) return std::nullopt;
  if (std::find(allowed.begin(), allowed.end(), c.dtype(i)) != allowed.end()) return std::nullopt;
  std::string names;
  for (DType t : allowed) names += (names.empty() ? "" : ", ") + std::string(dtypeName(t));
  return dtypeError(shapeError(c, "Value for attr 'T' of " + std::string(dtypeName(c.dtype(i))) +
                           " is not in the list of allowed values: " + names + " (input '" +
                           c.inputName(i) + "')",
                    {static_cast<int>(i)}));
}

DType commonDType(const InferContext& c, std::initializer_list<size_t> idx) {
  for (size_t i : idx)
    if (i < c.numInputs() && c.dtype(i) != DType::Invalid) return c.dtype(i);
  return DType::Invalid;
}

ShapeResult broadcastBinary(const InferContext& c, DType out) {
  if (auto e = checkSameDType(c, {0, 1})) return *e;
  int axis = 0;
  auto s = broadcastShapes(c.shape(0), c.shape(1), &axis);
  if (!s) {
    const Shape& a = c.shape(0);
    const Shape& b = c.shape(1);
    const Dim da = a[static_cast<size_t>(a.rank() + axis)];
    const Dim db = b[static_cast<size_t>(b.rank() + axis)];
    return shapeError(c, "Dimensions must be equal, but are " + da.str() + " and " + db.str(), {0, 1});
  }
  DType dt = out != DType::Invalid ? out : commonDType(c, {0, 1});
  return ShapeResult::single(dt, *s);
}

std::optional<int64_t> normalizeAxis(int64_t axis, int64_t rank) {
  if (axis < -rank || axis >= rank) return std::nullopt;
  return axis < 0 ? axis + rank : axis;
}

ShapeResult reduce(const InferContext& c, const std::optional<std::vector<int64_t>>& axes,
                   bool keepDims, DType out) {
  const Shape& in = c.shape(0);
  const bool all = !axes;  // axis=None reduces everything; axis=[] reduces nothing
  if (!in.rankKnown()) {
    if (all && !keepDims) return ShapeResult::single(out, Shape::scalar());
    return ShapeResult::single(out, Shape::unknownRank());
  }
  const int64_t rank = in.rank();
  std::vector<char> reduced(static_cast<size_t>(rank), all ? 1 : 0);
  if (!all) {
    for (int64_t a : *axes) {
      auto n = normalizeAxis(a, rank);
      if (!n)
        return shapeError(c, "Invalid reduction dimension " + std::to_string(a) + " for input with " +
                                 std::to_string(rank) + " dimensions", {0});
      reduced[static_cast<size_t>(*n)] = 1;
    }
  }
  std::vector<Dim> dims;
  for (int64_t i = 0; i < rank; ++i) {
    if (!reduced[static_cast<size_t>(i)]) dims.push_back(in[static_cast<size_t>(i)]);
    else if (keepDims) dims.push_back(Dim::known(1));
  }
  return ShapeResult::single(out, Shape(std::move(dims)));
}

}  // namespace tlens::shapefn
