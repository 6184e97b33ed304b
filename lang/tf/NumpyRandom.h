// numpy.random's legacy generator (RandomState): MT19937 and the algorithms numpy 1.x draws its
// values with, so a seeded program prints the numbers it prints under real numpy. The Python half
// (lang/tf/python/numpy.random.py) keeps numpy's signatures and argument rules; `_nprandom` (the
// native module registered here) fills whole arrays at C++ speed.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "lang/interp/Interpreter.h"

namespace tlens::tf {

class TfRuntime;

/// The Mersenne Twister as numpy's RandomState seeds and reads it.
class NumpyMt19937 {
 public:
  static constexpr int kN = 624;

  /// RandomState(int): Knuth's linear initialisation of the 624 words (init_genrand).
  void seed(uint32_t s);
  /// RandomState([w0, w1, ...]): the reference init_by_array over 32-bit words.
  void seedByArray(const std::vector<uint32_t>& key);
  /// Seeds from the operating system's entropy (RandomState() / seed(None)).
  void seedRandomly();

  uint32_t next32();
  /// Two 32-bit draws, the first the high word.
  uint64_t next64() {
    uint64_t hi = next32();
    return (hi << 32) | next32();
  }
  /// random_sample: 53 bits from two draws, in [0, 1).
  double nextDouble() {
    uint32_t a = next32() >> 5, b = next32() >> 6;
    return (a * 67108864.0 + b) / 9007199254740992.0;
  }
  /// The legacy standard normal: the polar Box-Muller method, keeping its second value for the
  /// next call.
  double gauss();
  /// A uniform integer in [0, max] by masked rejection (32-bit draws while max fits in 32 bits);
  /// shuffle's and legacy randint's draw.
  uint64_t interval(uint64_t max);

  /// Legacy poisson: multiplication of uniforms for lam < 10, Hormann's PTRS otherwise.
  int64_t poisson(double lam);
  /// Legacy binomial: inversion while min(p, 1-p) * n <= 30, Kachitvichyanukul and Schmeiser's
  /// BTPE otherwise.
  int64_t binomial(int64_t n, double p);

  /// RandomState.get_state()/set_state(): the 624 words, the read position and the cached gaussian.
  struct State {
    std::vector<uint32_t> words;
    int pos;
    bool hasGauss;
    double gauss;
  };
  State state() const { return {std::vector<uint32_t>(mt_, mt_ + kN), pos_, hasGauss_, gauss_}; }
  void setState(const State& s);

 private:
  void generate();
  uint32_t mt_[kN] = {};
  int pos_ = kN;
  bool hasGauss_ = false;
  double gauss_ = 0.0;
};

/// Registers the native module `_nprandom` (numpy.random's state objects and fills).
void registerNumpyRandomModule(interp::Interpreter& interp, const std::shared_ptr<TfRuntime>& rt);

}  // namespace tlens::tf
