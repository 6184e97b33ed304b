// ChildCache: the children of each syntax node, listed once per tree. Tree-sitter 0.20 walks a
// node's children with a cursor every time they are asked for (and finds a field by walking
// them), which made child listing a sixth of the interpreter's time on functions called many
// times. A SourceFile owns one cache for its tree; lookups go through the tree pointer that every
// TSNode carries, so code holding only a TSNode gets the memo too.
//
// The lists live in arena blocks (no allocation per node) and are found through an
// open-addressing table keyed by the node's id, so a lookup is a hash probe and a listing one
// cursor walk over the node's children. A node's entry, its children and the positions of its
// named children lie next to each other in one piece of the arena: a lookup touches the table's
// slot and then one run of adjacent cache lines (three scattered places before).
#pragma once

#include <cstdint>
#include <atomic>
#include <compare>
#include <cstddef>
#include <iterator>
#include <memory>
#include <mutex>
#include <span>
#include <vector>

#include <tree_sitter/api.h>

namespace tlens::lang {

struct NodeChild {
  TSNode node;
  TSFieldId fieldId;
  /// ts_node_symbol(node), read while listing: a caller walking the list learns each child's
  /// kind without touching the child (a cache miss per node otherwise).
  TSSymbol symbol;
};

/// The named children among a node's children: positions into its `all` list (4 bytes each
/// instead of a second 32-byte copy of every named node).
class NamedChildren {
 public:
  class iterator {
   public:
    using iterator_category = std::random_access_iterator_tag;
    using value_type = TSNode;
    using difference_type = std::ptrdiff_t;
    using pointer = const TSNode*;
    using reference = const TSNode&;
    iterator() = default;
    iterator(const NodeChild* all, const uint32_t* at) : all_(all), at_(at) {}
    reference operator*() const { return all_[*at_].node; }
    pointer operator->() const { return &all_[*at_].node; }
    reference operator[](difference_type i) const { return all_[at_[i]].node; }
    iterator& operator++() { ++at_; return *this; }
    iterator operator++(int) { iterator t = *this; ++at_; return t; }
    iterator& operator--() { --at_; return *this; }
    iterator operator--(int) { iterator t = *this; --at_; return t; }
    iterator& operator+=(difference_type d) { at_ += d; return *this; }
    iterator& operator-=(difference_type d) { at_ -= d; return *this; }
    friend iterator operator+(iterator a, difference_type d) { return a += d; }
    friend iterator operator+(difference_type d, iterator a) { return a += d; }
    friend iterator operator-(iterator a, difference_type d) { return a -= d; }
    friend difference_type operator-(const iterator& a, const iterator& b) { return a.at_ - b.at_; }
    friend bool operator==(const iterator& a, const iterator& b) { return a.at_ == b.at_; }
    friend auto operator<=>(const iterator& a, const iterator& b) { return a.at_ <=> b.at_; }

   private:
    const NodeChild* all_ = nullptr;
    const uint32_t* at_ = nullptr;
  };
  using reverse_iterator = std::reverse_iterator<iterator>;

  NamedChildren() = default;
  NamedChildren(const NodeChild* all, const uint32_t* at, size_t size) : all_(all), at_(at), size_(size) {}
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const TSNode& operator[](size_t i) const { return all_[at_[i]].node; }
  const TSNode& front() const { return (*this)[0]; }
  const TSNode& back() const { return (*this)[size_ - 1]; }
  /// The i-th named child with its field.
  const NodeChild& child(size_t i) const { return all_[at_[i]]; }
  iterator begin() const { return {all_, at_}; }
  iterator end() const { return {all_, at_ + size_}; }
  reverse_iterator rbegin() const { return reverse_iterator(end()); }
  reverse_iterator rend() const { return reverse_iterator(begin()); }

 private:
  const NodeChild* all_ = nullptr;
  const uint32_t* at_ = nullptr;
  size_t size_ = 0;
};

struct NodeChildren {
  std::span<const NodeChild> all;  ///< named and anonymous children, extras (comments) excluded
  NamedChildren named;             ///< the named ones among them
};

class ChildCache {
 public:
  explicit ChildCache(const TSTree* tree);
  ~ChildCache();
  ChildCache(const ChildCache&) = delete;
  ChildCache& operator=(const ChildCache&) = delete;

  /// The children of `n`, a node of this cache's tree. The reference and the spans stay valid
  /// while the tree lives. Thread-safe; a node listed before is found without a lock (the
  /// language server's analysis and its pauser read the embedded modules' trees at once).
  const NodeChildren& of(TSNode n);

  /// The children of any node: memoised when its tree belongs to a live SourceFile, otherwise
  /// listed into a per-thread ring (valid for the next 64 calls on this thread).
  static const NodeChildren& lookup(TSNode n);

 private:
  struct Entry {
    const void* id = nullptr;
    NodeChildren children;
  };
  /// Open addressing by node id, at most half full, without locks: a slot goes from null to its
  /// entry once (compare-exchange, after the entry is complete). A full table is replaced by one
  /// twice its size; the old one stays alive (threads may still be in it) until the cache goes,
  /// which at most doubles the slots' memory. An entry put in the old table while it was being
  /// copied can be missing from the new one: the node is then listed again (a lookup's answer
  /// is the same either way).
  struct Table {
    unsigned bits;
    std::unique_ptr<std::atomic<const Entry*>[]> slots;
    explicit Table(unsigned b);
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
  /// Where entries are made: each thread lists into its own shard (threads analysing the same
  /// tree, such as the language server's analysis and its pauser, neither wait for one lock nor
  /// write the same cache lines). An entry is followed by its children and then the positions of
  /// its named children, in the 8-byte words of `words`.
  struct Word {
    alignas(8) std::byte bytes[8];
  };
  struct alignas(64) Shard {
    std::mutex mutex;  ///< two threads may share a shard
    Arena<Word> words;
  };
  static constexpr size_t kShards = 4;
  /// The entry for `id` in `t`, or null with `slot` the empty slot where it would go.
  static const Entry* find(const Table& t, const void* id, size_t& slot);
  const NodeChildren& ofInner(TSNode n);  ///< of() for a node that is not a leaf
  void grow(const Table& full);

  const TSTree* tree_;
  std::atomic<const Table*> table_;
  std::atomic<size_t> used_{0};
  std::mutex growMutex_;
  std::vector<std::unique_ptr<Table>> tables_;  ///< the current one last (growMutex_)
  Shard shards_[kShards];
};

}  // namespace tlens::lang
