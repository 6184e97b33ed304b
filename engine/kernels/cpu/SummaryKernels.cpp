// Kernels of the summary ops (SummaryOps.cpp): serialized Summary protos as uint8 vectors.
#include <cmath>
#include <cstring>

#include "engine/core/Dispatch.h"
#include "engine/runtime/Kernel.h"
#include "engine/runtime/SummaryProto.h"

namespace tlens {

namespace {

void emit(KernelContext& c, const std::string& bytes) {
  Tensor& out = c.allocateOutput(0, ConcreteShape{static_cast<int64_t>(bytes.size())}, DType::UInt8);
  if (!bytes.empty()) std::memcpy(out.raw(), bytes.data(), bytes.size());
}

void scalarSummaryKernel(KernelContext& c) {
  const Tensor& v = c.input(0);
  double x = 0;
  dispatchAll(v.dtype(), [&](auto zero) { x = static_cast<double>(v.data<decltype(zero)>()[0]); });
  emit(c, summary::scalar(c.getString("tag"), x));
}

void histogramSummaryKernel(KernelContext& c) {
  const Tensor& v = c.input(0);
  if (v.dtype() == DType::Bool) {
    Tensor f = v.cast(DType::Float64);
    emit(c, summary::histogram(c.getString("tag"), f));
    return;
  }
  dispatchNumeric(v.dtype(), [&](auto zero) {
    using T = decltype(zero);
    const T* p = v.data<T>();
    for (int64_t i = 0; i < v.numElements(); ++i)
      if (!std::isfinite(static_cast<double>(p[i])))
        c.fail("Nan in summary histogram for: " + c.getString("tag"));
  });
  emit(c, summary::histogram(c.getString("tag"), v));
}

void mergeSummaryKernel(KernelContext& c) {
  std::string all;
  for (size_t i = 0; i < c.numInputs(); ++i) {
    const Tensor& t = c.input(i);
    all.append(static_cast<const char*>(t.raw()), static_cast<size_t>(t.numElements()));
  }
  emit(c, all);
}

}  // namespace

void registerCpuSummaryKernels(KernelRegistry& r) {
  r.add("ScalarSummary", Device::CPU, scalarSummaryKernel);
  r.add("HistogramSummary", Device::CPU, histogramSummaryKernel);
  r.add("MergeSummary", Device::CPU, mergeSummaryKernel);
}

}  // namespace tlens
