// Image resizing: ResizeBilinear and ResizeNearestNeighbor (tf.image.resize, resize_images,
// resize_bilinear, resize_nearest_neighbor) with TensorFlow's align_corners / half_pixel_centers
// sampling, and their gradients ResizeBilinearGrad / ResizeNearestNeighborGrad.
#include "engine/graph/Builder.h"
#include "engine/graph/Graph.h"
#include "engine/ops/OpRegistry.h"
#include "engine/ops/ShapeFns.h"
#include "engine/ops/defs/ArrayShapeUtil.h"

namespace tlens {

namespace {
using namespace shapefn;
using namespace arrayfn;

const std::initializer_list<DType> kReal = {DType::Float32, DType::Float64, DType::Float16,
                                            DType::Int32,   DType::Int64,   DType::UInt8};

std::optional<ShapeResult> checkAlign(const InferContext& c) {
  if (c.getBool("half_pixel_centers", false) && c.getBool("align_corners", false))
    return shapeError(c, "If half_pixel_centers is True, align_corners must be False.");
  return std::nullopt;
}

/// [N, size[0], size[1], C] from images (input 0) and a size 2-vector (input `si`); `resample`:
/// input 0 is an image to sample from, which needs pixels.
ShapeResult sized(const InferContext& c, size_t si, DType out, bool resample) {
  if (auto e = checkRank(c, 0, 4)) return *e;
  if (auto e = checkRank(c, si, 1)) return *e;
  if (auto e = checkDType(c, si, {DType::Int32})) return *e;
  const Shape& sz = c.shape(si);
  if (sz.rankKnown() && sz[0].isKnown() && sz[0].size != 2)
    return shapeError(c, "Dimension must be 2 but is " + std::to_string(sz[0].size), {static_cast<int>(si)});
  if (auto e = checkAlign(c)) return *e;
  Dim h = Dim::unknown(), w = Dim::unknown();
  if (auto v = elementDims(c, si); v && v->size() == 2) {
    h = (*v)[0].isKnown() || (*v)[0].isSymbolic() ? (*v)[0] : Dim::unknown();
    w = (*v)[1].isKnown() || (*v)[1].isSymbolic() ? (*v)[1] : Dim::unknown();
  }
  if (auto v = intValues(c, si))
    for (int64_t d : *v)
      if (d <= 0) return shapeError(c, "size must be positive, got " + std::to_string(d), {static_cast<int>(si)});
  const Shape& in = c.shape(0);
  if (resample && in.rankKnown() && ((in[1].isKnown() && in[1].size == 0) || (in[2].isKnown() && in[2].size == 0)))
    return shapeError(c, "input image must be of non-zero size", {0});
  const Dim n = in.rankKnown() ? in[0] : Dim::unknown();
  const Dim ch = in.rankKnown() ? in[3] : Dim::unknown();
  return ShapeResult::single(out, Shape{n, h, w, ch});
}


void resizeAttrs(OpBuilder& b) {
  b.attr("align_corners", false, "map the corner pixels of input and output onto each other")
      .attr("half_pixel_centers", false, "sample at pixel centers (TF2's tf.image.resize)");
}
}  // namespace

void registerImageOps(OpRegistry& r) {
  {
    OpBuilder b(r, "ResizeBilinear");
    b.hostInput(1).cpuOnly("direct loops on the host (no GPU kernel yet)")
        .api("tf.image.resize_bilinear").api("tf.compat.v1.image.resize_bilinear")
        .input("images").input("size");
    resizeAttrs(b);
    b.doc("Resizes NHWC images to `size` by bilinear interpolation; the result is float32.")
        .shape([](const InferContext& c) {
          if (auto e = checkDType(c, 0, kReal)) return *e;
          return sized(c, 1, DType::Float32, true);
        })
        .grad([](GradContext& g) {
          Output dx = g.graph.op("ResizeBilinearGrad", {g.dys[0], g.input(0)}, g.node.attrs);
          return std::vector<Output>{dx, {}};
        });
  }
  {
    OpBuilder b(r, "ResizeBilinearGrad");
    b.cpuOnly("direct loops on the host (no GPU kernel yet)")
        .input("grads").input("original_image");
    resizeAttrs(b);
    b.notDifferentiable()
        .doc("The gradient of ResizeBilinear: each output gradient spread over its four input pixels.")
        .shape([](const InferContext& c) {
          if (auto e = checkDType(c, 0, {DType::Float32})) return *e;
          if (auto e = checkDType(c, 1, {DType::Float32, DType::Float64, DType::Float16})) return *e;
          if (auto e = checkRank(c, 0, 4)) return *e;
          if (auto e = checkRank(c, 1, 4)) return *e;
          if (auto e = checkAlign(c)) return *e;
          const Shape& g4 = c.shape(0);
          const Shape& x4 = c.shape(1);
          if (g4.rankKnown() && x4.rankKnown() && (g4[0].conflicts(x4[0]) || g4[3].conflicts(x4[3])))
            return shapeError(c, "input_grad and original_image must have the same batch size and depth", {0, 1});
          return ShapeResult::single(c.dtype(1), c.shape(1).rankKnown() ? c.shape(1) : Shape::unknownDims(4));
        });
  }
  {
    OpBuilder b(r, "ResizeNearestNeighbor");
    b.hostInput(1).cpuOnly("direct loops on the host (no GPU kernel yet)")
        .api("tf.image.resize_nearest_neighbor").api("tf.compat.v1.image.resize_nearest_neighbor")
        .input("images").input("size");
    resizeAttrs(b);
    b.doc("Resizes NHWC images to `size` by taking the nearest pixel; keeps the dtype.")
        .shape([](const InferContext& c) {
          if (auto e = checkDType(c, 0, kReal)) return *e;
          return sized(c, 1, c.dtype(0), true);
        })
        .grad([](GradContext& g) {
          Graph& G = g.graph;
          Output hw = G.op("StridedSlice", {shapeOf(G, g.input(0)), constInts(G, {1}), constInts(G, {3}), constInts(G, {1})});
          Output dx = G.op("ResizeNearestNeighborGrad", {g.dys[0], hw}, g.node.attrs);
          return std::vector<Output>{dx, {}};
        });
  }
  {
    OpBuilder b(r, "ResizeNearestNeighborGrad");
    b.hostInput(1).cpuOnly("direct loops on the host (no GPU kernel yet)")
        .input("grads").input("size");
    resizeAttrs(b);
    b.doc("The gradient of ResizeNearestNeighbor: output gradients summed into their source pixels.")
        .shape([](const InferContext& c) {
          if (auto e = checkDType(c, 0, {DType::Float32, DType::Float64, DType::Float16, DType::Int32, DType::UInt8}))
            return *e;
          return sized(c, 1, c.dtype(0), false);
        })
        .grad([](GradContext& g) {
          // Linear: the gradient of a sum into source pixels is the nearest-neighbour resize back.
          Graph& G = g.graph;
          Output hw = G.op("StridedSlice", {shapeOf(G, g.input(0)), constInts(G, {1}), constInts(G, {3}), constInts(G, {1})});
          return std::vector<Output>{G.op("ResizeNearestNeighbor", {g.dys[0], hw}, g.node.attrs), {}};
        });
  }
}

}  // namespace tlens
