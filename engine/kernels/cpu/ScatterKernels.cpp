// GatherNd, ScatterNd, TensorScatterUpdate/Add and the variable updates ScatterUpdate/Add/Sub on
// the CPU. Each index tuple (the last dim of `indices`) selects one contiguous slice.
#include <cstring>

#include "engine/core/Dispatch.h"
#include "engine/runtime/Kernel.h"

namespace tlens {

namespace {

/// "[2,3]" as TensorShape::DebugString writes it.
std::string tfStr(const ConcreteShape& s) {
  std::string r = "[";
  for (size_t i = 0; i < s.size(); ++i) r += (i ? "," : "") + std::to_string(s[i]);
  return r + "]";
}

/// The position of row k among dims `outer` of the index tensor: "[0,1]".
std::string position(const ConcreteShape& outer, int64_t k) {
  std::string r = "[";
  int64_t stride = 1;
  for (int64_t d : outer) stride *= d;
  for (size_t d = 0; d < outer.size(); ++d) {
    stride /= std::max<int64_t>(outer[d], 1);
    r += (d ? "," : "") + std::to_string(k / std::max<int64_t>(stride, 1));
    k %= std::max<int64_t>(stride, 1);
  }
  return r + "]";
}

struct Slices {
  int64_t count = 0;              ///< number of index tuples
  int64_t size = 1;               ///< elements per slice
  std::vector<int64_t> offsets;   ///< flat element offset of each slice
};

/// The slices of `target` that `ind` [..., ix] addresses; a bad tuple fails with TF's message,
/// `into` naming what was indexed ("param shape" for GatherNd, "shape" for the scatters). The
/// shape function checked that ind is at least a vector of tuples no longer than target's rank.
Slices slicesOf(KernelContext& c, const Tensor& ind, const ConcreteShape& target, const char* into) {
  const int64_t ix = ind.dim(ind.rank() - 1);
  Slices s;
  ConcreteShape outer(ind.shape().begin(), ind.shape().end() - 1);
  s.count = 1;
  for (int64_t d : outer) s.count *= d;
  for (size_t d = static_cast<size_t>(ix); d < target.size(); ++d) s.size *= target[d];
  std::vector<int64_t> stride(static_cast<size_t>(ix), 1);
  for (int64_t d = ix - 1; d >= 0; --d)
    stride[static_cast<size_t>(d)] = (d + 1 < ix ? stride[static_cast<size_t>(d + 1)] * target[static_cast<size_t>(d + 1)] : 1);
  const std::vector<int64_t> v = ind.toInt64Vector();
  s.offsets.resize(static_cast<size_t>(s.count));
  for (int64_t k = 0; k < s.count; ++k) {
    int64_t off = 0;
    bool ok = true;
    for (int64_t d = 0; d < ix; ++d) {
      const int64_t x = v[static_cast<size_t>(k * ix + d)];
      if (x < 0 || x >= target[static_cast<size_t>(d)]) ok = false;
      off += x * stride[static_cast<size_t>(d)];
    }
    if (!ok) {
      std::string tuple;
      for (int64_t d = 0; d < ix; ++d) tuple += (d ? ", " : "") + std::to_string(v[static_cast<size_t>(k * ix + d)]);
      c.fail("indices" + position(outer, k) + " = [" + tuple + "] does not index into " + into + " " + tfStr(target));
    }
    s.offsets[static_cast<size_t>(k)] = off * s.size;
  }
  return s;
}

void gatherNdKernel(KernelContext& c) {
  const Tensor& params = c.input(0);
  const Tensor& ind = c.input(1);
  const Slices s = slicesOf(c, ind, params.shape(), "param shape");
  Tensor& out = c.allocateOutput(0);
  if (out.numElements() == 0) return;
  const size_t es = dtypeSize(params.dtype());
  const char* src = static_cast<const char*>(params.raw());
  char* dst = static_cast<char*>(out.raw());
  for (int64_t k = 0; k < s.count; ++k)
    std::memcpy(dst + k * s.size * es, src + s.offsets[static_cast<size_t>(k)] * es, static_cast<size_t>(s.size) * es);
}

enum class Mode { Update, Add, Sub };

/// Writes the slices of `upd` into `out` at `s` (Update: the last write wins, as TF on the CPU).
void scatterInto(Tensor& out, const Tensor& upd, const Slices& s, Mode mode) {
  dispatchAll(out.dtype(), [&](auto z) {
    using T = decltype(z);
    T* o = out.data<T>();
    const T* u = upd.data<T>();
    const bool scalar = upd.numElements() == 1 && s.count * s.size != 1;
    for (int64_t k = 0; k < s.count; ++k) {
      T* dp = o + s.offsets[static_cast<size_t>(k)];
      for (int64_t j = 0; j < s.size; ++j) {
        const T x = scalar ? u[0] : u[k * s.size + j];
        if (mode == Mode::Update) dp[j] = x;
        else if (mode == Mode::Add) dp[j] = static_cast<T>(dp[j] + x);
        else dp[j] = static_cast<T>(dp[j] - x);
      }
    }
  });
}

/// ScatterNd: the shape scattered into is a value, which the shape function may not have read.
void checkUpdates(KernelContext& c, const Tensor& upd, const Slices& s) {
  if (upd.numElements() != s.count * s.size)
    c.fail("updates must have " + std::to_string(s.count * s.size) + " elements (one slice of " +
           std::to_string(s.size) + " per index), got shape " + tfStr(upd.shape()));
}

void scatterNdKernel(KernelContext& c) {
  const Tensor& ind = c.input(0);
  const Tensor& upd = c.input(1);
  const std::vector<int64_t> sv = c.input(2).toInt64Vector();
  const ConcreteShape shape(sv.begin(), sv.end());
  for (int64_t d : shape)
    if (d < 0) c.fail("Dimension " + std::to_string(d) + " must be >= 0");
  Tensor& out = c.allocateOutput(0, shape, upd.dtype());
  if (out.numElements() > 0) std::memset(out.raw(), 0, out.bytes());
  if (out.numElements() == 0 && ind.numElements() > 0 && ind.dim(ind.rank() - 1) > 0)
    c.fail("Indices specified for empty output.  indices shape: " + tfStr(ind.shape()));
  const Slices s = slicesOf(c, ind, shape, "shape");
  checkUpdates(c, upd, s);
  scatterInto(out, upd, s, Mode::Add);
}

template <Mode kMode>
void tensorScatterKernel(KernelContext& c) {
  const Tensor& t = c.input(0);
  const Tensor& upd = c.input(2);
  Tensor& out = c.allocateOutput(0, t.shape(), t.dtype());
  if (out.bytes()) std::memcpy(out.raw(), t.raw(), out.bytes());
  const Slices s = slicesOf(c, c.input(1), t.shape(), "shape");
  scatterInto(out, upd, s, kMode);
}

template <Mode kMode>
void scatterRefKernel(KernelContext& c) {
  Tensor& var = c.mutableVariable(0);
  const Tensor& ind = c.input(1);
  const Tensor& upd = c.input(2);
  if (var.dtype() != upd.dtype())
    c.fail("Parameter and update must have the same dtype: " + std::string(dtypeName(var.dtype())) + " vs " +
           std::string(dtypeName(upd.dtype())));
  if (var.rank() < 1) c.fail("params must be at least 1-D, got shape " + tfStr(var.shape()));
  ConcreteShape want = ind.shape();
  want.insert(want.end(), var.shape().begin() + 1, var.shape().end());
  if (upd.rank() != 0 && upd.shape() != want)
    c.fail("Must have updates.shape = indices.shape + params.shape[1:] or updates.shape = [], got updates.shape " +
           tfStr(upd.shape()) + ", indices.shape " + tfStr(ind.shape()) + ", params.shape " + tfStr(var.shape()));
  const int64_t rows = var.dim(0);
  int64_t slice = 1;
  for (int d = 1; d < var.rank(); ++d) slice *= var.dim(d);
  const std::vector<int64_t> idx = ind.toInt64Vector();
  Slices s;
  s.count = static_cast<int64_t>(idx.size());
  s.size = slice;
  for (size_t k = 0; k < idx.size(); ++k) {
    if (idx[k] < 0 || idx[k] >= rows)
      c.fail("indices[" + std::to_string(k) + "] = " + std::to_string(idx[k]) + " is not in [0, " +
             std::to_string(rows) + ")");
    s.offsets.push_back(idx[k] * slice);
  }
  if (upd.rank() == 0) {
    Tensor full(upd.dtype(), {s.count * s.size});
    dispatchAll(upd.dtype(), [&](auto z) {
      using T = decltype(z);
      std::fill(full.data<T>(), full.data<T>() + full.numElements(), upd.data<T>()[0]);
    });
    scatterInto(var, full, s, kMode);
  } else {
    scatterInto(var, upd, s, kMode);
  }
  c.setOutput(0, var);
}

}  // namespace

void registerCpuScatterKernels(KernelRegistry& r) {
  r.add("GatherNd", Device::CPU, gatherNdKernel);
  r.add("ScatterNd", Device::CPU, scatterNdKernel);
  r.add("TensorScatterUpdate", Device::CPU, tensorScatterKernel<Mode::Update>);
  r.add("TensorScatterAdd", Device::CPU, tensorScatterKernel<Mode::Add>);
  r.add("ScatterUpdate", Device::CPU, scatterRefKernel<Mode::Update>);
  r.add("ScatterAdd", Device::CPU, scatterRefKernel<Mode::Add>);
  r.add("ScatterSub", Device::CPU, scatterRefKernel<Mode::Sub>);
}

}  // namespace tlens
