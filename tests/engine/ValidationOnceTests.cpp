// Validation once: each case here is a check that a kernel used to repeat (CPU or CUDA) and
// that now lives only in the op's shape function. Every case must fail in the shape function,
// and running it eagerly and as a graph must report the shape function's message (so no kernel
// ran on the bad input). tools/check_kernel_checks.py (ctest) keeps new copies out of kernels.
#include <catch2/catch.hpp>

#include "ShapeErrorCheck.h"

using namespace tlens;
using namespace tlens::test;

namespace {

struct BadCase {
  const char* family;
  std::string op;
  std::vector<Tensor> inputs;
  Attrs attrs;
};

Attrs convAttrs(std::vector<int64_t> strides = {1, 1, 1, 1}) {
  return {{"strides", strides}, {"padding", std::string("VALID")}};
}

Attrs poolAttrs(std::vector<int64_t> ksize) {
  return {{"ksize", ksize}, {"strides", std::vector<int64_t>{1, 1, 1, 1}}, {"padding", std::string("VALID")}};
}

Tensor strings(std::vector<std::string> v, ConcreteShape s) { return Tensor::fromStrings(std::move(v), std::move(s)); }

std::vector<BadCase> badCases() {
  const Tensor empty = F32({}, {0});
  return {
      {"array", "Fill", {I32({2}), F32({1, 2})}, {}},
      {"array", "Range", {I32({0, 1}, {2}), I32({5}, {}), I32({1}, {})}, {}},
      {"array", "InvertPermutation", {I32({0, 1, 1, 0}, {2, 2})}, {}},
      {"array", "OneHot", {I32({0, 1}), I32({3}, {}), F32({1, 1}), F32({0}, {})}, {}},
      {"concat", "ConcatV2", {F32({1, 2}, {1, 2}), F32({1, 2}, {2}), I32({0}, {})}, {}},
      {"concat", "ConcatOffset", {I32({0}, {}), I32({2, 3}), I32({2, 3, 4})}, {}},
      {"concat", "Pack", {F32({1, 2}), F32({1, 2, 3})}, {}},
      {"concat", "Pack", {F32({1, 2}), F32({3, 4})}, {{"axis", int64_t{5}}}},
      {"concat", "Unpack", {F32({1, 2})}, {{"num", int64_t{2}}, {"axis", int64_t{3}}}},
      {"concat", "Pad", {F32({1, 2}), I32({0, 0, 0, 0}, {2, 2})}, {}},
      {"control", "Assert", {B({true, true}, {2})}, {}},
      {"control", "Switch", {F32({1, 2}), B({true, false}, {2})}, {}},
      {"depthwise", "DepthwiseConv2dNative", {randomF32({2, 3, 3}), randomF32({1, 1, 3, 1})}, convAttrs()},
      {"depthwise", "DepthwiseConv2dNative", {randomF32({1, 3, 3, 2}), randomF32({1, 3, 1})}, convAttrs()},
      {"depthwise", "DepthwiseConv2dNative", {randomF32({1, 3, 3, 2}), randomF32({1, 1, 3, 1})}, convAttrs()},
      {"depthwise", "DepthwiseConv2dNative", {randomF32({1, 2, 2, 1}), randomF32({3, 3, 1, 1})}, convAttrs()},
      {"depthwise", "DepthwiseConv2dNativeBackpropInput",
       {I32({1, 3, 3}), randomF32({1, 1, 2, 1}), randomF32({1, 3, 3, 2})}, convAttrs()},
      {"depthwise", "DepthwiseConv2dNativeBackpropFilter",
       {randomF32({1, 3, 3, 2}), I32({1, 1, 2, 1}), randomF32({1, 2, 3, 2})}, convAttrs()},
      {"image", "ResizeBilinear", {randomF32({3, 3, 1}), I32({2, 2})}, {}},
      {"image", "ResizeBilinear", {randomF32({1, 3, 3, 1}), I32({2, 2, 2})}, {}},
      {"image", "ResizeBilinear", {randomF32({1, 3, 3, 1}), I32({2, 2})},
       {{"align_corners", true}, {"half_pixel_centers", true}}},
      {"image", "ResizeBilinear", {F32({}, {1, 0, 3, 1}), I32({2, 2})}, {}},
      {"image", "ResizeNearestNeighbor", {F32({}, {1, 3, 0, 1}), I32({2, 2})}, {}},
      {"image", "ResizeBilinearGrad", {randomF32({2, 2, 2, 1}), randomF32({1, 3, 3, 1})}, {}},
      {"image", "ResizeNearestNeighborGrad", {randomF32({2, 2, 1}), I32({3, 3})}, {}},
      {"matrix", "MatrixBandPart", {F32({1, 2}), I64({0}, {}), I64({0}, {})}, {}},
      {"matrix", "MatrixDiag", {F32({1}, {})}, {}},
      {"matrix", "MatrixDiagPart", {F32({1, 2})}, {}},
      {"matrix", "MatrixSetDiag", {randomF32({2, 3}), F32({1, 2, 3})}, {}},
      {"matrix", "Bincount", {I32({1, 2}), I32({3}, {1}), empty}, {}},
      {"matrix", "Bincount", {I32({1, 2}), I32({3}, {}), F32({1, 2, 3})}, {}},
      {"reduction", "Any", {F32({1, 0})}, {{"axis", std::vector<int64_t>{0}}}},
      {"reduction", "ReductionIndicators", {F32({1, 2, 3, 4}, {2, 2}), F32({1, 2, 3})},
       {{"axis", std::vector<int64_t>{1}}}},
      {"reduction", "ReductionIndicators", {I32({1, 2}), I32({2}, {})}, {{"axis", std::vector<int64_t>{0}}}},
      {"reduction", "ArgMax", {F32({1, 2})}, {{"axis", int64_t{3}}}},
      {"reduction", "ArgMax", {F32({}, {0, 2})}, {{"axis", int64_t{0}}}},
      {"nn", "BiasAdd", {randomF32({2, 3}), randomF32({4})}, {}},
      {"nn", "AddN", {F32({1, 2}), F32({1, 2, 3})}, {}},
      {"nn", "FusedBatchNormV3", {randomF32({1, 2, 2, 3}), randomF32({2}), randomF32({3}), empty, empty},
       {{"is_training", true}}},
      {"nn", "FusedBatchNormGradV3",
       {randomF32({1, 2, 2, 3}), randomF32({1, 2, 3, 3}), randomF32({3}), randomF32({3}), randomF32({3}),
        randomF32({3})},
       {{"is_training", true}}},
      {"nn", "MaxPool", {randomF32({2, 2, 1})}, poolAttrs({1, 1, 1, 1})},
      {"nn", "MaxPool", {randomF32({1, 2, 2, 1})}, poolAttrs({1, 1, 1})},
      {"nn", "Conv2D", {randomF32({1, 3, 3, 1}), randomF32({1, 1, 1, 1})}, convAttrs({1, 1, 1})},
      {"nn", "Conv2D", {randomF32({3, 3, 1}), randomF32({1, 1, 1, 1})}, convAttrs()},
      {"matmul", "MatMul", {randomF32({1, 2, 2}), randomF32({2, 2})}, {}},
      {"matmul", "BatchMatMulV2", {F32({1, 2}), randomF32({2, 2})}, {}},
      {"matmul", "BatchMatMulV2", {randomF32({1, 2, 3}), randomF32({1, 2, 2})}, {}},
      {"partition", "DynamicPartition", {F32({1, 2, 3}), I32({0, 1})}, {{"num_partitions", int64_t{2}}}},
      {"partition", "DynamicStitch", {I32({0, 1}), F32({1, 2, 3})}, {{"N", int64_t{1}}}},
      {"partition", "DynamicStitch", {I32({0}), I32({1}), F32({1, 2}, {1, 2}), F32({1, 2, 3}, {1, 3})},
       {{"N", int64_t{2}}}},
      {"sampling", "Multinomial", {F32({1, 2}), I32({2}, {})}, {}},
      {"sampling", "Multinomial", {F32({1, 2}, {1, 2}), I32({2}, {1})}, {}},
      {"scan", "Cumsum", {F32({1, 2}), I32({0}, {1})}, {}},
      {"scatter", "GatherNd", {F32({1, 2}), I32({0}, {})}, {}},
      {"scatter", "GatherNd", {F32({1, 2}), I32({0, 0}, {1, 2})}, {}},
      {"scatter", "ScatterNd", {I32({0, 0}, {1, 2}), F32({1}), I32({2})}, {}},
      {"scatter", "TensorScatterUpdate", {F32({1, 2, 3}), I32({0}, {1, 1}), F32({1, 2}, {2})}, {}},
      {"segment", "UnsortedSegmentSum", {F32({1, 2}), I32({0, 1}), I32({2}, {1})}, {}},
      {"segment", "UnsortedSegmentSum", {F32({1, 2}), I32({0, 1, 0}), I32({2}, {})}, {}},
      {"segment", "SegmentSum", {F32({1, 2}), I32({0, 0}, {1, 2})}, {}},
      {"segment", "SegmentSum", {F32({1, 2}), I32({0, 0, 1})}, {}},
      {"slicing", "Slice", {F32({1, 2, 3, 4}, {2, 2}), I32({0}), I32({1})}, {}},
      {"slicing", "StridedSlice", {F32({1, 2}), I32({0}), I32({1, 1}), I32({1})}, {}},
      {"slicing", "GatherV2Grad", {B({true}, {1}), I32({0}), I32({1}), I32({0}, {})}, {}},
      {"string", "DecodeCSV", {strings({"1,2"}, {1}), F32({0, 0}), F32({0})}, {}},
  };
}

}  // namespace

TEST_CASE("checks that kernels used to repeat fail in the shape function, before any kernel",
          "[engine][shape][validation]") {
  for (const BadCase& k : badCases()) {
    INFO(k.family << ": " << k.op);
    checkShapeErrorIsWhatRunsReport(k.op, k.inputs, k.attrs);
  }
}

TEST_CASE("optimizer hyperparameters are checked by the shape function", "[engine][shape][validation]") {
  // Variables are ref inputs, which reach the shape function without a value at run time: their
  // dtype and shape against the gradient stay kernel checks; scalars and dtypes of the others do not.
  CHECK_THAT(infer("ApplyGradientDescent", "?;[2];[3]").error, Catch::Contains("Shape must be rank 0 but is rank 1"));
  CHECK_THAT(infer("ApplyMomentum", "?;?;[];[3];[2]").error, Catch::Contains("Shape must be rank 0 but is rank 1"));
}

TEST_CASE("every dtype a shape function accepts runs: no kernel reaches its dtype switch's default",
          "[engine][validation][dtypes]") {
  // The op case table, each case's floating inputs cast to every other numeric dtype: when the
  // shape function accepts the result, the kernel must run it (a value error is fine; "does not
  // support" or an internal error means the kernel's dtype list and the shape function's differ).
  const DType all[] = {DType::Float16, DType::Float32, DType::Float64, DType::Int32, DType::Int64, DType::UInt8};
  int tried = 0;
  for (const OpCase& c : allCases()) {
    DType from = DType::Invalid;
    for (const Tensor& t : c.inputs)
      if (t.valid() && isFloating(t.dtype())) {
        from = t.dtype();
        break;
      }
    if (from == DType::Invalid) continue;
    const OpDef& def = OpRegistry::global().get(c.op);
    for (DType to : all) {
      if (to == from) continue;
      std::vector<Tensor> inputs = c.inputs;
      std::vector<TensorType> types;
      for (Tensor& t : inputs) {
        if (t.valid() && t.dtype() == from) t = t.cast(to);
        types.push_back(t.valid() ? concreteType(t) : TensorType{});
      }
      if (!def.infer(types, def.withDefaults(c.attrs)).ok()) continue;
      ++tried;
      INFO(c.op << " " << dtypeName(from) << " -> " << dtypeName(to) << " " << c.note);
      try {
        runEager(c.op, inputs, c.attrs);
      } catch (const std::exception& e) {
        const std::string what = e.what();
        CHECK_THAT(what, !Catch::Contains("does not support") && !Catch::Contains("Internal"));
      }
    }
  }
  CHECK(tried > 100);
}
