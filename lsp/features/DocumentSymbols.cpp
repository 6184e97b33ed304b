#include "lsp/features/Bindings.h"
#include "lsp/features/Features.h"

namespace tlens::lsp {

namespace {

TextRange rangeOf(const lang::SourceFile& f, TSNode n) {
  return {f.positionOf(ts_node_start_byte(n)), f.positionOf(ts_node_end_byte(n))};
}

enum class Ctx { Module, Class, Function };

/// Definitions in `block`; variables only at module and class level (a function's locals are
/// not part of the document's outline).
void collect(const Snapshot& s, TSNode block, Ctx ctx, std::vector<SymbolInfo>& out, int depth) {
  bool inClass = ctx == Ctx::Class;
  if (depth > 64) return;
  std::vector<TSNode> statements;  // by cursor: indexing a module's children is quadratic
  forEachChild(block, true, [&](TSNode c) { statements.push_back(c); });
  for (TSNode n : statements) {
    std::string_view t = nodeType(n);
    if (t == "decorated_definition") {
      n = fieldOf(n, "definition");
      if (ts_node_is_null(n)) continue;
      t = nodeType(n);
    }
    if (t == "function_definition" || t == "class_definition") {
      TSNode name = fieldOf(n, "name");
      if (ts_node_is_null(name)) continue;
      SymbolInfo sym;
      sym.name = std::string(s.file->textOf(name));
      sym.kind = t == "class_definition" ? 5 : inClass ? 6 : 12;
      sym.range = rangeOf(*s.file, n);
      sym.selection = rangeOf(*s.file, name);
      if (t == "function_definition") {
        TSNode params = fieldOf(n, "parameters");
        if (!ts_node_is_null(params)) sym.detail = std::string(s.file->textOf(params));
      }
      TSNode body = fieldOf(n, "body");
      if (!ts_node_is_null(body))
        collect(s, body, t == "class_definition" ? Ctx::Class : Ctx::Function, sym.children, depth + 1);
      out.push_back(std::move(sym));
    } else if (t == "expression_statement" && ctx != Ctx::Function) {
      TSNode a = ts_node_named_child(n, 0);
      if (ts_node_is_null(a) || nodeType(a) != "assignment") continue;
      TSNode left = fieldOf(a, "left");
      if (ts_node_is_null(left) || nodeType(left) != "identifier") continue;
      SymbolInfo sym;
      sym.name = std::string(s.file->textOf(left));
      sym.kind = inClass ? 8 : 13;  // field, variable
      sym.range = rangeOf(*s.file, n);
      sym.selection = rangeOf(*s.file, left);
      if (const ValueInfo* v = s.valueOf(ts_node_start_byte(left), ts_node_end_byte(left)))
        if (v->kind == ValueInfo::Kind::Tensor || v->known) sym.detail = v->type();
      out.push_back(std::move(sym));
    } else if (t == "if_statement" || t == "with_statement" || t == "try_statement" || t == "block") {
      // Module-level definitions under `if __name__ == "__main__":` and friends.
      for (uint32_t k = 0; k < ts_node_named_child_count(n); ++k) {
        TSNode c = ts_node_named_child(n, k);
        std::string_view ct = nodeType(c);
        if (ct == "block") collect(s, c, ctx, out, depth + 1);
        else if (ct == "else_clause" || ct == "elif_clause" || ct == "except_clause" || ct == "finally_clause") {
          TSNode body = fieldOf(c, "body");
          if (!ts_node_is_null(body)) collect(s, body, ctx, out, depth + 1);
          else
            for (uint32_t m = 0; m < ts_node_named_child_count(c); ++m)
              if (nodeType(ts_node_named_child(c, m)) == "block") collect(s, ts_node_named_child(c, m), ctx, out, depth + 1);
        }
      }
    }
  }
}

}  // namespace

std::vector<SymbolInfo> documentSymbols(const Snapshot& s) {
  std::vector<SymbolInfo> out;
  collect(s, s.file->root(), Ctx::Module, out, 0);
  return out;
}

}  // namespace tlens::lsp
