// The random-number generation of the GPU random ops, compiled for device and host: Philox4x32-10
// (Salmon et al., Random123), the conversions to uniform floats, Box-Muller normals and the
// truncated-normal redraws. Element i of a run is a pure function of (the run's 64-bit key, i),
// so the kernel (NN.cu) is one thread per element, and tests/cuda checks the generator on the host
// against Random123's known-answer vectors and the distributions' moments.
#pragma once

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "engine/cuda/IndexMath.h"
#include "engine/cuda/Launch.h"

namespace tlens::cuda::rnd {

#if !defined(__CUDACC__)
using std::cos;
using std::fabs;
using std::log;
using std::sin;
using std::sqrt;
#endif

struct Block {
  uint32_t x, y, z, w;
};

TLENS_HD uint32_t mulhi(uint32_t a, uint32_t b) {
#if defined(__CUDA_ARCH__)
  return __umulhi(a, b);
#else
  return static_cast<uint32_t>((static_cast<uint64_t>(a) * b) >> 32);
#endif
}

/// Philox4x32-10 of counter c under key (k0, k1).
TLENS_HD Block philox(Block c, uint32_t k0, uint32_t k1) {
  constexpr uint32_t M0 = 0xD2511F53u, M1 = 0xCD9E8D57u, W0 = 0x9E3779B9u, W1 = 0xBB67AE85u;
  for (int r = 0; r < 10; ++r) {
    const uint32_t lo0 = M0 * c.x, hi0 = mulhi(M0, c.x);
    const uint32_t lo1 = M1 * c.z, hi1 = mulhi(M1, c.z);
    c = Block{hi1 ^ c.y ^ k0, lo1, hi0 ^ c.w ^ k1, lo0};
    k0 += W0;
    k1 += W1;
  }
  return c;
}

/// [0, 1) from the top 24 bits (float) / 53 bits of two words (double); the Open variants give
/// (0, 1] (safe for log).
TLENS_HD float unitF(uint32_t u) { return static_cast<float>(u >> 8) * (1.0f / 16777216.0f); }
TLENS_HD float unitOpenF(uint32_t u) { return static_cast<float>((u >> 8) + 1) * (1.0f / 16777216.0f); }
TLENS_HD double unitD(uint32_t a, uint32_t b) {
  return static_cast<double>((static_cast<uint64_t>(a >> 5) << 26) | (b >> 6)) * (1.0 / 9007199254740992.0);
}
TLENS_HD double unitOpenD(uint32_t a, uint32_t b) {
  return static_cast<double>(((static_cast<uint64_t>(a >> 5) << 26) | (b >> 6)) + 1) * (1.0 / 9007199254740992.0);
}

/// Two standard normals from one Philox block (Box-Muller in C = float or double).
template <typename C>
TLENS_HD void normals(Block r, C& z0, C& z1) {
  C u1, u2;
  if constexpr (std::is_same_v<C, double>) {
    u1 = unitOpenD(r.x, r.y);
    u2 = unitD(r.z, r.w);
  } else {
    u1 = unitOpenF(r.x);
    u2 = unitF(r.y);
  }
  const C rad = sqrt(C(-2) * log(u1));
  const C t = C(2 * 3.14159265358979323846) * u2;
  z0 = rad * cos(t);
  z1 = rad * sin(t);
}

/// Element i of a run with key (k0, k1): counter (i, kind, redraw round).
template <typename C>
TLENS_HD C randomValue(RandKind kind, uint64_t i, uint32_t k0, uint32_t k1) {
  const uint32_t lo = static_cast<uint32_t>(i), hi = static_cast<uint32_t>(i >> 32);
  if (kind == RandKind::Uniform) {
    const Block r = philox(Block{lo, hi, 0u, 0u}, k0, k1);
    if constexpr (std::is_same_v<C, double>) return unitD(r.x, r.y);
    else return unitF(r.x);
  }
  if (kind == RandKind::Normal) {
    C z0, z1;
    normals<C>(philox(Block{lo, hi, 1u, 0u}, k0, k1), z0, z1);
    return z0;
  }
  for (uint32_t round = 0; round < 1000; ++round) {  // truncated normal: redraw until |z| <= 2
    C z0, z1;
    normals<C>(philox(Block{lo, hi, 2u, round}, k0, k1), z0, z1);
    if (fabs(z0) <= C(2)) return z0;
    if (fabs(z1) <= C(2)) return z1;
  }
  return C(0);
}

}  // namespace tlens::cuda::rnd
