#include "lang/syntax/ChildCache.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cstring>
#include <new>
#include <unordered_map>

namespace tlens::lang {
namespace {

std::mutex gRegistryMutex;
std::unordered_map<const TSTree*, ChildCache*>& registry() {
  static auto* r = new std::unordered_map<const TSTree*, ChildCache*>();  // outlives statics
  return *r;
}
/// Bumped whenever a cache comes or goes, so a thread's memo of its last registry hit is
/// dropped when the tree it names may have been freed (and its address reused).
std::atomic<uint64_t> gRegistryGeneration{0};

const NodeChildren kNone;
/// Leaves (two thirds of the nodes) need no entry: nothing to list, nothing to remember.
bool isLeaf(TSNode n) { return (n.id == nullptr) || ts_node_child_count(n) == 0; }

/// One cursor per thread, reset for each node: creating a cursor allocates its stack.
TSTreeCursor* cursorAt(TSNode n) {
  thread_local struct Cursor {
    TSTreeCursor c;
    bool live = false;
    ~Cursor() {
      if (live) ts_tree_cursor_delete(&c);
    }
  } cursor;
  if (cursor.live) {
    ts_tree_cursor_reset(&cursor.c, n);
  } else {
    cursor.c = ts_tree_cursor_new(n);
    cursor.live = true;
  }
  return &cursor.c;
}

/// Lists the children of `n` (at most `count`) into `all`, and the positions of the named ones
/// among them into `named`; returns how many of each.
std::pair<size_t, size_t> list(TSNode n, NodeChild* all, uint32_t* named) {
  size_t a = 0, k = 0;
  TSTreeCursor* c = cursorAt(n);
  if (!ts_tree_cursor_goto_first_child(c)) return {0, 0};
  do {
    TSNode ch = ts_tree_cursor_current_node(c);
    TSSymbol symbol = ts_node_symbol(ch);
    if (ts_node_is_extra(ch) && symbol != static_cast<TSSymbol>(-1)) continue;  // comments
    if (ts_node_is_named(ch)) named[k++] = static_cast<uint32_t>(a);
    all[a++] = {ch, ts_tree_cursor_current_field_id(c), symbol};
  } while (ts_tree_cursor_goto_next_sibling(c));
  return {a, k};
}

/// Fibonacci hashing: the top `bits` bits of the id times 2^64/phi.
size_t slotOf(const void* id, unsigned bits) {
  return static_cast<size_t>((reinterpret_cast<uintptr_t>(id) * 0x9E3779B97F4A7C15ull) >> (64 - bits));
}

}  // namespace

template <class T>
T* ChildCache::Arena<T>::take(size_t n) {
  constexpr size_t kBlock = 4096;
  if (n > left) {
    size_t size = std::max(n, kBlock);
    blocks.push_back(std::make_unique_for_overwrite<T[]>(size));
    next = blocks.back().get();
    left = size;
  }
  T* p = next;
  next += n;
  left -= n;
  return p;
}

ChildCache::Table::Table(unsigned b) : bits(b), slots(new std::atomic<const Entry*>[size_t{1} << b]) {
  for (size_t i = 0; i < (size_t{1} << b); ++i) slots[i].store(nullptr, std::memory_order_relaxed);
}

ChildCache::ChildCache(const TSTree* tree) : tree_(tree) {
  tables_.push_back(std::make_unique<Table>(10));
  table_.store(tables_.back().get(), std::memory_order_release);
  std::lock_guard<std::mutex> lock(gRegistryMutex);
  registry()[tree_] = this;
  gRegistryGeneration.fetch_add(1, std::memory_order_acq_rel);
}

ChildCache::~ChildCache() {
  std::lock_guard<std::mutex> lock(gRegistryMutex);
  registry().erase(tree_);
  gRegistryGeneration.fetch_add(1, std::memory_order_acq_rel);
}

const ChildCache::Entry* ChildCache::find(const Table& t, const void* id, size_t& slot) {
  size_t mask = (size_t{1} << t.bits) - 1;
  for (size_t i = slotOf(id, t.bits);; i = (i + 1) & mask) {
    const Entry* e = t.slots[i].load(std::memory_order_acquire);
    if (!e || e->id == id) {
      slot = i;
      return e;
    }
  }
}

void ChildCache::grow(const Table& full) {
  std::lock_guard<std::mutex> lock(growMutex_);
  if (tables_.back().get() != &full) return;  // another thread grew it
  auto bigger = std::make_unique<Table>(full.bits + 1);
  size_t mask = (size_t{1} << bigger->bits) - 1;
  size_t copied = 0;
  for (size_t k = 0; k < (size_t{1} << full.bits); ++k) {
    const Entry* e = full.slots[k].load(std::memory_order_acquire);
    if (!e) continue;
    size_t i = slotOf(e->id, bigger->bits);
    while (bigger->slots[i].load(std::memory_order_relaxed)) i = (i + 1) & mask;
    bigger->slots[i].store(e, std::memory_order_relaxed);
    ++copied;
  }
  used_.store(copied, std::memory_order_relaxed);
  tables_.push_back(std::move(bigger));
  table_.store(tables_.back().get(), std::memory_order_release);  // publishes the copied slots too
}

const NodeChildren& ChildCache::of(TSNode n) { return (n.id == nullptr) ? kNone : ofInner(n); }

const NodeChildren& ChildCache::ofInner(TSNode n) {
  size_t slot;
  const Table* t = table_.load(std::memory_order_acquire);
  if (const Entry* e = find(*t, n.id, slot)) {
    // The caller most likely visits the named children next: start fetching their nodes and
    // their slots here (each would otherwise be a cache miss, one after the other).
    const NamedChildren& named = e->children.named;
    size_t k = std::min<size_t>(named.size(), 6);
    for (size_t i = 0; i < k; ++i) {
      __builtin_prefetch(named[i].id);
      __builtin_prefetch(&t->slots[slotOf(named[i].id, t->bits)]);
    }
    return e->children;
  }
  // Not listed yet, or a leaf (no entry): only now is the node itself read (a cache miss a
  // listed node's lookup does not pay).
  if (ts_node_child_count(n) == 0) return kNone;
  // List the node into this thread's shard.
  static std::atomic<size_t> threads{0};
  thread_local size_t shardOfThread = threads.fetch_add(1, std::memory_order_relaxed) % kShards;
  Shard& shard = shards_[shardOfThread];
  Entry* made;
  {
    static_assert(sizeof(Entry) % 8 == 0 && alignof(Entry) <= 8 && alignof(NodeChild) <= 8);
    auto words = [](size_t bytes) { return (bytes + 7) / 8; };
    std::lock_guard<std::mutex> lock(shard.mutex);
    uint32_t count = ts_node_child_count(n);
    size_t taken = words(sizeof(Entry) + count * (sizeof(NodeChild) + sizeof(uint32_t)));
    Word* piece = shard.words.take(taken);
    made = new (piece) Entry;
    made->id = n.id;
    auto* all = reinterpret_cast<NodeChild*>(piece + sizeof(Entry) / 8);
    auto* named = reinterpret_cast<uint32_t*>(all + count);
    auto [a, k] = list(n, all, named);
    // The named positions right after the children that were listed (extras such as comments
    // are not), and the rest of the piece back to the arena.
    auto* packed = reinterpret_cast<uint32_t*>(all + a);
    if (packed != named) std::memmove(packed, named, k * sizeof(uint32_t));
    shard.words.giveBack(taken - words(sizeof(Entry) + a * sizeof(NodeChild) + k * sizeof(uint32_t)));
    made->children.all = {all, a};
    made->children.named = {all, packed, k};
  }
  // Publish it; another thread may have listed the same node meanwhile (then its entry wins and
  // ours stays unused in the arena).
  while (true) {
    const Entry* expected = nullptr;
    if (t->slots[slot].compare_exchange_strong(expected, made, std::memory_order_acq_rel, std::memory_order_acquire)) {
      if ((used_.fetch_add(1, std::memory_order_relaxed) + 1) * 2 > (size_t{1} << t->bits)) grow(*t);
      return made->children;
    }
    if (expected->id == n.id) return expected->children;
    if (const Entry* e = find(*t, n.id, slot)) return e->children;  // else `slot` is the next free one
  }
}

const NodeChildren& ChildCache::lookup(TSNode n) {
  if (n.id == nullptr) return kNone;
  ChildCache* cache = nullptr;
  {
    // Lookups alternate between a few trees (the user's file, the embedded modules' files):
    // each thread remembers its last few hits, forgotten whenever a cache comes or goes.
    struct Hit {
      const TSTree* tree = nullptr;
      ChildCache* cache = nullptr;
    };
    thread_local std::array<Hit, 8> hits;
    thread_local size_t nextHit = 0;
    thread_local uint64_t hitsGeneration = ~0ull;
    uint64_t generation = gRegistryGeneration.load(std::memory_order_acquire);
    if (generation != hitsGeneration) {
      hits = {};
      hitsGeneration = generation;
    }
    for (const Hit& h : hits)
      if (h.tree == n.tree) {
        cache = h.cache;
        break;
      }
    if (!cache) {
      std::lock_guard<std::mutex> lock(gRegistryMutex);
      auto it = registry().find(n.tree);
      if (it != registry().end()) {
        cache = it->second;
        // Only when no cache came or went since `generation` was read: the hit is still true.
        if (gRegistryGeneration.load(std::memory_order_relaxed) == generation)
          hits[nextHit++ % hits.size()] = {n.tree, cache};
      }
    }
  }
  if (cache) return cache->ofInner(n);
  if (isLeaf(n)) return kNone;
  struct Listed {
    std::vector<NodeChild> all;
    std::vector<uint32_t> named;
    NodeChildren view;
  };
  thread_local std::array<Listed, 64> ring;
  thread_local size_t next = 0;
  Listed& slot = ring[next++ % ring.size()];
  uint32_t count = ts_node_child_count(n);
  slot.all.resize(count);
  slot.named.resize(count);
  auto [a, k] = list(n, slot.all.data(), slot.named.data());
  slot.view = {{slot.all.data(), a}, {slot.all.data(), slot.named.data(), k}};
  return slot.view;
}

}  // namespace tlens::lang
