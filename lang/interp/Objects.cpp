#include "lang/interp/Objects.h"

#include "lang/interp/Machine.h"

namespace tlens::interp {

// ---- Namespace ---------------------------------------------------------------------------------

// Small namespaces (most function locals, small instances) are scanned instead of hashed: up to
// kLinear entries the index stays empty (the tags are scanned, newest first); past that it
// holds every name.
namespace {
constexpr size_t kLinear = 16;
}

namespace {
size_t slotHash(uint64_t tag, std::string_view name) {
  uint64_t h = tag;
  if (name.size() > 7) h ^= std::hash<std::string_view>()(name.substr(7));
  h *= 0x9e3779b97f4a7c15ull;
  return static_cast<size_t>(h ^ (h >> 29));
}
}  // namespace

ptrdiff_t Namespace::indexOf(std::string_view name, uint64_t tag) const {
  if (slots_.empty()) {
    for (size_t i = entries_.size(); i-- > 0;)
      if (matches(i, tag, name)) return static_cast<ptrdiff_t>(i);
    return -1;
  }
  size_t mask = slots_.size() - 1;
  for (size_t k = slotHash(tag, name) & mask;; k = (k + 1) & mask) {
    uint32_t at = slots_[k];
    if (!at) return -1;
    if (matches(at - 1, tag, name)) return at - 1;
  }
}

void Namespace::indexEntry(size_t i) {
  size_t mask = slots_.size() - 1;
  const std::string& name = entries_[i].first;
  for (size_t k = slotHash(tags_[i], name) & mask;; k = (k + 1) & mask) {
    uint32_t at = slots_[k];
    if (!at || matches(at - 1, tags_[i], name)) {
      slots_[k] = static_cast<uint32_t>(i + 1);
      return;
    }
  }
}

void Namespace::rebuildIndex(size_t slots) {
  slots_.assign(slots, 0);
  for (size_t i = 0; i < entries_.size(); ++i)
    if (entries_[i].second) indexEntry(i);
}

const Value* Namespace::find(std::string_view name) const {
  ptrdiff_t i = indexOf(name, tagOf(name));
  if (i < 0) return nullptr;
  const Value& v = entries_[static_cast<size_t>(i)].second;
  return v ? &v : nullptr;
}

Value* Namespace::find(std::string_view name) {
  return const_cast<Value*>(static_cast<const Namespace*>(this)->find(name));
}

void Namespace::set(std::string_view name, Value v) {
  if (!v) {
    erase(name);
    return;
  }
  uint64_t tag = tagOf(name);
  ptrdiff_t i = indexOf(name, tag);
  if (i >= 0 && entries_[static_cast<size_t>(i)].second) {
    entries_[static_cast<size_t>(i)].second = std::move(v);
    return;
  }
  // New, or erased before: a new entry at the end (insertion order, as Python dicts).
  entries_.emplace_back(std::string(name), std::move(v));
  tags_.push_back(tag);
  ++live_;
  if (entries_.size() <= kLinear) return;
  if (slots_.size() < 2 * entries_.size()) {
    size_t n = 64;
    while (n < 2 * entries_.size()) n *= 2;
    rebuildIndex(n);
  } else {
    indexEntry(entries_.size() - 1);
  }
}

bool Namespace::erase(std::string_view name) {
  Value* v = find(name);
  if (!v) return false;
  v->reset();  // its slot stays, naming an erased entry until a re-add or a compaction
  --live_;
  if (entries_.size() > 32 && live_ * 2 < entries_.size()) {
    std::vector<std::pair<std::string, Value>> kept;
    std::vector<uint64_t> keptTags;
    kept.reserve(live_);
    keptTags.reserve(live_);
    for (size_t i = 0; i < entries_.size(); ++i)
      if (entries_[i].second) {
        kept.push_back(std::move(entries_[i]));
        keptTags.push_back(tags_[i]);
      }
    entries_ = std::move(kept);
    tags_ = std::move(keptTags);
    slots_.clear();
    if (entries_.size() > kLinear) {
      size_t n = 64;
      while (n < 2 * entries_.size()) n *= 2;
      rebuildIndex(n);
    }
  }
  return true;
}

void Namespace::clear() {
  // Move out first: destroying values may re-enter this namespace (a __del__-free world, but
  // clearing a cycle can destroy the object that owns this namespace's sibling).
  auto old = std::move(entries_);
  entries_.clear();
  tags_.clear();
  slots_.clear();
  live_ = 0;
  old.clear();
}

std::vector<std::pair<std::string, Value>> Namespace::items() const {
  std::vector<std::pair<std::string, Value>> out;
  out.reserve(live_);
  for (const auto& e : entries_)
    if (e.second) out.push_back(e);
  return out;
}

// ---- StrObj ------------------------------------------------------------------------------------

bool StrObj::isAscii() const {
  if (ascii_ < 0) {
    ascii_ = 1;
    for (unsigned char c : value)
      if (c >= 0x80) {
        ascii_ = 0;
        break;
      }
  }
  return ascii_ == 1;
}

void StrObj::index() const {
  if (!starts_.empty() || value.empty()) return;
  for (uint32_t i = 0; i < value.size(); ++i)
    if ((static_cast<unsigned char>(value[i]) & 0xC0) != 0x80) starts_.push_back(i);
}

size_t StrObj::length() const {
  if (isAscii()) return value.size();
  index();
  return starts_.size();
}

std::string_view StrObj::slice(size_t b, size_t e) const {
  if (isAscii()) {
    b = std::min(b, value.size());
    e = std::min(std::max(e, b), value.size());
    return std::string_view(value).substr(b, e - b);
  }
  index();
  size_t n = starts_.size();
  b = std::min(b, n);
  e = std::min(std::max(e, b), n);
  size_t bb = b < n ? starts_[b] : value.size();
  size_t eb = e < n ? starts_[e] : value.size();
  return std::string_view(value).substr(bb, eb - bb);
}

// ---- HashTable ---------------------------------------------------------------------------------

void HashTable::insert(Value key, Value value, int64_t hash) {
  index_.emplace(hash, static_cast<uint32_t>(entries_.size()));
  entries_.push_back({std::move(key), std::move(value), hash});
  ++live_;
}

void HashTable::removeAt(int i) {
  Entry& e = entries_[static_cast<size_t>(i)];
  auto [b, en] = index_.equal_range(e.hash);
  for (auto it = b; it != en; ++it)
    if (it->second == static_cast<uint32_t>(i)) {
      index_.erase(it);
      break;
    }
  e.key.reset();
  e.value.reset();
  --live_;
  if (entries_.size() > 32 && live_ * 2 < entries_.size()) compact();
}

void HashTable::compact() {
  std::vector<Entry> kept;
  kept.reserve(live_);
  for (auto& e : entries_)
    if (e.key) kept.push_back(std::move(e));
  entries_ = std::move(kept);
  index_.clear();
  for (size_t i = 0; i < entries_.size(); ++i) index_.emplace(entries_[i].hash, static_cast<uint32_t>(i));
}

void HashTable::clear() {
  auto old = std::move(entries_);
  entries_.clear();
  index_.clear();
  live_ = 0;
  old.clear();
}

std::vector<HashTable::Entry> HashTable::entries() const {
  std::vector<Entry> out;
  out.reserve(live_);
  for (const auto& e : entries_)
    if (e.key) out.push_back(e);
  return out;
}

// ---- DictObj / SetObj --------------------------------------------------------------------------

namespace {
int64_t strHash(std::string_view s) { return static_cast<int64_t>(std::hash<std::string_view>()(s)); }
}  // namespace

Value DictObj::get(Interpreter& in, const Value& key) const {
  if (const std::string* s = asString(key)) return getStr(*s);
  Machine& m = in.machine();
  int64_t h = m.hash(key);
  int i = table.find(h, [&](const Value& k) { return m.equal(k, key) == Truth::True; });
  return i < 0 ? nullptr : table.at(i).value;
}

void DictObj::syncMirror() {
  if (!mirror) return;
  std::vector<std::string> gone;
  mirror->forEach([&](const std::string& k, const Value&) {
    if (!getStr(k)) gone.push_back(k);
  });
  for (const auto& k : gone) mirror->erase(k);
  table.forEach([&](const HashTable::Entry& e) {
    if (const std::string* ks = asString(e.key)) mirror->set(*ks, e.value);
  });
}

void DictObj::set(Interpreter& in, const Value& key, Value value) {
  if (const std::string* s = asString(key)) {
    int64_t h = strHash(*s);
    int i = table.find(h, [&](const Value& k) {
      const std::string* ks = asString(k);
      return ks && *ks == *s;
    });
    if (i >= 0) table.at(i).value = value;
    else table.insert(key, value, h);
    if (mirror) mirror->set(*s, std::move(value));
    return;
  }
  Machine& m = in.machine();
  int64_t h = m.hash(key);
  int i = table.find(h, [&](const Value& k) { return m.equal(k, key) == Truth::True; });
  if (i >= 0) table.at(i).value = std::move(value);
  else table.insert(key, std::move(value), h);
}

bool DictObj::erase(Interpreter& in, const Value& key) {
  Machine& m = in.machine();
  int64_t h = m.hash(key);
  int i = table.find(h, [&](const Value& k) { return m.equal(k, key) == Truth::True; });
  if (i < 0) return false;
  table.removeAt(i);
  if (mirror)
    if (const std::string* s = asString(key)) mirror->erase(*s);
  return true;
}

Value DictObj::getStr(std::string_view key) const {
  int i = table.find(strHash(key), [&](const Value& k) {
    const std::string* ks = asString(k);
    return ks && *ks == key;
  });
  return i < 0 ? nullptr : table.at(i).value;
}

void DictObj::setStr(std::string_view key, Value value) {
  int64_t h = strHash(key);
  int i = table.find(h, [&](const Value& k) {
    const std::string* ks = asString(k);
    return ks && *ks == key;
  });
  if (i >= 0) table.at(i).value = std::move(value);
  else table.insert(makeStr(std::string(key)), std::move(value), h);
}

bool SetObj::contains(Interpreter& in, const Value& key) const {
  Machine& m = in.machine();
  int64_t h = m.hash(key);
  return table.find(h, [&](const Value& k) { return m.equal(k, key) == Truth::True; }) >= 0;
}

void SetObj::add(Interpreter& in, const Value& key) {
  Machine& m = in.machine();
  int64_t h = m.hash(key);
  if (table.find(h, [&](const Value& k) { return m.equal(k, key) == Truth::True; }) < 0) table.insert(key, nullptr, h);
}

bool SetObj::discard(Interpreter& in, const Value& key) {
  Machine& m = in.machine();
  int64_t h = m.hash(key);
  int i = table.find(h, [&](const Value& k) { return m.equal(k, key) == Truth::True; });
  if (i < 0) return false;
  table.removeAt(i);
  return true;
}

std::vector<Value> SetObj::items() const {
  std::vector<Value> out;
  out.reserve(table.size());
  table.forEach([&](const HashTable::Entry& e) { out.push_back(e.key); });
  return out;
}

// ---- RangeObj / SliceObj -----------------------------------------------------------------------

int64_t RangeObj::length() const {
  if (step > 0 && start < stop) return (stop - start - 1) / step + 1;
  if (step < 0 && start > stop) return (start - stop - 1) / (-step) + 1;
  return 0;
}

SliceObj::Bounds SliceObj::indices(Interpreter& in, int64_t length) const {
  Machine& m = in.machine();
  int64_t st = 1;
  if (!isNone(step)) {
    st = m.toIndex(step, "slice indices");
    if (st == 0) m.valueError("slice step cannot be zero");
  }
  auto clamp = [&](const Value& v, int64_t dflt, bool isStart) {
    if (isNone(v)) return dflt;
    int64_t i = m.toIndex(v, "slice indices");
    if (i < 0) {
      i += length;
      if (i < 0) i = st < 0 ? -1 : 0;
    } else if (i >= length) {
      i = st < 0 ? length - 1 : length;
    }
    (void)isStart;
    return i;
  };
  int64_t b = clamp(start, st < 0 ? length - 1 : 0, true);
  int64_t e = clamp(stop, st < 0 ? -1 : length, false);
  int64_t count = 0;
  if (st > 0 && b < e) count = (e - b - 1) / st + 1;
  if (st < 0 && b > e) count = (b - e - 1) / (-st) + 1;
  return {b, e, st, count};
}

// ---- constructors ------------------------------------------------------------------------------

Value none() {
  static const Value v = std::make_shared<NoneObj>();
  return v;
}

Value boolean(bool b) {
  static const Value t = std::make_shared<BoolObj>(true);
  static const Value f = std::make_shared<BoolObj>(false);
  return b ? t : f;
}

Value makeInt(int64_t v) {
  static const std::vector<Value> small = [] {
    std::vector<Value> s;
    for (int64_t i = -5; i <= 256; ++i) s.push_back(std::make_shared<IntObj>(i));
    return s;
  }();
  if (v >= -5 && v <= 256) return small[static_cast<size_t>(v + 5)];
  return std::make_shared<IntObj>(v);
}

Value makeFloat(double v) { return std::make_shared<FloatObj>(v); }
Value makeStr(std::string s) { return std::make_shared<StrObj>(std::move(s)); }

Value makeList(std::vector<Value> items) {
  Value v = std::make_shared<ListObj>(std::move(items));
  track(v);
  return v;
}

Value makeTuple(std::vector<Value> items) {
  static const Value empty = std::make_shared<TupleObj>();
  if (items.empty()) return empty;
  // Not tracked: a tuple is in a cycle only through a mutable container, which is.
  return std::make_shared<TupleObj>(std::move(items));
}

std::shared_ptr<DictObj> makeDict() {
  auto d = std::make_shared<DictObj>();
  track(d);
  return d;
}

std::shared_ptr<SetObj> makeSet() {
  auto s = std::make_shared<SetObj>();
  track(s);
  return s;
}

Value ellipsis() {
  static const Value v = std::make_shared<EllipsisObj>();
  return v;
}

Value notImplemented() {
  static const Value v = std::make_shared<NotImplementedObj>();
  return v;
}

Value unknown() {
  static const Value v = std::make_shared<UnknownObj>();
  return v;
}

Value unknownOf(std::shared_ptr<ClassObj> type) {
  if (!type) return unknown();
  return std::make_shared<UnknownObj>(std::move(type));
}

Value makeIterator(std::string typeName, std::function<Value()> next) {
  Value v = std::make_shared<IteratorObj>(std::move(typeName), std::move(next));
  track(v);
  return v;
}

std::optional<int64_t> asInt(const Value& v) {
  if (!v) return std::nullopt;
  if (v->kind() == Kind::Int) return static_cast<IntObj*>(v.get())->value;
  if (v->kind() == Kind::Bool) return static_cast<BoolObj*>(v.get())->value ? 1 : 0;
  return std::nullopt;
}

std::optional<double> asDouble(const Value& v) {
  if (!v) return std::nullopt;
  if (v->kind() == Kind::Float) return static_cast<FloatObj*>(v.get())->value;
  if (auto i = asInt(v)) return static_cast<double>(*i);
  return std::nullopt;
}

const std::string* asString(const Value& v) {
  return v && v->kind() == Kind::Str ? &static_cast<StrObj*>(v.get())->value : nullptr;
}

const std::vector<Value>* asSequence(const Value& v) {
  if (!v) return nullptr;
  if (v->kind() == Kind::List) return &static_cast<ListObj*>(v.get())->items;
  if (v->kind() == Kind::Tuple) return &static_cast<TupleObj*>(v.get())->items;
  return nullptr;
}

// ---- tracking ----------------------------------------------------------------------------------

void track(const Value& v) {
  Machine* m = currentMachine();
  if (!m || !v) return;
  m->tracked.push_back(v);
  if (m->tracked.size() >= m->trackedCompactAt) {
    std::erase_if(m->tracked, [](const std::weak_ptr<Object>& w) { return w.expired(); });
    m->trackedCompactAt = std::max<size_t>(4096, m->tracked.size() * 2);
  }
}

void track(const std::shared_ptr<Env>& e) {
  Machine* m = currentMachine();
  if (!m || !e) return;
  m->trackedEnvs.push_back(e);
  if (m->trackedEnvs.size() >= m->trackedEnvsCompactAt) {
    std::erase_if(m->trackedEnvs, [](const std::weak_ptr<Env>& w) { return w.expired(); });
    m->trackedEnvsCompactAt = std::max<size_t>(4096, m->trackedEnvs.size() * 2);
  }
}

}  // namespace tlens::interp
