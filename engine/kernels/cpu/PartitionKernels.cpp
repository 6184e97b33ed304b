// DynamicPartition and DynamicStitch on the CPU (row copies; output sizes from the data).
#include <cstring>

#include "engine/runtime/Kernel.h"

namespace tlens {

namespace {

void dynamicPartitionKernel(KernelContext& c) {
  const Tensor& data = c.input(0);
  const Tensor& p = c.input(1);
  const int64_t n = c.getInt("num_partitions", 1);
  const int64_t m = p.numElements();
  const int64_t row = m == 0 ? 0 : data.numElements() / m;
  std::vector<int64_t> counts(static_cast<size_t>(n), 0);
  const int32_t* pv = p.data<int32_t>();
  for (int64_t i = 0; i < m; ++i) {
    if (pv[i] < 0 || pv[i] >= n)
      c.fail("partitions[" + std::to_string(i) + "] = " + std::to_string(pv[i]) + " is not in [0, " + std::to_string(n) + ")");
    ++counts[static_cast<size_t>(pv[i])];
  }
  const size_t bytes = static_cast<size_t>(row) * dtypeSize(data.dtype());
  std::vector<char*> dst;
  for (int64_t k = 0; k < n; ++k) {
    ConcreteShape s{counts[static_cast<size_t>(k)]};
    s.insert(s.end(), data.shape().begin() + p.rank(), data.shape().end());
    dst.push_back(static_cast<char*>(c.allocateOutput(static_cast<size_t>(k), s, data.dtype()).raw()));
  }
  const char* src = static_cast<const char*>(data.raw());
  for (int64_t i = 0; i < m; ++i) {
    char*& d = dst[static_cast<size_t>(pv[i])];
    std::memcpy(d, src + i * bytes, bytes);
    d += bytes;
  }
}

void dynamicStitchKernel(KernelContext& c) {
  const size_t n = c.numInputs() / 2;
  int64_t maxIndex = -1;
  for (size_t i = 0; i < n; ++i) {
    const Tensor& ix = c.input(i);
    for (int64_t k = 0; k < ix.numElements(); ++k) {
      const int64_t x = ix.getInt(k);
      if (x < 0) c.fail("indices[" + std::to_string(k) + "] is out of range");
      maxIndex = std::max(maxIndex, x);
    }
  }
  const Tensor& d0 = c.input(n);
  ConcreteShape rest(d0.shape().begin() + c.input(0).rank(), d0.shape().end());
  ConcreteShape os{maxIndex + 1};
  os.insert(os.end(), rest.begin(), rest.end());
  Tensor& out = c.allocateOutput(0, os, d0.dtype());
  int64_t row = 1;
  for (int64_t x : rest) row *= x;
  const size_t bytes = static_cast<size_t>(row) * dtypeSize(d0.dtype());
  if (out.bytes()) std::memset(out.raw(), 0, out.bytes());
  for (size_t i = 0; i < n; ++i) {
    const Tensor& ix = c.input(i);
    const Tensor& d = c.input(n + i);
    for (int64_t k = 0; k < ix.numElements(); ++k)
      std::memcpy(static_cast<char*>(out.raw()) + ix.getInt(k) * static_cast<int64_t>(bytes),
                  static_cast<const char*>(d.raw()) + k * static_cast<int64_t>(bytes), bytes);
  }
}

}  // namespace

void registerCpuPartitionKernels(KernelRegistry& r) {
  r.add("DynamicPartition", Device::CPU, dynamicPartitionKernel);
  r.add("DynamicStitch", Device::CPU, dynamicStitchKernel);
}

}  // namespace tlens
