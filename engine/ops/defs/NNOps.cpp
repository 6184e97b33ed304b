// NN layers: Conv2D and its backprops, MaxPool / AvgPool and their gradients, BiasAdd,
// FusedBatchNormV3. Shape functions follow TensorFlow's (common_shape_fns.cc): NHWC and NCHW
// layouts are both understood statically (so GPU-style code type-checks); the CPU kernels, like
// TensorFlow's, run NHWC only for Conv2D and pooling.
#include <cmath>

#include "engine/graph/Builder.h"
#include "engine/ops/OpRegistry.h"
#include "engine/ops/ShapeFns.h"

namespace tlens {

void registerNNBatchNormOps(OpRegistry& r);

namespace {
using namespace shapefn;

const std::vector<int64_t> kOnes4{1, 1, 1, 1};

std::string rankMsg(const std::string& what, int want, int got) {
  return "Shape must be " + what + std::to_string(want) + " but is rank " + std::to_string(got);
}

/// A rank check that passes for unknown ranks.
std::optional<ShapeResult> withRank(const InferContext& c, size_t i, int rank) {
  const Shape& s = c.shape(i);
  if (s.rankKnown() && s.rank() != rank)
    return shapeError(c, rankMsg("rank ", rank, s.rank()), {static_cast<int>(i)});
  return std::nullopt;
}

/// Layout, padding and window attributes of a Conv2D- or pool-like op.
struct Window {
  bool nchw = false;
  bool same = false;
  int64_t kh = -1, kw = -1;  ///< pools: from ksize; convs: from the filter (may be unknown)
  int64_t sh = 1, sw = 1, dh = 1, dw = 1;
  int hAxis() const { return nchw ? 2 : 1; }
  int wAxis() const { return nchw ? 3 : 2; }
  int cAxis() const { return nchw ? 1 : 3; }
};

std::optional<ShapeResult> parseFormat(const InferContext& c, Window& w) {
  const std::string df = c.getString("data_format", "NHWC");
  if (df != "NHWC" && df != "NCHW") return shapeError(c, "Invalid data format string: " + df);
  w.nchw = df == "NCHW";
  return std::nullopt;
}

std::optional<ShapeResult> parsePadding(const InferContext& c, Window& w) {
  const std::string p = c.getString("padding");
  if (p != "SAME" && p != "VALID")
    return shapeError(c, "Value for attr 'padding' of \"" + p +
                             "\" is not in the list of allowed values: \"SAME\", \"VALID\"");
  w.same = p == "SAME";
  return std::nullopt;
}

/// Conv2D's strides and dilations (batch and depth entries must be 1).
std::optional<ShapeResult> parseConvAttrs(const InferContext& c, Window& w) {
  if (auto e = parseFormat(c, w)) return e;
  if (auto e = parsePadding(c, w)) return e;
  const std::vector<int64_t> st = c.getInts("strides").value_or(std::vector<int64_t>{});
  const std::vector<int64_t> di = c.getInts("dilations").value_or(kOnes4);
  const std::string op = c.op().type;
  if (st.size() != 4)
    return shapeError(c, op + " on data format " + c.getString("data_format", "NHWC") +
                             " requires the stride attribute to contain 4 values, but got: " +
                             std::to_string(st.size()));
  if (di.size() != 4)
    return shapeError(c, op + " requires the dilation attribute to contain 4 values, but got: " +
                             std::to_string(di.size()));
  const int n = 0, ch = w.cAxis();
  if (st[n] != 1 || st[static_cast<size_t>(ch)] != 1)
    return shapeError(c, "Current implementation does not yet support strides in the batch and depth dimensions.");
  if (di[n] != 1 || di[static_cast<size_t>(ch)] != 1)
    return shapeError(c, "Current implementation does not yet support dilations in the batch and depth dimensions.");
  w.sh = st[static_cast<size_t>(w.hAxis())];
  w.sw = st[static_cast<size_t>(w.wAxis())];
  w.dh = di[static_cast<size_t>(w.hAxis())];
  w.dw = di[static_cast<size_t>(w.wAxis())];
  for (int64_t s : {w.sh, w.sw})
    if (s <= 0) return shapeError(c, "Stride must be > 0, but got " + std::to_string(s));
  for (int64_t d : {w.dh, w.dw})
    if (d < 1) return shapeError(c, "Dilation rate must be >= 1, but got " + std::to_string(d));
  return std::nullopt;
}

/// Pool attributes: ksize and strides (4 values, 1 on the batch and depth dims).
std::optional<ShapeResult> parsePoolAttrs(const InferContext& c, Window& w, const std::string& op) {
  if (auto e = parseFormat(c, w)) return e;
  if (auto e = parsePadding(c, w)) return e;
  const std::vector<int64_t> ks = c.getInts("ksize").value_or(std::vector<int64_t>{});
  const std::vector<int64_t> st = c.getInts("strides").value_or(std::vector<int64_t>{});
  if (st.size() != 4)
    return shapeError(c, op + " requires the stride attribute to contain 4 values, but got: " +
                             std::to_string(st.size()));
  if (ks.size() != 4)
    return shapeError(c, op + " requires the ksize attribute to contain 4 values, but got: " +
                             std::to_string(ks.size()));
  for (size_t i = 0; i < 4; ++i) {
    if (ks[i] <= 0)
      return shapeError(c, "Sliding window ksize for dimension " + std::to_string(i) + " was zero.");
    if (st[i] <= 0)
      return shapeError(c, "Sliding window stride field for dimension " + std::to_string(i) +
                               " must be > 0, but got " + std::to_string(st[i]));
  }
  const size_t ch = static_cast<size_t>(w.cAxis());
  if (ks[0] != 1 || st[0] != 1) return shapeError(c, "Pooling is not yet supported on the batch dimension.");
  if (ks[ch] != 1 || st[ch] != 1)
    return shapeError(c, "Pooling is not yet supported on the depth dimension.");
  w.kh = ks[static_cast<size_t>(w.hAxis())];
  w.kw = ks[static_cast<size_t>(w.wAxis())];
  w.sh = st[static_cast<size_t>(w.hAxis())];
  w.sw = st[static_cast<size_t>(w.wAxis())];
  return std::nullopt;
}

/// TensorFlow's GetWindowedOutputSize on a partial dim. `k` < 0: unknown window.
/// Returns an error message, or empty and sets `out`.
std::string windowedOutput(Dim in, int64_t k, int64_t dilation, int64_t stride, bool same, Dim& out) {
  if (same) {
    if (stride == 1) { out = in; return {}; }
    out = in.isKnown() ? Dim::known((in.size + stride - 1) / stride) : Dim::unknown();
    return {};
  }
  if (k < 0) { out = Dim::unknown(); return {}; }
  const int64_t eff = (k - 1) * dilation + 1;
  if (!in.isKnown()) {
    out = eff == 1 && stride == 1 ? in : Dim::unknown();
    return {};
  }
  if (in.size < eff)
    return "Negative dimension size caused by subtracting " + std::to_string(eff) + " from " +
           std::to_string(in.size);
  out = Dim::known((in.size - eff) / stride + 1);
  return {};
}

/// The NHWC/NCHW output shape [n, oh, ow, depth] of a windowed op on `in`.
ShapeResult windowedShape(const InferContext& c, const Window& w, const Shape& in, Dim depth,
                          DType dt) {
  Dim n = Dim::unknown(), h = Dim::unknown(), wd = Dim::unknown();
  if (in.rankKnown()) {
    n = in[0];
    h = in[static_cast<size_t>(w.hAxis())];
    wd = in[static_cast<size_t>(w.wAxis())];
  }
  Dim oh, ow;
  std::string e = windowedOutput(h, w.kh, w.dh, w.sh, w.same, oh);
  if (e.empty()) e = windowedOutput(wd, w.kw, w.dw, w.sw, w.same, ow);
  if (!e.empty()) return shapeError(c, e, {0, 1});
  std::vector<Dim> d(4);
  d[0] = n;
  d[static_cast<size_t>(w.hAxis())] = oh;
  d[static_cast<size_t>(w.wAxis())] = ow;
  d[static_cast<size_t>(w.cAxis())] = depth;
  return ShapeResult::single(dt, Shape(std::move(d)));
}

const std::initializer_list<DType> kConvTypes = {DType::Float32, DType::Float64, DType::Float16};

/// Conv2D(input [n,h,w,c], filter [kh,kw,c_in,c_out]).
ShapeResult conv2dShape(const InferContext& c) {
  if (auto e = checkSameDType(c, {0, 1})) return *e;
  if (auto e = checkDType(c, 0, kConvTypes)) return *e;
  Window w;
  if (auto e = parseConvAttrs(c, w)) return *e;
  if (auto e = withRank(c, 0, 4)) return *e;
  if (auto e = withRank(c, 1, 4)) return *e;
  const Shape& in = c.shape(0);
  const Shape& f = c.shape(1);
  Dim inDepth = in.rankKnown() ? in[static_cast<size_t>(w.cAxis())] : Dim::unknown();
  Dim fDepth = f.rankKnown() ? f[2] : Dim::unknown();
  Dim outDepth = f.rankKnown() ? f[3] : Dim::unknown();
  if (inDepth.isKnown() && fDepth.isKnown()) {
    if (fDepth.size == 0 || inDepth.size % fDepth.size != 0)
      return shapeError(c, "Depth of input (" + inDepth.str() + ") is not a multiple of input depth of filter (" +
                               fDepth.str() + ")", {0, 1});
    const int64_t groups = inDepth.size / fDepth.size;
    if (groups != 1 && outDepth.isKnown() && outDepth.size % groups != 0)
      return shapeError(c, "Depth of output (" + outDepth.str() + ") is not a multiple of the number of groups (" +
                               std::to_string(groups) + ")", {0, 1});
  }
  if (f.rankKnown()) {
    w.kh = f[0].isKnown() ? f[0].size : -1;
    w.kw = f[1].isKnown() ? f[1].size : -1;
  }
  return windowedShape(c, w, in, outDepth, commonDType(c, {0, 1}));
}

std::vector<Output> conv2dGrad(GradContext& g) {
  Graph& G = g.graph;
  Output x = g.input(0), f = g.input(1), dy = g.dys[0];
  const Attrs& a = g.node.attrs;
  return {G.op("Conv2DBackpropInput", {ops::shape(G, x), f, dy}, a),
          G.op("Conv2DBackpropFilter", {x, ops::shape(G, f), dy}, a)};
}

/// A shape given as an int vector input (input_sizes, filter_sizes): exactly 4 entries.
std::optional<ShapeResult> sizesInput(const InferContext& c, size_t i, Shape& out) {
  if (auto e = checkDType(c, i, {DType::Int32, DType::Int64})) return e;
  if (auto e = withRank(c, i, 1)) return e;
  if (const Tensor* v = c.value(i))
    for (int64_t k = 0; k < v->numElements(); ++k)
      if (v->getInt(k) < 0)
        return shapeError(c, "Dimension " + std::to_string(k) + " of '" + c.inputName(i) + "' must be >= 0, but is " +
                                 std::to_string(v->getInt(k)), {static_cast<int>(i)});
  out = c.valueAsShape(i);
  if (!out.rankKnown()) {
    out = Shape::unknownDims(4);
    return std::nullopt;
  }
  if (out.rank() != 4)
    return shapeError(c, "Shape must be rank 4 but is rank " + std::to_string(out.rank()) + " (the value of '" +
                             c.inputName(i) + "')", {static_cast<int>(i)});
  for (Dim& d : out.dims())
    if (d.isMinusOne()) d = Dim::unknown();
  return std::nullopt;
}

/// Checks that `out_backprop` has the shape the forward Conv2D of (input, filter) would produce.
std::optional<ShapeResult> checkConvBackprop(const InferContext& c, const Window& w0,
                                             const Shape& in, const Shape& f, size_t dyIdx) {
  Window w = w0;
  if (f.rankKnown()) {
    w.kh = f[0].isKnown() ? f[0].size : -1;
    w.kw = f[1].isKnown() ? f[1].size : -1;
  }
  ShapeResult fwd = windowedShape(c, w, in, f.rankKnown() ? f[3] : Dim::unknown(), DType::Invalid);
  if (!fwd.ok()) return fwd;
  const Shape& want = fwd.outputs[0].shape;
  const Shape& dy = c.shape(dyIdx);
  if (dy.rankKnown() && !want.compatible(dy))
    for (size_t i = 0; i < 4; ++i)
      if (want[i].conflicts(dy[i]))
        return shapeError(c, "Conv2D backprop: out_backprop dimension " + std::to_string(i) + " is " +
                                 dy[i].str() + " but the forward convolution produces " + want[i].str(),
                          {static_cast<int>(dyIdx)});
  return std::nullopt;
}

ShapeResult conv2dBackpropInputShape(const InferContext& c) {
  if (auto e = checkSameDType(c, {1, 2})) return *e;
  if (auto e = checkDType(c, 1, kConvTypes)) return *e;
  Window w;
  if (auto e = parseConvAttrs(c, w)) return *e;
  if (auto e = withRank(c, 1, 4)) return *e;
  if (auto e = withRank(c, 2, 4)) return *e;
  Shape in;
  if (auto e = sizesInput(c, 0, in)) return *e;
  const Shape& f = c.shape(1);
  const Shape& dy = c.shape(2);
  // Batch and depth also follow from the other inputs.
  const size_t ca = static_cast<size_t>(w.cAxis());
  if (dy.rankKnown()) {
    if (in[0].conflicts(dy[0]))
      return shapeError(c, "Dimensions must be equal, but are " + in[0].str() + " and " + dy[0].str(), {0, 2});
    if (!in[0].isKnown()) in[0] = dy[0];
  }
  if (f.rankKnown()) {
    if (in[ca].conflicts(f[2]))
      return shapeError(c, "Dimensions must be equal, but are " + in[ca].str() + " and " + f[2].str(), {0, 1});
    if (!in[ca].isKnown()) in[ca] = f[2];
    if (dy.rankKnown() && f[3].conflicts(dy[ca]))
      return shapeError(c, "Dimensions must be equal, but are " + f[3].str() + " and " + dy[ca].str(), {1, 2});
  }
  if (auto e = checkConvBackprop(c, w, in, f, 2)) return *e;
  return ShapeResult::single(commonDType(c, {1, 2}), in);
}

ShapeResult conv2dBackpropFilterShape(const InferContext& c) {
  if (auto e = checkSameDType(c, {0, 2})) return *e;
  if (auto e = checkDType(c, 0, kConvTypes)) return *e;
  Window w;
  if (auto e = parseConvAttrs(c, w)) return *e;
  if (auto e = withRank(c, 0, 4)) return *e;
  if (auto e = withRank(c, 2, 4)) return *e;
  Shape f;
  if (auto e = sizesInput(c, 1, f)) return *e;
  const Shape& in = c.shape(0);
  const Shape& dy = c.shape(2);
  const size_t ca = static_cast<size_t>(w.cAxis());
  if (in.rankKnown()) {
    if (f[2].conflicts(in[ca]))
      return shapeError(c, "Dimensions must be equal, but are " + f[2].str() + " and " + in[ca].str(), {0, 1});
    if (!f[2].isKnown()) f[2] = in[ca];
  }
  if (dy.rankKnown()) {
    if (f[3].conflicts(dy[ca]))
      return shapeError(c, "Dimensions must be equal, but are " + f[3].str() + " and " + dy[ca].str(), {1, 2});
    if (!f[3].isKnown()) f[3] = dy[ca];
  }
  if (auto e = checkConvBackprop(c, w, in, f, 2)) return *e;
  return ShapeResult::single(commonDType(c, {0, 2}), f);
}

ShapeResult poolShape(const InferContext& c, const std::string& op, size_t inIdx) {
  if (auto e = checkDType(c, inIdx, kConvTypes)) return *e;
  Window w;
  if (auto e = parsePoolAttrs(c, w, op)) return *e;
  if (auto e = withRank(c, inIdx, 4)) return *e;
  const Shape& in = c.shape(inIdx);
  return windowedShape(c, w, in, in.rankKnown() ? in[static_cast<size_t>(w.cAxis())] : Dim::unknown(),
                       c.dtype(inIdx));
}

/// MaxPoolGrad(orig_input, orig_output, grad) -> like orig_input.
ShapeResult maxPoolGradShape(const InferContext& c) {
  if (auto e = checkSameDType(c, {0, 1, 2})) return *e;
  ShapeResult fwd = poolShape(c, "MaxPoolGrad", 0);
  if (!fwd.ok()) return fwd;
  for (size_t i : {size_t{1}, size_t{2}}) {
    if (auto e = withRank(c, i, 4)) return *e;
    if (!fwd.outputs[0].shape.compatible(c.shape(i)))
      return shapeError(c, "Shapes must be equal rank and compatible, but are " + fwd.outputs[0].shape.str() +
                               " and " + c.shape(i).str() + " (the pooled shape of 'orig_input' and '" +
                               c.inputName(i) + "')", {0, static_cast<int>(i)});
  }
  return ShapeResult::single(commonDType(c, {0, 1, 2}), c.shape(0));
}

/// MaxPoolGradGrad(orig_input, orig_output, grad) -> like orig_output.
ShapeResult maxPoolGradGradShape(const InferContext& c) {
  if (auto e = checkSameDType(c, {0, 1, 2})) return *e;
  ShapeResult fwd = poolShape(c, "MaxPoolGradGrad", 0);
  if (!fwd.ok()) return fwd;
  if (auto e = withRank(c, 1, 4)) return *e;
  if (auto e = withRank(c, 2, 4)) return *e;
  if (!fwd.outputs[0].shape.compatible(c.shape(1)))
    return shapeError(c, "Shapes must be equal rank and compatible, but are " + fwd.outputs[0].shape.str() +
                             " and " + c.shape(1).str(), {0, 1});
  if (!c.shape(0).compatible(c.shape(2)))
    return shapeError(c, "Shapes must be equal rank and compatible, but are " + c.shape(0).str() + " and " +
                             c.shape(2).str(), {0, 2});
  return ShapeResult::single(commonDType(c, {0, 1, 2}), fwd.outputs[0].shape.merge(c.shape(1)));
}

/// AvgPoolGrad(orig_input_shape, grad).
ShapeResult avgPoolGradShape(const InferContext& c) {
  if (auto e = checkDType(c, 1, kConvTypes)) return *e;
  Window w;
  if (auto e = parsePoolAttrs(c, w, "AvgPoolGrad")) return *e;
  if (auto e = withRank(c, 1, 4)) return *e;
  Shape in;
  if (auto e = sizesInput(c, 0, in)) return *e;
  ShapeResult fwd = windowedShape(c, w, in, in[static_cast<size_t>(w.cAxis())], DType::Invalid);
  if (!fwd.ok()) return fwd;
  if (!fwd.outputs[0].shape.compatible(c.shape(1)))
    return shapeError(c, "Shapes must be equal rank and compatible, but are " + fwd.outputs[0].shape.str() +
                             " and " + c.shape(1).str() + " (the pooled shape of 'orig_input_shape' and 'grad')",
                      {0, 1});
  return ShapeResult::single(c.dtype(1), in);
}

/// BiasAdd(value, bias): bias matches the channel dim (last for NHWC, 1 for NCHW).
ShapeResult biasAddShape(const InferContext& c) {
  if (auto e = checkSameDType(c, {0, 1})) return *e;
  if (auto e = checkDType(c, 0, {DType::Float32, DType::Float64, DType::Float16, DType::Int32,
                                 DType::Int64, DType::UInt8}))
    return *e;
  Window w;
  if (auto e = parseFormat(c, w)) return *e;
  const Shape& v = c.shape(0);
  const Shape& b = c.shape(1);
  const int minRank = w.nchw ? 3 : 2;
  if (v.rankKnown() && v.rank() < minRank)
    return shapeError(c, rankMsg("at least rank ", minRank, v.rank()), {0});
  if (auto e = withRank(c, 1, 1)) return *e;
  if (!v.rankKnown()) return ShapeResult::single(commonDType(c, {0, 1}), v);
  Shape out = v;
  const size_t ca = w.nchw ? 1 : static_cast<size_t>(v.rank() - 1);
  if (b.rankKnown()) {
    if (out[ca].conflicts(b[0]))
      return shapeError(c, "Dimensions must be equal, but are " + b[0].str() + " and " + out[ca].str(), {0, 1});
    if (!out[ca].isKnown() && (b[0].isKnown() || !out[ca].isSymbolic())) out[ca] = b[0];
  }
  return ShapeResult::single(commonDType(c, {0, 1}), out);
}

ShapeResult biasAddGradShape(const InferContext& c) {
  if (auto e = checkDType(c, 0, {DType::Float32, DType::Float64, DType::Float16, DType::Int32,
                                 DType::Int64, DType::UInt8}))
    return *e;
  Window w;
  if (auto e = parseFormat(c, w)) return *e;
  const Shape& v = c.shape(0);
  const int minRank = w.nchw ? 3 : 2;
  if (v.rankKnown() && v.rank() < minRank)
    return shapeError(c, rankMsg("at least rank ", minRank, v.rank()), {0});
  Dim ch = Dim::unknown();
  if (v.rankKnown()) ch = v[w.nchw ? 1 : static_cast<size_t>(v.rank() - 1)];
  return ShapeResult::single(c.dtype(0), Shape{ch});
}

}  // namespace

void registerNNOps(OpRegistry& r) {
  OpBuilder(r, "Conv2D")
      .api("tf.nn.conv2d").api("tf.compat.v1.nn.conv2d")
      .input("input").input("filter")
      .attr("strides", {}, "[1, stride_h, stride_w, 1] (NHWC)")
      .attr("padding", {}, "\"SAME\" or \"VALID\"")
      .attr("dilations", kOnes4)
      .attr("data_format", std::string("NHWC"), "NHWC (CPU) or NCHW (shape inference only)")
      .attr("use_cudnn_on_gpu", true)
      .doc("2-D convolution of an NHWC input with an [h, w, in, out] filter (cross-correlation, as TF).")
      .shape(conv2dShape)
      .grad(conv2dGrad);

  OpBuilder(r, "Conv2DBackpropInput").hostInput(0)
      .api("tf.compat.v1.nn.conv2d_backprop_input")
      .input("input_sizes").input("filter").input("out_backprop")
      .attr("strides", {}).attr("padding", {}).attr("dilations", kOnes4)
      .attr("data_format", std::string("NHWC")).attr("use_cudnn_on_gpu", true)
      .doc("Gradient of Conv2D with respect to its input (also the transposed convolution).")
      .shape(conv2dBackpropInputShape)
      .grad([](GradContext& g) {
        Graph& G = g.graph;
        const Attrs& a = g.node.attrs;
        Output f = g.input(1), dyOut = g.input(2), dy = g.dys[0];
        return std::vector<Output>{Output{},
                                   G.op("Conv2DBackpropFilter", {dy, ops::shape(G, f), dyOut}, a),
                                   G.op("Conv2D", {dy, f}, a)};
      });

  OpBuilder(r, "Conv2DBackpropFilter").hostInput(1)
      .api("tf.compat.v1.nn.conv2d_backprop_filter")
      .input("input").input("filter_sizes").input("out_backprop")
      .attr("strides", {}).attr("padding", {}).attr("dilations", kOnes4)
      .attr("data_format", std::string("NHWC")).attr("use_cudnn_on_gpu", true)
      .doc("Gradient of Conv2D with respect to its filter.")
      .shape(conv2dBackpropFilterShape)
      .grad([](GradContext& g) {
        Graph& G = g.graph;
        const Attrs& a = g.node.attrs;
        Output x = g.input(0), dyOut = g.input(2), dy = g.dys[0];
        return std::vector<Output>{G.op("Conv2DBackpropInput", {ops::shape(G, x), dy, dyOut}, a),
                                   Output{}, G.op("Conv2D", {x, dy}, a)};
      });

  OpBuilder(r, "MaxPool")
      .api("tf.nn.max_pool").api("tf.nn.max_pool2d").api("tf.compat.v1.nn.max_pool")
      .input("input")
      .attr("ksize", {}, "[1, kh, kw, 1]")
      .attr("strides", {}, "[1, sh, sw, 1]")
      .attr("padding", {})
      .attr("data_format", std::string("NHWC"))
      .doc("Max over sliding windows of an NHWC tensor (padding never wins; NaN propagates).")
      .shape([](const InferContext& c) { return poolShape(c, "MaxPool", 0); })
      .grad([](GradContext& g) {
        return std::vector<Output>{
            g.graph.op("MaxPoolGrad", {g.input(0), g.output(0), g.dys[0]}, g.node.attrs)};
      });

  OpBuilder(r, "MaxPoolGrad")
      .input("orig_input").input("orig_output").input("grad")
      .attr("ksize", {}).attr("strides", {}).attr("padding", {})
      .attr("data_format", std::string("NHWC"))
      .doc("Gradient of MaxPool: each window's gradient goes to its (first) maximum.")
      .shape(maxPoolGradShape)
      .grad([](GradContext& g) {
        Graph& G = g.graph;
        return std::vector<Output>{
            ops::zerosLike(G, g.input(0)), ops::zerosLike(G, g.input(1)),
            G.op("MaxPoolGradGrad", {g.input(0), g.input(1), g.dys[0]}, g.node.attrs)};
      });

  OpBuilder(r, "MaxPoolGradGrad")
      .input("orig_input").input("orig_output").input("grad")
      .attr("ksize", {}).attr("strides", {}).attr("padding", {})
      .attr("data_format", std::string("NHWC"))
      .doc("Gradient of MaxPoolGrad: gathers `grad` at each window's maximum.")
      .shape(maxPoolGradGradShape)
      .grad([](GradContext& g) {
        Graph& G = g.graph;
        return std::vector<Output>{
            ops::zerosLike(G, g.input(0)), ops::zerosLike(G, g.input(1)),
            G.op("MaxPoolGrad", {g.input(0), g.input(1), g.dys[0]}, g.node.attrs)};
      });

  OpBuilder(r, "AvgPool")
      .api("tf.nn.avg_pool").api("tf.nn.avg_pool2d").api("tf.compat.v1.nn.avg_pool")
      .input("value")
      .attr("ksize", {}).attr("strides", {}).attr("padding", {})
      .attr("data_format", std::string("NHWC"))
      .doc("Mean over sliding windows of an NHWC tensor (SAME padding averages the valid cells only).")
      .shape([](const InferContext& c) { return poolShape(c, "AvgPool", 0); })
      .grad([](GradContext& g) {
        Graph& G = g.graph;
        return std::vector<Output>{
            G.op("AvgPoolGrad", {ops::shape(G, g.input(0)), g.dys[0]}, g.node.attrs)};
      });

  OpBuilder(r, "AvgPoolGrad").hostInput(0)
      .input("orig_input_shape").input("grad")
      .attr("ksize", {}).attr("strides", {}).attr("padding", {})
      .attr("data_format", std::string("NHWC"))
      .doc("Gradient of AvgPool: spreads each window's gradient evenly over its valid cells.")
      .shape(avgPoolGradShape)
      .grad([](GradContext& g) {
        return std::vector<Output>{Output{}, g.graph.op("AvgPool", {g.dys[0]}, g.node.attrs)};
      });

  OpBuilder(r, "BiasAdd")
      .api("tf.nn.bias_add")
      .input("value").input("bias")
      .attr("data_format", std::string("NHWC"), "NHWC: bias on the last dim; NCHW: on dim 1")
      .doc("Adds a 1-D bias along the channel dimension.")
      .shape(biasAddShape)
      .grad([](GradContext& g) {
        return std::vector<Output>{g.dys[0], g.graph.op("BiasAddGrad", {g.dys[0]}, g.node.attrs)};
      });

  OpBuilder(r, "BiasAddGrad")
      .input("out_backprop")
      .attr("data_format", std::string("NHWC"))
      .doc("Gradient of BiasAdd for the bias: sums over every dim but the channel one.")
      .shape(biasAddGradShape)
      .grad([](GradContext& g) {
        Graph& G = g.graph;
        Output dy = g.dys[0], x = g.input(0);
        AttrReader a(g.node.attrs);
        const Shape& xs = x.type().shape;
        if (a.getString("data_format", "NHWC") == "NCHW") {
          if (!xs.rankKnown())
            invalidArgument("The gradient of BiasAddGrad (NCHW) needs the rank of " + x.name());
          // [C] -> [C, 1, ..., 1] so it broadcasts along dim 1.
          std::vector<int32_t> s(static_cast<size_t>(xs.rank() - 1), 1);
          s[0] = -1;
          dy = ops::reshape(G, dy, ops::constant(G, Tensor::fromVector(s)));
        }
        return std::vector<Output>{ops::broadcastTo(G, dy, ops::shape(G, x))};
      });

  registerNNBatchNormOps(r);
}

}  // namespace tlens
