// ChildCache: the children of each syntax node, listed once per tree. Tree-sitter 0.20 walks a
// node's children with a cursor every time they are asked for (and finds a field by walking
// them), which made child listing a sixth of the interpreter's time on functions called many
// times. A SourceFile owns one cache for its tree; lookups go through the tree pointer that every
// TSNode carries, so code holding only a TSNode gets the memo too.
//
// The lists live in arena blocks (no allocation per node) and are found through an
// open-addressing table keyed by the node's id, so a lookup is a hash probe and a listing one
// cursor walk over the node's children.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <span>
#include <vector>

#include <tree_sitter/api.h>

namespace tlens::lang {

struct NodeChild {
  TSNode node;
  TSFieldId fieldId;
};

struct NodeChildren {
  std::span<const NodeChild> all;  ///< named and anonymous children, extras (comments) excluded
  std::span<const TSNode> named;   ///< the named ones among them
};

class ChildCache {
 public:
  explicit ChildCache(const TSTree* tree);
  ~ChildCache();
  ChildCache(const ChildCache&) = delete;
  ChildCache& operator=(const ChildCache&) = delete;

  /// The children of `n`, a node of this cache's tree. The reference and the spans stay valid
  /// while the tree lives. Thread-safe.
  const NodeChildren& of(TSNode n);

  /// The children of any node: memoised when its tree belongs to a live SourceFile, otherwise
  /// listed into a per-thread ring (valid for the next 64 calls on this thread).
  static const NodeChildren& lookup(TSNode n);

 private:
  struct Slot {
    const void* id = nullptr;
    NodeChildren* entry = nullptr;
  };
  /// Room for `n` elements that never moves (a new block when the current one is full).
  template <class T>
  struct Arena {
    std::vector<std::unique_ptr<T[]>> blocks;
    T* next = nullptr;
    size_t left = 0;
    T* take(size_t n);
    /// Returns the last `n` taken.
    void giveBack(size_t n) {
      next -= n;
      left += n;
    }
  };
  void grow();

  const TSTree* tree_;
  std::mutex mutex_;
  std::vector<Slot> slots_;  ///< 2^bits_ of them, at most half full
  unsigned bits_;
  size_t used_ = 0;
  std::deque<NodeChildren> entries_;
  Arena<NodeChild> all_;
  Arena<TSNode> named_;
};

}  // namespace tlens::lang
