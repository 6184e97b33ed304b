// DepthwiseConv2dNative and its backprops (values computed by hand: each channel with its own
// filters), and LRN / LRNGrad (the formula by hand; the gradient against central differences).
#include <cmath>

#include "OpTestUtil.h"
#include "ShapeErrorCheck.h"

using namespace tlens;
using namespace tlens::test;

namespace {
Attrs conv(const std::string& padding, int64_t s = 1, int64_t d = 1) {
  return {{"strides", std::vector<int64_t>{1, s, s, 1}}, {"padding", padding},
          {"dilations", std::vector<int64_t>{1, d, d, 1}}};
}
std::vector<double> iota(int n, double scale = 1) {
  std::vector<double> v;
  for (int i = 1; i <= n; ++i) v.push_back(i * scale);
  return v;
}
}  // namespace

TEST_CASE("depthwise conv multiplies the channels by the channel multiplier", "[engine][shape]") {
  INFER_OK("DepthwiseConv2dNative", "[b,28,28,3];[5,5,3,2]", "[b,28,28,6]", {"strides", std::vector<int64_t>{1, 1, 1, 1}},
           {"padding", std::string("SAME")});
  INFER_OK("DepthwiseConv2dNative", "[b,28,28,3];[5,5,3,2]", "[b,12,12,6]", {"strides", std::vector<int64_t>{1, 2, 2, 1}},
           {"padding", std::string("VALID")});
  INFER_OK("DepthwiseConv2dNative", "?;[3,3,4,1]", "[?,?,?,4]", {"strides", std::vector<int64_t>{1, 1, 1, 1}},
           {"padding", std::string("SAME")});
  INFER_ERROR("Dimensions must be equal, but are 3 and 4", "DepthwiseConv2dNative", "[1,8,8,3];[3,3,4,1]",
              {"strides", std::vector<int64_t>{1, 1, 1, 1}}, {"padding", std::string("SAME")});
  INFER_ERROR("Negative dimension size caused by subtracting 5 from 4", "DepthwiseConv2dNative", "[1,4,4,3];[5,5,3,1]",
              {"strides", std::vector<int64_t>{1, 1, 1, 1}}, {"padding", std::string("VALID")});
  INFER_ERROR("Current implementation does not yet support strides in the batch and depth dimensions",
              "DepthwiseConv2dNative", "[1,4,4,3];[1,1,3,1]", {"strides", std::vector<int64_t>{2, 1, 1, 1}},
              {"padding", std::string("VALID")});
  INFER_OK("DepthwiseConv2dNativeBackpropInput", "int32=[2,8,8,3];[3,3,3,2];[2,8,8,6]", "[2,8,8,3]",
           {"strides", std::vector<int64_t>{1, 1, 1, 1}}, {"padding", std::string("SAME")});
  INFER_OK("DepthwiseConv2dNativeBackpropFilter", "[2,8,8,3];int32=[3,3,3,2];[2,8,8,6]", "[3,3,3,2]",
           {"strides", std::vector<int64_t>{1, 1, 1, 1}}, {"padding", std::string("SAME")});
}

TEST_CASE("LRN takes a rank-4 float tensor", "[engine][shape]") {
  INFER_OK("LRN", "[b,8,8,16]", "[b,8,8,16]");
  INFER_OK("LRN", "?", "[?,?,?,?]");
  INFER_ERROR("Shape must be rank 4 but is rank 3", "LRN", "[8,8,16]");
  INFER_ERROR("Value for attr 'T' of float64", "LRN", "float64:[1,2,2,3]");
  INFER_OK("LRNGrad", "[b,8,8,16];[?,8,8,16];[2,8,8,?]", "[2,8,8,16]");
}

TEST_CASE("LRN's gradient matches central differences in float32", "[engine][ops]") {
  const Tensor x = randomF32({2, 1, 2, 5}, -2, 2, 7);
  const Attrs a{{"depth_radius", int64_t{2}}, {"bias", 1.5}, {"alpha", 0.3}, {"beta", 0.75}};
  const Tensor y = runEager("LRN", {x}, a)[0];
  const Tensor w = randomF32({2, 1, 2, 5}, -1, 1, 8);
  const Tensor dx = runEager("LRNGrad", {w, x, y}, a)[0];
  const double eps = 1e-2;
  for (int64_t i = 0; i < x.numElements(); ++i) {
    Tensor xp = x.clone(), xm = x.clone();
    xp.data<float>()[i] += static_cast<float>(eps);
    xm.data<float>()[i] -= static_cast<float>(eps);
    const Tensor yp = runEager("LRN", {xp}, a)[0], ym = runEager("LRN", {xm}, a)[0];
    double num = 0;
    for (int64_t k = 0; k < y.numElements(); ++k)
      num += w.data<float>()[k] * (yp.data<float>()[k] - ym.data<float>()[k]) / (2 * eps);
    INFO("element " << i);
    CHECK(std::abs(num - dx.data<float>()[i]) <= 2e-3 * std::max(1.0, std::abs(num)));
  }
}

static CaseRegistrar depthwiseCases({
    {"DepthwiseConv2dNative", {F32({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18}, {1, 3, 3, 2}),
                               F32({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}, {2, 2, 2, 2})},
     conv("VALID"),
     {F32({196, 216, 272, 296, 252, 280, 344, 376, 364, 408, 488, 536, 420, 472, 560, 616}, {1, 2, 2, 4})}},
    {"DepthwiseConv2dNative", {F32({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18}, {1, 3, 3, 2}),
                               F32({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}, {2, 2, 2, 2})},
     conv("SAME", 2), {F32({196, 216, 272, 296, 104, 120, 150, 168, 88, 116, 154, 184, 17, 34, 54, 72}, {1, 2, 2, 4})},
     1e-5, false, {}, 1e-4, "SAME, stride 2: the padding goes after"},
    {"DepthwiseConv2dNative", {F64(iota(2 * 5 * 4 * 3, 0.1), {2, 5, 4, 3}), F64(iota(3 * 2 * 3 * 2, -0.05), {3, 2, 3, 2})},
     conv("SAME"), {}, 1e-9, true, {}, 1e-6, "gradients of input and filter"},
    {"DepthwiseConv2dNative", {F64(iota(1 * 6 * 6 * 2, 0.1), {1, 6, 6, 2}), F64(iota(2 * 2 * 2 * 1, 0.3), {2, 2, 2, 1})},
     conv("VALID", 1, 2), {}, 1e-9, true, {}, 1e-6, "dilation 2"},
    {"DepthwiseConv2dNativeBackpropInput", {I32({1, 3, 3, 1}), F64({1, 2, 3, 4}, {2, 2, 1, 1}), F64({1, 0, 0, 1}, {1, 2, 2, 1})},
     conv("VALID"), {F64({1, 2, 0, 3, 5, 2, 0, 3, 4}, {1, 3, 3, 1})}, 1e-12, true, {1, 2}, 1e-6},
    {"DepthwiseConv2dNativeBackpropFilter", {F64({1, 2, 3, 4, 5, 6, 7, 8, 9}, {1, 3, 3, 1}), I32({2, 2, 1, 1}),
                                             F64({1, 0, 0, 1}, {1, 2, 2, 1})},
     conv("VALID"), {F64({6, 8, 12, 14}, {2, 2, 1, 1})}, 1e-12, true, {0, 2}, 1e-6},
    {"LRN", {F32({1, 2, 3, 4}, {1, 1, 1, 4})}, {{"depth_radius", int64_t{1}}, {"bias", 1.0}, {"alpha", 0.5}, {"beta", 0.75}},
     {F32({0.39079497f, 0.42044821f, 0.38403648f, 0.56794943f}, {1, 1, 1, 4})}, 1e-5, false},
    {"LRNGrad", {F32({1, 1, 1, 1}, {1, 1, 1, 4}), F32({1, 2, 3, 4}, {1, 1, 1, 4}),
                 F32({0.39079497f, 0.42044821f, 0.38403648f, 0.56794943f}, {1, 1, 1, 4})},
     {{"depth_radius", int64_t{0}}, {"bias", 1.0}, {"alpha", 1.0}, {"beta", 1.0}},
     {F32({0, -3.0f / 25, -8.0f / 100, -15.0f / 289}, {1, 1, 1, 4})}, 1e-5, false, {}, 1e-4,
     "radius 0: d/dx x/(1+x^2) = (1-x^2)/(1+x^2)^2"},
});

TEST_CASE("bad LRN and LRNGrad shapes fail in the shape function, with its message", "[engine][ops]") {
  checkShapeErrorIsWhatRunsReport("LRN", {randomF32({2, 3, 4})});
  checkShapeErrorIsWhatRunsReport("LRNGrad", {randomF32({1, 2, 2, 3}), randomF32({1, 2, 2, 4}), randomF32({1, 2, 2, 3})});
  checkShapeErrorIsWhatRunsReport("LRNGrad", {randomF32({1, 2, 2, 3}), randomF32({1, 2, 2, 3}), randomF32({2, 2, 3})});
}
