// Depthwise 2-D convolution: DepthwiseConv2dNative (tf.nn.depthwise_conv2d; separable_conv2d is
// it followed by a 1x1 Conv2D, in Python) and its two backprops, NHWC as TensorFlow's CPU kernels.
#include "engine/graph/Builder.h"
#include "engine/graph/Graph.h"
#include "engine/ops/OpRegistry.h"
#include "engine/ops/ShapeFns.h"
#include "engine/ops/defs/ArrayShapeUtil.h"

namespace tlens {

namespace {
using namespace shapefn;
using namespace arrayfn;

const std::vector<int64_t> kOnes4 = {1, 1, 1, 1};

struct Attrs4 {
  int64_t sh = 1, sw = 1, dh = 1, dw = 1;
  bool same = false;
};

std::optional<ShapeResult> parseAttrs(const InferContext& c, Attrs4& a) {
  const std::string fmt = c.getString("data_format", "NHWC");
  if (fmt != "NHWC")
    return shapeError(c, "Generic conv implementation only supports NHWC tensor format for now.");
  const std::string p = c.getString("padding", "");
  if (p != "SAME" && p != "VALID") return shapeError(c, "Unknown padding '" + p + "': expected SAME or VALID");
  a.same = p == "SAME";
  const std::vector<int64_t> st = c.getInts("strides").value_or(std::vector<int64_t>{});
  const std::vector<int64_t> di = c.getInts("dilations").value_or(kOnes4);
  if (st.size() != 4)
    return shapeError(c, "DepthwiseConv2D requires the stride attribute to contain 4 values, but got: " +
                             std::to_string(st.size()));
  if (di.size() != 4)
    return shapeError(c, "DepthwiseConv2D requires the dilations attribute to contain 4 values, but got: " +
                             std::to_string(di.size()));
  if (st[0] != 1 || st[3] != 1)
    return shapeError(c, "Current implementation does not yet support strides in the batch and depth dimensions.");
  if (di[0] != 1 || di[3] != 1)
    return shapeError(c, "Current implementation does not yet support dilations in the batch and depth dimensions.");
  a.sh = st[1];
  a.sw = st[2];
  a.dh = di[1];
  a.dw = di[2];
  for (int64_t s : {a.sh, a.sw})
    if (s <= 0) return shapeError(c, "Stride must be > 0, but got " + std::to_string(s));
  for (int64_t d : {a.dh, a.dw})
    if (d < 1) return shapeError(c, "Dilation rate must be >= 1, but got " + std::to_string(d));
  return std::nullopt;
}

/// GetWindowedOutputSize on a partial dim (k < 0: unknown window). Empty string on success.
std::string windowed(Dim in, int64_t k, int64_t d, int64_t s, bool same, Dim& out) {
  if (same) {
    out = in.isKnown() ? Dim::known((in.size + s - 1) / s) : (s == 1 ? in : Dim::unknown());
    return {};
  }
  if (k < 0 || !in.isKnown()) {
    out = Dim::unknown();
    return {};
  }
  const int64_t eff = (k - 1) * d + 1;
  if (in.size < eff)
    return "Negative dimension size caused by subtracting " + std::to_string(eff) + " from " + std::to_string(in.size);
  out = Dim::known((in.size - eff + s) / s);
  return {};
}

/// The forward output shape of input `in` and filter `f`, or an error.
ShapeResult forward(const InferContext& c, const Shape& in, const Shape& f, DType dt, std::vector<int> blame) {
  Attrs4 a;
  if (auto e = parseAttrs(c, a)) return *e;
  if (in.rankKnown() && in.rank() != 4)
    return shapeError(c, "Shape must be rank 4 but is rank " + std::to_string(in.rank()), {blame[0]});
  if (f.rankKnown() && f.rank() != 4)
    return shapeError(c, "Shape must be rank 4 but is rank " + std::to_string(f.rank()), {blame[1]});
  const Shape i4 = in.rankKnown() ? in : Shape::unknownDims(4);
  const Shape f4 = f.rankKnown() ? f : Shape::unknownDims(4);
  if (i4[3].conflicts(f4[2]))
    return shapeError(c, "Dimensions must be equal, but are " + i4[3].str() + " and " + f4[2].str(), blame);
  Dim oh, ow;
  std::string err = windowed(i4[1], f4[0].isKnown() ? f4[0].size : -1, a.dh, a.sh, a.same, oh);
  if (err.empty()) err = windowed(i4[2], f4[1].isKnown() ? f4[1].size : -1, a.dw, a.sw, a.same, ow);
  if (!err.empty()) return shapeError(c, err, blame);
  const Dim depth = i4[3].isKnown() ? i4[3] : f4[2];
  const Dim oc = depth.isKnown() && f4[3].isKnown() ? Dim::known(depth.size * f4[3].size) : Dim::unknown();
  return ShapeResult::single(dt, Shape{i4[0], oh, ow, oc});
}

const std::initializer_list<DType> kFloats = {DType::Float32, DType::Float64, DType::Float16};

ShapeResult depthwiseShape(const InferContext& c) {
  if (auto e = checkDType(c, 0, kFloats)) return *e;
  if (auto e = checkSameDType(c, {0, 1})) return *e;
  return forward(c, c.shape(0), c.shape(1), commonDType(c, {0, 1}), {0, 1});
}

/// input_sizes / filter_sizes: a 4-vector input; its dims when known.
Shape sizesOf(const InferContext& c, size_t i) {
  Shape s = c.valueAsShape(i);
  if (!s.rankKnown() || s.rank() != 4) return Shape::unknownDims(4);
  std::vector<Dim> d = s.dims();
  for (Dim& x : d)
    if (x.isMinusOne() || (x.isKnown() && x.size < 0)) x = Dim::unknown();
  return Shape(std::move(d));
}

std::optional<ShapeResult> checkBackprop(const InferContext& c, const Shape& in, const Shape& f) {
  ShapeResult fwd = forward(c, in, f, DType::Invalid, {0, 1});
  if (!fwd.ok()) return fwd;
  const Shape& want = fwd.outputs[0].shape;
  const Shape& dy = c.shape(2);
  if (dy.rankKnown() && dy.rank() != 4) return shapeError(c, "Shape must be rank 4 but is rank " + std::to_string(dy.rank()), {2});
  if (dy.rankKnown())
    for (size_t i = 0; i < 4; ++i)
      if (want[i].conflicts(dy[i]))
        return shapeError(c, "Conv2DSlowBackpropInput: Size of out_backprop doesn't match computed: actual = " +
                                 std::to_string(dy[i].size) + ", computed = " + std::to_string(want[i].size), {2});
  return std::nullopt;
}

/// input_sizes / filter_sizes hold the 4 dims of a rank-4 shape.
std::optional<ShapeResult> checkSizes(const InferContext& c, size_t i) {
  if (auto e = checkRank(c, i, 1)) return e;
  const Shape& s = c.shape(i);
  if (s.rankKnown() && s[0].isKnown() && s[0].size != 4)
    return shapeError(c, "Shape must be rank 4 but is rank " + std::to_string(s[0].size), {static_cast<int>(i)});
  return std::nullopt;
}

ShapeResult backpropInputShape(const InferContext& c) {
  if (auto e = checkIndexDType(c, 0, "T")) return *e;
  if (auto e = checkSizes(c, 0)) return *e;
  if (auto e = checkSameDType(c, {1, 2})) return *e;
  const Shape in = sizesOf(c, 0);
  if (auto e = checkBackprop(c, in, c.shape(1))) return *e;
  return ShapeResult::single(commonDType(c, {1, 2}), in);
}

ShapeResult backpropFilterShape(const InferContext& c) {
  if (auto e = checkIndexDType(c, 1, "T")) return *e;
  if (auto e = checkSizes(c, 1)) return *e;
  if (auto e = checkSameDType(c, {0, 2})) return *e;
  const Shape f = sizesOf(c, 1);
  if (auto e = checkBackprop(c, c.shape(0), f)) return *e;
  return ShapeResult::single(commonDType(c, {0, 2}), f);
}

void convAttrs(OpBuilder& b) {
  b.attr("strides", {}, "[1, sh, sw, 1]").attr("padding", {}).attr("data_format", std::string("NHWC"))
      .attr("dilations", kOnes4);
}

}  // namespace

void registerDepthwiseConvOps(OpRegistry& r) {
  {
    OpBuilder b(r, "DepthwiseConv2dNative");
    b.cpuOnly("direct loops on the host (no GPU kernel yet)")
        .api("tf.nn.depthwise_conv2d_native").api("tf.compat.v1.nn.depthwise_conv2d_native")
        .input("input").input("filter");
    convAttrs(b);
    b.doc("Depthwise 2-D convolution: each input channel with its own [kh, kw] filters (channel multiplier M).")
        .shape(depthwiseShape)
        .grad([](GradContext& g) {
          Graph& G = g.graph;
          const Attrs& a = g.node.attrs;
          return std::vector<Output>{
              G.op("DepthwiseConv2dNativeBackpropInput", {shapeOf(G, g.input(0)), g.input(1), g.dys[0]}, a),
              G.op("DepthwiseConv2dNativeBackpropFilter", {g.input(0), shapeOf(G, g.input(1)), g.dys[0]}, a)};
        });
  }
  {
    OpBuilder b(r, "DepthwiseConv2dNativeBackpropInput");
    b.cpuOnly("direct loops on the host (no GPU kernel yet)").hostInput(0)
        .api("tf.nn.depthwise_conv2d_backprop_input")
        .input("input_sizes").input("filter").input("out_backprop");
    convAttrs(b);
    b.doc("Gradient of DepthwiseConv2dNative with respect to its input.")
        .shape(backpropInputShape)
        .grad([](GradContext& g) {
          // Linear in (filter, out_backprop): the filter gradient of a forward conv of dy with dyOut,
          // and the forward conv of dy with the filter.
          Graph& G = g.graph;
          const Attrs& a = g.node.attrs;
          Output dy = g.dys[0];
          return std::vector<Output>{
              Output{}, G.op("DepthwiseConv2dNativeBackpropFilter", {dy, shapeOf(G, g.input(1)), g.input(2)}, a),
              G.op("DepthwiseConv2dNative", {dy, g.input(1)}, a)};
        });
  }
  {
    OpBuilder b(r, "DepthwiseConv2dNativeBackpropFilter");
    b.cpuOnly("direct loops on the host (no GPU kernel yet)").hostInput(1)
        .api("tf.nn.depthwise_conv2d_backprop_filter")
        .input("input").input("filter_sizes").input("out_backprop");
    convAttrs(b);
    b.doc("Gradient of DepthwiseConv2dNative with respect to its filter.")
        .shape(backpropFilterShape)
        .grad([](GradContext& g) {
          Graph& G = g.graph;
          const Attrs& a = g.node.attrs;
          Output dy = g.dys[0];
          return std::vector<Output>{
              G.op("DepthwiseConv2dNativeBackpropInput", {shapeOf(G, g.input(0)), dy, g.input(2)}, a), Output{},
              G.op("DepthwiseConv2dNative", {g.input(0), dy}, a)};
        });
  }
}

}  // namespace tlens
