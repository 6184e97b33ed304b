// The list of op families, one file each in this folder (<Family>Ops.cpp).
#include "engine/ops/OpRegistry.h"

namespace tlens {

void registerArrayOps(OpRegistry& r);
void registerSlicingOps(OpRegistry& r);
void registerStateOps(OpRegistry& r);
void registerMathOps(OpRegistry& r);
void registerUnaryOps(OpRegistry& r);
void registerComparisonOps(OpRegistry& r);
void registerMatMulOps(OpRegistry& r);
void registerReductionOps(OpRegistry& r);
void registerLossOps(OpRegistry& r);
void registerNNOps(OpRegistry& r);
void registerRandomOps(OpRegistry& r);
void registerControlOps(OpRegistry& r);
void registerLoopOps(OpRegistry& r);
void registerSummaryOps(OpRegistry& r);
void registerLinalgOps(OpRegistry& r);
void registerOptimizerOps(OpRegistry& r);
void registerSegmentOps(OpRegistry& r);
void registerScatterOps(OpRegistry& r);
void registerScanOps(OpRegistry& r);
void registerTopKOps(OpRegistry& r);
void registerPartitionOps(OpRegistry& r);
void registerMatrixDiagOps(OpRegistry& r);
void registerImageOps(OpRegistry& r);
void registerSamplingOps(OpRegistry& r);
void registerLRNOps(OpRegistry& r);
void registerDepthwiseConvOps(OpRegistry& r);
void registerUnaryMathExtraOps(OpRegistry& r);
void registerLinalgDecompOps(OpRegistry& r);
void registerSearchBitwiseOps(OpRegistry& r);
void registerStringOps(OpRegistry& r);

void registerBuiltinOps(OpRegistry& r) {
  registerArrayOps(r);
  registerSlicingOps(r);
  registerStateOps(r);
  registerMathOps(r);
  registerUnaryOps(r);
  registerComparisonOps(r);
  registerMatMulOps(r);
  registerReductionOps(r);
  registerLossOps(r);
  registerNNOps(r);
  registerRandomOps(r);
  registerControlOps(r);
  registerLoopOps(r);
  registerSummaryOps(r);
  registerLinalgOps(r);
  registerOptimizerOps(r);
  registerSegmentOps(r);
  registerScatterOps(r);
  registerScanOps(r);
  registerTopKOps(r);
  registerPartitionOps(r);
  registerMatrixDiagOps(r);
  registerImageOps(r);
  registerSamplingOps(r);
  registerLRNOps(r);
  registerDepthwiseConvOps(r);
  registerUnaryMathExtraOps(r);
  registerLinalgDecompOps(r);
  registerSearchBitwiseOps(r);
  registerStringOps(r);
}

}  // namespace tlens
