// Comparisons and logical ops on the CPU: bool outputs with numpy broadcasting. Comparisons with
// NaN are false (NotEqual: true), as in IEEE arithmetic and TensorFlow.
#include "engine/core/Dispatch.h"
#include "engine/kernels/cpu/Elementwise.h"

namespace tlens {

namespace {

template <template <typename> class Fn>
void ordering(KernelContext& c) {
  dispatchNumeric(c.input(0).dtype(), [&](auto z) {
    using T = decltype(z);
    cpu::binaryKernel<T, bool>(c, Fn<T>{});
  });
}

template <template <typename> class Fn>
void equality(KernelContext& c) {
  dispatchAll(c.input(0).dtype(), [&](auto z) {
    using T = decltype(z);
    cpu::binaryKernel<T, bool>(c, Fn<T>{});
  });
}

template <typename T> struct EqF { bool operator()(T a, T b) const { return a == b; } };
template <typename T> struct NeF { bool operator()(T a, T b) const { return a != b; } };
template <typename T> struct LtF { bool operator()(T a, T b) const { return a < b; } };
template <typename T> struct LeF { bool operator()(T a, T b) const { return a <= b; } };
template <typename T> struct GtF { bool operator()(T a, T b) const { return a > b; } };
template <typename T> struct GeF { bool operator()(T a, T b) const { return a >= b; } };

void logicalAnd(KernelContext& c) { cpu::binaryKernel<bool, bool>(c, [](bool a, bool b) { return a && b; }); }
void logicalOr(KernelContext& c) { cpu::binaryKernel<bool, bool>(c, [](bool a, bool b) { return a || b; }); }

void logicalNot(KernelContext& c) {
  Tensor& out = c.allocateOutput(0);
  const bool* s = c.input(0).data<bool>();
  bool* d = out.data<bool>();
  parallelFor(out.numElements(), cpu::kElementwiseGrain, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) d[i] = !s[i];
  });
}

}  // namespace

void registerCpuComparisonKernels(KernelRegistry& r) {
  r.add("Equal", Device::CPU, equality<EqF>);
  r.add("NotEqual", Device::CPU, equality<NeF>);
  r.add("Less", Device::CPU, ordering<LtF>);
  r.add("LessEqual", Device::CPU, ordering<LeF>);
  r.add("Greater", Device::CPU, ordering<GtF>);
  r.add("GreaterEqual", Device::CPU, ordering<GeF>);
  r.add("LogicalAnd", Device::CPU, logicalAnd);
  r.add("LogicalOr", Device::CPU, logicalOr);
  r.add("LogicalNot", Device::CPU, logicalNot);
}

}  // namespace tlens
