// Attribute values of ops (TensorFlow's AttrValue): transpose flags, axes, dtypes, constant values.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "engine/core/DType.h"
#include "engine/core/Shape.h"
#include "engine/core/Tensor.h"

namespace tlens {

using AttrValue = std::variant<std::monostate, bool, int64_t, double, std::string, DType,
                               std::vector<int64_t>, std::vector<double>, Shape, Tensor,
                               std::vector<std::string>>;
using Attrs = std::map<std::string, AttrValue, std::less<>>;

/// "true", "3", "[1, 2]", "float32", "[?, 3]", "<float32[2, 3]>"
std::string attrToString(const AttrValue& v);

/// Typed, non-throwing reads of an attribute map. Used by shape functions and kernels alike, so
/// a missing or mistyped attribute falls back to the given default instead of failing.
class AttrReader {
 public:
  explicit AttrReader(const Attrs& a) : attrs_(a) {}
  const Attrs& attrs() const { return attrs_; }
  bool has(std::string_view name) const { return attrs_.find(name) != attrs_.end(); }
  const AttrValue* find(std::string_view name) const {
    auto it = attrs_.find(name);
    return it == attrs_.end() ? nullptr : &it->second;
  }
  bool getBool(std::string_view name, bool def = false) const;
  int64_t getInt(std::string_view name, int64_t def = 0) const;
  double getFloat(std::string_view name, double def = 0) const;
  std::string getString(std::string_view name, std::string def = {}) const;
  DType getDType(std::string_view name, DType def = DType::Invalid) const;
  /// Accepts a single int too (axis=1 -> {1}). nullopt when absent.
  std::optional<std::vector<int64_t>> getInts(std::string_view name) const;
  std::vector<double> getFloats(std::string_view name) const;
  Shape getShape(std::string_view name) const;  ///< unknown rank when absent
  const Tensor* getTensor(std::string_view name) const;

 private:
  const Attrs& attrs_;
};

}  // namespace tlens
