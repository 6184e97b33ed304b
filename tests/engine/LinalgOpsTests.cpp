// MatrixDeterminant and MatrixInverse in the op case table (values from the definitions;
// gradients checked against finite differences by the table's harness).
#include "OpTestUtil.h"

using namespace tlens;
using namespace tlens::test;

static CaseRegistrar linalgCases({
    {"MatrixDeterminant", {F32({1, 2, 3, 4}, {2, 2})}, {}, {F32({-2}, {})}, 1e-5, false},
    {"MatrixDeterminant", {F64({2, 0, 0, 0, 3, 0, 0, 0, 4, 1, 2, 3, 0, 1, 4, 5, 6, 0}, {2, 3, 3})}, {},
     {F64({24, 1}, {2})}, 1e-9, true, {}, 1e-4, "a batch of two; gradient det * inv^T"},
    {"MatrixInverse", {F32({1, 2, 3, 4}, {2, 2})}, {}, {F32({-2, 1, 1.5, -0.5}, {2, 2})}, 1e-5, false},
    {"MatrixInverse", {F64({4, 7, 2, 6}, {2, 2})}, {}, {F64({0.6, -0.7, -0.2, 0.4}, {2, 2})}, 1e-9, true, {}, 1e-4,
     "gradient -inv^T dy inv^T"},
    {"MatrixInverse", {F64({4, 7, 2, 6}, {2, 2})}, {{"adjoint", true}}, {F64({0.6, -0.2, -0.7, 0.4}, {2, 2})}, 1e-9, true,
     {}, 1e-4, "adjoint: the inverse of the transpose"},
});
