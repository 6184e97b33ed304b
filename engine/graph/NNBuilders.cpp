#include "engine/graph/NNBuilders.h"

#include <sstream>

#include "engine/core/Error.h"
#include "engine/graph/Builder.h"
#include "engine/ops/OpRegistry.h"

namespace tlens::ops {

namespace {

/// The name of the first attribute of `def` among `names`, or empty.
std::string findAttr(const OpDef& def, std::initializer_list<const char*> names) {
  for (const char* n : names)
    for (const AttrDef& a : def.attrs)
      if (a.name == n) return a.name;
  return {};
}

/// An int32 vector of dims for Reshape: the static dims of `shape` with -1 for the single
/// unknown one; nullopt when more than one is unknown.
std::optional<std::vector<int32_t>> staticTarget(const std::vector<Dim>& dims) {
  std::vector<int32_t> v;
  int unknown = 0;
  for (const Dim& d : dims) {
    if (d.isKnown()) v.push_back(static_cast<int32_t>(d.size));
    else { v.push_back(-1); ++unknown; }
  }
  if (unknown > 1) return std::nullopt;
  return v;
}

/// Shape(x) with a 1 inserted at `pos` (or dim `pos` removed), computed in the graph with an int32
/// selection matmul (used only when the static shape has several unknown dims).
Output dynamicShape(Graph& g, Output x, int rank, int pos, bool insert) {
  const int outRank = insert ? rank + 1 : rank - 1;
  Tensor sel(DType::Int32, {rank, outRank});
  Tensor add(DType::Int32, {1, outRank});
  std::fill(sel.data<int32_t>(), sel.data<int32_t>() + sel.numElements(), 0);
  std::fill(add.data<int32_t>(), add.data<int32_t>() + add.numElements(), 0);
  for (int i = 0, j = 0; i < rank; ++i) {
    if (insert && j == pos) ++j;
    if (!insert && i == pos) continue;
    sel.data<int32_t>()[i * outRank + j] = 1;
    ++j;
  }
  if (insert) add.data<int32_t>()[pos] = 1;
  Output row = reshapeTo(g, shape(g, x), {1, rank});
  Output s = g.op("Add", {matmul(g, row, constant(g, sel)), constant(g, add)});
  return reshapeTo(g, s, {outRank});
}

Output expandDims(Graph& g, Output x, int64_t axis) {
  if (const OpDef* d = OpRegistry::global().find("ExpandDims")) {
    if (d->inputs.size() >= 2) return g.op("ExpandDims", {x, constant(g, Tensor::scalar<int32_t>(static_cast<int32_t>(axis)))});
    std::string a = findAttr(*d, {"axis", "dim"});
    if (!a.empty()) return g.op("ExpandDims", {x}, {{a, axis}});
  }
  const Shape& s = x.type().shape;
  if (!s.rankKnown()) invalidArgument("conv1d needs the rank of " + x.name());
  const int rank = s.rank();
  const int pos = static_cast<int>(axis < 0 ? axis + rank + 1 : axis);
  std::vector<Dim> dims = s.dims();
  dims.insert(dims.begin() + pos, Dim::known(1));
  if (auto t = staticTarget(dims)) return reshape(g, x, constant(g, Tensor::fromVector(*t)));
  return reshape(g, x, dynamicShape(g, x, rank, pos, true));
}

Output squeeze(Graph& g, Output x, int64_t axis) {
  if (const OpDef* d = OpRegistry::global().find("Squeeze")) {
    std::string a = findAttr(*d, {"squeeze_dims", "axis"});
    if (!a.empty()) return g.op("Squeeze", {x}, {{a, std::vector<int64_t>{axis}}});
  }
  const Shape& s = x.type().shape;
  if (!s.rankKnown()) invalidArgument("conv1d needs the rank of " + x.name());
  const int rank = s.rank();
  const int pos = static_cast<int>(axis < 0 ? axis + rank : axis);
  std::vector<Dim> dims = s.dims();
  dims.erase(dims.begin() + pos);
  if (auto t = staticTarget(dims)) return reshape(g, x, constant(g, Tensor::fromVector(*t)));
  return reshape(g, x, dynamicShape(g, x, rank, pos, false));
}

std::string fmtDouble(double v) {
  std::ostringstream os;
  os << v;
  return os.str();
}

}  // namespace

Output conv1d(Graph& g, Output input, Output filter, int64_t stride, std::string padding,
              int64_t dilation) {
  const Shape& in = input.type().shape;
  if (in.rankKnown() && in.rank() != 3)
    invalidArgument("conv1d: input must be rank 3 [batch, width, channels], but is rank " +
                    std::to_string(in.rank()) + " (" + input.name() + ")");
  const Shape& f = filter.type().shape;
  if (f.rankKnown() && f.rank() != 3)
    invalidArgument("conv1d: filters must be rank 3 [width, in_channels, out_channels], but is rank " +
                    std::to_string(f.rank()) + " (" + filter.name() + ")");
  g.pushNameScope("conv1d");
  try {
    Output x4 = expandDims(g, input, -3);
    Output f4 = expandDims(g, filter, 0);
    Output y = g.op("Conv2D", {x4, f4},
                    {{"strides", std::vector<int64_t>{1, 1, stride, 1}},
                     {"padding", std::move(padding)},
                     {"dilations", std::vector<int64_t>{1, 1, dilation, 1}},
                     {"data_format", std::string("NHWC")}});
    Output out = squeeze(g, y, -3);
    g.popNameScope();
    return out;
  } catch (...) {
    g.popNameScope();
    throw;
  }
}

Output dropout(Graph& g, Output x, double rate, int64_t seed) {
  if (!(rate >= 0 && rate < 1))
    invalidArgument("rate must be a scalar tensor or a float in the range [0, 1), got " + fmtDouble(rate));
  const DType dt = x.type().dtype;
  if (dt != DType::Invalid && !isFloating(dt))
    invalidArgument("x has to be a floating point tensor since it's going to be scaled. Got a " +
                    std::string(dtypeName(dt)) + " tensor instead.");
  if (rate == 0) return x;
  g.pushNameScope("dropout");
  try {
    const double keep = 1 - rate;
    Attrs ra{{"dtype", dt}};
    if (seed >= 0) {
      ra["seed"] = int64_t{87654321};
      ra["seed2"] = seed;
    }
    Output u = g.op("RandomUniform", {shape(g, x)}, ra);
    Output out;
    if (OpRegistry::global().find("GreaterEqual")) {
      Output scaled = mul(g, x, scalar(g, dt, 1 / keep));
      Output mask = cast(g, g.op("GreaterEqual", {u, scalar(g, dt, rate)}), dt);
      out = mul(g, scaled, mask);
    } else {
      Output r = add(g, scalar(g, dt, keep), u);
      Output mask = OpRegistry::global().find("Floor") ? g.op("Floor", {r})
                                                        : cast(g, cast(g, r, DType::Int32), dt);
      out = mul(g, div(g, x, scalar(g, dt, keep)), mask);
    }
    g.popNameScope();
    return out;
  } catch (...) {
    g.popNameScope();
    throw;
  }
}

}  // namespace tlens::ops
