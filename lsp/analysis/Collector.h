// Collector: the ValueObserver of an analysis. It renders each value of the analysed document as
// the interpreter reports it (values do not outlive the interpreter) and merges observations of
// the same span (loops, call sites, both branches of an unknown `if`) into one ValueInfo.
// Rendering must not run user code: see Render.h.
#pragma once

#include <cstdint>
#include <memory>
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
  void watch(const lang::SourceFile* file) { files_.push_back(file); }

  void onValue(const lang::SourceFile& file, TSNode expr, const interp::Value& v) override;

  /// The observations sorted by start, then by descending end (outer spans first). Once.
  std::vector<ValueInfo> take();
  RenderCache& cache() { return cache_; }
  /// Where the values' strings and details live (the snapshot keeps it; the globals go there too).
  const std::shared_ptr<ValuePool>& pool() { return pool_; }

 private:
  interp::Interpreter& in_;
  std::vector<const lang::SourceFile*> files_;
  bool rendering_ = false;
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
