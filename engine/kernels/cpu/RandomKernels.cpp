// Random ops on the CPU. Each run draws one 64-bit key from the node's generator
// (KernelContext::rng(): seeded from seed/seed2, advancing across runs); element i is then a pure
// function of (key, i) through a SplitMix64 finaliser, so generation runs in parallel and the
// values do not depend on the number of threads.
#include <cmath>

#include "engine/runtime/Kernel.h"
#include "engine/runtime/ThreadPool.h"

namespace tlens {

namespace {

inline uint64_t mix(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
constexpr uint64_t kGolden = 0x9E3779B97F4A7C15ull;
inline uint64_t bitsAt(uint64_t key, uint64_t i) { return mix(key + (i + 1) * kGolden); }

constexpr double k2Pow53 = 1.0 / 9007199254740992.0;
/// [0, 1) with 53 random bits.
inline double unit(uint64_t b) { return static_cast<double>(b >> 11) * k2Pow53; }
/// (0, 1]: safe for log().
inline double unitOpen0(uint64_t b) { return static_cast<double>((b >> 11) + 1) * k2Pow53; }

/// Two independent standard normals from two uniforms (Box-Muller).
inline void boxMuller(uint64_t b0, uint64_t b1, double& z0, double& z1) {
  const double r = std::sqrt(-2.0 * std::log(unitOpen0(b0)));
  const double t = 2.0 * M_PI * unit(b1);
  z0 = r * std::cos(t);
  z1 = r * std::sin(t);
}

constexpr int64_t kGrain = 8192;

template <typename T>
void uniform(uint64_t key, T* out, int64_t n) {
  parallelFor(n, kGrain, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) {
      const uint64_t bits = bitsAt(key, static_cast<uint64_t>(i));
      if constexpr (std::is_same_v<T, double>) {
        out[i] = unit(bits);
      } else if constexpr (std::is_same_v<T, float>) {
        out[i] = static_cast<float>(bits >> 40) * (1.0f / 16777216.0f);  // 24 bits: exact, < 1
      } else {
        out[i] = static_cast<T>(static_cast<float>(bits >> 53) * (1.0f / 2048.0f));  // 11 bits
      }
    }
  });
}

template <typename T>
void normal(uint64_t key, T* out, int64_t n) {
  const int64_t pairs = (n + 1) / 2;
  parallelFor(pairs, kGrain / 2, [&](int64_t b, int64_t e) {
    for (int64_t p = b; p < e; ++p) {
      double z0, z1;
      boxMuller(bitsAt(key, static_cast<uint64_t>(2 * p)), bitsAt(key, static_cast<uint64_t>(2 * p + 1)), z0, z1);
      out[2 * p] = static_cast<T>(z0);
      if (2 * p + 1 < n) out[2 * p + 1] = static_cast<T>(z1);
    }
  });
}

/// Standard normals redrawn until |z| <= 2; element i draws from its own stream.
template <typename T>
void truncatedNormal(uint64_t key, T* out, int64_t n) {
  parallelFor(n, kGrain / 2, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) {
      const uint64_t stream = mix(key ^ (static_cast<uint64_t>(i) * kGolden + 0x632BE59BD9B4E019ull));
      double v = 0;
      for (uint64_t k = 0; k < 1000; k += 2) {
        double z0, z1;
        boxMuller(bitsAt(stream, k), bitsAt(stream, k + 1), z0, z1);
        if (std::fabs(z0) <= 2.0) { v = z0; break; }
        if (std::fabs(z1) <= 2.0) { v = z1; break; }
      }
      out[i] = static_cast<T>(v);
    }
  });
}

template <template <typename> class Gen>
void randomKernel(KernelContext& c) {
  Tensor& out = c.allocateOutput(0);
  const uint64_t key = c.rng()();
  const int64_t n = out.numElements();
  switch (out.dtype()) {
    case DType::Float32: Gen<float>::run(key, out.data<float>(), n); break;
    case DType::Float64: Gen<double>::run(key, out.data<double>(), n); break;
    case DType::Float16: Gen<Eigen::half>::run(key, out.data<Eigen::half>(), n); break;
    default: c.fail(c.op().type + " does not support " + std::string(dtypeName(out.dtype())));
  }
}

template <typename T> struct UniformG { static void run(uint64_t k, T* o, int64_t n) { uniform<T>(k, o, n); } };
template <typename T> struct NormalG { static void run(uint64_t k, T* o, int64_t n) { normal<T>(k, o, n); } };
template <typename T> struct TruncG { static void run(uint64_t k, T* o, int64_t n) { truncatedNormal<T>(k, o, n); } };

}  // namespace

void registerCpuRandomKernels(KernelRegistry& r) {
  r.add("RandomUniform", Device::CPU, randomKernel<UniformG>);
  r.add("RandomStandardNormal", Device::CPU, randomKernel<NormalG>);
  r.add("TruncatedNormal", Device::CPU, randomKernel<TruncG>);
}

}  // namespace tlens
