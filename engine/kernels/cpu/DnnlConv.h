// DnnlConv: float32 Conv2D and its two backprops (NHWC input, HWIO filter) through oneDNN's
// convolution primitives, the kernels TensorFlow's CPU build runs on x86. Like Gemm.h it loads
// libdnnl.so.2 with dlopen at the first convolution (never a link dependency; `tlens check` and
// `tlens lsp` never load it), and answers false, so that the caller runs its im2col + GEMM path,
// when oneDNN is missing, when TLENS_CONV=eigen or TLENS_GEMM=eigen is set, or when oneDNN
// rejects the shape. Primitives are created once per pass and geometry and cached. The batch is
// split over the engine's pool, one single-threaded primitive per thread (no OpenMP team beside
// the pool), except when it has fewer images than threads.
#pragma once

#include <cstdint>
#include <string>

namespace tlens::dnnlconv {

/// A convolution's geometry as the CPU kernels compute it (TensorFlow's SAME padding puts the odd
/// extra row/column at the bottom/right: the padding after is derived from the output size).
struct Geometry {
  int64_t n, h, w, c;      ///< input [n, h, w, c]
  int64_t kh, kw, o;       ///< filter [kh, kw, c, o]
  int64_t oh, ow;          ///< output [n, oh, ow, o]
  int64_t sh, sw, dh, dw;  ///< strides, dilations (TensorFlow's: 1 = dense)
  int64_t padT, padL;      ///< padding before
};

enum class Pass {
  Forward,          ///< a = input, b = filter, out = output
  BackwardData,     ///< a = filter, b = output gradient, out = input gradient
  BackwardWeights,  ///< a = input, b = output gradient, out = filter gradient
};

/// Whether run() may use oneDNN: installed and loaded (at the first call), not disabled.
bool available();
/// Whether oneDNN's primitive is the faster path for this pass and geometry, as `tlens_bench conv`
/// measures it on AVX-512 (oneDNN 2.6): not for the input gradient of an input with at most 4
/// channels (a first layer's: im2col + GEMM is 1.3-1.6x faster), nor for a 1x1 stride-1 unpadded
/// convolution's output or input gradient (one sgemm, no im2col: 1.2-2x faster than
/// brgconv_1x1 forward, ~1.2x backward). Its filter gradient, and everything else, is oneDNN's.
bool preferred(Pass pass, const Geometry& g);
/// Runs `pass` into `out` (every element written); false when oneDNN is not used for it (not
/// available, not preferred(), or a geometry it rejects).
bool run(Pass pass, const Geometry& g, const float* a, const float* b, float* out);
/// "oneDNN <version>" when convolutions run on oneDNN, else "Eigen" (benchmarks print it).
std::string backendName();
/// The implementation oneDNN picked for a pass and geometry ("" when none), for benchmarks.
std::string implementation(Pass pass, const Geometry& g);
/// Tests and benchmarks: run every convolution on the im2col path (true) or as configured.
void setDisabled(bool on);

}  // namespace tlens::dnnlconv
