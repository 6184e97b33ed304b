// CPU kernels that join, split, repeat or pad tensors: ConcatV2, ConcatOffset, Pack, Unpack,
// Split, SplitV, Tile, Pad, PadV2. Output shapes come from the shape functions, which also
// validated axes, sizes and paddings against the concrete inputs.
#include <algorithm>

#include "engine/kernels/cpu/DataMovement.h"
#include "engine/runtime/ThreadPool.h"

namespace tlens {

namespace {

namespace mv = cpu::movement;

int64_t prod(const ConcreteShape& s, size_t from, size_t to) {
  int64_t p = 1;
  for (size_t i = from; i < to && i < s.size(); ++i) p *= s[i];
  return p;
}

/// Normalises an axis against `rank`, failing with TensorFlow's wording.
size_t normAxis(KernelContext& c, int64_t a, int64_t rank, const char* what) {
  if (a < -rank || a >= rank)
    c.fail(std::string(what) + ": Expected axis in the range [" + std::to_string(-rank) + ", " +
           std::to_string(rank) + "), but got " + std::to_string(a));
  return static_cast<size_t>(a < 0 ? a + rank : a);
}

/// An axis attribute the shape function has checked (Pack, Unpack), made non-negative.
size_t attrAxis(int64_t a, int64_t rank) { return static_cast<size_t>(a < 0 ? a + rank : a); }

void concatKernel(KernelContext& c) {
  const size_t n = c.numInputs() - 1;
  Tensor& out = c.allocateOutput(0);
  const int64_t rank = out.rank();
  const size_t axis = normAxis(c, c.input(n).getInt(0), rank, "ConcatOp");
  const int64_t outer = prod(out.shape(), 0, axis);
  std::vector<const Tensor*> ins;
  std::vector<int64_t> chunks;
  for (size_t i = 0; i < n; ++i) {
    const Tensor& t = c.input(i);
    ins.push_back(&t);
    chunks.push_back(prod(t.shape(), axis, t.shape().size()));
  }
  mv::concatRows(ins, chunks, outer, out);
}

void concatOffsetKernel(KernelContext& c) {
  const size_t n = c.numInputs() - 1;
  const std::vector<int64_t> first = c.input(1).toInt64Vector();
  const int64_t rank = static_cast<int64_t>(first.size());
  const size_t axis = normAxis(c, c.input(0).getInt(0), rank, "ConcatOffset");
  int64_t off = 0;
  for (size_t i = 0; i < n; ++i) {
    const std::vector<int64_t> s = c.input(i + 1).toInt64Vector();
    Tensor& o = c.allocateOutput(i, {rank}, c.input(i + 1).dtype());
    for (int64_t d = 0; d < rank; ++d) {
      if (static_cast<size_t>(d) != axis && s[static_cast<size_t>(d)] != first[static_cast<size_t>(d)])
        c.fail("All dimensions except " + std::to_string(axis) + " must match. Input " + std::to_string(i + 1) +
               " has shape " + concreteStr(s) + " and doesn't match input 1 with shape " + concreteStr(first) + ".");
      o.setDouble(d, static_cast<size_t>(d) == axis ? static_cast<double>(off) : 0.0);
    }
    off += s[axis];
  }
}

void packKernel(KernelContext& c) {
  Tensor& out = c.allocateOutput(0);
  const size_t axis = attrAxis(c.getInt("axis", 0), out.rank());
  const int64_t outer = prod(out.shape(), 0, axis);
  std::vector<const Tensor*> ins;
  std::vector<int64_t> chunks;
  for (size_t i = 0; i < c.numInputs(); ++i) {
    ins.push_back(&c.input(i));
    chunks.push_back(outer ? c.input(i).numElements() / std::max<int64_t>(outer, 1) : 0);
  }
  mv::concatRows(ins, chunks, outer, out);
}

/// Output i takes chunks[i] elements of each outer row of `in`.
void splitInto(KernelContext& c, const Tensor& in, size_t axis) {
  const int64_t outer = prod(in.shape(), 0, axis);
  const int64_t inner = prod(in.shape(), axis + 1, in.shape().size());
  std::vector<Tensor*> outs;
  std::vector<int64_t> chunks;
  for (size_t i = 0; i < c.numOutputs(); ++i) {
    Tensor& o = c.allocateOutput(i);
    outs.push_back(&o);
    chunks.push_back(o.numElements() / std::max<int64_t>(outer, 1));
  }
  int64_t total = 0;
  for (int64_t ch : chunks) total += ch;
  if (outer > 0 && total != in.dim(static_cast<int>(axis)) * inner)
    c.fail("Internal: split sizes do not cover the input", ErrorCode::Internal);
  mv::splitRows(in, outer, chunks, outs);
}

void unpackKernel(KernelContext& c) {
  const Tensor& in = c.input(0);
  splitInto(c, in, attrAxis(c.getInt("axis", 0), in.rank()));
}

void splitKernel(KernelContext& c) {
  const Tensor& in = c.input(1);
  splitInto(c, in, normAxis(c, c.input(0).getInt(0), in.rank(), "Split"));
}

void splitVKernel(KernelContext& c) {
  const Tensor& in = c.input(0);
  splitInto(c, in, normAxis(c, c.input(2).getInt(0), in.rank(), "SplitV"));
}

void tileKernel(KernelContext& c) {
  const Tensor& in = c.input(0);
  Tensor& out = c.allocateOutput(0);
  const int r = in.rank();
  if (out.numElements() == 0) return;
  if (r == 0) {
    std::memcpy(out.raw(), in.raw(), in.bytes());
    return;
  }
  const int64_t outLast = out.dim(r - 1), inLast = in.dim(r - 1);
  const int64_t rows = out.numElements() / outLast;
  const std::vector<int64_t> inSt = mv::rowMajorStrides(in.shape());
  mv::dispatchBySize(in.dtype(), [&](auto z) {
    using U = decltype(z);
    const U* src = static_cast<const U*>(in.raw());
    U* dst = static_cast<U*>(out.raw());
    parallelFor(rows, std::max<int64_t>(1, 16384 / outLast), [&](int64_t b, int64_t e) {
      for (int64_t row = b; row < e; ++row) {
        int64_t rem = row, off = 0;
        for (int d = r - 2; d >= 0; --d) {
          const int64_t od = out.dim(d);
          off += ((rem % od) % in.dim(d)) * inSt[static_cast<size_t>(d)];
          rem /= od;
        }
        U* dp = dst + row * outLast;
        const U* sp = src + off;
        if (inLast == 1) std::fill(dp, dp + outLast, sp[0]);
        else
          for (int64_t k = 0; k < outLast; k += inLast) std::copy(sp, sp + inLast, dp + k);
      }
    });
  });
}

void padKernel(KernelContext& c) {
  const Tensor& in = c.input(0);
  const std::vector<int64_t> pads = c.input(1).toInt64Vector();
  const int r = in.rank();
  Tensor& out = c.allocateOutput(0);
  if (c.numInputs() > 2) mv::fillWith(out, c.input(2));
  else std::memset(out.raw(), 0, out.bytes());
  const std::vector<int64_t> inSt = mv::rowMajorStrides(in.shape());
  const std::vector<int64_t> outSt = mv::rowMajorStrides(out.shape());
  int64_t base = 0;
  for (int i = 0; i < r; ++i) {
    if (pads[static_cast<size_t>(2 * i)] < 0 || pads[static_cast<size_t>(2 * i + 1)] < 0)
      c.fail("Paddings must be non-negative: " + std::to_string(pads[static_cast<size_t>(2 * i)]) + " " +
             std::to_string(pads[static_cast<size_t>(2 * i + 1)]));
    base += pads[static_cast<size_t>(2 * i)] * outSt[static_cast<size_t>(i)];
  }
  mv::stridedCopy(in, out, in.shape(), inSt, 0, outSt, base);
}

}  // namespace

void registerCpuConcatKernels(KernelRegistry& r) {
  r.add("ConcatV2", Device::CPU, concatKernel);
  r.add("ConcatOffset", Device::CPU, concatOffsetKernel);
  r.add("Pack", Device::CPU, packKernel);
  r.add("Unpack", Device::CPU, unpackKernel);
  r.add("Split", Device::CPU, splitKernel);
  r.add("SplitV", Device::CPU, splitVKernel);
  r.add("Tile", Device::CPU, tileKernel);
  r.add("Pad", Device::CPU, padKernel);
  r.add("PadV2", Device::CPU, padKernel);
}

}  // namespace tlens
