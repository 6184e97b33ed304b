// Random ops on the CPU. Each run draws one 64-bit key from the node's generator
// (KernelContext::rng(): seeded from seed/seed2, advancing across runs); element i is then a pure
// function of (key, i) through a SplitMix64 finaliser, so generation runs in parallel and the
// values do not depend on the number of threads.
#include <Eigen/Core>

#include <algorithm>
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

/// The type Box-Muller runs in: float for float32/float16 outputs (like TensorFlow's
/// BoxMullerFloat), double for float64.
template <typename T>
using Calc = std::conditional_t<std::is_same_v<T, double>, double, float>;

template <typename C>
C uniformC(uint64_t b) {
  if constexpr (std::is_same_v<C, double>) return unit(b);
  else return static_cast<float>(b >> 40) * (1.0f / 16777216.0f);
}
template <typename C>
C uniformOpen0C(uint64_t b) {
  if constexpr (std::is_same_v<C, double>) return unitOpen0(b);
  else return static_cast<float>((b >> 40) + 1) * (1.0f / 16777216.0f);
}

constexpr int64_t kBlock = 256;

/// z0, z1 = Box-Muller of the uniforms in u1 (in (0, 1]) and u2, vectorised with Eigen.
template <typename C>
void boxMullerBlock(const Eigen::Array<C, kBlock, 1>& u1, const Eigen::Array<C, kBlock, 1>& u2,
                    Eigen::Array<C, kBlock, 1>& z0, Eigen::Array<C, kBlock, 1>& z1) {
  const Eigen::Array<C, kBlock, 1> r = (C(-2) * u1.log()).sqrt();
  const Eigen::Array<C, kBlock, 1> t = C(2 * M_PI) * u2;
  z0 = r * t.cos();
  z1 = r * t.sin();
}

template <typename T>
void normal(uint64_t key, T* out, int64_t n) {
  using C = Calc<T>;
  const int64_t pairs = (n + 1) / 2;
  const int64_t blocks = (pairs + kBlock - 1) / kBlock;
  parallelFor(blocks, 8, [&](int64_t b, int64_t e) {
    Eigen::Array<C, kBlock, 1> u1, u2, z0, z1;
    for (int64_t blk = b; blk < e; ++blk) {
      const int64_t p0 = blk * kBlock, m = std::min(kBlock, pairs - p0);
      u1.setOnes();
      u2.setZero();
      for (int64_t j = 0; j < m; ++j) {
        const uint64_t i = static_cast<uint64_t>(2 * (p0 + j));
        u1[j] = uniformOpen0C<C>(bitsAt(key, i));
        u2[j] = uniformC<C>(bitsAt(key, i + 1));
      }
      boxMullerBlock<C>(u1, u2, z0, z1);
      for (int64_t j = 0; j < m; ++j) {
        const int64_t o = 2 * (p0 + j);
        out[o] = static_cast<T>(z0[j]);
        if (o + 1 < n) out[o + 1] = static_cast<T>(z1[j]);
      }
    }
  });
}

/// Standard normals redrawn until |z| <= 2. Element i draws pairs from its own stream; the first
/// pair is computed for a whole block at once, the rare redraws one by one.
template <typename T>
void truncatedNormal(uint64_t key, T* out, int64_t n) {
  using C = Calc<T>;
  const int64_t blocks = (n + kBlock - 1) / kBlock;
  parallelFor(blocks, 8, [&](int64_t b, int64_t e) {
    Eigen::Array<C, kBlock, 1> u1, u2, z0, z1;
    uint64_t streams[kBlock];
    for (int64_t blk = b; blk < e; ++blk) {
      const int64_t i0 = blk * kBlock, m = std::min(kBlock, n - i0);
      u1.setOnes();
      u2.setZero();
      for (int64_t j = 0; j < m; ++j) {
        const uint64_t s = mix(key ^ (static_cast<uint64_t>(i0 + j) * kGolden + 0x632BE59BD9B4E019ull));
        streams[j] = s;
        u1[j] = uniformOpen0C<C>(bitsAt(s, 0));
        u2[j] = uniformC<C>(bitsAt(s, 1));
      }
      boxMullerBlock<C>(u1, u2, z0, z1);
      for (int64_t j = 0; j < m; ++j) {
        double v = 0;
        if (std::fabs(static_cast<double>(z0[j])) <= 2.0) {
          v = static_cast<double>(z0[j]);
        } else if (std::fabs(static_cast<double>(z1[j])) <= 2.0) {
          v = static_cast<double>(z1[j]);
        } else {
          for (uint64_t k = 2; k < 1000; k += 2) {
            double a, c;
            boxMuller(bitsAt(streams[j], k), bitsAt(streams[j], k + 1), a, c);
            if (std::fabs(a) <= 2.0) { v = a; break; }
            if (std::fabs(c) <= 2.0) { v = c; break; }
          }
        }
        out[i0 + j] = static_cast<T>(v);
      }
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
