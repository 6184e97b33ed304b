// ObjectProtocol: the fourth layer of the interpreter's Machine (Machine.h lists the layers).
// What can be done to any Python value: calls, attributes, subscripts, iteration, length, truth,
// hashing, equality, types, operators, str()/repr(), and raising and describing exceptions.
// Native code of lang/interp that needs no more (the builtins, the standard modules) includes
// this header, not Machine.h, and reaches it with protocolOf(). Internal to lang/interp
// (docs/layering.md); code outside uses the same protocol through Interpreter.h.
#pragma once

#include "lang/interp/Builtins.h"

namespace tlens::interp {

class ObjectProtocol : public Builtins {
 public:
  using Builtins::Builtins;

  // ---- calls (EvalCalls.cpp) ----
  Value call(const Value& fn, std::vector<Value> args, KwArgs kwargs);
  Value callNative(NativeFunction& f, std::vector<Value> args, KwArgs kwargs, std::shared_ptr<ClassObj> cls = nullptr);
  Value instantiate(const std::shared_ptr<ClassObj>& cls, std::vector<Value> args, KwArgs kwargs);
  Value callMethod(const Value& obj, std::string_view name, std::vector<Value> args, KwArgs kwargs = {});
  /// Calls a dunder looked up on the type of `obj` (not the instance); null when absent.
  Value callDunder(const Value& obj, std::string_view name, std::vector<Value> args);

  // ---- attributes, items, iteration and the rest (Protocols.cpp) ----
  Value getAttr(const Value& obj, std::string_view name);
  Value findAttr(const Value& obj, std::string_view name);
  void setAttr(const Value& obj, std::string_view name, const Value& v);
  void delAttr(const Value& obj, std::string_view name);
  Value getItem(const Value& obj, const Value& key);
  void setItem(const Value& obj, const Value& key, const Value& v);
  void delItem(const Value& obj, const Value& key);
  Value getIter(const Value& v);
  /// The next item, or null when exhausted.
  Value next(const Value& it);
  std::vector<Value> toList(const Value& v);
  /// Items of a known, finite iterable without running user code; nullopt otherwise.
  std::optional<std::vector<Value>> knownItems(const Value& v, size_t limit);
  int64_t len(const Value& v);
  Truth truth(const Value& v);
  /// Truth that must be known: concrete mode raises for Unknown.
  bool isTrue(const Value& v);
  int64_t hash(const Value& v);
  Truth equal(const Value& a, const Value& b);
  bool identical(const Value& a, const Value& b) const;
  Value enter(const Value& mgr);
  bool exit(const Value& mgr, const Value& exc);
  std::shared_ptr<ClassObj> typeOf(const Value& v);
  bool isInstance(const Value& v, const ClassObj& cls);
  Truth isInstanceValue(const Value& v, const Value& clsOrTuple);
  int64_t toIndex(const Value& v, std::string_view what);
  int64_t normalizeIndex(int64_t i, int64_t len, std::string_view what);
  Value bindMethod(const Value& attr, const Value& self, ClassObj* cls);

  // ---- operators (Operators.cpp) ----
  Value binary(BinOp op, const Value& a, const Value& b);
  Value inplace(BinOp op, const Value& a, const Value& b);
  Value unary(UnaryOp op, const Value& v);
  Value compare(CmpOp op, const Value& a, const Value& b);
  Truth contains(const Value& container, const Value& item);
  Value numericBinary(BinOp op, const Value& a, const Value& b);
  Value sequenceBinary(BinOp op, const Value& a, const Value& b);

  // ---- text (Repr.cpp) ----
  std::string str(const Value& v);
  std::string repr(const Value& v);
  std::string typeName(const Value& v);
  std::string formatValue(const Value& v, std::string_view spec);

  // ---- abstract values (Abstract.cpp) ----
  /// The join of two values (what a variable holds after two branches), Unknown where they differ.
  Value join(const Value& a, const Value& b);
  /// Unknown of the type of `v`, as precise as the type allows.
  Value unknownLike(const Value& v);

  // ---- exceptions (Raise.cpp) ----
  Value makeException(const std::shared_ptr<ClassObj>& cls, std::vector<Value> args);
  [[noreturn]] void raise(const std::shared_ptr<ClassObj>& cls, const std::string& msg);
  [[noreturn]] void raise(std::string_view clsName, const std::string& msg);
  [[noreturn]] void raiseValue(const Value& excOrClass, const Value& cause = nullptr, bool hasCause = false);
  [[noreturn]] void typeError(const std::string& msg) { raise(types.typeError, msg); }
  [[noreturn]] void valueError(const std::string& msg) { raise(types.valueError, msg); }
  [[noreturn]] void notSupported(std::string_view what, const Value& v);
  std::vector<TraceEntry> captureTraceback() const;
  std::string formatTraceback(const Value& exc);
  std::string exceptionSummary(const Value& exc);
  /// str(exc), or "<exception str() failed>".
  std::string exceptionMessage(const Value& exc);
  ExceptionReport exceptionReport(const Value& exc);
  bool exceptionMatches(const Value& exc, const Value& clsOrTuple);
};

/// The object protocol of the interpreter `in` (its Machine).
ObjectProtocol& protocolOf(Interpreter& in);
/// The object protocol of the machine whose run is active on this thread (currentMachine()), or
/// null.
ObjectProtocol* currentProtocol();

/// Stable merge sort with Python's `<` (or `key`), as list.sort and sorted do.
void sortValues(ObjectProtocol& m, std::vector<Value>& v, const Value& key, bool reverse);
/// A file object for open() (concrete mode). Text reads translate "\r\n" and "\r" to "\n"
/// unless `newline` is given ('' or a terminator: kept as is).
Value openFile(ObjectProtocol& m, const std::string& path, const std::string& mode, bool translateNewlines = true);

}  // namespace tlens::interp
