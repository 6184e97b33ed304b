// GatherNd, ScatterNd, TensorScatterUpdate/Add (values from TensorFlow's docs, gradients checked
// numerically) and the variable updates ScatterUpdate/Add/Sub (graph tests: they are ref ops).
#include "OpTestUtil.h"
#include "engine/graph/Builder.h"
#include "engine/runtime/Session.h"

using namespace tlens;
using namespace tlens::test;

TEST_CASE("gather_nd drops the tuple dim and keeps params' trailing dims", "[engine][shape]") {
  INFER_OK("GatherNd", "[b,3,4];int32:[5,2]", "[5,4]");
  INFER_OK("GatherNd", "[b,3,4];int32:[n,1]", "[n,3,4]");
  INFER_OK("GatherNd", "[2,3];int32:[n,m,2]", "[n,m]");
  INFER_OK("GatherNd", "[2,3];int32:[n,?]", "?");
  INFER_ERROR("indices.shape[-1] must be <= params.rank, but saw indices shape: [5,3] and params shape: [2,3]",
              "GatherNd", "[2,3];int32:[5,3]");
  INFER_ERROR("Value for attr 'Tindices' of float32", "GatherNd", "[2,3];[5,1]");
}

TEST_CASE("scatter_nd takes its shape from the shape argument and checks updates", "[engine][shape]") {
  INFER_OK("ScatterNd", "int32:[4,1];[4];int32=[8]", "[8]");
  INFER_OK("ScatterNd", "int32:[n,1];[n,3];int32=[8,3]", "[8,3]");
  INFER_OK("ScatterNd", "int32:[n,1];[n,3];int32:[2]", "[?,?]");
  INFER_ERROR("Dimensions [0,1) of indices[shape=[4,1]] = [4] must match dimensions [0,1) of updates[shape=[3]] = [3]",
              "ScatterNd", "int32:[4,1];[3];int32=[8]");
  INFER_ERROR("Dimensions [1,2) of input[shape=[8,3]] = [3] must match dimensions [1,2) of updates[shape=[4,2]] = [2]",
              "ScatterNd", "int32:[4,1];[4,2];int32=[8,3]");
  INFER_OK("TensorScatterUpdate", "[8,3];int32:[n,1];[n,3]", "[8,3]");
  // TensorFlow's own cases (array_ops_test.cc, ScatterNdUpdate/TensorScatterUpdate shape functions)
  INFER_OK("TensorScatterUpdate", "[4,3];int32:[8,2];[8]", "[4,3]");
  INFER_ERROR("Dimensions [0,1) of indices[shape=[8,2]] = [8] must match dimensions [0,1) of updates[shape=[9]] = [9]",
              "TensorScatterUpdate", "[?,?];int32:[8,2];[9]");
  INFER_ERROR("Dimensions [2,2) of input[shape=[?,?]] = [] must match dimensions [1,2) of updates[shape=[?,1]] = [1]",
              "TensorScatterUpdate", "[?,?];int32:[?,2];[?,1]");
  INFER_ERROR("must match dimensions", "TensorScatterAdd", "[8,3];int32:[4,1];[4,2]");
  INFER_ERROR("has type int32 that does not match", "TensorScatterAdd", "[8];int32:[4,1];int32:[4]");
}

TEST_CASE("scatter_update checks updates against indices and the variable's rows", "[engine][shape]") {
  INFER_OK("ScatterUpdate", "[10,3];int32:[2];[2,3]", "[10,3]");
  INFER_OK("ScatterAdd", "[10,3];int32:[2];[]", "[10,3]");
  INFER_OK("ScatterSub", "?;int32:[2];[2,3]", "?");
  INFER_ERROR("Dimension 1 in both shapes must be equal, but are 4 and 3", "ScatterUpdate", "[10,3];int32:[2];[2,4]");
  INFER_ERROR("Shapes must be equal rank, but are 1 and 2", "ScatterAdd", "[10,3];int32:[2];[2]");
}

TEST_CASE("gather_nd and scatter_nd report an index outside the shape as TensorFlow does", "[engine][ops]") {
  CHECK_THROWS_WITH(runEager("GatherNd", {F32({1, 2, 3, 4, 5, 6}, {2, 3}), I32({0, 1, 1, 5}, {2, 2})}),
                    Catch::Contains("indices[1] = [1, 5] does not index into param shape [2,3]"));
  CHECK_THROWS_WITH(runEager("ScatterNd", {I32({4, 9}, {2, 1}), F32({1, 2}), I32({8})}),
                    Catch::Contains("indices[1] = [9] does not index into shape [8]"));
}

TEST_CASE("scatter_update, scatter_add and scatter_sub change rows of a variable in place", "[engine][state]") {
  Graph g;
  Output v = ops::variable(g, F32({1, 2, 3, 4, 5, 6}, {3, 2}), "v");
  Output upd = g.op("ScatterUpdate", {v, ops::constant(g, I32({2, 0})), ops::constant(g, F32({10, 20, 30, 40}, {2, 2}))});
  Output add = g.op("ScatterAdd", {v, ops::constant(g, I32({1, 1})), ops::constant(g, F32({1, 1, 2, 2}, {2, 2}))});
  Output sub = g.op("ScatterSub", {v, ops::constant(g, I32({0})), ops::constant(g, F32(std::vector<float>{1}, {}))});
  Output bad = g.op("ScatterUpdate", {v, ops::constant(g, I32({3})), ops::constant(g, F32({0, 0}, {1, 2}))});
  Session s(g);
  s.runTargets({g.globalVariablesInitializer()});
  CHECK(tensorsEqual(s.run({upd})[0], F32({30, 40, 3, 4, 10, 20}, {3, 2})));
  CHECK(tensorsEqual(s.run({add})[0], F32({30, 40, 6, 7, 10, 20}, {3, 2})));  // duplicates add up
  CHECK(tensorsEqual(s.run({sub})[0], F32({29, 39, 6, 7, 10, 20}, {3, 2})));  // a scalar update
  CHECK(tensorsEqual(s.run({v})[0], F32({29, 39, 6, 7, 10, 20}, {3, 2})));
  CHECK_THROWS_WITH(s.run({bad}), Catch::Contains("indices[0] = 3 is not in [0, 3)"));
}

static CaseRegistrar scatterCases({
    {"GatherNd", {F32({1, 2, 3, 4}, {2, 2}), I32({0, 0, 1, 1}, {2, 2})}, {}, {F32({1, 4})}},
    {"GatherNd", {F64({1, 2, 3, 4, 5, 6}, {3, 2}), I64({2, 0, 2}, {3, 1})}, {}, {F64({5, 6, 1, 2, 5, 6}, {3, 2})}, 1e-12,
     true, {0}, 1e-6, "rows; a repeated index sums its gradients"},
    {"GatherNd", {I32({1, 2, 3, 4}, {2, 2}), I32({}, {0, 2})}, {}, {I32({}, {0})}},
    {"ScatterNd", {I32({4, 3, 1, 7}, {4, 1}), F32({9, 10, 11, 12}), I32({8})}, {},
     {F32({0, 11, 0, 10, 9, 0, 0, 12})}},
    {"ScatterNd", {I32({0, 2, 0}, {3, 1}), F64({1, 2, 3, 4, 5, 6}, {3, 2}), I32({3, 2})}, {},
     {F64({6, 8, 0, 0, 3, 4}, {3, 2})}, 1e-12, true, {1}, 1e-6, "duplicates add up"},
    {"TensorScatterUpdate", {F64({1, 2, 3, 4, 5, 6, 7, 8}), I32({4, 3, 1, 7}, {4, 1}), F64({9, 10, 11, 12})}, {},
     {F64({1, 11, 3, 10, 9, 6, 7, 12})}, 1e-12, true, {0, 2}, 1e-6},
    {"TensorScatterAdd", {F64({1, 2, 3, 4, 5, 6, 7, 8}), I32({4, 3, 1, 7}, {4, 1}), F64({9, 10, 11, 12})}, {},
     {F64({1, 13, 3, 14, 14, 6, 7, 20})}, 1e-12, true, {0, 2}, 1e-6},
});
