// Validation lives once, in the shape function, which runOp runs before every kernel (CPU and
// GPU): kernels check only what depends on values. checkShapeErrorIsWhatRunsReport runs a bad
// case eagerly and as a graph and checks that the error is the shape function's message.
#pragma once

#include "OpTestUtil.h"

namespace tlens::test {

inline void checkShapeErrorIsWhatRunsReport(const std::string& op, const std::vector<Tensor>& inputs,
                                            const Attrs& attrs = {}) {
  const OpDef& def = OpRegistry::global().get(op);
  std::vector<TensorType> types;
  for (const Tensor& t : inputs) {
    types.emplace_back(t.dtype(), Shape::fromConcrete(t.shape()));
    // Shape functions read small integer inputs (k, sizes), as runOp lets them.
    if ((t.dtype() == DType::Int32 || t.dtype() == DType::Int64) && t.numElements() <= 4096)
      types.back().value = std::make_shared<const Tensor>(t);
  }
  const ShapeResult r = def.infer(types, def.withDefaults(attrs));
  INFO(op << ": " << r.error);
  REQUIRE_FALSE(r.ok());
  // The node and input names differ by path (the message names them): compare up to them.
  const std::string core = r.error.substr(0, std::min(r.error.find(" for '"), r.error.find(" (input '")));
  REQUIRE(core.size() > 10);
  CHECK_THROWS_WITH(runEager(op, inputs, attrs), Catch::Contains(core));
  CHECK_THROWS_WITH(runGraph(op, inputs, attrs), Catch::Contains(core));
}

}  // namespace tlens::test
