// Local response normalization across channels: LRN (tf.nn.lrn, tf.nn.local_response_normalization)
// and its gradient LRNGrad.
#include "engine/graph/Graph.h"
#include "engine/ops/OpRegistry.h"
#include "engine/ops/ShapeFns.h"
#include "engine/ops/defs/ArrayShapeUtil.h"

namespace tlens {

namespace {
using namespace shapefn;
using namespace arrayfn;

void lrnAttrs(OpBuilder& b) {
  b.attr("depth_radius", int64_t{5}, "half-width of the channel window")
      .attr("bias", 1.0, "offset (usually positive, to avoid dividing by 0)")
      .attr("alpha", 1.0, "scale factor")
      .attr("beta", 0.5, "exponent");
}

}  // namespace

void registerLRNOps(OpRegistry& r) {
  {
    OpBuilder b(r, "LRN");
    b.cpuOnly("direct loops on the host (no GPU kernel yet)")
        .api("tf.nn.lrn").api("tf.nn.local_response_normalization")
        .input("input");
    lrnAttrs(b);
    b.doc("x / (bias + alpha * sum of x^2 over the 2r+1 nearest channels) ^ beta, on an NHWC tensor.")
        .shape([](const InferContext& c) {
          if (auto e = checkDType(c, 0, {DType::Float32, DType::Float16})) return *e;
          if (auto e = checkRank(c, 0, 4)) return *e;
          return ShapeResult::single(c.dtype(0), c.shape(0).rankKnown() ? c.shape(0) : Shape::unknownDims(4));
        })
        .grad([](GradContext& g) {
          return std::vector<Output>{g.graph.op("LRNGrad", {g.dys[0], g.input(0), g.output(0)}, g.node.attrs)};
        });
  }
  {
    OpBuilder b(r, "LRNGrad");
    b.cpuOnly("direct loops on the host (no GPU kernel yet)")
        .input("input_grads").input("input_image").input("output_image");
    lrnAttrs(b);
    b.notDifferentiable()
        .doc("The gradient of LRN with respect to its input.")
        .shape([](const InferContext& c) {
          if (auto e = checkDType(c, 0, {DType::Float32, DType::Float16})) return *e;
          if (auto e = checkSameDType(c, {0, 1, 2})) return *e;
          Shape s = Shape::unknownDims(4);
          for (size_t i = 0; i < 3; ++i) {
            if (auto e = checkRank(c, i, 4)) return *e;
            const Shape& x = c.shape(i);
            if (!x.rankKnown()) continue;
            if (!s.compatible(x))
              for (size_t d = 0; d < 4; ++d)
                if (s[d].conflicts(x[d]))
                  return shapeError(c, "Dimensions must be equal, but are " + s[d].str() + " and " + x[d].str(),
                                    {0, static_cast<int>(i)});
            s = s.merge(x);
          }
          return ShapeResult::single(commonDType(c, {0, 1, 2}), s);
        });
  }
}

}  // namespace tlens
