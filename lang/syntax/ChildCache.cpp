#include "lang/syntax/ChildCache.h"

#include <array>

namespace tlens::lang {
namespace {

std::mutex gRegistryMutex;
std::unordered_map<const TSTree*, ChildCache*>& registry() {
  static auto* r = new std::unordered_map<const TSTree*, ChildCache*>();  // outlives statics
  return *r;
}

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

void list(TSNode n, NodeChildren& out) {
  if (ts_node_is_null(n)) return;
  uint32_t count = ts_node_child_count(n);
  if (count == 0) return;
  out.all.reserve(count);
  out.named.reserve(ts_node_named_child_count(n));
  TSTreeCursor* c = cursorAt(n);
  if (!ts_tree_cursor_goto_first_child(c)) return;
  do {
    TSNode ch = ts_tree_cursor_current_node(c);
    if (isExtra(ch)) continue;
    out.all.push_back({ch, ts_tree_cursor_current_field_id(c)});
    if (ts_node_is_named(ch)) out.named.push_back(ch);
  } while (ts_tree_cursor_goto_next_sibling(c));
}

}  // namespace

ChildCache::ChildCache(const TSTree* tree) : tree_(tree) {
  std::lock_guard<std::mutex> lock(gRegistryMutex);
  registry()[tree_] = this;
}

ChildCache::~ChildCache() {
  std::lock_guard<std::mutex> lock(gRegistryMutex);
  registry().erase(tree_);
}

const NodeChildren& ChildCache::of(TSNode n) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto [it, added] = byNode_.try_emplace(n.id);
  if (added) list(n, it->second);
  return it->second;
}

const NodeChildren& ChildCache::lookup(TSNode n) {
  ChildCache* cache = nullptr;
  if (!ts_node_is_null(n)) {
    std::lock_guard<std::mutex> lock(gRegistryMutex);
    auto it = registry().find(n.tree);
    if (it != registry().end()) cache = it->second;
  }
  if (cache) return cache->of(n);
  thread_local std::array<NodeChildren, 64> ring;
  thread_local size_t next = 0;
  NodeChildren& slot = ring[next++ % ring.size()];
  slot.all.clear();
  slot.named.clear();
  list(n, slot);
  return slot;
}

}  // namespace tlens::lang
