// Stateful random ops: RandomUniform, RandomStandardNormal, TruncatedNormal. The shape is an
// int32/int64 input tensor (often computed); seeds are attributes (seed, seed2), resolved as
// TensorFlow's get_seed does by the caller. Each node owns a generator that advances across runs.
#include "engine/ops/OpRegistry.h"
#include "engine/ops/ShapeFns.h"

namespace tlens {

namespace {
using namespace shapefn;

ShapeResult randomShape(const InferContext& c) {
  const DType dt = c.getDType("dtype", DType::Float32);
  if (dt != DType::Float32 && dt != DType::Float64 && dt != DType::Float16)
    return shapeError(c, "Value for attr 'dtype' of " + std::string(dtypeName(dt)) +
                             " is not in the list of allowed values: half, float, double");
  if (auto e = checkDType(c, 0, {DType::Int32, DType::Int64})) return *e;
  const Shape& s = c.shape(0);
  if (s.rankKnown() && s.rank() != 1)
    return shapeError(c, "Shape must be rank 1 but is rank " + std::to_string(s.rank()), {0});
  if (const Tensor* v = c.value(0))
    for (int64_t i = 0; i < v->numElements(); ++i)
      if (v->getInt(i) < 0)
        return shapeError(c, "Dimension " + std::to_string(i) + " must be >= 0, but is " +
                                 std::to_string(v->getInt(i)), {0});
  Shape out = c.valueAsShape(0);
  if (out.rankKnown())
    for (Dim& d : out.dims())
      if (d.isMinusOne()) d = Dim::unknown();
  return ShapeResult::single(dt, out);
}

void randomOp(OpRegistry& r, const char* type, std::vector<const char*> apis, const char* doc) {
  OpBuilder b(r, type);
  b.hostInput(0);
  for (const char* a : apis) b.api(a);
  b.input("shape")
      .attr("dtype", DType::Float32)
      .attr("seed", int64_t{0}, "op seed (0 with seed2 0: derived from the node name)")
      .attr("seed2", int64_t{0})
      .stateful()
      .notDifferentiable()
      .doc(doc)
      .shape(randomShape);
}

}  // namespace

void registerRandomOps(OpRegistry& r) {
  randomOp(r, "RandomUniform", {"tf.random.uniform", "tf.random_uniform", "tf.compat.v1.random_uniform"},
           "Uniform random values in [0, 1) of the given shape (tf.random.uniform scales them to "
           "[minval, maxval) with Mul and Add).");
  randomOp(r, "RandomStandardNormal", {"tf.random.normal", "tf.random_normal", "tf.compat.v1.random_normal"},
           "Standard normal random values of the given shape (tf.random.normal applies stddev and "
           "mean with Mul and Add).");
  randomOp(r, "TruncatedNormal",
           {"tf.random.truncated_normal", "tf.truncated_normal", "tf.compat.v1.truncated_normal"},
           "Standard normal random values, redrawn when more than 2 standard deviations from 0.");
}

}  // namespace tlens
