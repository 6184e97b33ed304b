// TensorBoard summaries (tf.summary.scalar / histogram / merge in TF1 graphs). TensorFlow's ops
// return a serialized Summary as a string scalar; tensorlens has no string tensors, so they return
// the same bytes as a uint8 vector (FileWriter.add_summary takes either), and the tag is an
// attribute instead of a string input.
#include "engine/ops/OpRegistry.h"
#include "engine/ops/ShapeFns.h"

namespace tlens {

namespace {
using namespace shapefn;

ShapeResult summaryBytes(const InferContext& c) {
  for (size_t i = 0; i < c.numInputs(); ++i)
    if (c.dtype(i) != DType::Invalid && !isNumeric(c.dtype(i)) && c.dtype(i) != DType::Bool)
      return shapeError(c, "summary of a " + std::string(dtypeName(c.dtype(i))) + " tensor", {static_cast<int>(i)});
  return ShapeResult::single(DType::UInt8, Shape({Dim::unknown()}));
}

}  // namespace

void registerSummaryOps(OpRegistry& r) {
  OpBuilder(r, "ScalarSummary").cpuOnly("serializes on the host")
      .input("values")
      .attr("tag", std::string(), "the summary's tag")
      .notDifferentiable()
      .doc("A serialized Summary holding the scalar `values` under `tag` (tf.summary.scalar).")
      .shape([](const InferContext& c) {
        const Shape& s = c.shape(0);
        if (s.rankKnown() && s.rank() != 0 && !(s.fullyKnown() && s.numElements() == 1))
          return shapeError(c, "tags and values not the same shape: [] != " + s.str() + " (tag '" + c.getString("tag") + "')", {0});
        return summaryBytes(c);
      });

  OpBuilder(r, "HistogramSummary").cpuOnly("serializes on the host")
      .input("values")
      .attr("tag", std::string(), "the summary's tag")
      .notDifferentiable()
      .doc("A serialized Summary holding a histogram of `values` under `tag` (tf.summary.histogram).")
      .shape(summaryBytes);

  OpBuilder(r, "MergeSummary").cpuOnly("serializes on the host")
      .inputList("inputs")
      .notDifferentiable()
      .doc("Serialized summaries merged into one (tf.summary.merge).")
      .shape([](const InferContext& c) {
        for (size_t i = 0; i < c.numInputs(); ++i)
          if (c.dtype(i) != DType::Invalid && c.dtype(i) != DType::UInt8)
            return shapeError(c, "MergeSummary takes serialized summaries, but input " + std::to_string(i) + " is " +
                                     std::string(dtypeName(c.dtype(i))), {static_cast<int>(i)});
        return ShapeResult::single(DType::UInt8, Shape({Dim::unknown()}));
      });
}

}  // namespace tlens
