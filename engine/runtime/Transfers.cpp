#include "engine/runtime/Transfers.h"

namespace tlens {

Tensor Transfers::place(const Tensor& t, Allocator* to, const std::string& what, bool reuse) {
  if (!t.valid() || !t.buffer() || t.buffer()->allocator() == to) return t;
  const void* key = t.buffer().get();
  if (reuse) {
    auto it = cache_.find(key);
    if (it != cache_.end())
      for (const auto& [a, copy] : it->second.copies)
        if (a == to) return copy.reshaped(t.shape());
  }
  Tensor copy = t.copyTo(to, what.c_str());
  ++count_;
  bytes_ += t.bytes();
  if (log_.size() < kMaxLogged) log_.push_back(Transfer{what, t.device(), to->device(), t.bytes()});
  if (reuse) {
    Entry& e = cache_[key];
    if (!e.source.valid()) e.source = t;
    e.copies.emplace_back(to, copy);
  }
  return copy;
}

void Transfers::forget(const Tensor& t) {
  if (t.valid() && t.buffer() && !cache_.empty()) cache_.erase(t.buffer().get());
}

void Transfers::clear() {
  cache_.clear();
  log_.clear();
  count_ = bytes_ = 0;
}

}  // namespace tlens
