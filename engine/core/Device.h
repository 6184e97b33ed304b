// Device names as TensorFlow spells them: "/cpu:0", "/gpu:1",
// "/job:localhost/replica:0/task:0/device:GPU:0".
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tlens {

struct Device {
  enum Kind : uint8_t { CPU, GPU };
  Kind kind = CPU;
  int index = 0;

  static Device cpu(int i = 0) { return {CPU, i}; }
  static Device gpu(int i = 0) { return {GPU, i}; }
  /// Accepts "/cpu:0", "/device:GPU:0", "gpu", the full job/replica/task form, case-insensitive.
  /// Returns nullopt for anything else.
  static std::optional<Device> parse(std::string_view spec);

  std::string str() const;      ///< "/cpu:0"
  std::string fullName() const; ///< "/job:localhost/replica:0/task:0/device:CPU:0"
  bool operator==(const Device& o) const { return kind == o.kind && index == o.index; }
  bool operator!=(const Device& o) const { return !(*this == o); }
};

}  // namespace tlens
