// numpy's Dragon4 digits, checked in bulk: the text of every finite float16 and of 50000
// pseudo-random float32 and float64 bit patterns, in five formats, hashed (FNV-1a) and compared
// with the hash of what numpy 1.24 prints (tests/tf/tools/gen_dragon4_hashes.py).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>

#include <Eigen/Core>  // float16 values and their bits

#include "lang/tf/NumpyFormat.h"

using namespace tlens;
using namespace tlens::tf;

namespace {

struct Hash {
  uint64_t h = 0xcbf29ce484222325ull;
  int count = 0;
  void add(const std::string& s) {
    for (unsigned char b : s) h = (h ^ b) * 0x100000001b3ull;
  }
};

void addValue(Hash& hash, double x, DType dt) {
  if (!std::isfinite(x)) return;
  Tensor t(dt, {});
  if (dt == DType::Float16) t.data<half>()[0] = half(static_cast<float>(x));
  else if (dt == DType::Float32) t.data<float>()[0] = static_cast<float>(x);
  else t.data<double>()[0] = x;
  hash.add(numpyScalarRepr(t) + "\n");
  hash.add(formatFloatPositional(x, dt, 4) + "\n");
  hash.add(formatFloatScientific(x, dt, 3, false) + "\n");
  hash.add(formatFloatPositional(x, dt, 6, false, true, '-') + "\n");
  hash.add(formatFloatScientific(x, dt, -1, true, '0', false, -1, -1, 5) + "\n");
  ++hash.count;
}

uint64_t lcg(uint64_t& s) { return s = s * 6364136223846793005ull + 1442695040888963407ull; }

}  // namespace

TEST_CASE("every finite float16 prints as numpy 1.24 prints it, in five formats", "[tf][numpy][print]") {
  Hash h;
  for (uint32_t bits = 0; bits < 65536; ++bits) {
    half v = Eigen::numext::bit_cast<half>(static_cast<uint16_t>(bits));
    addValue(h, static_cast<double>(static_cast<float>(v)), DType::Float16);
  }
  CHECK(h.count == 63488);
  CHECK(h.h == 0x34366d9c07a1519bull);
}

TEST_CASE("50000 float32 and float64 bit patterns print as numpy 1.24 prints them", "[tf][numpy][print]") {
  Hash h32, h64;
  uint64_t s = 12345;
  for (int i = 0; i < 50000; ++i) {
    uint32_t bits = static_cast<uint32_t>(lcg(s) >> 32);
    float f;
    std::memcpy(&f, &bits, sizeof f);
    addValue(h32, f, DType::Float32);
  }
  s = 12345;
  for (int i = 0; i < 50000; ++i) {
    uint64_t bits = lcg(s);
    double d;
    std::memcpy(&d, &bits, sizeof d);
    addValue(h64, d, DType::Float64);
  }
  CHECK(h32.count == 49807);
  CHECK(h32.h == 0x9f2306702f643672ull);
  CHECK(h64.count == 49977);
  CHECK(h64.h == 0xcc40df0d72c6f2c1ull);
}
