// ResizeBilinear / ResizeNearestNeighbor and their gradients: the legacy, align_corners and
// half_pixel_centers samplings worked by hand on a 2x2 image (TensorFlow's formulas,
// image_resizer_state.h), shape functions, and gradients against central differences.
#include <cmath>

#include "OpTestUtil.h"

using namespace tlens;
using namespace tlens::test;

TEST_CASE("resize replaces the spatial dims with size", "[engine][shape]") {
  INFER_OK("ResizeBilinear", "[b,28,28,3];int32=[14,7]", "[b,14,7,3]");
  INFER_OK("ResizeBilinear", "uint8:[b,28,28,3];int32:[2]", "[b,?,?,3]");
  INFER_OK("ResizeNearestNeighbor", "?;int32=[4,4]", "[?,4,4,?]");
  INFER_ERROR("Shape must be rank 4 but is rank 3", "ResizeBilinear", "[28,28,3];int32=[14,14]");
  INFER_ERROR("Dimension must be 2 but is 3", "ResizeBilinear", "[1,28,28,3];int32=[14,14,1]");
  INFER_ERROR("If half_pixel_centers is True, align_corners must be False", "ResizeNearestNeighbor",
              "[1,2,2,1];int32=[4,4]", {"align_corners", true}, {"half_pixel_centers", true});
  INFER_OK("ResizeBilinearGrad", "[b,4,4,3];float64:[b,2,2,3]", "[b,2,2,3]");
  INFER_OK("ResizeNearestNeighborGrad", "[b,4,4,3];int32=[2,2]", "[b,2,2,3]");
}

TEST_CASE("ResizeBilinear always gives float32", "[engine][ops]") {
  const Tensor y = runEager("ResizeBilinear", {I32({0, 1, 2, 3}, {1, 2, 2, 1}), I32({3, 3})}, {{"align_corners", true}})[0];
  CHECK(tensorsEqual(y, F32({0, 0.5f, 1, 1, 1.5f, 2, 2, 2.5f, 3}, {1, 3, 3, 1})));
}

TEST_CASE("ResizeBilinearGrad matches central differences of ResizeBilinear in float32", "[engine][ops]") {
  // The table's float64 check cannot be used: the op's output is float32 whatever its input.
  const Tensor x = randomF32({2, 3, 4, 2}, -1, 1, 5);
  const Tensor w = randomF32({2, 5, 3, 2}, -1, 1, 6);
  for (const Attrs& a : {Attrs{}, Attrs{{"align_corners", true}}, Attrs{{"half_pixel_centers", true}}}) {
    const Tensor dx = runEager("ResizeBilinearGrad", {w, x}, a)[0];
    for (int64_t i = 0; i < x.numElements(); ++i) {
      Tensor xp = x.clone(), xm = x.clone();
      xp.data<float>()[i] += 0.01f;
      xm.data<float>()[i] -= 0.01f;
      const Tensor yp = runEager("ResizeBilinear", {xp, I32({5, 3})}, a)[0];
      const Tensor ym = runEager("ResizeBilinear", {xm, I32({5, 3})}, a)[0];
      double num = 0;
      for (int64_t k = 0; k < w.numElements(); ++k)
        num += w.data<float>()[k] * (yp.data<float>()[k] - ym.data<float>()[k]) / 0.02;
      INFO("element " << i);
      CHECK(std::abs(num - dx.data<float>()[i]) <= 1e-3);
    }
  }
}

static const Tensor kImg = F32({0, 1, 2, 3}, {1, 2, 2, 1});

static CaseRegistrar imageCases({
    {"ResizeBilinear", {kImg, I32({4, 4})}, {},
     {F32({0, 0.5f, 1, 1, 1, 1.5f, 2, 2, 2, 2.5f, 3, 3, 2, 2.5f, 3, 3}, {1, 4, 4, 1})}, 1e-6, false, {}, 1e-4,
     "legacy: x * in/out (gradient: the float32 test below)"},
    {"ResizeBilinear", {kImg, I32({3, 3})}, {{"align_corners", true}},
     {F32({0, 0.5f, 1, 1, 1.5f, 2, 2, 2.5f, 3}, {1, 3, 3, 1})}, 1e-6, false, {}, 1e-4, "align_corners"},
    {"ResizeBilinear", {kImg, I32({4, 4})}, {{"half_pixel_centers", true}},
     {F32({0, 0.25f, 0.75f, 1, 0.5f, 0.75f, 1.25f, 1.5f, 1.5f, 1.75f, 2.25f, 2.5f, 2, 2.25f, 2.75f, 3}, {1, 4, 4, 1})},
     1e-6, false, {}, 1e-4, "half pixel centers (TF2's tf.image.resize)"},
    {"ResizeBilinearGrad", {F32(std::vector<float>(16, 1.0f), {1, 4, 4, 1}), kImg}, {},
     {F32({2.25f, 3.75f, 3.75f, 6.25f}, {1, 2, 2, 1})}},
    {"ResizeNearestNeighbor", {kImg, I32({4, 4})}, {},
     {F32({0, 0, 1, 1, 0, 0, 1, 1, 2, 2, 3, 3, 2, 2, 3, 3}, {1, 4, 4, 1})}, 1e-6, true, {0}, 1e-4},
    {"ResizeNearestNeighbor", {F64({1, 2, 3}, {1, 1, 3, 1}), I32({1, 2})}, {}, {F64({1, 2}, {1, 1, 2, 1})}, 1e-12, true,
     {0}, 1e-6, "legacy 3 -> 2: floor(x * 1.5)"},
    {"ResizeNearestNeighbor", {F64({1, 2, 3}, {1, 1, 3, 1}), I32({1, 2})}, {{"half_pixel_centers", true}},
     {F64({1, 3}, {1, 1, 2, 1})}, 1e-12, true, {0}, 1e-6, "half pixel 3 -> 2: floor((x + 0.5) * 1.5)"},
    {"ResizeNearestNeighbor", {I32({1, 2, 3}, {1, 1, 3, 1}), I32({1, 2})}, {{"align_corners", true}},
     {I32({1, 3}, {1, 1, 2, 1})}},
    {"ResizeNearestNeighborGrad", {F64({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}, {1, 4, 4, 1}), I32({2, 2})},
     {}, {F64({14, 22, 46, 54}, {1, 2, 2, 1})}, 1e-12, true, {0}, 1e-6},
});
