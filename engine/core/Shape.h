// Shapes as the whole toolchain sees them: known dims, unknown dims (`?`), unknown rank, and
// symbolic dims. A symbolic dim is an unknown size with an identity: the `None` batch dim of a
// placeholder becomes one symbol that flows through every op, so two tensors derived from it are
// known to agree even though neither size is known. Shape functions work on these; kernels work
// on fully known shapes (ConcreteShape).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/base/DiagnosticData.h"

namespace tlens {

using ConcreteShape = std::vector<int64_t>;

/// Interned names of symbolic dims. Symbol 0 means "no symbol".
class Symbols {
 public:
  /// A fresh symbol, named `hint` (e.g. "batch"); names need not be unique.
  static uint32_t create(std::string_view hint);
  static std::string name(uint32_t id);
};

struct Dim {
  int64_t size = -1;  ///< >= 0 when known
  uint32_t sym = 0;   ///< when unknown: nonzero means "the same as every other dim with this sym"
  /// Reserved symbol: the literal value -1 in a shape-valued tensor (a reshape target such as
  /// [tf.shape(x)[0], -1]); never appears in the shape of a tensor.
  static constexpr uint32_t kMinusOne = 0xffffffffu;
  static Dim minusOne() { return Dim{-1, kMinusOne}; }
  bool isMinusOne() const { return size < 0 && sym == kMinusOne; }

  static Dim known(int64_t n) { return Dim{n, 0}; }
  static Dim unknown() { return Dim{}; }
  static Dim symbol(uint32_t s) { return Dim{-1, s}; }

  bool isKnown() const { return size >= 0; }
  bool isSymbolic() const { return size < 0 && sym != 0 && sym != kMinusOne; }
  /// True when both are provably equal (same known size or same symbol).
  bool sameAs(const Dim& o) const {
    return (isKnown() && o.isKnown() && size == o.size) || (isSymbolic() && sym == o.sym);
  }
  /// True when both are known and differ: the only case a shape function may call an error.
  bool conflicts(const Dim& o) const { return isKnown() && o.isKnown() && size != o.size; }
  bool operator==(const Dim& o) const { return size == o.size && sym == o.sym; }
  bool operator!=(const Dim& o) const { return !(*this == o); }
  /// "3", "?" or the symbol's name.
  std::string str() const;
};

class Shape {
 public:
  Shape() : rankKnown_(false) {}  ///< unknown rank
  Shape(std::initializer_list<Dim> d) : rankKnown_(true), dims_(d) {}
  explicit Shape(std::vector<Dim> d) : rankKnown_(true), dims_(std::move(d)) {}
  static Shape unknownRank() { return Shape(); }
  static Shape scalar() { return Shape(std::vector<Dim>{}); }
  static Shape fromConcrete(const ConcreteShape& s);
  /// n dims, each unknown.
  static Shape unknownDims(int64_t rank);

  bool rankKnown() const { return rankKnown_; }
  int rank() const { return rankKnown_ ? static_cast<int>(dims_.size()) : -1; }
  const std::vector<Dim>& dims() const { return dims_; }
  std::vector<Dim>& dims() { return dims_; }
  const Dim& operator[](size_t i) const { return dims_[i]; }
  Dim& operator[](size_t i) { return dims_[i]; }
  bool fullyKnown() const;
  /// The element count when every dim is known.
  std::optional<int64_t> numElements() const;
  /// Only valid when fullyKnown().
  ConcreteShape concrete() const;
  /// True when a value of concrete shape `s` fits this (partial) shape.
  bool accepts(const ConcreteShape& s) const;
  /// True when this shape and `o` could describe the same tensor.
  bool compatible(const Shape& o) const;
  /// The most specific shape consistent with both (assumes compatible()).
  Shape merge(const Shape& o) const;

  bool operator==(const Shape& o) const {
    return rankKnown_ == o.rankKnown_ && dims_ == o.dims_;
  }
  bool operator!=(const Shape& o) const { return !(*this == o); }

  /// "[2, ?, batch]", or "<unknown>" for an unknown rank.
  std::string str() const;
  std::string tfStr() const;  ///< TensorFlow's "(?, 19)" spelling, symbols printed as "?"

 private:
  bool rankKnown_;
  std::vector<Dim> dims_;
};

std::string concreteStr(const ConcreteShape& s);  ///< "[2, 3]"
std::string concreteTfStr(const ConcreteShape& s);  ///< "(2, 3)", "(19,)"
int64_t numElements(const ConcreteShape& s);

/// Numpy broadcasting over partial shapes. On failure returns nullopt and sets `conflictAxis` to
/// the (negative, counted from the end) axis of the first conflicting dim.
std::optional<Shape> broadcastShapes(const Shape& a, const Shape& b, int* conflictAxis = nullptr);
/// Numpy broadcasting over concrete shapes; nullopt when they do not broadcast.
std::optional<ConcreteShape> broadcastConcrete(const ConcreteShape& a, const ConcreteShape& b);

/// Parses the compact notation used in tests and docs: "[2,3]", "[?,3]", "?" (unknown rank),
/// "[]" (scalar), "[b,3]" (a symbol named b). Names map to symbols through `names`, so shapes
/// parsed with the same map share symbols.
Shape parseShape(std::string_view text, std::map<std::string, uint32_t>* names = nullptr);
/// "[2,3];[b,4]" -> two shapes sharing one symbol map.
std::vector<Shape> parseShapes(std::string_view text, std::map<std::string, uint32_t>* names = nullptr);

/// The shape as a diagnostic payload carries it (engine/base/DiagnosticData.h): symbols by name,
/// a literal -1 (a reshape target's) as the symbol "-1".
ShapeInfo shapeInfo(const Shape& s);

}  // namespace tlens
