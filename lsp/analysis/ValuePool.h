// ValuePool: the storage behind a snapshot's ValueInfos (Snapshot.h). A 5,000-line TF file has
// ~43,000 observed values whose strings mostly repeat ("/cpu:0", "Relu", "float32[?, 784]") and
// whose rare facts (signatures, docs, Keras summaries, placement notes) are empty for most. The
// pool keeps each distinct string once (length-prefixed, in large chunks) and each distinct
// ValueDetail once, so a ValueInfo is a few pointers (72 bytes instead of 400 plus its strings).
//
// An analysis fills one pool (Collector, then the globals in Analyzer.cpp) on its own thread,
// calls finish() and hands it to the snapshot, which keeps it as `shared_ptr<const ValuePool>`:
// nothing is added after, so any thread may read the values without locks.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "lsp/analysis/Snapshot.h"

namespace tlens::lsp {

/// A value as Render.cpp renders it, every field its own string; ValuePool::add() turns it into
/// the compact ValueInfo. Lives only while the value is being collected.
struct RenderedValue {
  using Kind = ValueInfo::Kind;
  Kind kind = Kind::Unknown;
  std::string type;
  bool known = false;
  std::string value;
  std::string device;
  std::string placementNote;
  std::string node;
  std::string op;
  std::string opSummary;
  std::string signature;
  std::vector<std::string> params;
  std::string doc;
  std::vector<std::vector<std::string>> summaryRows;
  Members members;
};

class ValuePool {
 public:
  ValuePool();
  ValuePool(const ValuePool&) = delete;
  ValuePool& operator=(const ValuePool&) = delete;

  /// The compact form of `r`: its strings and details pooled, its members held. Span unset.
  ValueInfo add(RenderedValue&& r);
  /// Makes `types` the list of types `v` was seen with (Collector merging observations).
  void setTypes(ValueInfo& v, std::vector<std::string> types);
  /// Drops the look-up tables used while adding (nothing may be added after).
  void finish();

  /// Bytes held for the values' strings, details and member lists' handles (not the lists).
  size_t bytes() const;
  size_t strings() const { return strings_; }
  size_t details() const { return details_.size(); }

 private:
  const char* intern(std::string_view s);
  const ValueDetail* intern(ValueDetail&& d);

  struct DetailHash {
    size_t operator()(const ValueDetail* d) const;
  };
  struct DetailEq {
    bool operator()(const ValueDetail* a, const ValueDetail* b) const { return *a == *b; }
  };

  std::vector<std::unique_ptr<char[]>> chunks_;
  size_t chunkUsed_ = 0, chunkSize_ = 0, chunkBytes_ = 0, strings_ = 0;
  std::deque<ValueDetail> details_;
  std::vector<Members> members_;
  // While adding only (finish() frees them).
  /// Strings interned lately, by a cheap hash of their length and a few bytes: most of a
  /// value's strings ("Tensor", the device, the op, a type) repeat earlier values', and are
  /// found here without hashing all their bytes and probing the index.
  std::array<const char*, 64> recent_{};
  std::unordered_set<std::string_view> stringIndex_;
  std::unordered_set<const ValueDetail*, DetailHash, DetailEq> detailIndex_;
  std::unordered_set<const std::vector<Member>*> memberIndex_;
};

}  // namespace tlens::lsp
