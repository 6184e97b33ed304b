// DiagnosticData: the structured payload of a diagnostic, so that consumers (quick fixes, hovers,
// the debugger, tests) read fields instead of parsing the message text. Part of engine/base: plain
// data over the standard library, with no dependency on the graph, the op registry or Eigen.
// Producers fill what they know (a shape function knows the op type and its inputs' shapes and
// dtypes; the interpreter knows the source ranges); every field may be empty.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/base/SourceLocation.h"

namespace tlens {

/// One dimension as a diagnostic reports it: a known size, or unknown (size < 0) with an optional
/// symbol naming it ("batch": every dim with the same symbol has the same unknown size).
struct DimInfo {
  int64_t size = -1;
  std::string symbol;
  bool known() const { return size >= 0; }
  /// "3", the symbol, or "?".
  std::string str() const;
  bool operator==(const DimInfo& o) const { return size == o.size && symbol == o.symbol; }
  bool operator!=(const DimInfo& o) const { return !(*this == o); }
};

/// A shape as a diagnostic reports it; `rankKnown == false` is a shape of unknown rank.
struct ShapeInfo {
  bool rankKnown = true;
  std::vector<DimInfo> dims;
  /// "[batch,256]" (TensorFlow's "with input shapes:" spelling) or "<unknown>".
  std::string str() const;
  /// The product of the known dims (1 for a scalar).
  int64_t knownElements() const;
  bool fullyKnown() const;
  bool operator==(const ShapeInfo& o) const { return rankKnown == o.rankKnown && dims == o.dims; }
  bool operator!=(const ShapeInfo& o) const { return !(*this == o); }
};

/// One operand of the failing operation: its shape, dtype and where its expression is.
struct OperandInfo {
  ShapeInfo shape{false, {}};
  std::string dtype;        ///< TensorFlow's spelling ("float32"); empty when unknown
  SourceLocation location;  ///< the operand's expression in the source; unknown when not known
  bool blamed = false;      ///< the conflict involves this operand (the shape function named it)
};

/// A shape with a role other than an operand's ("target": a reshape's requested shape).
struct NamedShape {
  std::string role;
  ShapeInfo shape;
};

/// A suggested fix: replace the text at `range` with `replacement`.
struct SuggestedFix {
  std::string title;  ///< "Transpose the second operand: transpose_b=True"
  SourceLocation range;
  std::string replacement;
};

struct DiagnosticData {
  std::string code;    ///< "shape-error", "dtype-mismatch", ...; the same as the diagnostic's code
  std::string opType;  ///< the registry op that failed ("MatMul"); empty when none
  /// What conflicts, for a failed shape function: "dtype" (the operands' dtypes, or a dtype the
  /// op does not take) or "shape"; empty for other diagnostics.
  std::string conflict;
  std::vector<OperandInfo> inputs;
  std::vector<NamedShape> shapes;
  std::vector<SourceLocation> ranges;  ///< other related source ranges
  std::vector<SuggestedFix> fixes;
  bool empty() const {
    return code.empty() && opType.empty() && conflict.empty() && inputs.empty() && shapes.empty() && ranges.empty() && fixes.empty();
  }
  /// The shape named `role`, or nullptr.
  const ShapeInfo* shape(const std::string& role) const;
};

}  // namespace tlens
