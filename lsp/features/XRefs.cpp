#include <algorithm>

#include "lsp/features/Bindings.h"
#include "lsp/features/Features.h"

namespace tlens::lsp {

namespace {

TextRange rangeOf(const lang::SourceFile& f, TSNode n) {
  return {f.positionOf(ts_node_start_byte(n)), f.positionOf(ts_node_end_byte(n))};
}

}  // namespace

std::vector<TextRange> definition(const Snapshot& s, lang::TextPos pos) {
  Bindings b = computeBindings(*s.file);
  const Occurrence* o = b.at(s.file->offsetOf(pos));
  if (!o) return {};
  std::vector<TextRange> out;
  for (const Occurrence& c : b.occurrences)
    if (c.binding && c.name == o->name && c.scope == o->scope) {
      out.push_back(rangeOf(*s.file, c.node));
      break;  // the first binding: where the name is introduced
    }
  return out;
}

std::vector<TextRange> references(const Snapshot& s, lang::TextPos pos, bool includeDeclaration) {
  Bindings b = computeBindings(*s.file);
  const Occurrence* o = b.at(s.file->offsetOf(pos));
  if (!o) return {};
  std::vector<TextRange> out;
  bool firstBinding = true;
  for (const Occurrence& c : b.occurrences) {
    if (c.name != o->name || c.scope != o->scope) continue;
    if (c.binding && firstBinding) {
      firstBinding = false;
      if (!includeDeclaration) continue;
    }
    out.push_back(rangeOf(*s.file, c.node));
  }
  return out;
}

std::vector<std::string> visibleNames(const Snapshot& s, lang::TextPos pos) {
  Bindings b = computeBindings(*s.file);
  std::vector<std::string> out;
  int sc = b.scopeAt(s.file->offsetOf(pos));
  bool first = true;
  while (sc >= 0) {
    const Scope& scope = b.scopes[sc];
    if (first || !scope.isClass)
      for (const auto& n : scope.bound)
        if (std::find(out.begin(), out.end(), n) == out.end()) out.push_back(n);
    first = false;
    sc = scope.parent;
  }
  return out;
}

}  // namespace tlens::lsp
