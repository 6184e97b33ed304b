// Broadcasting binary ops, AddN and Cast on the CPU. The rest of the family registers from here:
// MathBinaryKernels.cpp (FloorDiv ... SquaredDifference), MathSelectKernels.cpp (SelectV2,
// Select, ClipByValue).
#include <type_traits>

#include "engine/core/Dispatch.h"
#include "engine/kernels/cpu/Elementwise.h"

namespace tlens {

void registerCpuMathBinaryKernels(KernelRegistry& r);
void registerCpuMathSelectKernels(KernelRegistry& r);

namespace {

template <template <typename> class Fn>
void numericBinary(KernelContext& c) {
  dispatchNumeric(c.input(0).dtype(), [&](auto z) {
    using T = decltype(z);
    cpu::binaryKernel<T, T>(c, Fn<T>{});
  });
}

template <typename T> struct AddF { T operator()(T a, T b) const { return a + b; } };
template <typename T> struct SubF { T operator()(T a, T b) const { return a - b; } };
template <typename T> struct MulF { T operator()(T a, T b) const { return a * b; } };
template <typename T> struct DivF {
  T operator()(T a, T b) const {
    if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
      // Truncating, as TensorFlow's integer Div; INT_MIN / -1 wraps instead of trapping.
      using U = std::make_unsigned_t<T>;
      if (b == T(-1)) return static_cast<T>(U(0) - static_cast<U>(a));
      return b == 0 ? T(0) : static_cast<T>(a / b);
    } else if constexpr (std::is_integral_v<T>) {
      return b == 0 ? T(0) : static_cast<T>(a / b);
    } else {
      return a / b;
    }
  }
};

/// Integer division by zero is an error, as in TensorFlow; floats follow IEEE.
void divKernel(KernelContext& c) {
  dispatchNumeric(c.input(0).dtype(), [&](auto z) {
    using T = decltype(z);
    if constexpr (std::is_integral_v<T>) {
      const Tensor& y = c.input(1);
      const T* p = y.data<T>();
      if (c.outputType(0).shape.numElements().value_or(1) > 0)
        for (int64_t i = 0; i < y.numElements(); ++i)
          if (p[i] == T(0)) c.fail("Integer division by zero");
    }
    cpu::binaryKernel<T, T>(c, DivF<T>{});
  });
}

void addNKernel(KernelContext& c) {
  Tensor& out = c.allocateOutput(0);
  dispatchNumeric(out.dtype(), [&](auto z) {
    using T = decltype(z);
    T* o = out.data<T>();
    const int64_t n = out.numElements();
    const T* first = c.input(0).data<T>();
    std::copy(first, first + n, o);
    for (size_t k = 1; k < c.numInputs(); ++k) {
      const T* p = c.input(k).data<T>();
      parallelFor(n, cpu::kElementwiseGrain, [&](int64_t b, int64_t e) {
        for (int64_t i = b; i < e; ++i) o[i] += p[i];
      });
    }
  });
}

void castKernel(KernelContext& c) { c.setOutput(0, c.input(0).cast(c.outputType(0).dtype)); }

}  // namespace

void registerCpuMathKernels(KernelRegistry& r) {
  r.add("Add", Device::CPU, numericBinary<AddF>);
  r.add("Sub", Device::CPU, numericBinary<SubF>);
  r.add("Mul", Device::CPU, numericBinary<MulF>);
  r.add("RealDiv", Device::CPU, divKernel);
  r.add("AddN", Device::CPU, addNKernel);
  r.add("Cast", Device::CPU, castKernel);
  registerCpuMathBinaryKernels(r);
  registerCpuMathSelectKernels(r);
}

}  // namespace tlens
