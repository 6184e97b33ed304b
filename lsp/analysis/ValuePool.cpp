#include "lsp/analysis/ValuePool.h"

#include <algorithm>
#include <cstring>
#include <functional>

namespace tlens::lsp {

const ValueDetail ValueInfo::kNoDetail;

namespace {

constexpr size_t kChunk = 64 * 1024;

void mix(size_t& h, size_t v) { h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2); }
void mix(size_t& h, std::string_view s) { mix(h, std::hash<std::string_view>{}(s)); }

bool noDetail(const RenderedValue& r) {
  return r.placementNote.empty() && r.opSummary.empty() && r.signature.empty() && r.params.empty() && r.doc.empty() &&
         r.summaryRows.empty();
}

}  // namespace

size_t ValuePool::DetailHash::operator()(const ValueDetail* d) const {
  size_t h = 0;
  mix(h, d->placementNote);
  mix(h, d->opSummary);
  mix(h, d->signature);
  mix(h, d->doc);
  for (const auto& p : d->params) mix(h, p);
  mix(h, d->params.size());
  for (const auto& row : d->summaryRows) {
    for (const auto& c : row) mix(h, c);
    mix(h, row.size());
  }
  for (const auto& t : d->types) mix(h, t);
  mix(h, d->types.size());
  return h;
}

ValuePool::ValuePool() = default;

namespace {

size_t recentSlot(std::string_view s) {
  size_t h = s.size() * 0x9E3779B97F4A7C15ull;
  h ^= static_cast<unsigned char>(s.front()) * 0x100000001B3ull;
  h ^= static_cast<size_t>(static_cast<unsigned char>(s.back())) << 7;
  h ^= static_cast<size_t>(static_cast<unsigned char>(s[s.size() / 2])) << 13;
  return (h ^ (h >> 29)) & 63;
}

}  // namespace

const char* ValuePool::intern(std::string_view s) {
  if (s.empty()) return nullptr;
  const char*& recent = recent_[recentSlot(s)];
  if (recent && ValueInfo::text(recent) == s) return recent;
  if (auto it = stringIndex_.find(s); it != stringIndex_.end()) return recent = it->data();
  // [uint32 size][bytes], the next entry 4-aligned so the size is read where it was written.
  size_t need = (sizeof(uint32_t) + s.size() + 3) & ~size_t(3);
  if (chunks_.empty() || chunkUsed_ + need > chunkSize_) {
    chunkSize_ = std::max(kChunk, need);
    chunks_.push_back(std::make_unique<char[]>(chunkSize_));
    chunkBytes_ += chunkSize_;
    chunkUsed_ = 0;
  }
  char* at = chunks_.back().get() + chunkUsed_;
  uint32_t n = static_cast<uint32_t>(s.size());
  std::memcpy(at, &n, sizeof n);
  std::memcpy(at + sizeof n, s.data(), s.size());
  chunkUsed_ += need;
  ++strings_;
  std::string_view stored(at + sizeof n, s.size());
  stringIndex_.insert(stored);
  return recent = stored.data();
}

const ValueDetail* ValuePool::intern(ValueDetail&& d) {
  if (auto it = detailIndex_.find(&d); it != detailIndex_.end()) return *it;
  const ValueDetail* stored = &details_.emplace_back(std::move(d));
  detailIndex_.insert(stored);
  return stored;
}

ValueInfo ValuePool::add(RenderedValue&& r) {
  ValueInfo v;
  v.kind = r.kind;
  v.known = r.known;
  v.type_ = intern(r.type);
  v.value_ = intern(r.value);
  v.device_ = intern(r.device);
  v.node_ = intern(r.node);
  v.op_ = intern(r.op);
  if (!noDetail(r)) {
    ValueDetail d;
    d.placementNote = std::move(r.placementNote);
    d.opSummary = std::move(r.opSummary);
    d.signature = std::move(r.signature);
    d.params = std::move(r.params);
    d.doc = std::move(r.doc);
    d.summaryRows = std::move(r.summaryRows);
    v.detail_ = intern(std::move(d));
  }
  if (r.members) {
    if (memberIndex_.insert(r.members.get()).second) members_.push_back(r.members);
    v.members_ = r.members.get();
  }
  return v;
}

void ValuePool::setTypes(ValueInfo& v, std::vector<std::string> types) {
  if (v.types() == types) return;
  ValueDetail d = v.detail();
  d.types = std::move(types);
  v.detail_ = d == ValueInfo::kNoDetail ? nullptr : intern(std::move(d));
}

void ValuePool::finish() {
  recent_ = {};
  stringIndex_ = {};
  detailIndex_ = {};
  memberIndex_ = {};
}

size_t ValuePool::bytes() const {
  size_t n = sizeof *this + chunkBytes_ + chunks_.capacity() * sizeof(chunks_[0]) + members_.capacity() * sizeof(Members);
  auto str = [](const std::string& s) { return s.capacity() > 15 ? s.capacity() + 1 : 0; };
  for (const ValueDetail& d : details_) {
    n += sizeof d + str(d.placementNote) + str(d.opSummary) + str(d.signature) + str(d.doc);
    n += d.params.capacity() * sizeof(std::string) + d.types.capacity() * sizeof(std::string);
    for (const auto& p : d.params) n += str(p);
    for (const auto& t : d.types) n += str(t);
    n += d.summaryRows.capacity() * sizeof(d.summaryRows[0]);
    for (const auto& row : d.summaryRows) {
      n += row.capacity() * sizeof(std::string);
      for (const auto& c : row) n += str(c);
    }
  }
  return n;
}

}  // namespace tlens::lsp
