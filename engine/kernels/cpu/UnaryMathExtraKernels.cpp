// CPU kernels of engine/ops/defs/UnaryMathExtraOps.cpp: Tan ... Cbrt through the C library's
// functions one element at a time (numpy calls the same ones, so results agree to the last bit
// where numpy does not vectorise). float32 and float16 compute in double and round once, which
// gives the correctly rounded results numpy's float32 loops give; cbrt goes through long double
// (glibc's cbrt(27.0) is 3.0000000000000004, numpy's 3.0).
#include <cmath>
#include <type_traits>

#include "engine/core/Dispatch.h"
#include "engine/kernels/cpu/Elementwise.h"

namespace tlens {

namespace {

template <double (*D)(double)>
void libmKernel(KernelContext& c) {
  dispatchFloat(c.input(0).dtype(), [&](auto z) {
    using T = decltype(z);
    cpu::unaryKernel<T>(c, [](const auto& x) {
      return x.unaryExpr([](T v) { return static_cast<T>(D(static_cast<double>(v))); });
    });
  });
}

double cbrtExact(double x) { return static_cast<double>(std::cbrt(static_cast<long double>(x))); }

#define TLENS_LIBM(name) libmKernel<static_cast<double (*)(double)>(std::name)>

}  // namespace

void registerCpuUnaryMathExtraKernels(KernelRegistry& r) {
  r.add("Tan", Device::CPU, TLENS_LIBM(tan));
  r.add("Asin", Device::CPU, TLENS_LIBM(asin));
  r.add("Acos", Device::CPU, TLENS_LIBM(acos));
  r.add("Atan", Device::CPU, TLENS_LIBM(atan));
  r.add("Sinh", Device::CPU, TLENS_LIBM(sinh));
  r.add("Cosh", Device::CPU, TLENS_LIBM(cosh));
  r.add("Asinh", Device::CPU, TLENS_LIBM(asinh));
  r.add("Acosh", Device::CPU, TLENS_LIBM(acosh));
  r.add("Atanh", Device::CPU, TLENS_LIBM(atanh));
  r.add("Expm1", Device::CPU, TLENS_LIBM(expm1));
  r.add("Log2", Device::CPU, TLENS_LIBM(log2));
  r.add("Log10", Device::CPU, TLENS_LIBM(log10));
  r.add("Cbrt", Device::CPU, libmKernel<cbrtExact>);
}

#undef TLENS_LIBM

}  // namespace tlens
