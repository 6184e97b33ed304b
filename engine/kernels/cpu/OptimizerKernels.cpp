// Optimizer updates on the CPU, in place on the variable buffers (copy on write when a buffer is
// shared with a fetched value), vectorised with Eigen arrays over parallel chunks. The formulas
// are TensorFlow's (training_ops.cc).
#include <atomic>
#include <Eigen/Core>

#include <vector>

#include "engine/runtime/Kernel.h"
#include "engine/runtime/Numerics.h"
#include "engine/runtime/ThreadPool.h"

namespace tlens {

namespace {

template <typename T>
using Arr = Eigen::Map<Eigen::Array<T, Eigen::Dynamic, 1>>;
template <typename T>
using CArr = Eigen::Map<const Eigen::Array<T, Eigen::Dynamic, 1>>;

constexpr int64_t kGrain = int64_t{1} << 16;

/// The variables bound to `refs` (made private for writing) and checks against the gradient.
std::vector<Tensor*> refs(KernelContext& c, std::initializer_list<size_t> idx, size_t gradIdx,
                          std::initializer_list<const char*> names) {
  std::vector<Tensor*> out;
  const Tensor& grad = c.input(gradIdx);
  auto name = names.begin();
  for (size_t i : idx) {
    Tensor& t = c.mutableVariable(i);
    if (t.dtype() != grad.dtype())
      c.fail(std::string(*name) + " has dtype " + std::string(dtypeName(t.dtype())) + " but grad has dtype " +
             std::string(dtypeName(grad.dtype())));
    if (t.shape() != grad.shape())
      c.fail((out.empty() ? std::string("var and grad") : "var and " + std::string(*name)) +
             " do not have the same shape" + concreteStr(t.shape()) + " " + concreteStr(grad.shape()));
    out.push_back(&t);
    ++name;
  }
  return out;
}

/// Scalar input i as T (the shape function checked its rank and dtype).
template <typename T>
T scalarInput(KernelContext& c, size_t i) {
  const Tensor& t = c.input(i);
  return static_cast<T>(t.getDouble(0));
}

template <typename F>
void dispatchApply(KernelContext& c, F f) {
  switch (c.input(c.numInputs() - 1).dtype()) {
    case DType::Float32: f(float{}); break;
    case DType::Float64: f(double{}); break;
    case DType::Float16: f(Eigen::half{}); break;
    default: c.fail(c.op().type + " does not support " + std::string(dtypeName(c.input(c.numInputs() - 1).dtype())));
  }
}

/// Runs f(begin, count) over chunks of the variable in parallel. In check-numerics mode each
/// updated chunk of `var` is tested while it is still in cache, and the result reported for
/// output 0 (the updated variable), so the executor does not scan all the weights again.
template <typename T, typename F>
void chunks(KernelContext& c, const T* var, int64_t n, F f) {
  const bool check = c.checkingNumerics();
  std::atomic<bool> finite{true};
  parallelFor(n, kGrain, [&](int64_t b, int64_t e) {
    f(b, e - b);
    if (check && !allFiniteSpan(var + b, e - b)) finite = false;
  });
  if (check) c.reportFinite(0, finite);
}

void applyGradientDescent(KernelContext& c) {
  std::vector<Tensor*> v = refs(c, {0}, 2, {"var"});
  dispatchApply(c, [&](auto z) {
    using T = decltype(z);
    const T alpha = scalarInput<T>(c, 1);
    T* var = v[0]->data<T>();
    const T* d = c.input(2).data<T>();
    chunks(c, var, v[0]->numElements(), [&](int64_t b, int64_t n) { Arr<T>(var + b, n) -= alpha * CArr<T>(d + b, n); });
  });
  c.setOutput(0, *v[0]);
}

void applyMomentum(KernelContext& c) {
  std::vector<Tensor*> v = refs(c, {0, 1}, 3, {"var", "accum"});
  const bool nesterov = c.getBool("use_nesterov");
  dispatchApply(c, [&](auto z) {
    using T = decltype(z);
    const T lr = scalarInput<T>(c, 2), momentum = scalarInput<T>(c, 4);
    T* var = v[0]->data<T>();
    T* accum = v[1]->data<T>();
    const T* g = c.input(3).data<T>();
    chunks(c, var, v[0]->numElements(), [&](int64_t b, int64_t n) {
      Arr<T> w(var + b, n), a(accum + b, n);
      CArr<T> gr(g + b, n);
      a = a * momentum + gr;
      if (nesterov) w -= gr * lr + a * momentum * lr;
      else w -= a * lr;
    });
  });
  c.setOutput(0, *v[0]);
}

void applyAdam(KernelContext& c) {
  std::vector<Tensor*> v = refs(c, {0, 1, 2}, 9, {"var", "m", "v"});
  const bool nesterov = c.getBool("use_nesterov");
  dispatchApply(c, [&](auto z) {
    using T = decltype(z);
    const T b1p = scalarInput<T>(c, 3), b2p = scalarInput<T>(c, 4), lr = scalarInput<T>(c, 5);
    const T b1 = scalarInput<T>(c, 6), b2 = scalarInput<T>(c, 7), eps = scalarInput<T>(c, 8);
    const T alpha = static_cast<T>(static_cast<double>(lr) * std::sqrt(1.0 - static_cast<double>(b2p)) /
                                   (1.0 - static_cast<double>(b1p)));
    const T one(1);
    T* var = v[0]->data<T>();
    T* m = v[1]->data<T>();
    T* vv = v[2]->data<T>();
    const T* g = c.input(9).data<T>();
    chunks(c, var, v[0]->numElements(), [&](int64_t b, int64_t n) {
      Arr<T> w(var + b, n), mm(m + b, n), sv(vv + b, n);
      CArr<T> gr(g + b, n);
      mm += (gr - mm) * (one - b1);
      sv += (gr.square() - sv) * (one - b2);
      if (nesterov) w -= ((gr * (one - b1) + b1 * mm) * alpha) / (sv.sqrt() + eps);
      else w -= (mm * alpha) / (sv.sqrt() + eps);
    });
  });
  c.setOutput(0, *v[0]);
}

void applyRMSProp(KernelContext& c) {
  std::vector<Tensor*> v = refs(c, {0, 1, 2}, 7, {"var", "ms", "mom"});
  dispatchApply(c, [&](auto z) {
    using T = decltype(z);
    const T lr = scalarInput<T>(c, 3), rho = scalarInput<T>(c, 4), momentum = scalarInput<T>(c, 5);
    const T eps = scalarInput<T>(c, 6);
    const T one(1);
    T* var = v[0]->data<T>();
    T* ms = v[1]->data<T>();
    T* mom = v[2]->data<T>();
    const T* g = c.input(7).data<T>();
    chunks(c, var, v[0]->numElements(), [&](int64_t b, int64_t n) {
      Arr<T> w(var + b, n), s(ms + b, n), mo(mom + b, n);
      CArr<T> gr(g + b, n);
      s += (gr.square() - s) * (one - rho);
      mo = mo * momentum + (gr * lr) / (s + eps).sqrt();
      w -= mo;
    });
  });
  c.setOutput(0, *v[0]);
}

void applyAdagrad(KernelContext& c) {
  std::vector<Tensor*> v = refs(c, {0, 1}, 3, {"var", "accum"});
  const bool updateSlots = c.getBool("update_slots");
  dispatchApply(c, [&](auto z) {
    using T = decltype(z);
    const T lr = scalarInput<T>(c, 2);
    T* var = v[0]->data<T>();
    T* acc = v[1]->data<T>();
    const T* g = c.input(3).data<T>();
    chunks(c, var, v[0]->numElements(), [&](int64_t b, int64_t n) {
      Arr<T> w(var + b, n), a(acc + b, n);
      CArr<T> gr(g + b, n);
      if (updateSlots) a += gr.square();
      w -= gr * lr * a.rsqrt();
    });
  });
  c.setOutput(0, *v[0]);
}

void applyAdadelta(KernelContext& c) {
  std::vector<Tensor*> v = refs(c, {0, 1, 2}, 6, {"var", "accum", "accum_update"});
  dispatchApply(c, [&](auto z) {
    using T = decltype(z);
    const T lr = scalarInput<T>(c, 3), rho = scalarInput<T>(c, 4), eps = scalarInput<T>(c, 5);
    const T one(1);
    T* var = v[0]->data<T>();
    T* acc = v[1]->data<T>();
    T* accUp = v[2]->data<T>();
    const T* g = c.input(6).data<T>();
    chunks(c, var, v[0]->numElements(), [&](int64_t b, int64_t n) {
      Arr<T> w(var + b, n), a(acc + b, n), au(accUp + b, n);
      CArr<T> gr(g + b, n);
      a = a * rho + gr.square() * (one - rho);
      Eigen::Array<T, Eigen::Dynamic, 1> update = (au + eps).sqrt() * (a + eps).rsqrt() * gr;
      au = au * rho + update.square() * (one - rho);
      w -= update * lr;
    });
  });
  c.setOutput(0, *v[0]);
}

}  // namespace

void registerCpuOptimizerKernels(KernelRegistry& r) {
  r.add("ApplyAdagrad", Device::CPU, applyAdagrad);
  r.add("ApplyAdadelta", Device::CPU, applyAdadelta);
  r.add("ApplyGradientDescent", Device::CPU, applyGradientDescent);
  r.add("ApplyMomentum", Device::CPU, applyMomentum);
  r.add("ApplyAdam", Device::CPU, applyAdam);
  r.add("ApplyRMSProp", Device::CPU, applyRMSProp);
}

}  // namespace tlens
