// The ops added for numpy (engine/ops/defs/UnaryMathExtraOps.cpp, LinalgDecompOps.cpp and
// SearchBitwiseOps.cpp) in the op case table: values from numpy 1.24 (decompositions: the parts
// that do not depend on a sign convention, and Householder QR's, which LAPACK and Eigen share);
// gradients checked against finite differences by the table's harness.
#include <limits>

#include "OpTestUtil.h"

using namespace tlens;
using namespace tlens::test;

static const double kNan = std::numeric_limits<double>::quiet_NaN();

static CaseRegistrar unaryMathExtraCases({
    {"Tan", {F64({0.3, -0.5, 0.8})}, {}, {F64({0.30933624961, -0.546302489844, 1.02963855705})}, 1e-10},
    {"Asin", {F64({0.3, -0.5, 0.8})}, {}, {F64({0.304692654015, -0.523598775598, 0.927295218002})}, 1e-10},
    {"Acos", {F64({0.3, -0.5, 0.8})}, {}, {F64({1.26610367278, 2.09439510239, 0.643501108793})}, 1e-10},
    {"Atan", {F64({0.3, -0.5, 0.8})}, {}, {F64({0.291456794478, -0.463647609001, 0.674740942224})}, 1e-10},
    {"Sinh", {F64({0.3, -0.5, 0.8})}, {}, {F64({0.304520293447, -0.521095305494, 0.888105982188})}, 1e-10},
    {"Cosh", {F64({0.3, -0.5, 0.8})}, {}, {F64({1.04533851413, 1.12762596521, 1.3374349463})}, 1e-10},
    {"Asinh", {F64({0.3, -0.5, 0.8})}, {}, {F64({0.295673047563, -0.48121182506, 0.732668256045})}, 1e-10},
    {"Acosh", {F64({1.5, 2, 3})}, {}, {F64({0.962423650119, 1.31695789692, 1.76274717404})}, 1e-10},
    {"Atanh", {F64({0.3, -0.5, 0.8})}, {}, {F64({0.309519604203, -0.549306144334, 1.09861228867})}, 1e-10},
    {"Expm1", {F64({0.3, -0.5, 0.8})}, {}, {F64({0.349858807576, -0.393469340287, 1.22554092849})}, 1e-10},
    {"Expm1", {F32({1e-10f})}, {}, {F32({1e-10f})}, 1e-6, false, {}, 1e-4, "exact for tiny x, where exp(x) - 1 is 0"},
    {"Log2", {F64({0.5, 8, 3})}, {}, {F64({-1, 3, 1.584962500721156})}, 1e-15},
    {"Log10", {F64({0.1, 1000, 3})}, {}, {F64({-1, 3, 0.47712125471966244})}, 1e-15},
    {"Cbrt", {F64({0.3, -0.5, 0.8})}, {}, {F64({0.669432950082, -0.793700525984, 0.928317766723})}, 1e-10},
    {"Cbrt", {F64({27, -8}, {2, 1})}, {}, {F64({3, -2}, {2, 1})}, 0, false, {}, 1e-4, "exact cubes stay exact"},
    {"Tan", {F32({0.3f, -0.5f})}, {}, {F32({0.30933625f, -0.54630249f})}, 1e-6, false},
});

static CaseRegistrar linalgDecompCases({
    {"Cholesky", {F64({4, 2, 2, 3}, {2, 2})}, {}, {F64({2, 0, 1, 1.4142135623730951}, {2, 2})}, 1e-12, false},
    {"Cholesky", {F32({4, 0, 0, 9, 1, 0, 0, 1}, {2, 2, 2})}, {}, {F32({2, 0, 0, 3, 1, 0, 0, 1}, {2, 2, 2})}, 1e-6, false,
     {}, 1e-4, "a batch"},
    {"MatrixSolve", {F64({4, 7, 2, 6}, {2, 2}), F64({1, 2}, {2, 1})}, {}, {F64({-0.8, 0.6}, {2, 1})}, 1e-12, true, {},
     1e-4, "gradient: dB = solve(A^T, dX), dA = -dB X^T"},
    {"MatrixSolve", {F64({4, 7, 2, 6}, {2, 2}), F64({1, 2}, {2, 1})}, {{"adjoint", true}}, {F64({0.2, 0.1}, {2, 1})},
     1e-12, true, {}, 1e-4, "adjoint: solves with the transpose"},
    {"Qr", {F64({3, 0, 4, 5}, {2, 2})}, {}, {F64({-0.6, -0.8, -0.8, 0.6}, {2, 2}), F64({-5, -4, 0, 3}, {2, 2})}, 1e-12, false},
    {"Qr", {F64({1, 2, 3, 4, 5, 6}, {3, 2})}, {{"full_matrices", true}}, {}, 1e-12, false, {}, 1e-4,
     "full_matrices: q is 3x3, r 3x2 (eager == graph)"},
    {"Svd", {F64({3, 0, 0, -4}, {2, 2})}, {}, {F64({4, 3}, {2})}, 1e-12, false},
    {"Svd", {F64({1, 2, 3, 4, 5, 6}, {3, 2})}, {{"compute_uv", false}}, {F64({9.525518091565107, 0.514300580658644}, {2})},
     1e-12, false},
    {"SelfAdjointEigV2", {F64({2, 1, 1, 2}, {2, 2})}, {}, {F64({1, 3}, {2})}, 1e-12, false},
    {"SelfAdjointEigV2", {F32({2, 100, 1, 2}, {2, 2})}, {{"compute_v", false}}, {F32({1, 3}, {2})}, 1e-6, false, {},
     1e-4, "reads the lower triangle only"},
    {"RealEig", {F64({4, 1, 2, 3}, {2, 2})}, {}, {F64({5, 2}, {2}), F64({0, 0}, {2})}, 1e-12, false, {}, 1e-4,
     "real eigenvalues in numpy's (LAPACK's) order"},
    {"RealEig", {F64({0, -1, 1, 0}, {2, 2})}, {}, {F64({0, 0}, {2}), F64({1, -1}, {2})}, 1e-12, false, {}, 1e-4,
     "a rotation: +-i"},
});

static CaseRegistrar searchBitwiseCases({
    {"LowerBound", {F64({1, 2, 2, 3}, {1, 4}), F64({2, 0, 4, kNan}, {1, 4})}, {{"out_type", DType::Int64}},
     {I64({1, 0, 4, 4}, {1, 4})}},
    {"UpperBound", {F64({1, 2, 2, kNan}, {1, 4}), F64({2, 0, 4, kNan}, {1, 4})}, {}, {I32({3, 0, 3, 4}, {1, 4})}},
    {"LowerBound", {I32({1, 3, 5, 0, 10, 20}, {2, 3}), I32({3, 15}, {2, 1})}, {}, {I32({1, 2}, {2, 1})}, 0, true, {}, 1e-4,
     "each row searched in its own sorted row"},
    {"BitwiseAnd", {I32({12, 10, 7}), I32({6}, {})}, {}, {I32({4, 2, 6})}},
    {"BitwiseOr", {I64({12, 10}, {2}), I64({1, 4}, {2})}, {}, {I64({13, 14}, {2})}},
    {"BitwiseXor", {I32({12, 10, 7}), I32({5, 5, 5})}, {}, {I32({9, 15, 2})}},
    {"Invert", {I32({0, 5, -1})}, {}, {I32({-1, -6, 0})}},
});
