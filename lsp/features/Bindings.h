// Bindings: Python's scoping rules over the syntax tree, for definition, references, completion
// of user symbols and inlay hints. Syntactic only (no analysis results), so it works on code the
// interpreter never reached.
#pragma once

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include <tree_sitter/api.h>

#include "lang/syntax/SourceFile.h"

namespace tlens::lsp {

struct Occurrence {
  TSNode node;        ///< the identifier
  std::string name;
  int scope = 0;      ///< the scope the name resolves to (index into Bindings::scopes)
  bool binding = false;  ///< an assignment target, def/class name, parameter, import, ...
};

struct Scope {
  TSNode node;     ///< module, function_definition, lambda or class_definition
  int parent = -1;
  bool isClass = false;
  std::vector<std::string> bound, globals;
};

struct Bindings {
  std::vector<Scope> scopes;  ///< scopes[0] is the module
  std::vector<Occurrence> occurrences;  ///< in source order
  /// The occurrence covering byte `offset` (or ending at it), or null.
  const Occurrence* at(uint32_t offset) const;
  /// The innermost scope containing byte `offset`.
  int scopeAt(uint32_t offset) const;
};

Bindings computeBindings(const lang::SourceFile& f);

/// Assignment targets that are plain names, in source order (inlay hints).
std::vector<TSNode> assignedNames(const lang::SourceFile& f, TSNode root);

inline std::string_view nodeType(TSNode n) { return ts_node_type(n); }
/// Calls f on each child of `n` (only named ones with `namedOnly`), in order, with a cursor:
/// ts_node_child(n, i) walks from the first child every time, so indexing a module's thousands
/// of statements one by one is quadratic.
template <class F>
void forEachChild(TSNode n, bool namedOnly, F&& f) {
  TSTreeCursor c = ts_tree_cursor_new(n);
  if (ts_tree_cursor_goto_first_child(&c)) {
    do {
      TSNode child = ts_tree_cursor_current_node(&c);
      if (!namedOnly || ts_node_is_named(child)) f(child);
    } while (ts_tree_cursor_goto_next_sibling(&c));
  }
  ts_tree_cursor_delete(&c);
}
/// Pushes the children of `n` on a depth-first stack so that they pop in source order.
inline void pushChildren(std::vector<TSNode>& stack, TSNode n, bool namedOnly = true) {
  size_t at = stack.size();
  forEachChild(n, namedOnly, [&](TSNode c) { stack.push_back(c); });
  std::reverse(stack.begin() + static_cast<std::ptrdiff_t>(at), stack.end());
}
inline TSNode fieldOf(TSNode n, std::string_view name) {
  return ts_node_child_by_field_name(n, name.data(), static_cast<uint32_t>(name.size()));
}

}  // namespace tlens::lsp
