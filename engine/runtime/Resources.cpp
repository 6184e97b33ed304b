#include "engine/runtime/Resources.h"

#include <functional>

namespace tlens {

std::mt19937_64& Resources::rng(const std::string& node, int64_t seed, int64_t seed2) {
  auto it = rngs_.find(node);
  if (it != rngs_.end()) return it->second;
  // An op without a seed gets one derived from its name, so runs are reproducible.
  uint64_t s = static_cast<uint64_t>(seed) * 0x9E3779B97F4A7C15ull ^
               static_cast<uint64_t>(seed2) * 0xC2B2AE3D27D4EB4Full ^
               static_cast<uint64_t>(graphSeed_) * 0x165667B19E3779F9ull;
  if (seed == 0 && seed2 == 0) s ^= std::hash<std::string>{}(node);
  return rngs_.emplace(node, std::mt19937_64(s)).first->second;
}

}  // namespace tlens
