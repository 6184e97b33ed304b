#include <algorithm>
#include <cctype>
#include <span>
#include <unordered_map>
#include <unordered_set>

#include "lang/syntax/ChildCache.h"
#include "lsp/features/Bindings.h"
#include "lsp/features/Features.h"
#include "lsp/features/TfApiNames.h"

namespace tlens::lsp {

namespace {

TextRange rangeOf(const lang::SourceFile& f, TSNode n) {
  return {f.positionOf(ts_node_start_byte(n)), f.positionOf(ts_node_end_byte(n))};
}

/// The fields the lints read, by id.
struct LintFields {
  TSFieldId object, attribute, function, arguments;
};
const LintFields& lintFields() {
  static const LintFields f = [] {
    auto id = [](std::string_view name) {
      return ts_language_field_id_for_name(lang::pythonLanguage(), name.data(), static_cast<uint32_t>(name.size()));
    };
    return LintFields{id("object"), id("attribute"), id("function"), id("arguments")};
  }();
  return f;
}

/// The first child of `n` in field `id`, from the tree's child lists (lang/syntax/ChildCache.h:
/// the analysis listed most of them already), or a null node.
TSNode childIn(TSNode n, TSFieldId id) {
  for (const lang::NodeChild& c : lang::ChildCache::lookup(n).all)
    if (c.fieldId == id) return c.node;
  return TSNode{};
}

/// "tf.nn" for an attribute chain of identifiers; empty otherwise.
std::string dottedName(const lang::SourceFile& f, TSNode n) {
  std::string_view t = nodeType(n);
  if (t == "identifier") return std::string(f.textOf(n));
  if (t != "attribute") return {};
  std::string obj = dottedName(f, childIn(n, lintFields().object));
  TSNode attr = childIn(n, lintFields().attribute);
  if (obj.empty() || ts_node_is_null(attr)) return {};
  return obj + "." + std::string(f.textOf(attr));
}

/// Levenshtein distance of a and b, or `limit` when it is at least `limit` (names are short).
size_t editDistance(const std::string& a, const std::string& b, size_t limit) {
  if ((a.size() > b.size() ? a.size() - b.size() : b.size() - a.size()) >= limit) return limit;
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0], rowMin = row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
      rowMin = std::min(rowMin, row[j]);
    }
    if (rowMin >= limit) return limit;
  }
  return std::min(row[b.size()], limit);
}

/// The known name `name` is probably a typo of, or null. Short names need a closer match (a
/// name of at most 4 letters at most one edit away: `data` is not a typo of `math`), and no name
/// that differs from the candidate in more than a third of its letters is suggested.
const Member* nearMiss(const std::string& name, const std::vector<Member>& members) {
  size_t limit = name.size() <= 4 ? 2 : 3;  // distances below this one
  const Member* close = nullptr;
  for (const Member& m : members) {
    size_t d = editDistance(name, m.name, limit);
    if (d < limit && 3 * d <= m.name.size()) {
      limit = d;
      close = &m;
    }
  }
  return close;
}

bool isLog(const std::string& callee) { return callee == "tf.log" || callee == "tf.math.log" || callee == "np.log"; }

/// The member names of each module path, hashed once per lints() call (a TF file looks up
/// thousands of attributes of a module with hundreds of members).
using MemberSets = std::unordered_map<std::string, std::unordered_set<std::string_view>>;

/// Whether `name` is a public member of the module path `module` that the analysis does not list
/// (a candidate for unknownAttribute; false for anything that is not a module path).
bool unlistedMember(const Snapshot& s, const std::string& module, const std::string& name, MemberSets& sets) {
  if (name.empty() || name[0] == '_') return false;
  if (std::find(s.modulePaths.begin(), s.modulePaths.end(), module) == s.modulePaths.end()) return false;
  auto it = s.moduleMembers.find(module);
  if (it == s.moduleMembers.end() || !it->second || it->second->empty()) return false;
  auto [set, fresh] = sets.try_emplace(module);
  if (fresh)
    for (const Member& m : *it->second) set->second.insert(m.name);
  return !set->second.count(name);
}

/// Whether `n` is inside a type annotation (a `type` node: a variable's, a parameter's or a
/// function's return annotation).
bool inAnnotation(TSNode n) {
  for (TSNode p = ts_node_parent(n); !ts_node_is_null(p); p = ts_node_parent(p)) {
    std::string_view t = nodeType(p);
    if (t == "type") return true;
    if (t == "expression_statement" || t == "block" || t == "module" || t == "function_definition") return false;
  }
  return false;
}

/// `n` is the attribute node `module.name`, whose `name` the module does not list.
void unknownAttribute(const Snapshot& s, TSNode n, const std::string& module, const std::string& name,
                      std::vector<DiagnosticInfo>& out) {
  TSNode attr = childIn(n, lintFields().attribute);
  if (ts_node_is_null(attr)) return;
  auto it = s.moduleMembers.find(module);
  // The user may rebind the alias (`tf = other`); the scope check keeps this to the module alias.
  TSNode p = ts_node_parent(n);
  if (!ts_node_is_null(p) && nodeType(p) == "assignment" && ts_node_eq(fieldOf(p, "left"), n)) return;
  DiagnosticInfo d;
  d.range = rangeOf(*s.file, attr);
  d.code = "unknown-attribute";
  d.severity = 3;
  auto real = s.moduleNames.find(module);
  bool realName = real != s.moduleNames.end() &&
                  (isUnmodelledTfNamespace(real->second, name) || isTfApiName(real->second, name));
  // A type annotation (`x: tf.Tensor`, `-> tf.Variable`) only names a type: nothing is computed
  // from it, so only a typo of a known name is worth saying.
  if (inAnnotation(n) && (realName || !nearMiss(name, *it->second))) return;
  // Real TensorFlow namespaces tensorlens does not model (`tf.data`) are said quietly, never as
  // a near miss of a name it does model.
  if (real != s.moduleNames.end() && isUnmodelledTfNamespace(real->second, name)) {
    d.message = "'" + module + "." + name +
                "' (a TensorFlow namespace) is not modelled by tensorlens: its results are unknown to the analysis";
    out.push_back(std::move(d));
    return;
  }
  // A real name of a namespace whose API is listed (`tf.nn.conv3d`) is not modelled, whatever it
  // is close to.
  if (real != s.moduleNames.end() && isTfApiName(real->second, name)) {
    d.message = "'" + module + "." + name + "' is not modelled by tensorlens: its results are unknown to the analysis";
    out.push_back(std::move(d));
    return;
  }
  // A near miss of a known name is probably a typo: a warning with the fix (a warning, because a
  // real API tensorlens does not model can also be a near miss of one it does, where its
  // namespace's names are not listed). Anything else is said quietly (information), without
  // claiming the attribute does not exist: a false alarm is worse than a missed bug.
  const Member* close = nearMiss(name, *it->second);
  if (close) {
    d.severity = 2;
    d.message = "module '" + module + "' has no attribute '" + name + "'; did you mean '" + close->name + "'?";
  } else {
    d.message = "'" + module + "." + name + "' is not modelled by tensorlens: its results are unknown to the analysis";
  }
  out.push_back(std::move(d));
}

void logOfSoftmax(const Snapshot& s, TSNode call, std::vector<DiagnosticInfo>& out) {
  TSNode fn = childIn(call, lintFields().function), args = childIn(call, lintFields().arguments);
  if (ts_node_is_null(fn) || ts_node_is_null(args) || !isLog(dottedName(*s.file, fn))) return;
  TSNode arg = ts_node_named_child(args, 0);
  if (ts_node_is_null(arg) || nodeType(arg) == "keyword_argument") return;
  bool softmax = false;
  if (const ValueInfo* v = s.valueOf(ts_node_start_byte(arg), ts_node_end_byte(arg))) softmax = v->op() == "Softmax";
  if (!softmax && nodeType(arg) == "call") {
    std::string inner = dottedName(*s.file, childIn(arg, lintFields().function));
    softmax = inner == "tf.nn.softmax" || inner == "tf.math.softmax";
  }
  if (!softmax) return;
  DiagnosticInfo d;
  d.range = rangeOf(*s.file, call);
  d.severity = 2;
  d.code = "log-softmax";
  d.message =
      "log of a softmax output: where the softmax underflows to 0 this is -inf and the loss becomes NaN; use "
      "tf.nn.softmax_cross_entropy_with_logits on the logits, or clip the probabilities "
      "(tf.clip_by_value(y, 1e-10, 1.0))";
  out.push_back(std::move(d));
}

}  // namespace

std::vector<DiagnosticInfo> lints(const Snapshot& s) {
  std::vector<DiagnosticInfo> out;
  MemberSets sets;
  // Every lint is about a dotted name that starts with a module the program binds at the top
  // level (`tf.nn.relu`, `np.log(...)`; `tf` and `np` always, for the log lint): such names are
  // found in the text and their nodes looked up inside their top-level statement. A walk over the
  // whole tree cost as much as listing every node's children, which after an edit (the analysis
  // ran only the statements from the edit on) the analysis has not done.
  std::vector<std::string> roots{"tf", "np"};
  for (const std::string& m : s.modulePaths)
    if (m.find('.') == std::string::npos && std::find(roots.begin(), roots.end(), m) == roots.end()) roots.push_back(m);
  const std::string& text = s.file->text();
  TSNode root = s.file->root();
  std::span<const lang::NodeChild> stmts = lang::ChildCache::lookup(root).all;
  static const TSSymbol kAttribute = ts_language_symbol_for_name(lang::pythonLanguage(), "attribute", 9, true);
  static const TSSymbol kCall = ts_language_symbol_for_name(lang::pythonLanguage(), "call", 4, true);
  auto identChar = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || static_cast<unsigned char>(c) >= 0x80; };
  auto skipSpaces = [&](size_t i) {
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
    return i;
  };
  std::vector<uint32_t> ends;
  std::vector<std::string_view> names;
  for (const std::string& r : roots) {
    for (size_t pos = text.find(r); pos != std::string::npos; pos = text.find(r, pos + 1)) {
      size_t end = pos + r.size();
      if ((pos > 0 && identChar(text[pos - 1])) || (end < text.size() && identChar(text[end]))) continue;
      size_t before = pos;
      while (before > 0 && (text[before - 1] == ' ' || text[before - 1] == '\t')) --before;
      if (before > 0 && text[before - 1] == '.') continue;  // `self.tf.x`: not the module
      // The dotted chain r.a.b: each name after a dot and where it ends.
      ends.clear();
      names.clear();
      size_t i = end;
      while (true) {
        size_t dot = skipSpaces(i);
        if (dot >= text.size() || text[dot] != '.') break;
        size_t name = skipSpaces(dot + 1), e = name;
        while (e < text.size() && identChar(text[e])) ++e;
        if (e == name) break;
        ends.push_back(static_cast<uint32_t>(e));
        names.emplace_back(text.data() + name, e - name);
        i = e;
      }
      if (ends.empty()) continue;
      // Decided on the text first; only a candidate diagnostic looks its nodes up (a chain in a
      // string or a comment, or not made of plain names, is no attribute of a module).
      TSNode stmt{};
      auto nodeOf = [&](uint32_t e, TSSymbol symbol) -> TSNode {
        if (ts_node_is_null(stmt)) {
          // The top-level statement holding it (sorted, not overlapping).
          auto it = std::upper_bound(stmts.begin(), stmts.end(), static_cast<uint32_t>(pos),
                                     [](uint32_t p, const lang::NodeChild& c) { return p < ts_node_end_byte(c.node); });
          if (it == stmts.end() || ts_node_start_byte(it->node) > pos) return TSNode{};
          stmt = it->node;
        }
        TSNode n = ts_node_named_descendant_for_byte_range(stmt, static_cast<uint32_t>(pos), e);
        if (ts_node_start_byte(n) != pos || ts_node_symbol(n) != symbol) return TSNode{};
        if (symbol == kAttribute && ts_node_end_byte(n) != e) return TSNode{};
        return n;
      };
      std::string module = r;
      for (size_t k = 0; k < ends.size(); ++k) {
        std::string name(names[k]);
        if (unlistedMember(s, module, name, sets)) {
          TSNode n = nodeOf(ends[k], kAttribute);
          if (!ts_node_is_null(n)) unknownAttribute(s, n, module, name, out);
        }
        module += "." + name;
      }
      size_t paren = skipSpaces(ends.back());
      if (paren < text.size() && text[paren] == '(' && isLog(module)) {
        TSNode call = nodeOf(static_cast<uint32_t>(paren + 1), kCall);
        if (!ts_node_is_null(call)) logOfSoftmax(s, call, out);
      }
    }
  }
  std::stable_sort(out.begin(), out.end(), [](const DiagnosticInfo& a, const DiagnosticInfo& b) {
    if (a.range.start.line != b.range.start.line) return a.range.start.line < b.range.start.line;
    if (a.range.start.column != b.range.start.column) return a.range.start.column < b.range.start.column;
    return a.code < b.code;
  });
  return out;
}

}  // namespace tlens::lsp
