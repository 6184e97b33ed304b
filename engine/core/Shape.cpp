#include "engine/core/Shape.h"

#include <algorithm>
#include <cctype>
#include <deque>
#include <mutex>

namespace tlens {

namespace {
std::mutex& symbolsMutex() {
  static std::mutex m;
  return m;
}
std::deque<std::string>& symbolNames() {
  static std::deque<std::string> names{""};
  return names;
}
}  // namespace

uint32_t Symbols::create(std::string_view hint) {
  std::lock_guard<std::mutex> lock(symbolsMutex());
  symbolNames().emplace_back(hint.empty() ? "?" : hint);
  return static_cast<uint32_t>(symbolNames().size() - 1);
}

std::string Symbols::name(uint32_t id) {
  std::lock_guard<std::mutex> lock(symbolsMutex());
  return id < symbolNames().size() ? symbolNames()[id] : "?";
}

std::string Dim::str() const {
  if (isKnown()) return std::to_string(size);
  if (isMinusOne()) return "-1";
  if (isSymbolic()) return Symbols::name(sym);
  return "?";
}

Shape Shape::fromConcrete(const ConcreteShape& s) {
  std::vector<Dim> d;
  d.reserve(s.size());
  for (int64_t n : s) d.push_back(Dim::known(n));
  return Shape(std::move(d));
}

Shape Shape::unknownDims(int64_t rank) {
  return Shape(std::vector<Dim>(static_cast<size_t>(std::max<int64_t>(rank, 0))));
}

bool Shape::fullyKnown() const {
  if (!rankKnown_) return false;
  for (const Dim& d : dims_)
    if (!d.isKnown()) return false;
  return true;
}

std::optional<int64_t> Shape::numElements() const {
  if (!fullyKnown()) return std::nullopt;
  int64_t n = 1;
  // A product past int64 (a fuzzed or absurd shape) has no element count: unknown, as for a
  // partly known shape, never an overflow.
  for (const Dim& d : dims_)
    if (__builtin_mul_overflow(n, d.size, &n)) return std::nullopt;
  return n;
}

ConcreteShape Shape::concrete() const {
  ConcreteShape s;
  s.reserve(dims_.size());
  for (const Dim& d : dims_) s.push_back(d.size);
  return s;
}

bool Shape::accepts(const ConcreteShape& s) const {
  if (!rankKnown_) return true;
  if (s.size() != dims_.size()) return false;
  for (size_t i = 0; i < s.size(); ++i)
    if (dims_[i].isKnown() && dims_[i].size != s[i]) return false;
  return true;
}

bool Shape::compatible(const Shape& o) const {
  if (!rankKnown_ || !o.rankKnown_) return true;
  if (dims_.size() != o.dims_.size()) return false;
  for (size_t i = 0; i < dims_.size(); ++i)
    if (dims_[i].conflicts(o.dims_[i])) return false;
  return true;
}

Shape Shape::merge(const Shape& o) const {
  if (!rankKnown_) return o;
  if (!o.rankKnown_) return *this;
  Shape r = *this;
  for (size_t i = 0; i < dims_.size() && i < o.dims_.size(); ++i) {
    const Dim& b = o.dims_[i];
    Dim& a = r.dims_[i];
    if (!a.isKnown() && (b.isKnown() || (!a.isSymbolic() && b.isSymbolic()))) a = b;
  }
  return r;
}

std::string Shape::str() const {
  if (!rankKnown_) return "<unknown>";
  std::string s = "[";
  for (size_t i = 0; i < dims_.size(); ++i) {
    if (i) s += ", ";
    s += dims_[i].str();
  }
  return s + "]";
}

std::string Shape::tfStr() const {
  if (!rankKnown_) return "<unknown>";
  std::string s = "(";
  for (size_t i = 0; i < dims_.size(); ++i) {
    if (i) s += ", ";
    s += dims_[i].isKnown() ? std::to_string(dims_[i].size) : "?";
  }
  if (dims_.size() == 1) s += ",";
  return s + ")";
}

ShapeInfo shapeInfo(const Shape& s) {
  ShapeInfo info;
  info.rankKnown = s.rankKnown();
  if (!info.rankKnown) return info;
  for (const Dim& d : s.dims()) {
    DimInfo di;
    if (d.isKnown()) di.size = d.size;
    else if (d.isMinusOne() || d.isSymbolic()) di.symbol = d.str();
    info.dims.push_back(std::move(di));
  }
  return info;
}

std::string concreteStr(const ConcreteShape& s) { return Shape::fromConcrete(s).str(); }
std::string concreteTfStr(const ConcreteShape& s) { return Shape::fromConcrete(s).tfStr(); }

int64_t numElements(const ConcreteShape& s) {
  int64_t n = 1;
  for (int64_t d : s) n *= d;
  return n;
}

std::optional<Shape> broadcastShapes(const Shape& a, const Shape& b, int* conflictAxis) {
  if (!a.rankKnown() || !b.rankKnown()) return Shape::unknownRank();
  const size_t ra = a.dims().size(), rb = b.dims().size(), r = std::max(ra, rb);
  std::vector<Dim> out(r);
  for (size_t i = 0; i < r; ++i) {
    const bool hasA = i < ra, hasB = i < rb;
    const Dim da = hasA ? a.dims()[ra - 1 - i] : Dim::known(1);
    const Dim db = hasB ? b.dims()[rb - 1 - i] : Dim::known(1);
    Dim& o = out[r - 1 - i];
    if (da.isKnown() && da.size == 1) {
      o = db;
    } else if (db.isKnown() && db.size == 1) {
      o = da;
    } else if (da.isKnown() && db.isKnown()) {
      if (da.size != db.size) {
        if (conflictAxis) *conflictAxis = -static_cast<int>(i) - 1;
        return std::nullopt;
      }
      o = da;
    } else if (da.isKnown()) {
      o = da;  // the other is unknown: it must be 1 or equal
    } else if (db.isKnown()) {
      o = db;
    } else if (da.sameAs(db)) {
      o = da;
    } else {
      o = Dim::unknown();
    }
  }
  return Shape(std::move(out));
}

std::optional<ConcreteShape> broadcastConcrete(const ConcreteShape& a, const ConcreteShape& b) {
  if (a == b) return a;
  const size_t ra = a.size(), rb = b.size(), r = std::max(ra, rb);
  ConcreteShape out(r);
  for (size_t i = 0; i < r; ++i) {
    const int64_t da = i < ra ? a[ra - 1 - i] : 1;
    const int64_t db = i < rb ? b[rb - 1 - i] : 1;
    if (da != db && da != 1 && db != 1) return std::nullopt;
    out[r - 1 - i] = da == 1 ? db : da;
  }
  return out;
}

Shape parseShape(std::string_view text, std::map<std::string, uint32_t>* names) {
  std::map<std::string, uint32_t> local;
  if (!names) names = &local;
  auto trim = [](std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
    return s;
  };
  text = trim(text);
  if (text == "?" || text.empty()) return Shape::unknownRank();
  if (text.front() == '[' || text.front() == '(') text = text.substr(1, text.size() - 2);
  std::vector<Dim> dims;
  while (!trim(text).empty()) {
    size_t comma = text.find(',');
    std::string_view tok = trim(text.substr(0, comma));
    text = comma == std::string_view::npos ? std::string_view{} : text.substr(comma + 1);
    if (tok.empty()) continue;
    if (tok == "?" || tok == "None") {
      dims.push_back(Dim::unknown());
    } else if (std::isdigit(static_cast<unsigned char>(tok.front()))) {
      dims.push_back(Dim::known(std::stoll(std::string(tok))));
    } else {
      auto [it, inserted] = names->emplace(std::string(tok), 0);
      if (inserted) it->second = Symbols::create(tok);
      dims.push_back(Dim::symbol(it->second));
    }
  }
  return Shape(std::move(dims));
}

std::vector<Shape> parseShapes(std::string_view text, std::map<std::string, uint32_t>* names) {
  std::map<std::string, uint32_t> local;
  if (!names) names = &local;
  std::vector<Shape> out;
  while (true) {
    size_t semi = text.find(';');
    out.push_back(parseShape(text.substr(0, semi), names));
    if (semi == std::string_view::npos) break;
    text = text.substr(semi + 1);
  }
  return out;
}

}  // namespace tlens
