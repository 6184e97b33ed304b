// Keras' SGD, Adam and RMSprop rules in one or two in-place passes (engine/ops/defs/OptimizerOps.cpp).
// Each element goes through the same float operations, in the same order and with the same
// roundings, as the separate Sub, Mul, Add, Square, Div and AssignSub kernels of the rule: this file is compiled
// with -ffp-contract=off (engine/CMakeLists.txt), so no multiply-add is fused, and Eigen::half
// rounds after every operation as the separate kernels do.
#include <Eigen/Core>

#include <atomic>
#include <vector>

#include "engine/runtime/Kernel.h"
#include "engine/runtime/Numerics.h"
#include "engine/runtime/ThreadPool.h"

namespace tlens {

namespace {

constexpr int64_t kGrain = int64_t{1} << 15;

/// Ref input i, checked against the tensor input `like`, for an update that reads every element
/// once before writing it: `*old` keeps the values to read and the returned tensor is where to
/// write. In place when the variable's buffer is private; when it is shared (an eager op's own
/// read of the variable holds it too) the result goes to a fresh buffer that becomes the
/// variable's: copy on write without the copy, one pass instead of two.
Tensor& refLike(KernelContext& c, size_t i, size_t like, Tensor* old) {
  Tensor& t = c.variable(i);
  const Tensor& l = c.input(like);
  if (t.dtype() != l.dtype())
    c.fail(c.op().inputs[i].name + " has dtype " + std::string(dtypeName(t.dtype())) + " but " + c.op().inputs[like].name +
           " has dtype " + std::string(dtypeName(l.dtype())));
  if (t.shape() != l.shape())
    c.fail(c.op().inputs[i].name + " and " + c.op().inputs[like].name + " do not have the same shape" +
           concreteStr(t.shape()) + " " + concreteStr(l.shape()));
  const bool shared = !t.uniquelyOwned();
  *old = t;
  if (shared) t = Tensor(t.dtype(), t.shape(), c.allocator());
  return t;
}

template <typename F>
void dispatchFloat(KernelContext& c, size_t i, F f) {
  switch (c.input(i).dtype()) {
    case DType::Float32: f(float{}); break;
    case DType::Float64: f(double{}); break;
    case DType::Float16: f(Eigen::half{}); break;
    default: c.fail(c.op().type + " does not support " + std::string(dtypeName(c.input(i).dtype())));
  }
}

template <typename T>
T scalarAt(KernelContext& c, size_t i) {
  return c.input(i).data<T>()[0];
}

/// f(begin, end) over [0, n) in parallel chunks; with check-numerics, `out` is scanned chunk by
/// chunk while in cache and reported for output 0.
template <typename T, typename F>
void chunks(KernelContext& c, const T* out, int64_t n, F f) {
  const bool check = c.checkingNumerics();
  std::atomic<bool> finite{true};
  parallelFor(n, kGrain, [&](int64_t b, int64_t e) {
    f(b, e);
    if (check && !allFiniteSpan(out + b, e - b)) finite = false;
  });
  if (check) c.reportFinite(0, finite);
}

void kerasAdamMoments(KernelContext& c) {
  Tensor m0, v0;
  Tensor& m = refLike(c, 0, 4, &m0);
  Tensor& v = refLike(c, 1, 4, &v0);
  dispatchFloat(c, 4, [&](auto z) {
    using T = decltype(z);
    const T c1 = scalarAt<T>(c, 2), c2 = scalarAt<T>(c, 3);
    const T* mIn = m0.data<T>();
    const T* vIn = v0.data<T>();
    T* mp = m.data<T>();
    T* vp = v.data<T>();
    const T* g = c.input(4).data<T>();
    chunks(c, mp, m.numElements(), [&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) {
        const T gi = g[i], mi = mIn[i], vi = vIn[i];
        const T dm = static_cast<T>(gi - mi);
        const T sm = static_cast<T>(dm * c1);
        mp[i] = static_cast<T>(mi + sm);
        const T g2 = static_cast<T>(gi * gi);
        const T dv = static_cast<T>(g2 - vi);
        const T sv = static_cast<T>(dv * c2);
        vp[i] = static_cast<T>(vi + sv);
      }
    });
  });
  c.setOutput(0, m);
}

void kerasAdamStep(KernelContext& c) {
  Tensor w0;
  Tensor& w = refLike(c, 0, 4, &w0);
  dispatchFloat(c, 4, [&](auto z) {
    using T = decltype(z);
    const T alpha = scalarAt<T>(c, 1), eps = scalarAt<T>(c, 2);
    const T* wIn = w0.data<T>();
    T* wp = w.data<T>();
    const T* m = c.input(3).data<T>();
    const T* sq = c.input(4).data<T>();
    chunks(c, wp, w.numElements(), [&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) {
        const T num = static_cast<T>(m[i] * alpha);
        const T den = static_cast<T>(sq[i] + eps);
        const T d = static_cast<T>(num / den);
        wp[i] = static_cast<T>(wIn[i] - d);
      }
    });
  });
  c.setOutput(0, w);
}

void kerasRMSpropAverage(KernelContext& c) {
  Tensor a0;
  Tensor& a = refLike(c, 0, 3, &a0);
  dispatchFloat(c, 3, [&](auto z) {
    using T = decltype(z);
    const T rho = scalarAt<T>(c, 1), c1 = scalarAt<T>(c, 2);
    const T* aIn = a0.data<T>();
    T* ap = a.data<T>();
    const T* g = c.input(3).data<T>();
    chunks(c, ap, a.numElements(), [&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) {
        const T kept = static_cast<T>(aIn[i] * rho);
        const T g2 = static_cast<T>(g[i] * g[i]);
        const T added = static_cast<T>(g2 * c1);
        ap[i] = static_cast<T>(kept + added);
      }
    });
  });
  c.setOutput(0, a);
}

void kerasRMSpropStep(KernelContext& c) {
  Tensor w0;
  Tensor& w = refLike(c, 0, 2, &w0);
  dispatchFloat(c, 2, [&](auto z) {
    using T = decltype(z);
    const T lr = scalarAt<T>(c, 1);
    const T* wIn = w0.data<T>();
    T* wp = w.data<T>();
    const T* g = c.input(2).data<T>();
    const T* sq = c.input(3).data<T>();
    chunks(c, wp, w.numElements(), [&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) {
        const T num = static_cast<T>(g[i] * lr);
        const T d = static_cast<T>(num / sq[i]);
        wp[i] = static_cast<T>(wIn[i] - d);
      }
    });
  });
  c.setOutput(0, w);
}

void kerasSGDStep(KernelContext& c) {
  Tensor w0;
  Tensor& w = refLike(c, 0, 2, &w0);
  dispatchFloat(c, 2, [&](auto z) {
    using T = decltype(z);
    const T lr = scalarAt<T>(c, 1);
    const T* wIn = w0.data<T>();
    T* wp = w.data<T>();
    const T* g = c.input(2).data<T>();
    chunks(c, wp, w.numElements(), [&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) {
        const T d = static_cast<T>(g[i] * lr);
        wp[i] = static_cast<T>(wIn[i] - d);
      }
    });
  });
  c.setOutput(0, w);
}

}  // namespace

void registerCpuKerasUpdateKernels(KernelRegistry& r) {
  r.add("_KerasSGDStep", Device::CPU, kerasSGDStep);
  r.add("_KerasAdamMoments", Device::CPU, kerasAdamMoments);
  r.add("_KerasAdamStep", Device::CPU, kerasAdamStep);
  r.add("_KerasRMSpropAverage", Device::CPU, kerasRMSpropAverage);
  r.add("_KerasRMSpropStep", Device::CPU, kerasRMSpropStep);
}

}  // namespace tlens
