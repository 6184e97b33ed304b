// Bindings: Python's scoping rules over the syntax tree, for definition, references, completion
// of user symbols and inlay hints. Syntactic only (no analysis results), so it works on code the
// interpreter never reached.
#pragma once

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
inline TSNode fieldOf(TSNode n, std::string_view name) {
  return ts_node_child_by_field_name(n, name.data(), static_cast<uint32_t>(name.size()));
}

}  // namespace tlens::lsp
