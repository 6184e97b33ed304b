// Losses on the CPU: softmax cross entropy (dense and sparse labels) row by row with Eigen's
// vectorised exp, the logistic loss and its gradient elementwise, L2Loss as a blocked sum of
// squares. float16 is computed in float32. Softmax/LogSoftmax are in SoftmaxKernels.cpp.
// Shapes and dtypes are the shape functions' (engine/ops/defs/LossOps.cpp), which runOp runs
// before every kernel: the kernels check only what depends on values (label ranges).
#include <cassert>

#include "engine/core/Dispatch.h"
#include "engine/kernels/cpu/Elementwise.h"
#include "engine/kernels/cpu/Reduce.h"

namespace tlens {

namespace {

/// Runs f(T{}, inputs, outputs...) in float32 for float16 tensors: inputs cast up, outputs cast
/// back; float32/float64 run directly. `floatInputs` lists the inputs to cast.
template <typename F>
void floatCompute(KernelContext& c, std::initializer_list<size_t> floatInputs, F f) {
  const DType dt = c.outputType(0).dtype;
  if (dt == DType::Float32 || dt == DType::Float64) {
    std::vector<Tensor> outs;
    for (size_t i = 0; i < c.numOutputs(); ++i) outs.push_back(c.allocateOutput(i));
    std::vector<Tensor> ins(c.inputs().begin(), c.inputs().end());
    if (dt == DType::Float32) f(float{}, ins, outs);
    else f(double{}, ins, outs);
    return;
  }
  if (dt != DType::Float16) c.fail(c.op().type + " does not support " + std::string(dtypeName(dt)));
  std::vector<Tensor> ins(c.inputs().begin(), c.inputs().end());
  for (size_t i : floatInputs) ins[i] = ins[i].cast(DType::Float32);
  std::vector<Tensor> outs;
  for (size_t i = 0; i < c.numOutputs(); ++i) outs.emplace_back(DType::Float32, c.outputType(i).shape.concrete());
  f(float{}, ins, outs);
  for (size_t i = 0; i < c.numOutputs(); ++i) c.setOutput(i, outs[i].cast(DType::Float16));
}

/// `t` broadcast to `shape` (no copy when it already has it).
template <typename T>
Tensor broadcastTo(const Tensor& t, const ConcreteShape& shape) {
  if (t.shape() == shape) return t;
  Tensor out(t.dtype(), shape);
  cpu::broadcastCopy<T>(t, out);
  return out;
}

void xentKernel(KernelContext& c) {
  // xentShape: logits and labels broadcast to the rank-2 backprop shape.
  assert(c.outputType(1).shape.rank() == 2);
  floatCompute(c, {0, 1}, [&](auto z, std::vector<Tensor>& in, std::vector<Tensor>& out) {
    using T = decltype(z);
    Tensor& loss = out[0];
    Tensor& bp = out[1];
    const ConcreteShape& s = bp.shape();
    const Tensor f = broadcastTo<T>(in[0], s), l = broadcastTo<T>(in[1], s);
    const int64_t rows = s[0], cols = s[1];
    const T* pf = f.data<T>();
    const T* pl = l.data<T>();
    T* pb = bp.data<T>();
    T* ploss = loss.data<T>();
    if (cols == 0) {
      std::fill(ploss, ploss + rows, T(0));
      return;
    }
    parallelFor(rows, std::max<int64_t>(1, 65536 / cols), [&](int64_t b, int64_t e) {
      for (int64_t r = b; r < e; ++r) {
        cpu::ConstArrayMap<T> x(pf + r * cols, cols), z(pl + r * cols, cols);
        cpu::ArrayMap<T> y(pb + r * cols, cols);
        // With shifted logits y = x - max(x) (all <= 0) and s = sum(exp(y)):
        // loss = sum(z * (log(s) - y)) = log(s) sum(z) - sum(z y), one exp per element.
        y = x - x.template maxCoeff<Eigen::PropagateNaN>();
        const T zy = (z * y).sum(), zs = z.sum();
        y = cpu::ieeeExp(y);
        const T sum = y.sum();
        ploss[r] = std::log(sum) * zs - zy;
        y = y / sum - z;
      }
    });
  });
}

void sparseXentKernel(KernelContext& c) {
  const Tensor& f0 = c.input(0);
  const Tensor& labels = c.input(1);
  // sparseXentShape: logits [batch, classes > 0], labels [batch] of int32/int64.
  assert(f0.rank() == 2 && labels.rank() == 1 && f0.dim(0) == labels.dim(0) && f0.dim(1) > 0);
  const int64_t rows = f0.dim(0), cols = f0.dim(1);
  const std::vector<int64_t> lab = labels.toInt64Vector();
  for (int64_t v : lab)
    if (v < 0 || v >= cols) {
      std::string all;
      const size_t shown = std::min<size_t>(lab.size(), 1000);
      for (size_t i = 0; i < shown; ++i) all += (i ? " " : "") + std::to_string(lab[i]);
      if (shown < lab.size()) all += " ...";
      c.fail("Received a label value of " + std::to_string(v) + " which is outside the valid range of [0, " +
             std::to_string(cols) + ").  Label values: " + all);
    }
  floatCompute(c, {0}, [&](auto z, std::vector<Tensor>& in, std::vector<Tensor>& out) {
    using T = decltype(z);
    const T* pf = in[0].data<T>();
    T* pb = out[1].data<T>();
    T* ploss = out[0].data<T>();
    parallelFor(rows, std::max<int64_t>(1, 65536 / cols), [&](int64_t b, int64_t e) {
      for (int64_t r = b; r < e; ++r) {
        cpu::ConstArrayMap<T> x(pf + r * cols, cols);
        cpu::ArrayMap<T> y(pb + r * cols, cols);
        y = x - x.template maxCoeff<Eigen::PropagateNaN>();
        const int64_t k = lab[static_cast<size_t>(r)];
        const T shiftedK = y[k];
        y = cpu::ieeeExp(y);
        const T sum = y.sum();
        ploss[r] = std::log(sum) - shiftedK;
        y /= sum;
        y[k] -= T(1);
      }
    });
  });
}

/// sigmoidXentShape: labels, logits (and dy) have one shape.
[[maybe_unused]] bool sameShapes(KernelContext& c, size_t n) {
  for (size_t i = 0; i < n; ++i)
    if (c.input(i).shape() != c.input(1).shape()) return false;
  return true;
}

void sigmoidXentKernel(KernelContext& c) {
  assert(sameShapes(c, 2));
  floatCompute(c, {0, 1}, [&](auto zz, std::vector<Tensor>& in, std::vector<Tensor>& out) {
    using T = decltype(zz);
    const T* pz = in[0].data<T>();
    const T* px = in[1].data<T>();
    T* py = out[0].data<T>();
    parallelFor(out[0].numElements(), cpu::kElementwiseGrain, [&](int64_t b, int64_t e) {
      cpu::ConstArrayMap<T> z(pz + b, e - b), x(px + b, e - b);
      cpu::ArrayMap<T> y(py + b, e - b);
      // max(x, 0) - x z + log(1 + exp(-|x|)): no overflow for any x; NaN in, NaN out (the
      // log1p term carries it).
      y = x.max(T(0)) - x * z + (-x.abs()).exp().log1p();
    });
  });
}

void sigmoidXentGradKernel(KernelContext& c) {
  assert(sameShapes(c, 3));
  floatCompute(c, {0, 1, 2}, [&](auto zz, std::vector<Tensor>& in, std::vector<Tensor>& out) {
    using T = decltype(zz);
    const T* pz = in[0].data<T>();
    const T* px = in[1].data<T>();
    const T* pd = in[2].data<T>();
    T* py = out[0].data<T>();
    parallelFor(out[0].numElements(), cpu::kElementwiseGrain, [&](int64_t b, int64_t e) {
      cpu::ConstArrayMap<T> z(pz + b, e - b), x(px + b, e - b), dy(pd + b, e - b);
      cpu::ArrayMap<T> y(py + b, e - b);
      y = dy * ((T(1) + (-x).exp()).inverse() - z);
    });
  });
}

/// Sum of squares: float accumulators (double for float64), Eigen's squaredNorm on spans.
template <typename T>
struct SquaresReducer {
  using Acc = cpu::SumAcc<T>;
  Acc init() const { return Acc(0); }
  Acc combine(Acc a, Acc b) const { return a + b; }
  Acc lift(T x) const { return static_cast<Acc>(x) * static_cast<Acc>(x); }
  Acc span(const T* p, int64_t n) const {
    if constexpr (std::is_same_v<T, Acc>) {
      return n ? cpu::ConstArrayMap<T>(p, n).square().sum() : Acc(0);
    } else {
      Acc a = 0;
      for (int64_t i = 0; i < n; ++i) a += lift(p[i]);
      return a;
    }
  }
};

void l2LossKernel(KernelContext& c) {
  const Tensor& in = c.input(0);
  Tensor& out = c.allocateOutput(0);
  const std::vector<char> all(static_cast<size_t>(in.rank()), 1);
  dispatchFloat(in.dtype(), [&](auto z) {
    using T = decltype(z);
    using A = cpu::SumAcc<T>;
    A s = A(0);
    cpu::detail::reduceImpl(SquaresReducer<T>{}, in.data<T>(), in.shape(), all, &s, 1);
    *out.data<T>() = static_cast<T>(s / A(2));
  });
}

}  // namespace

void registerCpuSoftmaxKernels(KernelRegistry& r);  // SoftmaxKernels.cpp

void registerCpuLossKernels(KernelRegistry& r) {
  registerCpuSoftmaxKernels(r);
  r.add("SoftmaxCrossEntropyWithLogits", Device::CPU, xentKernel);
  r.add("SparseSoftmaxCrossEntropyWithLogits", Device::CPU, sparseXentKernel);
  r.add("SigmoidCrossEntropyWithLogits", Device::CPU, sigmoidXentKernel);
  r.add("SigmoidCrossEntropyWithLogitsGrad", Device::CPU, sigmoidXentGradKernel);
  r.add("L2Loss", Device::CPU, l2LossKernel);
}

}  // namespace tlens
