// runOp: one op on concrete tensors, shared by the graph executor and the eager context. It runs
// the op's shape function on the concrete input shapes (so runtime shape errors read exactly like
// the static ones), sizes the outputs, runs the kernel and checks that the kernel produced what
// inference promised.
#pragma once

#include <string>
#include <vector>

#include "engine/core/DeviceSet.h"
#include "engine/core/Tensor.h"
#include "engine/ops/OpDef.h"
#include "engine/runtime/Resources.h"

namespace tlens {

struct OpCall {
  const OpDef* op = nullptr;
  const Attrs* attrs = nullptr;
  const std::vector<Tensor>* inputs = nullptr;
  const std::string* name = nullptr;
  Device device;
  /// The device's entry in the program's DeviceSet (its allocator, virtual or not); null: the CPU.
  const DeviceInfo* where = nullptr;
  Resources* resources = nullptr;
  const std::vector<std::string>* varNames = nullptr;  ///< per input: variable name for ref inputs
  bool checkNumerics = false;  ///< lets kernels test their outputs while writing them
  /// Out: per output, what the kernel found when it tested it (-1 untested, 0 NaN/Inf, 1 finite).
  std::vector<int8_t>* finite = nullptr;
};


/// Throws EngineError with TensorFlow's wording on shape errors and kernel failures.
std::vector<Tensor> runOp(const OpCall& call);

}  // namespace tlens
