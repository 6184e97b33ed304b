// Objects: the built-in value types (None, bool, int, float, str, list, tuple, dict, set, range,
// slice, iterators, Unknown) and the functions that make them. Functions, classes, modules and
// native objects are in their own headers.
//
// Dicts and sets hash with the interpreter (a user class may define __hash__/__eq__), so their
// key operations take the Interpreter; string keys have fast paths that need none.
#pragma once

#include <functional>
#include <optional>

#include "lang/interp/Value.h"

namespace tlens::interp {

class Interpreter;
class ClassObj;

/// Registers a container for cycle breaking with the interpreter running on this thread (if
/// any). The make* functions below call it; NativeObjects that hold Values may call it too.
void track(const Value& v);
void track(const std::shared_ptr<Env>& e);

/// What makes an int, float or str a value of a user subclass (`class Color(str, Enum)`): its
/// class and its instance attributes. Null on plain values; set only on values made for the
/// subclass (never on shared or interned ones). Defined in Class.h.
struct SubclassPart;

class NoneObj : public Object {
 public:
  static constexpr Kind kKind = Kind::None;
  NoneObj() : Object(kKind) {}
};

class EllipsisObj : public Object {
 public:
  static constexpr Kind kKind = Kind::Ellipsis;
  EllipsisObj() : Object(kKind) {}
};

class NotImplementedObj : public Object {
 public:
  static constexpr Kind kKind = Kind::NotImplemented;
  NotImplementedObj() : Object(kKind) {}
};

class BoolObj : public Object {
 public:
  static constexpr Kind kKind = Kind::Bool;
  explicit BoolObj(bool v) : Object(kKind), value(v) {}
  const bool value;
};

/// Python ints are 64-bit here; arithmetic that overflows raises OverflowError.
class IntObj : public Object {
 public:
  static constexpr Kind kKind = Kind::Int;
  explicit IntObj(int64_t v) : Object(kKind), value(v) {}
  const int64_t value;
  std::shared_ptr<SubclassPart> sub;  ///< a user subclass's instance, else null
  void clearReferences() override { sub.reset(); }
};

class FloatObj : public Object {
 public:
  static constexpr Kind kKind = Kind::Float;
  explicit FloatObj(double v) : Object(kKind), value(v) {}
  const double value;
  std::shared_ptr<SubclassPart> sub;  ///< a user subclass's instance, else null
  void clearReferences() override { sub.reset(); }
};

/// UTF-8 text. Lengths and indices count code points, as in Python.
class StrObj : public Object {
 public:
  static constexpr Kind kKind = Kind::Str;
  explicit StrObj(std::string v) : Object(kKind), value(std::move(v)) {}
  const std::string value;
  std::shared_ptr<SubclassPart> sub;  ///< a user subclass's instance, else null
  void clearReferences() override { sub.reset(); }
  /// Number of code points.
  size_t length() const;
  /// Code points [begin, end) as UTF-8.
  std::string_view slice(size_t begin, size_t end) const;
  bool isAscii() const;

 private:
  void index() const;
  mutable int8_t ascii_ = -1;             ///< -1 not computed yet
  mutable std::vector<uint32_t> starts_;  ///< byte offset of each code point (non-ASCII only)
};

class ListObj : public Object {
 public:
  static constexpr Kind kKind = Kind::List;
  explicit ListObj(std::vector<Value> v = {}) : Object(kKind), items(std::move(v)) {}
  std::vector<Value> items;
  void clearReferences() override { items.clear(); }
};

class TupleObj : public Object {
 public:
  static constexpr Kind kKind = Kind::Tuple;
  explicit TupleObj(std::vector<Value> v = {}) : Object(kKind), items(std::move(v)) {}
  std::vector<Value> items;
  void clearReferences() override { items.clear(); }
};

/// The insertion-ordered hash table behind dict and set.
class HashTable {
 public:
  struct Entry {
    Value key;  ///< null for a removed entry
    Value value;
    int64_t hash = 0;
  };
  /// Index of the entry whose key equals `key` (by `eq`), or -1.
  template <class Eq>
  int find(int64_t hash, Eq&& eq) const {
    // Candidates are copied first: a user __eq__ may mutate this table while we compare.
    uint32_t few[4];
    std::vector<uint32_t> many;
    size_t n = 0;
    auto [b, e] = index_.equal_range(hash);
    for (auto it = b; it != e; ++it) {
      if (n < 4) few[n] = it->second;
      else {
        if (many.empty()) many.assign(few, few + 4);
        many.push_back(it->second);
      }
      ++n;
    }
    for (size_t k = 0; k < n; ++k) {
      uint32_t i = n <= 4 ? few[k] : many[k];
      if (i >= entries_.size() || !entries_[i].key || entries_[i].hash != hash) continue;
      Value key = entries_[i].key;  // keep alive while comparing
      if (eq(key) && i < entries_.size() && entries_[i].key == key) return static_cast<int>(i);
    }
    return -1;
  }
  void insert(Value key, Value value, int64_t hash);
  void removeAt(int i);
  size_t size() const { return live_; }
  void clear();
  const Entry& at(int i) const { return entries_[static_cast<size_t>(i)]; }
  Entry& at(int i) { return entries_[static_cast<size_t>(i)]; }
  /// Live entries in insertion order.
  template <class F>
  void forEach(F&& f) const {
    for (const Entry& e : entries_)
      if (e.key) f(e);
  }
  std::vector<Entry> entries() const;
  /// Number of entry slots (live and removed); with at(), iteration that tolerates mutation.
  size_t slots() const { return entries_.size(); }

 private:
  void compact();
  std::vector<Entry> entries_;
  std::unordered_multimap<int64_t, uint32_t> index_;
  size_t live_ = 0;
};

class DictObj : public Object {
 public:
  static constexpr Kind kKind = Kind::Dict;
  DictObj() : Object(kKind) {}

  /// The value for `key`, or null when absent. Hashing may run user code and raise.
  Value get(Interpreter& in, const Value& key) const;
  void set(Interpreter& in, const Value& key, Value value);
  bool erase(Interpreter& in, const Value& key);
  bool contains(Interpreter& in, const Value& key) const { return get(in, key) != nullptr; }
  /// String-key fast paths (no interpreter needed).
  Value getStr(std::string_view key) const;
  void setStr(std::string_view key, Value value);
  size_t size() const { return table.size(); }
  std::vector<HashTable::Entry> entries() const { return table.entries(); }
  void clearReferences() override {
    table.clear();
    defaultFactory.reset();
  }

  HashTable table;
  Value defaultFactory;            ///< collections.defaultdict's factory, else null
  std::shared_ptr<ClassObj> cls;   ///< a dict subclass (OrderedDict, defaultdict), else null
  bool imprecise = false;  ///< abstract mode: an unknown key was stored, so misses are unknown
  /// An instance's or module's __dict__: its writes go to that namespace too, so that
  /// `self.__dict__.update(kw)` and `obj.__dict__[k] = v` set attributes. Null for other dicts.
  Namespace* mirror = nullptr;
  Value mirrorOwner;  ///< keeps the namespace's object alive while the dict is
  /// After a write: the mirrored namespace gets the dict's string keys (and loses the others).
  void syncMirror();
};

class SetObj : public Object {
 public:
  static constexpr Kind kKind = Kind::Set;
  SetObj() : Object(kKind) {}
  bool contains(Interpreter& in, const Value& key) const;
  void add(Interpreter& in, const Value& key);
  bool discard(Interpreter& in, const Value& key);
  size_t size() const { return table.size(); }
  std::vector<Value> items() const;
  void clearReferences() override { table.clear(); }

  HashTable table;
  bool frozen = false;
  bool imprecise = false;
};

class RangeObj : public Object {
 public:
  static constexpr Kind kKind = Kind::Range;
  RangeObj(int64_t b, int64_t e, int64_t s) : Object(kKind), start(b), stop(e), step(s) {}
  const int64_t start, stop, step;
  int64_t length() const;
  int64_t at(int64_t i) const { return start + i * step; }
};

class SliceObj : public Object {
 public:
  static constexpr Kind kKind = Kind::Slice;
  SliceObj(Value b, Value e, Value s) : Object(kKind), start(std::move(b)), stop(std::move(e)), step(std::move(s)) {}
  const Value start, stop, step;  ///< None when omitted
  /// Python's slice.indices(length): clamped start, stop, step and the number of items. Raises
  /// (through the interpreter) for a zero step or non-integer bounds.
  struct Bounds {
    int64_t start, stop, step, count;
  };
  Bounds indices(Interpreter& in, int64_t length) const;
};

/// A native iterator: `next` returns the next item, or null when exhausted.
class IteratorObj : public Object {
 public:
  static constexpr Kind kKind = Kind::Iterator;
  IteratorObj(std::string typeName, std::function<Value()> next)
      : Object(kKind), typeName(std::move(typeName)), next(std::move(next)) {}
  std::string typeName;  ///< "list_iterator", "zip", ...
  std::function<Value()> next;
  void clearReferences() override { next = [] { return Value(); }; }
};

/// The abstract value: anything, or anything of a known class (`type`, e.g. int). Every
/// operation on it yields Unknown without raising.
class UnknownObj : public Object {
 public:
  static constexpr Kind kKind = Kind::Unknown;
  explicit UnknownObj(std::shared_ptr<ClassObj> t = nullptr) : Object(kKind), type(std::move(t)) {}
  const std::shared_ptr<ClassObj> type;
};

// Constructors. None, booleans, Ellipsis, NotImplemented and small ints are shared singletons.
Value none();
Value boolean(bool b);
Value makeInt(int64_t v);
Value makeFloat(double v);
Value makeStr(std::string s);
Value makeList(std::vector<Value> items = {});
Value makeTuple(std::vector<Value> items = {});
std::shared_ptr<DictObj> makeDict();
std::shared_ptr<SetObj> makeSet();
Value ellipsis();
Value notImplemented();
Value unknown();
Value unknownOf(std::shared_ptr<ClassObj> type);
Value makeIterator(std::string typeName, std::function<Value()> next);

inline bool isNone(const Value& v) { return v && v->kind() == Kind::None; }
inline bool isUnknown(const Value& v) { return v && v->kind() == Kind::Unknown; }

/// Plain-value readers for native code: nullopt when `v` is not of that type. `asInt` accepts
/// bools; `asDouble` accepts ints and bools.
std::optional<int64_t> asInt(const Value& v);
std::optional<double> asDouble(const Value& v);
const std::string* asString(const Value& v);
/// The items of a list or tuple, or null.
const std::vector<Value>* asSequence(const Value& v);

}  // namespace tlens::interp
