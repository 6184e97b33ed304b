// CPU kernels of the array family: constants, placeholders, identities, shapes and reshapes,
// fills, ranges, one-hot. Transpose is in TransposeKernels.cpp, joins/splits/tiles/pads in
// ConcatKernels.cpp (both registered from here).
#include <algorithm>
#include <cmath>
#include <map>

#include "engine/core/Dispatch.h"
#include "engine/kernels/cpu/DataMovement.h"
#include "engine/kernels/cpu/Elementwise.h"
#include "engine/ops/defs/ArrayShapeUtil.h"
#include "engine/runtime/Kernel.h"

namespace tlens {

void registerCpuTransposeKernels(KernelRegistry& r);
void registerCpuConcatKernels(KernelRegistry& r);

namespace {

namespace mv = cpu::movement;

void constKernel(KernelContext& c) { c.setOutput(0, *c.getTensor("value")); }

void placeholderKernel(KernelContext& c) {
  const TensorType& t = c.outputType(0);
  std::string shape = t.shape.rankKnown() ? t.shape.str() : "<unknown>";
  shape.erase(std::remove(shape.begin(), shape.end(), ' '), shape.end());
  std::string dt = t.dtype == DType::Float32 ? "float" : t.dtype == DType::Float64 ? "double" : std::string(dtypeName(t.dtype));
  c.fail("You must feed a value for placeholder tensor '" + c.nodeName() + "' with dtype " + dt +
         " and shape " + shape);
}

void identityKernel(KernelContext& c) { c.setOutput(0, c.input(0)); }

void shapeKernel(KernelContext& c) {
  Tensor& out = c.allocateOutput(0);
  const ConcreteShape& s = c.input(0).shape();
  for (size_t i = 0; i < s.size(); ++i) out.setDouble(static_cast<int64_t>(i), static_cast<double>(s[i]));
}

void sizeKernel(KernelContext& c) {
  Tensor& out = c.allocateOutput(0);
  out.setDouble(0, static_cast<double>(c.input(0).numElements()));
}

void rankKernel(KernelContext& c) {
  Tensor& out = c.allocateOutput(0);
  out.setDouble(0, static_cast<double>(c.input(0).rank()));
}

/// Reshape, ExpandDims, Squeeze: the same buffer under the inferred shape (inference resolved
/// any -1 and checked squeezed dims against the concrete input).
void reshapeKernel(KernelContext& c) {
  c.setOutput(0, c.input(0).reshaped(c.outputType(0).shape.concrete()));
}

void broadcastToKernel(KernelContext& c) {
  Tensor& out = c.allocateOutput(0);
  dispatchAll(out.dtype(), [&](auto z) { cpu::broadcastCopy<decltype(z)>(c.input(0), out); });
}

void zerosLikeKernel(KernelContext& c) {
  if (c.input(0).dtype() == DType::String) {  // empty strings, as TensorFlow's zeros_like
    c.allocateOutput(0);
    return;
  }
  c.setOutput(0, Tensor::filled(c.input(0).dtype(), c.input(0).shape(), 0));
}

void onesLikeKernel(KernelContext& c) {
  c.setOutput(0, Tensor::filled(c.input(0).dtype(), c.input(0).shape(), 1));
}

void fillKernel(KernelContext& c) {
  const Tensor& v = c.input(1);
  Tensor& out = c.allocateOutput(0);
  mv::fillWith(out, v);
}

void rangeKernel(KernelContext& c) {
  const Tensor& s = c.input(0);
  const Tensor& l = c.input(1);
  const Tensor& d = c.input(2);
  const DType dt = s.dtype();
  const double start = s.getDouble(0), limit = l.getDouble(0), delta = d.getDouble(0);
  if (!std::isfinite(start) || !std::isfinite(limit) || !std::isfinite(delta))
    c.fail("Requires start, limit and delta to be finite: " + arrayfn::numStr(start) + ", " +
           arrayfn::numStr(limit) + ", " + arrayfn::numStr(delta));
  if (delta == 0) c.fail("Requires delta != 0: " + arrayfn::numStr(delta));
  if (start > limit && delta > 0)
    c.fail("Requires start <= limit when delta > 0: " + arrayfn::numStr(start) + "/" + arrayfn::numStr(limit));
  if (start < limit && delta < 0)
    c.fail("Requires start >= limit when delta < 0: " + arrayfn::numStr(start) + "/" + arrayfn::numStr(limit));
  int64_t n;
  if (isInteger(dt)) {
    const int64_t a = s.getInt(0), b = l.getInt(0), e = d.getInt(0);
    n = (std::llabs(b - a) + std::llabs(e) - 1) / std::llabs(e);
  } else {
    const double size = std::ceil(std::fabs((limit - start) / delta));
    if (!(size < 9.0e18)) c.fail("Requires the range size to fit in int64: " + arrayfn::numStr(size));
    n = static_cast<int64_t>(size);
  }
  Tensor& out = c.allocateOutput(0, {n}, dt);
  dispatchNumeric(dt, [&](auto z) {
    using T = decltype(z);
    T* p = out.data<T>();
    if constexpr (std::is_integral_v<T>) {
      const int64_t a = s.getInt(0), e = d.getInt(0);
      for (int64_t i = 0; i < n; ++i) p[i] = static_cast<T>(a + i * e);
    } else {
      for (int64_t i = 0; i < n; ++i) p[i] = static_cast<T>(start + static_cast<double>(i) * delta);
    }
  });
}

void invertPermutationKernel(KernelContext& c) {
  const Tensor& x = c.input(0);
  const int64_t n = x.numElements();
  Tensor& out = c.allocateOutput(0);
  std::vector<int64_t> inv(static_cast<size_t>(n), -1);
  for (int64_t i = 0; i < n; ++i) {
    const int64_t p = x.getInt(i);
    if (p < 0 || p >= n) c.fail(std::to_string(p) + " is not between 0 and " + std::to_string(n));
    if (inv[static_cast<size_t>(p)] >= 0) c.fail(std::to_string(p) + " is duplicated in the input.");
    inv[static_cast<size_t>(p)] = i;
  }
  for (int64_t i = 0; i < n; ++i) out.setDouble(i, static_cast<double>(inv[static_cast<size_t>(i)]));
}

void oneHotKernel(KernelContext& c) {
  const Tensor& ind = c.input(0);
  const int64_t depth = c.input(1).getInt(0);
  const Tensor& on = c.input(2);
  const Tensor& off = c.input(3);
  if (depth < 0) c.fail("depth must be non-negative, got: " + std::to_string(depth));
  Tensor& out = c.allocateOutput(0);
  const int r = ind.rank();
  int64_t axis = c.getInt("axis", -1);
  if (axis == -1) axis = r;
  int64_t prefix = 1, suffix = 1;
  for (int i = 0; i < r; ++i) (i < axis ? prefix : suffix) *= ind.dim(i);
  mv::fillWith(out, off);
  const std::vector<int64_t> idx = mv::indexValues(ind);
  mv::dispatchBySize(out.dtype(), [&](auto z) {
    using U = decltype(z);
    U v;
    std::memcpy(&v, on.raw(), sizeof(U));
    U* o = static_cast<U*>(out.raw());
    parallelFor(prefix, std::max<int64_t>(1, 16384 / std::max<int64_t>(1, suffix)), [&](int64_t b, int64_t e) {
      for (int64_t p = b; p < e; ++p)
        for (int64_t s = 0; s < suffix; ++s) {
          const int64_t x = idx[static_cast<size_t>(p * suffix + s)];
          if (x >= 0 && x < depth) o[(p * depth + x) * suffix + s] = v;
        }
    });
  });
}

// tf.where(condition): the row-major coordinates of every non-zero element.
void whereKernel(KernelContext& c) {
  const Tensor& in = c.input(0);
  const int rank = in.rank();
  std::vector<int64_t> hits;
  dispatchAll(in.dtype(), [&](auto zero) {
    using T = decltype(zero);
    const T* p = in.data<T>();
    for (int64_t i = 0; i < in.numElements(); ++i)
      if (p[i] != T{}) hits.push_back(i);
  });
  Tensor& out = c.allocateOutput(0, ConcreteShape{static_cast<int64_t>(hits.size()), rank}, DType::Int64);
  int64_t* o = out.data<int64_t>();
  for (size_t h = 0; h < hits.size(); ++h) {
    int64_t rest = hits[h];
    for (int d = rank - 1; d >= 0; --d) {
      const int64_t n = in.shape()[static_cast<size_t>(d)];
      o[h * static_cast<size_t>(rank) + static_cast<size_t>(d)] = rest % n;
      rest /= n;
    }
  }
}

// tf.unique: values in order of first appearance, and where each element went.
void uniqueKernel(KernelContext& c) {
  const Tensor& in = c.input(0);
  const int64_t n = in.numElements();
  const DType idxType = c.getDType("out_idx", DType::Int32);
  std::vector<int64_t> firstOf;  // element index of each distinct value
  std::vector<int64_t> idx(static_cast<size_t>(n));
  dispatchAll(in.dtype(), [&](auto zero) {
    using T = decltype(zero);
    const T* p = in.data<T>();
    std::map<T, int64_t> seen;
    for (int64_t i = 0; i < n; ++i) {
      auto [it, inserted] = seen.emplace(p[i], static_cast<int64_t>(firstOf.size()));
      if (inserted) firstOf.push_back(i);
      idx[static_cast<size_t>(i)] = it->second;
    }
    Tensor& y = c.allocateOutput(0, ConcreteShape{static_cast<int64_t>(firstOf.size())}, in.dtype());
    for (size_t k = 0; k < firstOf.size(); ++k) y.data<T>()[k] = p[firstOf[k]];
  });
  Tensor& out = c.allocateOutput(1, ConcreteShape{n}, idxType);
  for (int64_t i = 0; i < n; ++i) {
    if (idxType == DType::Int64) out.data<int64_t>()[i] = idx[static_cast<size_t>(i)];
    else out.data<int32_t>()[i] = static_cast<int32_t>(idx[static_cast<size_t>(i)]);
  }
}

}  // namespace

void registerCpuArrayKernels(KernelRegistry& r) {
  r.add("Unique", Device::CPU, uniqueKernel);
  r.add("Where", Device::CPU, whereKernel);
  r.add("Const", Device::CPU, constKernel);
  r.add("Placeholder", Device::CPU, placeholderKernel);
  r.add("Identity", Device::CPU, identityKernel);
  r.add("StopGradient", Device::CPU, identityKernel);
  r.add("Shape", Device::CPU, shapeKernel);
  r.add("Size", Device::CPU, sizeKernel);
  r.add("Rank", Device::CPU, rankKernel);
  r.add("Reshape", Device::CPU, reshapeKernel);
  r.add("ExpandDims", Device::CPU, reshapeKernel);
  r.add("Squeeze", Device::CPU, reshapeKernel);
  r.add("BroadcastTo", Device::CPU, broadcastToKernel);
  r.add("ZerosLike", Device::CPU, zerosLikeKernel);
  r.add("OnesLike", Device::CPU, onesLikeKernel);
  r.add("Fill", Device::CPU, fillKernel);
  r.add("Range", Device::CPU, rangeKernel);
  r.add("InvertPermutation", Device::CPU, invertPermutationKernel);
  r.add("OneHot", Device::CPU, oneHotKernel);
  registerCpuTransposeKernels(r);
  registerCpuConcatKernels(r);
}

}  // namespace tlens
