// Random ops that sample from their input: Multinomial (tf.random.categorical, tf.multinomial)
// and RandomShuffle (tf.random.shuffle, tf.random_shuffle). Seeds as the other random ops:
// seed/seed2 attributes resolved by the caller as TensorFlow's get_seed does.
#include "engine/ops/OpRegistry.h"
#include "engine/ops/ShapeFns.h"
#include "engine/ops/defs/ArrayShapeUtil.h"

namespace tlens {

namespace {
using namespace shapefn;
using namespace arrayfn;

ShapeResult multinomialShape(const InferContext& c) {
  if (auto e = checkDType(c, 0, {DType::Float32, DType::Float64, DType::Float16, DType::Int32, DType::Int64,
                                 DType::UInt8}))
    return *e;
  if (auto e = checkDType(c, 1, {DType::Int32})) return *e;
  const DType out = c.getDType("output_dtype", DType::Int64);
  if (out != DType::Int32 && out != DType::Int64)
    return shapeError(c, "Value for attr 'output_dtype' of " + std::string(dtypeName(out)) +
                             " is not in the list of allowed values: int32, int64");
  if (auto e = checkRank(c, 0, 2)) return *e;
  if (auto e = checkRank(c, 1, 0)) return *e;
  auto n = intScalar(c, 1);
  if (n && *n < 0) return shapeError(c, "num_samples should be nonnegative, got " + std::to_string(*n), {1});
  const Dim batch = c.shape(0).rankKnown() ? c.shape(0)[0] : Dim::unknown();
  return ShapeResult::single(out, Shape{batch, n ? Dim::known(*n) : Dim::unknown()});
}

}  // namespace

void registerSamplingOps(OpRegistry& r) {
  OpBuilder(r, "Multinomial").hostInput(1).cpuOnly("sequential sampling on the host (no GPU kernel yet)")
      .api("tf.random.categorical").api("tf.multinomial").api("tf.compat.v1.multinomial")
      .input("logits")
      .input("num_samples")
      .attr("seed", int64_t{0}, "op seed (0 with seed2 0: derived from the node name)")
      .attr("seed2", int64_t{0})
      .attr("output_dtype", DType::Int64)
      .stateful()
      .notDifferentiable()
      .doc("num_samples class indices per row, drawn from softmax(logits) of that row.")
      .shape(multinomialShape);

  OpBuilder(r, "RandomShuffle").strings(OpDef::Strings::ByIndex).cpuOnly("a Fisher-Yates shuffle on the host (no GPU kernel yet)")
      .api("tf.random.shuffle").api("tf.random_shuffle").api("tf.compat.v1.random_shuffle")
      .input("value")
      .attr("seed", int64_t{0}, "op seed (0 with seed2 0: derived from the node name)")
      .attr("seed2", int64_t{0})
      .stateful()
      .notDifferentiable()
      .doc("The slices of value along its first dim, in a random order.")
      .shape([](const InferContext& c) { return ShapeResult::single(c.dtype(0), c.shape(0)); });
}

}  // namespace tlens
