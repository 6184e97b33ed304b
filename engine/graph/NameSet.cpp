#include "engine/graph/NameSet.h"

#include <algorithm>
#include <cstring>
#include <functional>

namespace tlens {

namespace {
uint64_t hashOf(std::string_view s) { return std::hash<std::string_view>{}(s); }
/// Where probing for `hash` starts in a table of `size` slots (a power of two).
size_t firstSlot(uint64_t hash, size_t size) { return (hash * 0x9E3779B97F4A7C15ull) >> 20 & (size - 1); }
}  // namespace

NameSet::NameSet() : slots_(64) {}

size_t NameSet::find(std::string_view name, uint64_t hash) const {
  size_t mask = slots_.size() - 1;
  for (size_t i = firstSlot(hash, slots_.size());; i = (i + 1) & mask) {
    const Slot& s = slots_[i];
    if (!s.data || (s.hash == hash && s.size == name.size() && std::memcmp(s.data, name.data(), name.size()) == 0))
      return i;
  }
}

bool NameSet::contains(std::string_view name) const { return slots_[find(name, hashOf(name))].data != nullptr; }

std::string_view NameSet::store(std::string_view name) {
  constexpr size_t kBlock = 16 * 1024;
  if (name.size() > left_) {
    size_t size = std::max(kBlock, name.size());
    blocks_.push_back(std::make_unique_for_overwrite<char[]>(size));
    next_ = blocks_.back().get();
    left_ = size;
  }
  if (!name.empty()) std::memcpy(next_, name.data(), name.size());
  std::string_view stored(next_, name.size());
  next_ += name.size();
  left_ -= name.size();
  return stored;
}

bool NameSet::insert(std::string_view name) {
  uint64_t h = hashOf(name);
  size_t i = find(name, h);
  if (slots_[i].data) return false;
  std::string_view stored = store(name);
  // An empty name is stored as a non-null pointer too (data marks a used slot).
  slots_[i] = Slot{h, stored.data() ? stored.data() : "", static_cast<uint32_t>(stored.size())};
  if (++size_ * 2 > slots_.size()) grow();
  return true;
}

void NameSet::grow() {
  std::vector<Slot> old(slots_.size() * 2);
  old.swap(slots_);
  size_t mask = slots_.size() - 1;
  for (const Slot& s : old) {
    if (!s.data) continue;
    size_t i = firstSlot(s.hash, slots_.size());
    while (slots_[i].data) i = (i + 1) & mask;
    slots_[i] = s;
  }
}

}  // namespace tlens
