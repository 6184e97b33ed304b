// ChildCache: the children of each syntax node, listed once per tree. Tree-sitter 0.20 walks a
// node's children with a cursor every time they are asked for (and finds a field by walking
// them), which made child listing a sixth of the interpreter's time on functions called many
// times. A SourceFile owns one cache for its tree; lookups go through the tree pointer that every
// TSNode carries, so code holding only a TSNode gets the memo too.
#pragma once

#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#include <tree_sitter/api.h>

namespace tlens::lang {

struct NodeChild {
  TSNode node;
  TSFieldId fieldId;
};

struct NodeChildren {
  std::vector<NodeChild> all;   ///< named and anonymous children, extras (comments) excluded
  std::vector<TSNode> named;    ///< the named ones among them
};

class ChildCache {
 public:
  explicit ChildCache(const TSTree* tree);
  ~ChildCache();
  ChildCache(const ChildCache&) = delete;
  ChildCache& operator=(const ChildCache&) = delete;

  /// The children of `n`, a node of this cache's tree. The reference stays valid while the tree
  /// lives. Thread-safe.
  const NodeChildren& of(TSNode n);

  /// The children of any node: memoised when its tree belongs to a live SourceFile, otherwise
  /// listed into a per-thread ring (valid for the next 64 calls on this thread).
  static const NodeChildren& lookup(TSNode n);

 private:
  const TSTree* tree_;
  std::mutex mutex_;
  std::unordered_map<const void*, NodeChildren> byNode_;
};

}  // namespace tlens::lang
