// Variable updates: AssignAdd, AssignSub (ref ops: covered by graph tests, not the one-op table).
#include "OpTestUtil.h"
#include "engine/graph/Builder.h"
#include "engine/runtime/Session.h"

using namespace tlens;
using namespace tlens::test;

TEST_CASE("AssignAdd and AssignSub shapes", "[engine][shape][state]") {
  INFER_OK("AssignAdd", "[2,3];[2,3]", "[2,3]");
  INFER_OK("AssignSub", "[?,3];[2,?]", "[2,3]");
  INFER_OK("AssignAdd", "?;[b]", "[b]");  // at run time the ref input has no static type
  INFER_ERROR("Shapes must be equal rank and compatible, but are [2] and [3]", "AssignAdd", "[2];[3]");
  INFER_ERROR("has type int32 that does not match type float32", "AssignSub", "float32:[2];int32:[2]");
  INFER_ERROR("is not in the list of allowed values", "AssignAdd", "bool:[2];bool:[2]");
}

TEST_CASE("AssignAdd and AssignSub update a variable in place and return the new value", "[engine][state]") {
  Graph g;
  Output v = ops::variable(g, F32({1, 2}), "v");
  Output add = g.op("AssignAdd", {v, ops::constant(g, F32({10, 20}))});
  Output sub = g.op("AssignSub", {v, ops::constant(g, F32({1, 1}))});
  Output iv = ops::variable(g, I32({5}), "iv");
  Output iadd = g.op("AssignAdd", {iv, ops::constant(g, I32({-7}))});
  Session s(g);
  CHECK_THROWS_WITH(s.run({add}), Catch::Contains("Attempting to use uninitialized value v"));
  s.runTargets({g.globalVariablesInitializer()});
  Tensor before = s.run({v})[0];
  CHECK(tensorsEqual(s.run({add})[0], F32({11, 22})));
  CHECK(tensorsEqual(s.run({add})[0], F32({21, 42})));
  CHECK(tensorsEqual(s.run({sub})[0], F32({20, 41})));
  CHECK(tensorsEqual(s.run({v})[0], F32({20, 41})));
  CHECK(tensorsEqual(before, F32({1, 2})));  // a fetched value is never changed afterwards
  CHECK(tensorsEqual(s.run({iadd})[0], I32({-2})));
}

TEST_CASE("AssignAdd needs a variable and a value of its shape at run time", "[engine][state]") {
  Graph g;
  Output v = ops::variable(g, F32({1, 2}), "v");
  Output p = ops::placeholder(g, DType::Float32, Shape::unknownRank(), "p");
  Output add = g.op("AssignAdd", {v, p});
  Output notVar = g.op("AssignAdd", {ops::constant(g, F32({1})), ops::constant(g, F32({1}))});
  Session s(g);
  s.runTargets({g.globalVariablesInitializer()});
  CHECK_THROWS_WITH(s.run({add}, {{p, F32({1, 2, 3})}}),
                    Catch::Contains("Parameter and update must be the same size: [2] vs [3]"));
  CHECK_THROWS_WITH(s.run({notVar}), Catch::Contains("must be a variable"));
}
