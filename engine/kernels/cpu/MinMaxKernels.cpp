// Reductions that select rather than sum, on the CPU: Max, Min, ArgMax, ArgMin, Any, All, and
// ReductionIndicators (the mask the gradient of Max/Min routes dy through).
#include "engine/core/Dispatch.h"
#include "engine/kernels/KernelChecks.h"
#include "engine/kernels/cpu/Reduce.h"

namespace tlens {

namespace {

template <template <typename> class Red>
void extremumKernel(KernelContext& c) {
  Tensor& out = c.allocateOutput(0);
  const std::vector<char> mask = cpu::reducedMask(c.getInts("axis"), c.input(0).rank());
  dispatchNumeric(out.dtype(), [&](auto z) {
    using T = decltype(z);
    cpu::reduceWith<T>(c.input(0), mask, out, Red<T>{});
  });
}

template <typename R>
void logicalKernel(KernelContext& c) {
  Tensor& out = c.allocateOutput(0);
  const std::vector<char> mask = cpu::reducedMask(c.getInts("axis"), c.input(0).rank());
  cpu::reduceWith<bool>(c.input(0), mask, out, R{});
}

/// Index of the first maximum (Greater) or minimum (Less) along one axis; a NaN wins over
/// numbers (the first NaN), so a NaN in the input shows in the result as in Max/Min.
template <bool IsMax>
void argKernel(KernelContext& c) {
  const Tensor& in = c.input(0);
  const AxisView v = argReductionView(c, in);
  Tensor& out = c.allocateOutput(0);
  const int64_t outer = v.outer, inner = v.inner, len = v.n;
  if (out.numElements() == 0) return;
  dispatchNumeric(in.dtype(), [&](auto z) {
    using T = decltype(z);
    using A = cpu::ExtremumAcc<T>;
    const T* src = in.data<T>();
    auto better = [](A x, A best) {
      if (cpu::isNaNValue(x)) return !cpu::isNaNValue(best);
      if constexpr (IsMax) return x > best;
      else return x < best;
    };
    auto write = [&](int64_t i, int64_t v) {
      if (out.dtype() == DType::Int32) out.data<int32_t>()[i] = static_cast<int32_t>(v);
      else out.data<int64_t>()[i] = v;
    };
    if (inner == 1) {
      parallelFor(outer, std::max<int64_t>(1, 16384 / len), [&](int64_t b, int64_t e) {
        for (int64_t o = b; o < e; ++o) {
          const T* p = src + o * len;
          A best = static_cast<A>(p[0]);
          int64_t bi = 0;
          for (int64_t k = 1; k < len; ++k) {
            const A x = static_cast<A>(p[k]);
            if (better(x, best)) {
              best = x;
              bi = k;
            }
          }
          write(o, bi);
        }
      });
      return;
    }
    parallelFor(outer, std::max<int64_t>(1, 16384 / (len * inner)), [&](int64_t b, int64_t e) {
      std::vector<A> best(static_cast<size_t>(inner));
      std::vector<int64_t> bi(static_cast<size_t>(inner));
      for (int64_t o = b; o < e; ++o) {
        const T* p = src + o * len * inner;
        for (int64_t i = 0; i < inner; ++i) {
          best[static_cast<size_t>(i)] = static_cast<A>(p[i]);
          bi[static_cast<size_t>(i)] = 0;
        }
        for (int64_t k = 1; k < len; ++k) {
          const T* q = p + k * inner;
          for (int64_t i = 0; i < inner; ++i) {
            const A x = static_cast<A>(q[i]);
            if (better(x, best[static_cast<size_t>(i)])) {
              best[static_cast<size_t>(i)] = x;
              bi[static_cast<size_t>(i)] = k;
            }
          }
        }
        for (int64_t i = 0; i < inner; ++i) write(o * inner + i, bi[static_cast<size_t>(i)]);
      }
    });
  });
}

/// ReductionIndicators(input, output): 1/count at the elements of each reduction group equal to
/// the group's result (count: how many are), 0 elsewhere. NaN counts as equal to NaN.
void indicatorsKernel(KernelContext& c) {
  const Tensor& x = c.input(0);
  const Tensor& y = c.input(1);
  Tensor& out = c.allocateOutput(0);
  const std::vector<char> mask = cpu::reducedMask(c.getInts("axis"), x.rank());
  int64_t groups = 1;
  for (int i = 0; i < x.rank(); ++i)
    if (!mask[static_cast<size_t>(i)]) groups *= x.dim(i);
  dispatchFloat(x.dtype(), [&](auto z) {
    using T = decltype(z);
    const T* px = x.data<T>();
    const T* py = y.data<T>();
    T* po = out.data<T>();
    auto eq = [](T a, T b) { return a == b || (cpu::isNaNValue(a) && cpu::isNaNValue(b)); };
    cpu::forEachReduceRow(x.shape(), mask, [&](int64_t b, int64_t off, int64_t len, bool innerReduced) {
      for (int64_t i = 0; i < len; ++i) po[b + i] = eq(px[b + i], py[innerReduced ? off : off + i]) ? T(1) : T(0);
    });
    // How many elements of each group are selected (at least one: the result is one of them).
    Tensor count(x.dtype(), {groups});
    cpu::reduceWith<T>(out, mask, count, cpu::SumReducer<T>{});
    const T* pc = count.data<T>();
    cpu::forEachReduceRow(x.shape(), mask, [&](int64_t b, int64_t off, int64_t len, bool innerReduced) {
      for (int64_t i = 0; i < len; ++i) po[b + i] = po[b + i] / pc[innerReduced ? off : off + i];
    });
  });
}

}  // namespace

void registerCpuMinMaxKernels(KernelRegistry& r) {
  r.add("Max", Device::CPU, extremumKernel<cpu::MaxReducer>);
  r.add("Min", Device::CPU, extremumKernel<cpu::MinReducer>);
  r.add("Any", Device::CPU, logicalKernel<cpu::AnyReducer>);
  r.add("All", Device::CPU, logicalKernel<cpu::AllReducer>);
  r.add("ArgMax", Device::CPU, argKernel<true>);
  r.add("ArgMin", Device::CPU, argKernel<false>);
  r.add("ReductionIndicators", Device::CPU, indicatorsKernel);
}

}  // namespace tlens
