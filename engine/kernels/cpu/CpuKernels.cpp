// The list of CPU kernel families, one file each in this folder (<Family>Kernels.cpp).
#include "engine/runtime/Kernel.h"

namespace tlens {

void registerCpuArrayKernels(KernelRegistry& r);
void registerCpuSlicingKernels(KernelRegistry& r);
void registerCpuStateKernels(KernelRegistry& r);
void registerCpuMathKernels(KernelRegistry& r);
void registerCpuUnaryKernels(KernelRegistry& r);
void registerCpuComparisonKernels(KernelRegistry& r);
void registerCpuMatMulKernels(KernelRegistry& r);
void registerCpuReductionKernels(KernelRegistry& r);
void registerCpuLossKernels(KernelRegistry& r);
void registerCpuNNKernels(KernelRegistry& r);
void registerCpuRandomKernels(KernelRegistry& r);
void registerCpuControlKernels(KernelRegistry& r);
void registerCpuSummaryKernels(KernelRegistry& r);
void registerCpuLinalgKernels(KernelRegistry& r);
void registerCpuOptimizerKernels(KernelRegistry& r);
void registerCpuKerasUpdateKernels(KernelRegistry& r);
void registerCpuSegmentKernels(KernelRegistry& r);
void registerCpuScatterKernels(KernelRegistry& r);
void registerCpuScanKernels(KernelRegistry& r);
void registerCpuTopKKernels(KernelRegistry& r);
void registerCpuPartitionKernels(KernelRegistry& r);
void registerCpuMatrixDiagKernels(KernelRegistry& r);
void registerCpuImageKernels(KernelRegistry& r);
void registerCpuSamplingKernels(KernelRegistry& r);
void registerCpuLRNKernels(KernelRegistry& r);
void registerCpuDepthwiseConvKernels(KernelRegistry& r);
void registerCpuUnaryMathExtraKernels(KernelRegistry& r);
void registerCpuLinalgDecompKernels(KernelRegistry& r);
void registerCpuSearchBitwiseKernels(KernelRegistry& r);
void registerCpuStringKernels(KernelRegistry& r);

void registerCpuKernels(KernelRegistry& r) {
  registerCpuArrayKernels(r);
  registerCpuSlicingKernels(r);
  registerCpuStateKernels(r);
  registerCpuMathKernels(r);
  registerCpuUnaryKernels(r);
  registerCpuComparisonKernels(r);
  registerCpuMatMulKernels(r);
  registerCpuReductionKernels(r);
  registerCpuLossKernels(r);
  registerCpuNNKernels(r);
  registerCpuRandomKernels(r);
  registerCpuControlKernels(r);
  registerCpuSummaryKernels(r);
  registerCpuLinalgKernels(r);
  registerCpuOptimizerKernels(r);
  registerCpuKerasUpdateKernels(r);
  registerCpuSegmentKernels(r);
  registerCpuScatterKernels(r);
  registerCpuScanKernels(r);
  registerCpuTopKKernels(r);
  registerCpuPartitionKernels(r);
  registerCpuMatrixDiagKernels(r);
  registerCpuImageKernels(r);
  registerCpuSamplingKernels(r);
  registerCpuLRNKernels(r);
  registerCpuDepthwiseConvKernels(r);
  registerCpuUnaryMathExtraKernels(r);
  registerCpuLinalgDecompKernels(r);
  registerCpuSearchBitwiseKernels(r);
  registerCpuStringKernels(r);
}

}  // namespace tlens
