// Batch normalisation: FusedBatchNormV3 (tf.compat.v1.nn.fused_batch_norm, and what
// tf.layers.batch_normalization / Keras BatchNormalization(fused=True) build) and its gradient
// FusedBatchNormGradV3, whose own gradient is graph code.
//
// Outputs follow TensorFlow's CPU kernel: y, batch_mean, batch_variance (Bessel-corrected, for the
// running averages), reserve_space_1 (batch mean), reserve_space_2 (biased batch variance) and
// reserve_space_3 (empty, shape [0]). In training mode FusedBatchNormGradV3 recomputes the batch
// statistics from x (identical to the reserve spaces TensorFlow passes), so its result is a true
// function of (y_backprop, x, scale) and its gradient is the total derivative.
#include "engine/graph/Builder.h"
#include "engine/ops/OpRegistry.h"
#include "engine/ops/ShapeFns.h"

namespace tlens {

namespace {
using namespace shapefn;

struct BnLayout {
  bool nchw = false;
  size_t cAxis() const { return nchw ? 1 : 3; }
};

std::optional<ShapeResult> bnLayout(const InferContext& c, BnLayout& l) {
  const std::string df = c.getString("data_format", "NHWC");
  if (df != "NHWC" && df != "NCHW") return shapeError(c, "Invalid data format string: " + df);
  l.nchw = df == "NCHW";
  if (c.getFloat("epsilon", 1e-4) < 0)
    return shapeError(c, "epsilon must be >= 0, but got " + std::to_string(c.getFloat("epsilon")));
  return std::nullopt;
}

/// The dtype of scale/offset/mean/variance for an x of dtype `t`: float32 for half and float
/// inputs (TensorFlow's U), float64 for double inputs.
DType paramType(DType t) { return t == DType::Float64 ? DType::Float64 : DType::Float32; }

std::optional<ShapeResult> checkParam(const InferContext& c, size_t i, DType x) {
  if (c.dtype(i) == DType::Invalid || x == DType::Invalid) return std::nullopt;
  if (c.dtype(i) != paramType(x))
    return shapeError(c, "Input '" + c.inputName(i) + "' has type " + std::string(dtypeName(c.dtype(i))) +
                             " but " + std::string(dtypeName(paramType(x))) + " is required for an input x of type " +
                             std::string(dtypeName(x)), {0, static_cast<int>(i)});
  return std::nullopt;
}

/// Merges the channel dim with input i's only dim (rank 1 required).
std::optional<ShapeResult> mergeChannel(const InferContext& c, size_t i, Dim& ch) {
  const Shape& s = c.shape(i);
  if (!s.rankKnown()) return std::nullopt;
  if (s.rank() != 1)
    return shapeError(c, "Shape must be rank 1 but is rank " + std::to_string(s.rank()), {static_cast<int>(i)});
  if (ch.conflicts(s[0]))
    return shapeError(c, "Dimensions must be equal, but are " + ch.str() + " and " + s[0].str(), {0, static_cast<int>(i)});
  if (!ch.isKnown() && (s[0].isKnown() || !ch.isSymbolic())) ch = s[0];
  return std::nullopt;
}

ShapeResult fusedBatchNormShape(const InferContext& c) {
  if (auto e = checkDType(c, 0, {DType::Float32, DType::Float64, DType::Float16})) return *e;
  BnLayout l;
  if (auto e = bnLayout(c, l)) return *e;
  const DType xt = c.dtype(0);
  for (size_t i = 1; i < 5; ++i)
    if (auto e = checkParam(c, i, xt)) return *e;
  Shape x = c.shape(0);
  if (x.rankKnown() && x.rank() != 4)
    return shapeError(c, "Shape must be rank 4 but is rank " + std::to_string(x.rank()), {0});
  if (!x.rankKnown()) x = Shape::unknownDims(4);
  Dim ch = x[l.cAxis()];
  const bool training = c.getBool("is_training", true);
  const bool useInputs = !training || c.getFloat("exponential_avg_factor", 1.0) != 1.0;
  for (size_t i = 1; i < (useInputs ? 5u : 3u); ++i)
    if (auto e = mergeChannel(c, i, ch)) return *e;
  x[l.cAxis()] = ch;
  DType u = xt != DType::Invalid ? paramType(xt) : commonDType(c, {1, 2, 3, 4});
  ShapeResult r;
  r.outputs.emplace_back(xt, x);
  for (int k = 0; k < 4; ++k) r.outputs.emplace_back(u, Shape{ch});
  r.outputs.emplace_back(u, Shape{Dim::known(0)});
  return r;
}

ShapeResult fusedBatchNormGradShape(const InferContext& c) {
  if (auto e = checkSameDType(c, {0, 1})) return *e;
  if (auto e = checkDType(c, 0, {DType::Float32, DType::Float64, DType::Float16})) return *e;
  BnLayout l;
  if (auto e = bnLayout(c, l)) return *e;
  const DType xt = commonDType(c, {0, 1});
  for (size_t i = 2; i < 5; ++i)
    if (auto e = checkParam(c, i, xt)) return *e;
  for (size_t i = 0; i < 2; ++i)
    if (c.shape(i).rankKnown() && c.shape(i).rank() != 4)
      return shapeError(c, "Shape must be rank 4 but is rank " + std::to_string(c.shape(i).rank()),
                        {static_cast<int>(i)});
  if (!c.shape(0).compatible(c.shape(1)))
    return shapeError(c, "Shapes must be equal rank and compatible, but are " + c.shape(0).str() + " and " +
                             c.shape(1).str() + " ('y_backprop' and 'x')", {0, 1});
  Shape x = c.shape(1).merge(c.shape(0));
  if (!x.rankKnown()) x = Shape::unknownDims(4);
  Dim ch = x[l.cAxis()];
  for (size_t i = 2; i < 5; ++i)
    if (auto e = mergeChannel(c, i, ch)) return *e;
  x[l.cAxis()] = ch;
  DType u = xt != DType::Invalid ? paramType(xt) : commonDType(c, {2, 3, 4});
  ShapeResult r;
  r.outputs.emplace_back(xt, x);
  r.outputs.emplace_back(u, Shape{ch});
  r.outputs.emplace_back(u, Shape{ch});
  r.outputs.emplace_back(u, Shape{Dim::known(0)});
  r.outputs.emplace_back(u, Shape{Dim::known(0)});
  return r;
}

/// Attributes shared by the forward op and its gradient.
Attrs bnAttrs(const AttrReader& a, bool training) {
  return {{"epsilon", a.getFloat("epsilon", 1e-4)},
          {"data_format", a.getString("data_format", "NHWC")},
          {"is_training", training}};
}

/// Second-order gradient of batch normalisation (see the file comment for the conventions).
/// With xh the normalised x, r = 1/sqrt(var + eps) and P(v) = v - mean(v) - xh * mean(v * xh)
/// (means per channel), the op computes dx = scale * r * P(dy) (training) or scale * r * dy
/// (inference), dscale = sum(dy * xh), doffset = sum(dy).
std::vector<Output> fusedBatchNormGradGrad(GradContext& g) {
  Graph& G = g.graph;
  AttrReader a(g.node.attrs);
  const bool training = a.getBool("is_training", true);
  const bool nchw = a.getString("data_format", "NHWC") == "NCHW";
  Output dy = g.input(0), x = g.input(1), scale = g.input(2);
  Output A = g.dys[0], bScale = g.dys[1], bOffset = g.dys[2];
  std::vector<Output> result(6);
  if (!A && !bScale && !bOffset) return result;
  const DType u = scale.type().dtype;
  const std::vector<int64_t> axes = nchw ? std::vector<int64_t>{0, 2, 3} : std::vector<int64_t>{0, 1, 2};
  auto to4 = [&](Output v) {  // [C] -> broadcastable against x
    std::vector<int32_t> s = nchw ? std::vector<int32_t>{1, -1, 1, 1} : std::vector<int32_t>{1, 1, 1, -1};
    return ops::reshape(G, v, ops::constant(G, Tensor::fromVector(s)));
  };
  auto castX = [&](Output v) {  // U -> x's dtype (float16 x with float32 params)
    return v.type().dtype == x.type().dtype ? v : ops::cast(G, v, x.type().dtype);
  };
  auto mean = [&](Output v) { return ops::reduceMean(G, v, axes, true); };
  auto sum = [&](Output v) { return ops::reduceSum(G, v, axes, false); };
  Output ones = ops::onesLike(G, scale), zeros = ops::zerosLike(G, scale);
  // xh and the variance: from x in training mode, from the population statistics otherwise.
  Output xh, var;
  if (training) {
    Output empty = ops::constant(G, Tensor(u, {0}));
    Node* bn = G.addNode("FusedBatchNormV3", {x, ones, zeros, empty, empty}, bnAttrs(a, true));
    xh = bn->out(0);
    var = bn->out(4);
  } else {
    Node* bn = G.addNode("FusedBatchNormV3", {x, ones, zeros, g.input(3), g.input(4)}, bnAttrs(a, false));
    xh = bn->out(0);
    var = g.input(4);
  }
  // r as a [1,1,1,C] tensor: normalising ones with mean 0 and this variance.
  Output r4 = G.addNode("FusedBatchNormV3", {castX(to4(ones)), ones, zeros, zeros, var},
                        bnAttrs(a, false))->out(0);
  Output s4 = castX(to4(scale));
  Output dDy, dX, dScale;
  auto accum = [&](Output& acc, Output term) { acc = acc ? ops::add(G, acc, term) : term; };
  if (training) {
    auto P = [&](Output v) {
      return ops::sub(G, ops::sub(G, v, mean(v)), ops::mul(G, xh, mean(ops::mul(G, v, xh))));
    };
    Output Pg = P(dy);
    if (A) {
      Output PA = P(A);
      Output mgx = mean(ops::mul(G, dy, xh)), max_ = mean(ops::mul(G, A, xh));
      Output S4 = ops::sub(G, ops::sub(G, mean(ops::mul(G, A, dy)), ops::mul(G, mean(A), mean(dy))),
                           ops::mul(G, max_, mgx));
      Output inner = ops::add(G, ops::add(G, ops::mul(G, S4, xh), ops::mul(G, mgx, PA)), ops::mul(G, max_, Pg));
      Output r2s = ops::mul(G, s4, ops::mul(G, r4, r4));
      accum(dDy, ops::mul(G, ops::mul(G, s4, r4), PA));
      accum(dX, ops::neg(G, ops::mul(G, r2s, inner)));
      dScale = castX(sum(ops::mul(G, r4, ops::mul(G, A, Pg))));
      if (dScale.type().dtype != u) dScale = ops::cast(G, dScale, u);
    }
    if (bScale) {
      Output b4 = castX(to4(bScale));
      accum(dDy, ops::mul(G, b4, xh));
      accum(dX, ops::mul(G, b4, ops::mul(G, r4, Pg)));
    }
  } else {
    if (A) {
      accum(dDy, ops::mul(G, ops::mul(G, s4, r4), A));
      dScale = sum(ops::mul(G, r4, ops::mul(G, A, dy)));
      if (dScale.type().dtype != u) dScale = ops::cast(G, dScale, u);
    }
    if (bScale) {
      Output b4 = castX(to4(bScale));
      accum(dDy, ops::mul(G, b4, xh));
      accum(dX, ops::mul(G, b4, ops::mul(G, r4, dy)));
    }
  }
  if (bOffset) accum(dDy, ops::mul(G, ops::onesLike(G, dy), castX(to4(bOffset))));
  result[0] = dDy;
  result[1] = dX;
  result[2] = dScale;
  return result;
}

}  // namespace

void registerNNBatchNormOps(OpRegistry& r) {
  OpBuilder(r, "FusedBatchNormV3")
      .api("tf.compat.v1.nn.fused_batch_norm").api("tf.nn.fused_batch_norm")
      .input("x").input("scale").input("offset").input("mean").input("variance")
      .attr("epsilon", 1e-4)
      .attr("exponential_avg_factor", 1.0)
      .attr("data_format", std::string("NHWC"))
      .attr("is_training", true)
      .doc("Batch normalisation of a 4-D tensor per channel: y = scale * (x - mean) / sqrt(var + eps) + offset.")
      .shape(fusedBatchNormShape)
      .grad([](GradContext& g) {
        Graph& G = g.graph;
        std::vector<Output> none(5);
        if (!g.dys[0]) return none;
        AttrReader a(g.node.attrs);
        const bool training = a.getBool("is_training", true);
        Output m = training ? g.output(3) : g.input(3);
        Output v = training ? g.output(4) : g.input(4);
        Node* n = G.addNode("FusedBatchNormGradV3",
                            {g.dys[0], g.input(0), g.input(1), m, v, g.output(5)}, bnAttrs(a, training));
        return std::vector<Output>{n->out(0), n->out(1), n->out(2), Output{}, Output{}};
      });

  OpBuilder(r, "FusedBatchNormGradV3")
      .input("y_backprop").input("x").input("scale").input("reserve_space_1").input("reserve_space_2")
      .input("reserve_space_3")
      .attr("epsilon", 1e-4)
      .attr("data_format", std::string("NHWC"))
      .attr("is_training", true)
      .doc("Gradient of FusedBatchNormV3: x_backprop, scale_backprop, offset_backprop (and two empty outputs).")
      .shape(fusedBatchNormGradShape)
      .grad(fusedBatchNormGradGrad);
}

}  // namespace tlens
