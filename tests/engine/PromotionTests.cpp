#include "OpTestUtil.h"
#include "engine/core/Promotion.h"

using namespace tlens;

TEST_CASE("numpy promotes arrays by its table", "[engine][core]") {
  CHECK(numpyPromote(DType::Int32, DType::Float32) == DType::Float64);
  CHECK(numpyPromote(DType::UInt8, DType::Float32) == DType::Float32);
  CHECK(numpyPromote(DType::UInt8, DType::Int32) == DType::Int32);
  CHECK(numpyPromote(DType::Int32, DType::Int64) == DType::Int64);
  CHECK(numpyPromote(DType::Float16, DType::Float32) == DType::Float32);
  CHECK(numpyPromote(DType::Bool, DType::Int32) == DType::Int32);
  CHECK(numpyPromote(DType::Float32, DType::Float64) == DType::Float64);
}

TEST_CASE("python scalars are weak in numpy (NEP 50) and in TensorFlow", "[engine][core]") {
  CHECK(numpyPromoteScalar(DType::UInt8, PyScalarKind::Int) == DType::UInt8);
  CHECK(numpyPromoteScalar(DType::Int32, PyScalarKind::Float) == DType::Float64);
  CHECK(numpyPromoteScalar(DType::Float32, PyScalarKind::Float) == DType::Float32);
  CHECK(tfWeakScalarDType(DType::Float32, PyScalarKind::Int) == DType::Float32);
  CHECK_FALSE(tfWeakScalarDType(DType::Int32, PyScalarKind::Float));
  CHECK(tfDefaultDType(PyScalarKind::Int) == DType::Int32);
  CHECK(numpyDefaultDType(PyScalarKind::Float) == DType::Float64);
}
