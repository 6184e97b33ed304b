#include "OpTestUtil.h"
#include "engine/graph/Builder.h"
#include "engine/runtime/Eager.h"

using namespace tlens;
using namespace tlens::test;

TEST_CASE("eager ops run immediately with runtime shape errors like TF's", "[engine][eager]") {
  EagerContext ctx;
  auto a = ctx.wrap(F32({1, 2, 3, 4, 5, 6}, {2, 3}));
  auto b = ctx.wrap(F32({1, 2, 3, 4, 5, 6, 7, 8}, {4, 2}));
  CHECK_THROWS_WITH(ctx.execute("MatMul", {a, b}), Catch::Contains("Dimensions must be equal, but are 3 and 4"));
  auto c = ctx.execute("Add", {a, a});
  CHECK(c[0].tensor.str() == "[[2. 4. 6.]\n [8. 10. 12.]]");
}

TEST_CASE("a gradient tape differentiates eager code with the graph gradient functions", "[engine][eager][autodiff]") {
  EagerContext ctx;
  auto x = ctx.wrap(F64({1, 2, 3}));
  GradientTape tape;
  ctx.pushTape(&tape);
  tape.watch(x);
  auto y = ctx.execute("Mul", {x, x})[0];           // x^2
  auto s = ctx.execute("Sum", {y})[0];              // sum x^2
  ctx.popTape(&tape);
  auto g = tape.gradient(ctx, s, {x});
  REQUIRE(g[0].valid());
  CHECK(g[0].getDouble(0) == Approx(2));
  CHECK(g[0].getDouble(2) == Approx(6));
  CHECK_THROWS_WITH(tape.gradient(ctx, s, {x}), Catch::Contains("non-persistent"));
}

TEST_CASE("an unwatched tensor gets no gradient", "[engine][eager][autodiff]") {
  EagerContext ctx;
  auto x = ctx.wrap(F64({1, 2}));
  auto z = ctx.wrap(F64({5, 5}));
  GradientTape tape(true);
  ctx.pushTape(&tape);
  tape.watch(x);
  auto y = ctx.execute("Sum", {ctx.execute("Mul", {x, z})[0]})[0];
  ctx.popTape(&tape);
  auto g = tape.gradient(ctx, y, {x, z});
  CHECK(g[0].getDouble(0) == Approx(5));
  CHECK_FALSE(g[1].valid());
}

TEST_CASE("eager and graph execution give identical results", "[engine][eager]") {
  Tensor a = randomF32({8, 16}), b = randomF32({16, 4}, -1, 1, 9);
  auto e = runEager("MatMul", {a, b});
  auto g = runGraph("MatMul", {a, b});
  CHECK(tensorsEqual(e[0], g[0]));
}
