// Collector: the ValueObserver of an analysis. It records each value of the analysed document as
// the interpreter reports it and renders them when asked (take(), or valueOf() for one span):
// a value that cannot change (a number, a string, a tensor: only set_shape changes one, and it
// tells the observer first) is kept as it is and rendered later, after the diagnostics are out;
// one that can (a list, an object) is rendered at once. Observations of the same span (loops,
// call sites, both branches of an unknown `if`) are merged in the order they came into one
// ValueInfo. Rendering must not run user code: see Render.h.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

#include "lang/interp/Interpreter.h"
#include "lsp/analysis/Render.h"

namespace tlens::lsp {

class Collector : public interp::ValueObserver {
 public:
  explicit Collector(interp::Interpreter& in) : in_(in), pool_(std::make_shared<ValuePool>()) {}

  /// Values in `file` are collected (the analysed document; when an analysis continues a paused
  /// one, also the earlier version of the document whose functions the prefix defined).
  void watch(const lang::SourceFile* file) {
    files_.push_back(file);
    textSize_ = std::max(textSize_, file->text().size());
  }

  void onValue(const lang::SourceFile& file, TSNode expr, const interp::Value& v) override;
  void beforeChange(const interp::Value& v) override;

  /// Renders and merges every observation so far. False when `stop` said so first (it is polled
  /// every few hundred observations; the collector is then of no further use).
  bool render(const std::function<bool()>& stop = nullptr);
  /// The observations sorted by start, then by descending end (outer spans first). Once; renders
  /// first what is still to render.
  std::vector<ValueInfo> take();
  /// What take() will have for the span [start, end), rendered now (the observations of the
  /// span only), or nullopt when none was seen: lints ask before the values are rendered.
  std::optional<ValueInfo> valueOf(uint32_t start, uint32_t end);
  RenderCache& cache() { return cache_; }
  /// Where the values' strings and details live (the snapshot keeps it; the globals go there too).
  const std::shared_ptr<ValuePool>& pool() { return pool_; }

 private:
  /// An observation not yet merged: its value (rendered later), or, when `value` is null, what it
  /// rendered to when seen (`eager_[eager]`).
  struct Observation {
    uint32_t start, end;
    interp::Value value;
    uint32_t eager;
  };
  /// Whether `v` renders the same later as now.
  static bool renderLater(const interp::Value& v);
  ValueInfo renderNow(const interp::Value& v);
  /// Adds one rendered observation to the merged ones.
  void record(uint32_t start, uint32_t end, const ValueInfo& info);
  /// `info` seen again at a span: the fields describe the last one, the types every one.
  void merge(ValueInfo& old, const ValueInfo& info);

  interp::Interpreter& in_;
  std::vector<const lang::SourceFile*> files_;
  size_t textSize_ = 0;  ///< the longest watched text
  bool rendering_ = false;
  std::vector<Observation> pending_;
  std::vector<ValueInfo> eager_;
  /// The observations in the order first seen (take() sorts them in place: one copy in memory).
  std::vector<ValueInfo> values_;
  /// The spans by start byte: 1 + the index of the first one starting there (0: none), then
  /// through `next_` (1 + the index of the next one with the same start). A span lookup is one
  /// array access and a short walk; the unordered_map it replaces cost a cache miss or two per
  /// observation.
  std::vector<uint32_t> firstAt_;
  std::vector<uint32_t> next_;
  std::vector<uint32_t> ends_;  ///< values_[i].end, at hand without touching the record
  RenderCache cache_;
  std::shared_ptr<ValuePool> pool_;

  /// Functions and modules rendered before (every `tf.` of a TF file, every call's callee): the
  /// same object renders the same while it lives, its doc is the same object and its defaults
  /// cannot change (see remember()), so it is not rendered and pooled again. Weak references:
  /// an entry whose object died is never used (its address may hold another object by then).
  struct Memo {
    std::weak_ptr<interp::Object> object, doc;
    bool hadDoc = false;
    ValueInfo info;
  };
  const ValueInfo* remembered(const interp::Value& v) const;
  void remember(const interp::Value& v, const ValueInfo& info);
  std::unordered_map<const interp::Object*, Memo> memo_;
};

}  // namespace tlens::lsp
