// MatrixBandPart, MatrixDiag, MatrixDiagPart, MatrixSetDiag (TensorFlow's documented examples),
// Atan2 and Bincount; gradients checked numerically by the table.
#include <cmath>

#include "OpTestUtil.h"

using namespace tlens;
using namespace tlens::test;

TEST_CASE("diagonal ops add or drop the innermost dim", "[engine][shape]") {
  INFER_OK("MatrixDiag", "[b,4]", "[b,4,4]");
  INFER_OK("MatrixDiagPart", "[b,3,5]", "[b,3]");
  INFER_OK("MatrixDiagPart", "[n,n]", "[n]");
  INFER_OK("MatrixDiagPart", "[3,?]", "[?]");
  INFER_ERROR("Shape must be at least rank 2 but is rank 1", "MatrixDiagPart", "[3]");
  INFER_OK("MatrixSetDiag", "[b,3,5];[b,3]", "[b,3,5]");
  INFER_ERROR("Dimensions must be equal, but are 3 and 4", "MatrixSetDiag", "[2,3,5];[2,4]");
  INFER_ERROR("Shape must be rank 2 but is rank 1", "MatrixSetDiag", "[2,3,5];[3]");
  INFER_OK("MatrixBandPart", "[b,4,4];int64=0;int64=-1", "[b,4,4]");
  INFER_ERROR("Shape must be rank 0 but is rank 1", "MatrixBandPart", "[4,4];int64=[0];int64=-1");
  INFER_OK("Atan2", "[b,3];[3]", "[b,3]");
  INFER_ERROR("Value for attr 'T' of int32", "Atan2", "int32:[3];int32:[3]");
  INFER_OK("Bincount", "int32:[n];int32=6;[0]", "[6]");
  INFER_OK("Bincount", "int32:[n];int32:[];int32:[n]", "[?]");
}

TEST_CASE("bincount refuses negative values", "[engine][ops]") {
  CHECK_THROWS_WITH(runEager("Bincount", {I32({1, -1}), I32({3}, {}), F32({}, {0})}),
                    Catch::Contains("Input arr must be non-negative!"));
}

static const std::vector<double> kBand = {0, 1, 2, 3, -1, 0, 1, 2, -2, -1, 0, 1, -3, -2, -1, 0};
static const double kPi = std::acos(-1.0);

static CaseRegistrar matrixDiagCases({
    {"MatrixBandPart", {F64(kBand, {4, 4}), I64({1}, {}), I64({-1}, {})}, {},
     {F64({0, 1, 2, 3, -1, 0, 1, 2, 0, -1, 0, 1, 0, 0, -1, 0}, {4, 4})}, 1e-12, true, {0}, 1e-6},
    {"MatrixBandPart", {F64(kBand, {4, 4}), I64({2}, {}), I64({1}, {})}, {},
     {F64({0, 1, 0, 0, -1, 0, 1, 0, -2, -1, 0, 1, 0, -2, -1, 0}, {4, 4})}, 1e-12, true, {0}, 1e-6},
    {"MatrixBandPart", {I32({1, 2, 3, 4, 5, 6}, {1, 2, 3}), I32({0}, {}), I32({0}, {})}, {},
     {I32({1, 0, 0, 0, 5, 0}, {1, 2, 3})}},
    {"MatrixDiag", {F64({1, 2, 3, 4}, {2, 2})}, {}, {F64({1, 0, 0, 2, 3, 0, 0, 4}, {2, 2, 2})}, 1e-12, true, {}, 1e-6},
    {"MatrixDiagPart", {F64({1, 2, 3, 4, 5, 6}, {2, 3})}, {}, {F64({1, 5})}, 1e-12, true, {}, 1e-6},
    {"MatrixSetDiag", {F64({1, 1, 1, 1, 1, 1}, {3, 2}), F64({7, 8})}, {}, {F64({7, 1, 1, 8, 1, 1}, {3, 2})}, 1e-12,
     true, {}, 1e-6},
    {"Atan2", {F64({1, -1, 0, 0.5}), F64({1, 1, -1, -2})}, {},
     {F64({kPi / 4, -kPi / 4, kPi, std::atan2(0.5, -2.0)})}, 1e-12, false, {}, 1e-6,
     "(0, -1) sits on the branch cut: no numeric gradient there"},
    {"Atan2", {F32({1, 2}, {2, 1}), F32({1, -1, 3}, {3})}, {}, {}, 1e-6, true, {}, 1e-4, "broadcast; gradients"},
    {"Bincount", {I32({1, 1, 2, 3, 2, 4, 4, 5}), I32({6}, {}), I32({}, {0})}, {}, {I32({0, 2, 2, 1, 2, 1})}},
    {"Bincount", {I32({0, 2, 2, 7}), I32({3}, {}), F32({0.5f, 1, 2, 9})}, {}, {F32({0.5f, 0, 3})}, 1e-6, true, {}, 1e-4,
     "weights; values >= size are dropped"},
});
