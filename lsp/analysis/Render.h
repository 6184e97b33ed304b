// Render: turns an interpreter value into the strings a Snapshot keeps (type, known value,
// signature, members). Called on the interpreter's thread while the value is alive.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "lang/interp/Interpreter.h"
#include "lsp/analysis/ValuePool.h"

namespace tlens::lsp {

/// A Keras model's summary rows as last computed, with what they were computed from: every object
/// reachable from the model (its attributes, layers, their nodes and weights, classes), in the
/// order visited, and weak references that tell whether those objects are still the same ones.
struct SummaryMemo {
  std::vector<uint64_t> trace;
  std::vector<std::weak_ptr<const interp::Object>> alive;
  std::vector<std::vector<std::string>> rows;
};

/// What one analysis' renderings share: member lists by object (a module seen many times is
/// listed once per analysis, the map itself) and summary rows by model (`summaries`).
struct RenderCache : std::unordered_map<const interp::Object*, Members> {
  std::unordered_map<const interp::Object*, SummaryMemo> summaries;
  /// Counts the user's code seen running while a rendering called Python (the Collector's
  /// observations of non-library files then): rows computed that way are not memoised.
  uint64_t userCodeSeen = 0;
  /// Summary rows computed by Python / taken from `summaries` (for tests and measurements).
  uint64_t summariesComputed = 0, summariesReused = 0;
};

/// The value's facts, each its own string (ValuePool::add() makes the snapshot's ValueInfo).
/// `callPython`: may call Python (a Keras model's summary rows); only while a run is in progress.
RenderedValue renderValue(interp::Interpreter& in, const interp::Value& v, RenderCache& cache, bool callPython = true);
/// The public names `v` offers after a dot; null when it offers none we can list.
Members memberNames(interp::Interpreter& in, const interp::Value& v, RenderCache& cache);

}  // namespace tlens::lsp
