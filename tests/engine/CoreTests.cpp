// Shapes with unknown and symbolic dims, dtypes, devices, tensors, allocation limits, summaries.
#include <cmath>
#include <limits>

#include "OpTestUtil.h"
#include "engine/core/Allocator.h"
#include "engine/core/Device.h"
#include "engine/runtime/Numerics.h"

using namespace tlens;
using namespace tlens::test;

TEST_CASE("symbolic dims are equal to themselves and unknown to everything else", "[engine][core]") {
  std::map<std::string, uint32_t> names;
  auto s = parseShapes("[b,3];[b,3];[c,3];[?,3]", &names);
  CHECK(s[0][0].sameAs(s[1][0]));
  CHECK_FALSE(s[0][0].sameAs(s[2][0]));
  CHECK_FALSE(s[0][0].conflicts(s[2][0]));
  CHECK(s[0].compatible(s[3]));
  CHECK(s[0].str() == "[b, 3]");
  CHECK(s[3].tfStr() == "(?, 3)");
  CHECK(parseShape("?").str() == "<unknown>");
  CHECK(parseShape("[]").rank() == 0);
}

TEST_CASE("broadcasting partial shapes", "[engine][core]") {
  auto b = broadcastShapes(parseShape("[?,1,3]"), parseShape("[4,1]"));
  REQUIRE(b);
  CHECK(b->str() == "[?, 4, 3]");
  int axis = 0;
  CHECK_FALSE(broadcastShapes(parseShape("[2,3]"), parseShape("[4]"), &axis));
  CHECK(axis == -1);
}

TEST_CASE("dtype and device names parse both ways", "[engine][core]") {
  CHECK(parseDType("tf.float32") == DType::Float32);
  CHECK(parseDType("float64") == DType::Float64);
  CHECK_FALSE(parseDType("complex64"));
  CHECK(Device::parse("/gpu:1")->str() == "/gpu:1");
  CHECK(Device::parse("/job:localhost/replica:0/task:0/device:CPU:0")->str() == "/cpu:0");
  CHECK(Device::parse("/device:GPU:0")->kind == Device::GPU);
  CHECK_FALSE(Device::parse("/tpu:0"));
}

TEST_CASE("an over-limit allocation is a clear error and frees nothing twice", "[engine][core]") {
  Allocator* a = cpuAllocator();
  size_t before = a->bytesInUse();
  a->setLimit(before + (1 << 20));
  CHECK_THROWS_WITH(Tensor(DType::Float32, {1024, 1024}), Catch::Contains("OOM when allocating tensor"));
  CHECK(a->bytesInUse() == before);
  a->setLimit(0);
  CHECK_THROWS_WITH(Tensor(DType::Float32, {-1, 3}), Catch::Contains("must be >= 0"));
  CHECK_THROWS_WITH(Tensor(DType::Float32, {1LL << 40, 1LL << 40}), Catch::Contains("too many elements"));
}

TEST_CASE("tensor printing elides the middle of large tensors", "[engine][core]") {
  Tensor t = Tensor::filled(DType::Float32, {1000}, 1);
  std::string s = t.str();
  CHECK(s.find("...") != std::string::npos);
  CHECK(s.size() < 100);
  CHECK(F32({1.5f, -2}).str() == "[1.5 -2.]");
}

TEST_CASE("summaries count NaN, Inf and zeros and describe the finite values", "[engine][numerics]") {
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  Tensor t = F32({0, 1, 2, 3, nan, inf, -inf, 0});
  TensorSummary s = summarize(t);
  CHECK(s.nan == 1);
  CHECK(s.posInf == 1);
  CHECK(s.negInf == 1);
  CHECK(s.zero == 2);
  CHECK(s.min == 0);
  CHECK(s.max == 3);
  CHECK(s.mean == Approx(1.2));
  CHECK_FALSE(allFinite(t));
  CHECK(countNonFinite(t).nan == 1);
  CHECK(allFinite(F32(std::vector<float>(1000, 1.f))));
  Tensor big = Tensor::filled(DType::Float32, {100000}, 1);
  big.data<float>()[99999] = nan;
  CHECK_FALSE(allFinite(big));
  Tensor d = F64({1, std::numeric_limits<double>::infinity()});
  CHECK(countNonFinite(d).posInf == 1);
  CHECK(s.line() == "min=0 max=3 mean=1.2 std=1.166 nan=1 inf=2");
}

TEST_CASE("shapes become diagnostic payload shapes with symbols by name", "[engine][core]") {
  std::map<std::string, uint32_t> names;
  auto s = parseShapes("[batch,256];[784,?];?;[]", &names);
  ShapeInfo a = shapeInfo(s[0]);
  CHECK(a.str() == "[batch,256]");
  REQUIRE(a.dims.size() == 2);
  CHECK_FALSE(a.dims[0].known());
  CHECK(a.dims[0].symbol == "batch");
  CHECK(a.dims[1].size == 256);
  CHECK(a.knownElements() == 256);
  CHECK_FALSE(a.fullyKnown());
  CHECK(shapeInfo(s[1]).str() == "[784,?]");
  CHECK(shapeInfo(s[2]).str() == "<unknown>");
  CHECK_FALSE(shapeInfo(s[2]).rankKnown);
  CHECK(shapeInfo(s[3]).str() == "[]");
  CHECK(shapeInfo(s[3]).fullyKnown());
  CHECK(shapeInfo(Shape{Dim::known(7), Dim::minusOne()}).str() == "[7,-1]");

  DiagnosticData d;
  CHECK(d.empty());
  d.code = "shape-error";
  d.opType = "MatMul";
  d.inputs.push_back({a, "float32", {"a.py", 3, 5, 3, 9}});
  d.shapes.push_back({"target", shapeInfo(s[1])});
  CHECK_FALSE(d.empty());
  REQUIRE(d.shape("target") != nullptr);
  CHECK(d.shape("target")->str() == "[784,?]");
  CHECK(d.shape("other") == nullptr);
  CHECK(d.inputs[0].location.str() == "a.py:3:5");
}

TEST_CASE("float16 bit conversions round to nearest even as Eigen::half does", "[engine][core]") {
  CHECK(floatToHalfBits(1.0f) == 0x3c00);
  CHECK(floatToHalfBits(-2.0f) == 0xc000);
  CHECK(floatToHalfBits(65504.0f) == 0x7bff);
  CHECK(floatToHalfBits(1e6f) == 0x7c00);  // overflow: +inf
  CHECK(floatToHalfBits(1.0f + 1.0f / 2048) == 0x3c00);  // a tie rounds to even
  CHECK(halfBitsToFloat(0x3555) == Approx(0.33325195f));
  CHECK(halfBitsToFloat(0x0001) == std::ldexp(1.0f, -24));  // the smallest subnormal
  CHECK(std::isnan(halfBitsToFloat(0x7e00)));
  int roundTripped = 0;
  for (uint32_t bits = 0; bits < 0x7c00; ++bits) roundTripped += floatToHalfBits(halfBitsToFloat(bits)) == bits;
  CHECK(roundTripped == 0x7c00);
}
