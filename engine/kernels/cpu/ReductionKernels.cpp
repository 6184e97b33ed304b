// Reductions on the CPU: Sum, Mean, Prod (and its gradient helper), SumToShape, ReducedShape.
// Max, Min, ArgMax, ArgMin, Any, All are in MinMaxKernels.cpp.
#include "engine/core/Dispatch.h"
#include "engine/kernels/cpu/Reduce.h"

namespace tlens {

namespace {

void sumKernel(KernelContext& c) {
  Tensor& out = c.allocateOutput(0);
  const std::vector<char> mask = cpu::reducedMask(c.getInts("axis"), c.input(0).rank());
  dispatchNumeric(out.dtype(), [&](auto z) {
    using T = decltype(z);
    cpu::reduceWith<T>(c.input(0), mask, out, cpu::SumReducer<T>{});
  });
}

void meanKernel(KernelContext& c) {
  Tensor& out = c.allocateOutput(0);
  const std::vector<char> mask = cpu::reducedMask(c.getInts("axis"), c.input(0).rank());
  const int64_t count = out.numElements() ? c.input(0).numElements() / out.numElements() : 0;
  dispatchNumeric(out.dtype(), [&](auto z) {
    using T = decltype(z);
    using A = cpu::SumAcc<T>;
    using Acc = decltype(cpu::SumReducer<T>{}.init());
    static_assert(std::is_same_v<A, Acc>);
    std::vector<A> tmp(static_cast<size_t>(out.numElements()));
    cpu::detail::reduceImpl(cpu::SumReducer<T>{}, c.input(0).data<T>(), c.input(0).shape(), mask,
                            tmp.data(), out.numElements());
    T* p = out.data<T>();
    // The mean of nothing is NaN; an integer type has no NaN, and converting one is undefined in
    // C++: it is what x86's conversion gives (the most negative value; 0 for unsigned types).
    T empty;
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>)
      empty = std::is_signed_v<T> ? std::numeric_limits<T>::min() : T(0);
    else
      empty = static_cast<T>(std::numeric_limits<double>::quiet_NaN());
    for (int64_t i = 0; i < out.numElements(); ++i)
      p[i] = count ? static_cast<T>(tmp[static_cast<size_t>(i)] / static_cast<A>(count)) : empty;
  });
}

void prodKernel(KernelContext& c) {
  Tensor& out = c.allocateOutput(0);
  const std::vector<char> mask = cpu::reducedMask(c.getInts("axis"), c.input(0).rank());
  dispatchNumeric(out.dtype(), [&](auto z) {
    using T = decltype(z);
    cpu::reduceWith<T>(c.input(0), mask, out, cpu::ProdReducer<T>{});
  });
}

/// For each element, the product of the other elements of its reduction group (the gradient of
/// Prod without dividing by zero): with no zero in the group prod/x, with one zero the product
/// of the rest at the zero and 0 elsewhere, with more zeros 0.
void prodOthersKernel(KernelContext& c) {
  const Tensor& in = c.input(0);
  Tensor& out = c.allocateOutput(0);
  const std::vector<char> mask = cpu::reducedMask(c.getInts("axis"), in.rank());
  dispatchFloat(in.dtype(), [&](auto z) {
    using T = decltype(z);
    using A = cpu::SumAcc<T>;
    // Group results: product of the nonzero elements and the count of zeros.
    struct NZ {
      A prod;
      int64_t zeros;
    };
    struct NZReducer {
      NZ init() const { return {A(1), 0}; }
      NZ combine(NZ a, NZ b) const { return {a.prod * b.prod, a.zeros + b.zeros}; }
      NZ lift(T v) const {
        const A x = static_cast<A>(v);
        return x == A(0) ? NZ{A(1), 1} : NZ{x, 0};
      }
      NZ span(const T* p, int64_t n) const {
        NZ a = init();
        for (int64_t i = 0; i < n; ++i) {
          const A x = static_cast<A>(p[i]);
          if (x == A(0)) ++a.zeros;
          else a.prod *= x;
        }
        return a;
      }
    };
    ConcreteShape os;
    for (size_t i = 0; i < mask.size(); ++i) os.push_back(mask[i] ? 1 : in.dim(static_cast<int>(i)));
    const int64_t groups = numElements(os);
    std::vector<NZ> g(static_cast<size_t>(groups));
    cpu::detail::reduceImpl(NZReducer{}, in.data<T>(), in.shape(), mask, g.data(), groups);
    const T* x = in.data<T>();
    T* y = out.data<T>();
    auto one = [&](const NZ& s, T v) -> T {
      const A xv = static_cast<A>(v);
      if (s.zeros == 0) return static_cast<T>(s.prod / xv);
      if (s.zeros == 1) return static_cast<T>(xv == A(0) ? s.prod : A(0));
      return T(0);
    };
    cpu::forEachReduceRow(in.shape(), mask, [&](int64_t b, int64_t off, int64_t len, bool innerReduced) {
      if (innerReduced) {
        const NZ s = g[static_cast<size_t>(off)];
        for (int64_t i = 0; i < len; ++i) y[b + i] = one(s, x[b + i]);
      } else {
        for (int64_t i = 0; i < len; ++i) y[b + i] = one(g[static_cast<size_t>(off + i)], x[b + i]);
      }
    });
  });
}

void sumToShapeKernel(KernelContext& c) {
  const Tensor& in = c.input(0);
  const std::vector<int64_t> target = c.input(1).toInt64Vector();
  const int r = in.rank();
  const int lead = r - static_cast<int>(target.size());
  if (lead < 0) c.fail("SumToShape: cannot sum " + concreteStr(in.shape()) + " to " + concreteStr(target));
  std::vector<char> mask(static_cast<size_t>(r), 0);
  for (int i = 0; i < r; ++i) {
    if (i < lead) { mask[static_cast<size_t>(i)] = 1; continue; }
    const int64_t t = target[static_cast<size_t>(i - lead)];
    const int64_t d = in.dim(i);
    if (t == 1 && d != 1) mask[static_cast<size_t>(i)] = 1;
    else if (t != d) c.fail("SumToShape: " + concreteStr(in.shape()) + " does not broadcast from " + concreteStr(target));
  }
  Tensor& out = c.allocateOutput(0, ConcreteShape(target.begin(), target.end()));
  dispatchNumeric(out.dtype(), [&](auto z) {
    using T = decltype(z);
    using A = cpu::SumAcc<T>;
    cpu::reduce<T, A>(in, mask, out, A(0), [](A a, A x) { return a + x; });
  });
}

void reducedShapeKernel(KernelContext& c) {
  Tensor& out = c.allocateOutput(0);
  const Tensor& in = c.input(0);
  const std::vector<char> mask = cpu::reducedMask(c.getInts("axis"), static_cast<int>(in.numElements()));
  for (int64_t i = 0; i < in.numElements(); ++i) out.setDouble(i, mask[static_cast<size_t>(i)] ? 1.0 : in.getDouble(i));
}

}  // namespace

void registerCpuMinMaxKernels(KernelRegistry& r);  // MinMaxKernels.cpp

void registerCpuReductionKernels(KernelRegistry& r) {
  registerCpuMinMaxKernels(r);
  r.add("Sum", Device::CPU, sumKernel);
  r.add("Mean", Device::CPU, meanKernel);
  r.add("Prod", Device::CPU, prodKernel);
  r.add("ReductionProdOthers", Device::CPU, prodOthersKernel);
  r.add("SumToShape", Device::CPU, sumToShapeKernel);
  r.add("ReducedShape", Device::CPU, reducedShapeKernel);
}

}  // namespace tlens
