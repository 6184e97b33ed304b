#include "lsp/features/Bindings.h"

#include <algorithm>

namespace tlens::lsp {

namespace {

bool isScopeNode(std::string_view t) {
  return t == "function_definition" || t == "lambda" || t == "class_definition";
}

bool sameNode(TSNode a, TSNode b) { return !ts_node_is_null(a) && !ts_node_is_null(b) && ts_node_eq(a, b); }

/// True when identifier `n` is bound where it stands (rather than read).
bool isBindingSite(TSNode n) {
  TSNode child = n;
  TSNode p = ts_node_parent(n);
  // Climb through destructuring patterns: `a, (b, c) = ...`, `for i, x in ...`.
  while (!ts_node_is_null(p)) {
    std::string_view t = nodeType(p);
    if (t == "pattern_list" || t == "tuple_pattern" || t == "list_pattern" || t == "list_splat_pattern" ||
        t == "parenthesized_expression" || t == "tuple" || t == "list" || t == "expression_list") {
      child = p;
      p = ts_node_parent(p);
      continue;
    }
    break;
  }
  if (ts_node_is_null(p)) return false;
  std::string_view t = nodeType(p);
  if (t == "assignment" || t == "augmented_assignment" || t == "for_statement" || t == "for_in_clause")
    return sameNode(fieldOf(p, "left"), child);
  if (t == "function_definition" || t == "class_definition") return sameNode(fieldOf(p, "name"), n);
  if (t == "parameters" || t == "lambda_parameters") return true;
  if (t == "default_parameter" || t == "typed_default_parameter") return sameNode(fieldOf(p, "name"), n);
  if (t == "typed_parameter") return sameNode(ts_node_named_child(p, 0), child);
  if (t == "list_splat_pattern" || t == "dictionary_splat_pattern") {
    TSNode g = ts_node_parent(p);
    return !ts_node_is_null(g) && (nodeType(g) == "parameters" || nodeType(g) == "lambda_parameters" || nodeType(g) == "typed_parameter");
  }
  if (t == "as_pattern_target") return true;
  if (t == "as_pattern") return sameNode(fieldOf(p, "alias"), child);
  if (t == "aliased_import") return sameNode(fieldOf(p, "alias"), n);
  if (t == "named_expression") return sameNode(fieldOf(p, "name"), n);
  if (t == "global_statement" || t == "nonlocal_statement") return false;
  if (t == "dotted_name") {
    // `import a.b` binds `a`; `from m import x` binds `x` (unless aliased).
    TSNode g = ts_node_parent(p);
    if (ts_node_is_null(g)) return false;
    std::string_view gt = nodeType(g);
    if (gt == "import_statement") return sameNode(ts_node_named_child(p, 0), n);
    if (gt == "import_from_statement") return !sameNode(fieldOf(g, "module_name"), p);
    return false;
  }
  return false;
}

/// Identifiers that are not names at all: attribute names, keyword argument names.
bool isNameUse(TSNode n) {
  TSNode p = ts_node_parent(n);
  if (ts_node_is_null(p)) return true;
  std::string_view t = nodeType(p);
  if (t == "attribute") return !sameNode(fieldOf(p, "attribute"), n);
  if (t == "keyword_argument") return !sameNode(fieldOf(p, "name"), n);
  if (t == "dotted_name") {
    TSNode g = ts_node_parent(p);
    if (ts_node_is_null(g)) return false;
    std::string_view gt = nodeType(g);
    if (gt == "import_statement") return sameNode(ts_node_named_child(p, 0), n);
    if (gt == "aliased_import") return false;
    if (gt == "import_from_statement") return !sameNode(fieldOf(g, "module_name"), p);
    return false;
  }
  return true;
}

struct Walker {
  const lang::SourceFile& f;
  Bindings& b;
  std::vector<std::pair<TSNode, int>> pending;  // identifier, innermost scope

  void walk(TSNode root) {
    // Iterative (10,000 nested parentheses must not overflow the stack).
    std::vector<std::pair<TSNode, int>> stack{{root, 0}};
    while (!stack.empty()) {
      auto [n, scope] = stack.back();
      stack.pop_back();
      std::string_view t = nodeType(n);
      int inner = scope;
      if (isScopeNode(t)) {
        // The name of a def/class binds in the enclosing scope; the rest is inside.
        if (t != "lambda") {
          TSNode name = fieldOf(n, "name");
          if (!ts_node_is_null(name)) {
            b.scopes[scope].bound.emplace_back(f.textOf(name));
            pending.push_back({name, scope});
          }
        }
        Scope s;
        s.node = n;
        s.parent = scope;
        s.isClass = t == "class_definition";
        b.scopes.push_back(std::move(s));
        inner = static_cast<int>(b.scopes.size()) - 1;
        // Decorators, default values and base classes are evaluated in the enclosing scope;
        // approximated by the inner scope, which falls back to the enclosing one.
      }
      if (t == "identifier") {
        TSNode p = ts_node_parent(n);
        if (!ts_node_is_null(p) && isScopeNode(nodeType(p)) && sameNode(fieldOf(p, "name"), n)) continue;
        if (!ts_node_is_null(p) && (nodeType(p) == "global_statement" || nodeType(p) == "nonlocal_statement")) {
          b.scopes[scope].globals.emplace_back(f.textOf(n));
          continue;
        }
        if (!isNameUse(n)) continue;
        if (isBindingSite(n)) b.scopes[scope].bound.emplace_back(f.textOf(n));
        pending.push_back({n, scope});
        continue;
      }
      size_t at = stack.size();
      forEachChild(n, true, [&](TSNode c) { stack.push_back({c, inner}); });
      std::reverse(stack.begin() + static_cast<std::ptrdiff_t>(at), stack.end());
    }
  }

  int resolve(const std::string& name, int scope) const {
    int s = scope;
    bool first = true;
    while (s >= 0) {
      const Scope& sc = b.scopes[s];
      if (std::find(sc.globals.begin(), sc.globals.end(), name) != sc.globals.end()) return 0;
      // Class bodies are visible only from the class body itself, not from its methods.
      if ((first || !sc.isClass) && std::find(sc.bound.begin(), sc.bound.end(), name) != sc.bound.end()) return s;
      first = false;
      s = sc.parent;
    }
    return 0;  // builtins and undefined names: module level
  }
};

}  // namespace

const Occurrence* Bindings::at(uint32_t offset) const {
  for (const Occurrence& o : occurrences)
    if (ts_node_start_byte(o.node) <= offset && offset <= ts_node_end_byte(o.node)) return &o;
  return nullptr;
}

int Bindings::scopeAt(uint32_t offset) const {
  int best = 0;
  for (size_t i = 1; i < scopes.size(); ++i) {
    TSNode n = scopes[i].node;
    if (ts_node_start_byte(n) <= offset && offset <= ts_node_end_byte(n)) {
      TSNode bn = scopes[best].node;
      if (best == 0 || ts_node_end_byte(n) - ts_node_start_byte(n) <= ts_node_end_byte(bn) - ts_node_start_byte(bn))
        best = static_cast<int>(i);
    }
  }
  return best;
}

Bindings computeBindings(const lang::SourceFile& f) {
  Bindings b;
  Scope module;
  module.node = f.root();
  b.scopes.push_back(std::move(module));
  Walker w{f, b, {}};
  w.walk(f.root());
  for (const auto& pending : w.pending) {
    TSNode n = pending.first;  // not a structured binding: clang 14 cannot capture those
    int scope = pending.second;
    Occurrence o;
    o.node = n;
    o.name = std::string(f.textOf(n));
    o.binding = isBindingSite(n) || [&] {
      TSNode p = ts_node_parent(n);
      return !ts_node_is_null(p) && isScopeNode(nodeType(p)) && sameNode(fieldOf(p, "name"), n);
    }();
    o.scope = w.resolve(o.name, scope);
    b.occurrences.push_back(std::move(o));
  }
  std::sort(b.occurrences.begin(), b.occurrences.end(),
            [](const Occurrence& a, const Occurrence& c) { return ts_node_start_byte(a.node) < ts_node_start_byte(c.node); });
  return b;
}

std::vector<TSNode> assignedNames(const lang::SourceFile& f, TSNode root) {
  std::vector<TSNode> out;
  std::vector<TSNode> stack{root};
  while (!stack.empty()) {
    TSNode n = stack.back();
    stack.pop_back();
    if (nodeType(n) == "identifier") {
      TSNode p = ts_node_parent(n);
      std::string_view pt = ts_node_is_null(p) ? "" : nodeType(p);
      if (pt != "parameters" && pt != "function_definition" && pt != "class_definition" && pt != "dotted_name" &&
          pt != "aliased_import" && isBindingSite(n))
        out.push_back(n);
      continue;
    }
    pushChildren(stack, n);
  }
  return out;
}

}  // namespace tlens::lsp
