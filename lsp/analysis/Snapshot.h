// Snapshot: everything the features need to know about one version of one document, computed
// once by analyze() (Analyzer.h) and immutable afterwards, so any thread may read it without
// locks. It holds rendered facts (strings, byte spans), never interpreter values: the
// interpreter that produced them is gone by the time a feature reads the snapshot.
#pragma once

#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lang/interp/Diagnostic.h"
#include "lang/syntax/SourceFile.h"

namespace tlens::lsp {

/// A name an object offers after a dot (completion).
struct Member {
  std::string name;
  enum class Kind : uint8_t { Function, Class, Module, Value } kind = Kind::Value;
  std::string detail;  ///< "(a, b, transpose_a=False, ...)" for callables, a type otherwise
  std::string doc;     ///< first line of documentation, when known
};
using Members = std::shared_ptr<const std::vector<Member>>;

/// The rare facts of a value: callables (signature, parameters, doc), classes, Keras models'
/// summary rows, placement notes, and the types of a span seen with several. Most values have
/// none; those that do share one record per distinct content (ValuePool).
struct ValueDetail {
  std::string placementNote;  ///< tensors: why not on the device asked or defaulted to
  std::string opSummary;      ///< one-line documentation, when not the op's (hover looks up `op`'s)
  std::string signature;      ///< callables: "matmul(a, b, transpose_a=False, ...)"
  std::vector<std::string> params;  ///< callables: parameter names, in order
  std::string doc;            ///< callables and classes: first line of the docstring
  std::vector<std::vector<std::string>> summaryRows;  ///< Keras models: _tlens_summary_rows()
  /// Every distinct type observed, in order (<= 8); empty when only the value's type was seen.
  std::vector<std::string> types;
  bool operator==(const ValueDetail&) const = default;
};

class ValuePool;
/// How an analysis that stopped at the work budget was set up (Analyzer.cpp): a later version of
/// the document edited only after the stop analyses the same (analyze()'s `base`).
struct StoppedRun;

/// What one expression (or assignment target) evaluated to, rendered. Several observations of
/// the same span (loops, call sites, both branches of an unknown `if`) are merged: the fields
/// describe the last one, `types()` lists every distinct type seen.
///
/// Compact (a snapshot holds tens of thousands): the strings are pooled and the rare facts are
/// one shared ValueDetail, both owned by the snapshot's ValuePool; a ValueInfo is only valid
/// while its snapshot lives. Read it through the accessors.
class ValueInfo {
 public:
  uint32_t start = 0, end = 0;  ///< byte span of the expression
  enum class Kind : uint8_t { Unknown, Tensor, DType, Python, Callable, Module, Class, Instance } kind = Kind::Unknown;
  bool known = false;  ///< a tensor with known dtype and rank, or a Python value with known value

  std::string_view type() const { return text(type_); }      ///< "float32[?, 256]", "int", "Sequential"
  std::string_view value() const { return text(value_); }    ///< repr of a known small Python value ("3", "[784, 256]")
  std::string_view device() const { return text(device_); }  ///< tensors: "/cpu:0"
  std::string_view node() const { return text(node_); }      ///< graph tensors: the node it creates ("fc1/Relu")
  std::string_view op() const { return text(op_); }          ///< graph tensors: op type ("Relu")
  std::string_view placementNote() const { return detail().placementNote; }
  std::string_view opSummary() const { return detail().opSummary; }
  std::string_view signature() const { return detail().signature; }
  const std::vector<std::string>& params() const { return detail().params; }
  std::string_view doc() const { return detail().doc; }
  const std::vector<std::vector<std::string>>& summaryRows() const { return detail().summaryRows; }
  /// Every distinct type() observed here, in order (<= 8); empty when only type() was seen.
  const std::vector<std::string>& types() const { return detail().types; }
  /// What the value offers after a dot (modules, objects); may be null.
  const std::vector<Member>* members() const { return members_; }

 private:
  friend class ValuePool;
  /// A pooled string: its bytes, preceded by their count as a uint32_t; null for "".
  static std::string_view text(const char* p) {
    if (!p) return {};
    uint32_t n;
    std::memcpy(&n, p - sizeof n, sizeof n);
    return {p, n};
  }
  const ValueDetail& detail() const { return detail_ ? *detail_ : kNoDetail; }
  static const ValueDetail kNoDetail;

  const char* type_ = nullptr;
  const char* value_ = nullptr;
  const char* device_ = nullptr;
  const char* node_ = nullptr;
  const char* op_ = nullptr;
  const ValueDetail* detail_ = nullptr;
  const std::vector<Member>* members_ = nullptr;
};

struct Snapshot {
  std::string uri;
  int version = 0;
  std::shared_ptr<const lang::SourceFile> file;
  /// The interpreter's diagnostics for this file, unfiltered (features decide what to publish).
  std::vector<interp::Diagnostic> diagnostics;
  /// Owns the strings and details `values` and `globals` point to (null when none were collected).
  std::shared_ptr<const ValuePool> pool;
  /// Sorted by start, then by descending end (outer spans first).
  std::vector<ValueInfo> values;
  /// The module's globals after the run: name -> rendered value (completion of user symbols).
  std::map<std::string, ValueInfo> globals;
  /// Members of global modules and their submodules by dotted name ("tf", "tf.nn", "np").
  std::map<std::string, Members> moduleMembers;
  /// The keys of moduleMembers that are modules (not classes or objects): a missing attribute
  /// of these is an error.
  std::vector<std::string> modulePaths;
  /// The imported module each of modulePaths names ("tf" -> "tensorflow", "tf.nn" ->
  /// "tensorflow.nn"), whatever the alias.
  std::map<std::string, std::string> moduleNames;
  bool graphStyle = false;  ///< TF1 (graphs and sessions) rather than TF2 (eager)
  /// Top-level statements not run again: a paused analysis of an earlier version ran them (or,
  /// with `stopped`, an earlier version's analysis stopped at the work budget after them).
  size_t reusedStatements = 0;
  /// Set when the run stopped at the work budget in a file without syntax errors.
  std::shared_ptr<const StoppedRun> stopped;

  /// The innermost observed expression covering byte `offset` (ties: the last in the list).
  const ValueInfo* valueAt(uint32_t offset) const;
  /// The observation of exactly the span [start, end), or null.
  const ValueInfo* valueOf(uint32_t start, uint32_t end) const;

  /// Set only while the diagnostics are published, before `values` are rendered (analyze()'s
  /// `early`): valueOf() asks it instead (the lints need a few values). Features never see a
  /// snapshot with it set.
  std::function<const ValueInfo*(uint32_t start, uint32_t end)> pendingValueOf;
};

}  // namespace tlens::lsp
