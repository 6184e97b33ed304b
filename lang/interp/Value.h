// Value: the interpreter's object model. Every Python value is a `std::shared_ptr<Object>`; the
// concrete classes (IntObj, ListObj, ClassObj, NativeObject, ...) live in Objects.h, Function.h,
// Class.h, Module.h and NativeObject.h. `Kind` is a cheap tag so the evaluator dispatches with a
// switch instead of dynamic casts.
//
// Reference cycles (a module's functions refer to the module's globals, instances refer to each
// other) are broken when the Interpreter that made them is destroyed: it calls
// `clearReferences()` on every container it tracked. Values kept past the Interpreter's lifetime
// are therefore emptied; render what you need (repr, shapes) before destroying it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace tlens::interp {

enum class Kind : uint8_t {
  None,
  Bool,
  Int,
  Float,
  Str,
  List,
  Tuple,
  Dict,
  Set,
  Range,
  Slice,
  Ellipsis,
  NotImplemented,
  Function,        ///< user `def` / `lambda`
  NativeFunction,  ///< C++ function with a Python signature
  BoundMethod,
  StaticMethod,
  ClassMethod,
  Property,
  Class,
  Instance,  ///< instance of a user (or native-defined) class, exceptions included
  Module,
  Super,
  Iterator,
  Generator,
  Unknown,  ///< the abstract value
  Native,   ///< NativeObject: extension objects (tensors, sessions, ...)
};

class Object : public std::enable_shared_from_this<Object> {
 public:
  explicit Object(Kind k) : kind_(k) {}
  virtual ~Object() = default;
  Object(const Object&) = delete;
  Object& operator=(const Object&) = delete;

  Kind kind() const { return kind_; }
  /// Drops references to other values; called on tracked containers when their Interpreter is
  /// destroyed, to break reference cycles.
  virtual void clearReferences() {}

 private:
  Kind kind_;
};

using Value = std::shared_ptr<Object>;

/// Truth of a value in abstract mode: known true, known false, or not known.
enum class Truth : uint8_t { False, True, Unknown };

/// Downcast by kind tag: `as<IntObj>(v)` is null unless v holds an IntObj.
template <class T>
T* as(const Value& v) {
  return v && v->kind() == T::kKind ? static_cast<T*>(v.get()) : nullptr;
}
template <class T>
bool is(const Value& v) {
  return v && v->kind() == T::kKind;
}
template <class T>
std::shared_ptr<T> asShared(const Value& v) {
  return v && v->kind() == T::kKind ? std::static_pointer_cast<T>(v) : nullptr;
}

/// An insertion-ordered map from names to values: module globals, function locals, class and
/// instance dictionaries. Erasing leaves a hole that is compacted later; re-adding a name puts it
/// at the end (as Python dicts do).
class Namespace {
 public:
  /// The value bound to `name`, or null when unbound.
  const Value* find(std::string_view name) const;
  Value* find(std::string_view name);
  Value get(std::string_view name) const {
    const Value* v = find(name);
    return v ? *v : nullptr;
  }
  void set(std::string_view name, Value v);
  bool erase(std::string_view name);
  bool contains(std::string_view name) const { return find(name) != nullptr; }
  size_t size() const { return live_; }
  bool empty() const { return live_ == 0; }
  void clear();
  /// Bound names and values in insertion order.
  std::vector<std::pair<std::string, Value>> items() const;
  template <class F>
  void forEach(F&& f) const {
    for (const auto& [k, v] : entries_)
      if (v) f(k, v);
  }

 private:
  /// A name's first 7 bytes and its length (255 for longer names) in one word: names of up to 7
  /// bytes (most identifiers) are equal exactly when their tags are, and a longer one is compared
  /// only when its tag matches. Lookups scan or probe the tags, not the strings.
  static uint64_t tagOf(std::string_view s) {
    uint64_t t = 0;
    std::memcpy(&t, s.data(), s.size() < 7 ? s.size() : 7);
    return t | (static_cast<uint64_t>(s.size() < 255 ? s.size() : 255) << 56);
  }
  bool matches(size_t i, uint64_t tag, std::string_view name) const {
    return tags_[i] == tag && (name.size() <= 7 || entries_[i].first == name);
  }
  /// The position in `entries_` of the last entry named `name` (live or erased), or -1.
  ptrdiff_t indexOf(std::string_view name, uint64_t tag) const;
  /// Points the index at entry `i` (the index's size allows one more).
  void indexEntry(size_t i);
  void rebuildIndex(size_t slots);
  std::vector<std::pair<std::string, Value>> entries_;  ///< erased entries hold a null value
  std::vector<uint64_t> tags_;                          ///< tagOf() of each entry's name
  /// Past kLinear entries: open addressing over entry positions + 1 (0 empty), at most half
  /// full, probed from a hash of the tag. A name's slot names its latest entry.
  std::vector<uint32_t> slots_;
  size_t live_ = 0;
};

/// A scope's variables. Function environments chain to the environment they were defined in,
/// which is how closures see (and `nonlocal` rebinds) the enclosing function's variables.
struct Env {
  Namespace vars;
  std::shared_ptr<Env> parent;
};

}  // namespace tlens::interp
