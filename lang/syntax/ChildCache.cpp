#include "lang/syntax/ChildCache.h"

#include <algorithm>
#include <array>
#include <atomic>
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

bool isExtra(TSNode n) { return ts_node_is_extra(n) && ts_node_symbol(n) != static_cast<TSSymbol>(-1); }

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
    if (isExtra(ch)) continue;
    if (ts_node_is_named(ch)) named[k++] = static_cast<uint32_t>(a);
    all[a++] = {ch, ts_tree_cursor_current_field_id(c)};
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

ChildCache::ChildCache(const TSTree* tree) : tree_(tree), slots_(size_t{1} << 10), bits_(10) {
  std::lock_guard<std::mutex> lock(gRegistryMutex);
  registry()[tree_] = this;
  gRegistryGeneration.fetch_add(1, std::memory_order_acq_rel);
}

ChildCache::~ChildCache() {
  std::lock_guard<std::mutex> lock(gRegistryMutex);
  registry().erase(tree_);
  gRegistryGeneration.fetch_add(1, std::memory_order_acq_rel);
}

void ChildCache::grow() {
  std::vector<Slot> old(slots_.size() * 2);
  old.swap(slots_);
  ++bits_;
  size_t mask = slots_.size() - 1;
  for (const Slot& s : old) {
    if (!s.id) continue;
    size_t i = slotOf(s.id, bits_);
    while (slots_[i].id) i = (i + 1) & mask;
    slots_[i] = s;
  }
}

const NodeChildren& ChildCache::of(TSNode n) {
  static const NodeChildren kNone;
  if (ts_node_is_null(n)) return kNone;
  std::lock_guard<std::mutex> lock(mutex_);
  size_t mask = slots_.size() - 1;
  size_t i = slotOf(n.id, bits_);
  for (; slots_[i].id; i = (i + 1) & mask)
    if (slots_[i].id == n.id) return *slots_[i].entry;
  NodeChildren& e = entries_.emplace_back();
  if (uint32_t count = ts_node_child_count(n)) {
    NodeChild* all = all_.take(count);
    uint32_t* named = named_.take(count);
    auto [a, k] = list(n, all, named);
    all_.giveBack(count - a);  // what the extras (comments) and anonymous children did not use
    named_.giveBack(count - k);
    e.all = {all, a};
    e.named = {all, named, k};
  }
  slots_[i] = {n.id, &e};
  if (++used_ * 2 > slots_.size()) grow();
  return e;
}

const NodeChildren& ChildCache::lookup(TSNode n) {
  ChildCache* cache = nullptr;
  if (!ts_node_is_null(n)) {
    // Most lookups in a row are in the same tree: remember the last hit per thread.
    thread_local const TSTree* lastTree = nullptr;
    thread_local ChildCache* lastCache = nullptr;
    thread_local uint64_t lastGeneration = ~0ull;
    uint64_t generation = gRegistryGeneration.load(std::memory_order_acquire);
    if (n.tree == lastTree && generation == lastGeneration) {
      cache = lastCache;
    } else {
      std::lock_guard<std::mutex> lock(gRegistryMutex);
      auto it = registry().find(n.tree);
      if (it != registry().end()) {
        cache = it->second;
        lastTree = n.tree;
        lastCache = cache;
        lastGeneration = gRegistryGeneration.load(std::memory_order_relaxed);
      }
    }
  }
  if (cache) return cache->of(n);
  struct Listed {
    std::vector<NodeChild> all;
    std::vector<uint32_t> named;
    NodeChildren view;
  };
  thread_local std::array<Listed, 64> ring;
  thread_local size_t next = 0;
  Listed& slot = ring[next++ % ring.size()];
  slot.view = {};
  if (!ts_node_is_null(n)) {
    uint32_t count = ts_node_child_count(n);
    slot.all.resize(count);
    slot.named.resize(count);
    auto [a, k] = list(n, slot.all.data(), slot.named.data());
    slot.view = {{slot.all.data(), a}, {slot.all.data(), slot.named.data(), k}};
  }
  return slot.view;
}

}  // namespace tlens::lang
