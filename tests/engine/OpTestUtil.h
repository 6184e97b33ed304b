// Test helpers for the engine: tensor literals, the compact shape-function notation
// (INFER_OK / INFER_ERROR, after TensorFlow's shape_inference_testutil), and the op case table
// that every registered op must appear in (checked against the CPU reference values, eager vs
// graph, and central-difference gradients in float64).
#pragma once

#include <catch2/catch.hpp>

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "engine/core/Tensor.h"
#include "engine/ops/OpRegistry.h"

namespace tlens::test {

// ---- tensor literals ----
Tensor F32(std::vector<float> v, ConcreteShape s);
Tensor F64(std::vector<double> v, ConcreteShape s);
Tensor I32(std::vector<int32_t> v, ConcreteShape s);
Tensor I64(std::vector<int64_t> v, ConcreteShape s);
Tensor B(std::vector<bool> v, ConcreteShape s);
inline Tensor F32(std::vector<float> v) { ConcreteShape s{static_cast<int64_t>(v.size())}; return F32(std::move(v), s); }
inline Tensor F64(std::vector<double> v) { ConcreteShape s{static_cast<int64_t>(v.size())}; return F64(std::move(v), s); }
inline Tensor I32(std::vector<int32_t> v) { ConcreteShape s{static_cast<int64_t>(v.size())}; return I32(std::move(v), s); }
/// Deterministic pseudo-random values in [lo, hi).
Tensor randomF64(ConcreteShape s, double lo = -1, double hi = 1, uint64_t seed = 1);
Tensor randomF32(ConcreteShape s, double lo = -1, double hi = 1, uint64_t seed = 1);

// ---- shape functions in compact notation ----
/// Inputs "[2,3];[3,4]" (float32 unless prefixed "int32:[2]"; "?" unknown rank; letters are
/// symbols shared across inputs and the expected output). Input values can be given with
/// "int32=[2,-1]" (a constant int vector; "int32=3" a scalar). Expected: "[2,4]" or several separated by ';'.
struct InferResult {
  bool ok = false;
  std::string error;
  std::string outputs;  ///< "[2, 4]" joined with ";"
};
InferResult infer(const std::string& op, const std::string& inputs, const Attrs& attrs = {});

#define INFER_OK(op, inputs, expected, ...)                                         \
  do {                                                                              \
    auto _r = ::tlens::test::infer(op, inputs, ::tlens::Attrs{__VA_ARGS__});        \
    INFO(op << " " << inputs << " -> " << _r.outputs << " " << _r.error);           \
    CHECK(_r.ok);                                                                   \
    CHECK(::tlens::test::normalizeShapes(_r.outputs) ==                             \
          ::tlens::test::normalizeShapes(expected));                                \
  } while (0)

#define INFER_ERROR(substr, op, inputs, ...)                                        \
  do {                                                                              \
    auto _r = ::tlens::test::infer(op, inputs, ::tlens::Attrs{__VA_ARGS__});        \
    INFO(op << " " << inputs << " -> " << _r.outputs << " " << _r.error);           \
    CHECK_FALSE(_r.ok);                                                             \
    CHECK_THAT(_r.error, Catch::Contains(substr));                                  \
  } while (0)

/// Removes spaces so "[2, 4]" and "[2,4]" compare equal.
std::string normalizeShapes(std::string s);

// ---- running ops ----
/// Runs one op eagerly on the CPU.
std::vector<Tensor> runEager(const std::string& op, const std::vector<Tensor>& inputs, const Attrs& attrs = {});
/// Runs one op as a one-node graph (inputs as placeholders, fed).
std::vector<Tensor> runGraph(const std::string& op, const std::vector<Tensor>& inputs, const Attrs& attrs = {});

/// Max relative error between analytic (graph) and central-difference gradients of
/// sum(w * op(inputs)) w.r.t. each floating input (inputs converted to float64).
double gradientError(const std::string& op, const std::vector<Tensor>& inputs, const Attrs& attrs,
                     const std::vector<int>& wrt = {});

// ---- the op case table ----
struct OpCase {
  std::string op;
  std::vector<Tensor> inputs;
  Attrs attrs;
  std::vector<Tensor> expected;  ///< reference outputs; empty: only eager == graph is checked
  double tol = 1e-5;
  bool gradCheck = true;         ///< for differentiable ops
  std::vector<int> gradInputs;   ///< inputs to differentiate (default: every floating input)
  double gradTol = 1e-4;
  std::string note;              ///< what the case shows, printed on failure
};

/// Family test files register their cases: `static CaseRegistrar r("Math", {...});`
std::vector<OpCase>& allCases();
struct CaseRegistrar {
  CaseRegistrar(std::vector<OpCase> cases);
};

}  // namespace tlens::test
