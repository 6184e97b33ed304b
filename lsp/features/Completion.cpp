#include <algorithm>
#include <cctype>

#include "lsp/features/Features.h"

namespace tlens::lsp {

namespace {

bool isIdent(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

void addMembers(const std::vector<Member>* ms, const std::string& prefix, std::vector<CompletionInfo>& out) {
  if (!ms) return;
  for (const Member& m : *ms)
    if (m.name.compare(0, prefix.size(), prefix) == 0) out.push_back({m.name, m.kind, m.detail, m.doc});
}

}  // namespace

std::vector<CompletionInfo> completion(const Snapshot& s, lang::TextPos pos) {
  std::string_view line = s.file->lineText(pos.line);
  size_t col = std::min<size_t>(static_cast<size_t>(pos.column), line.size());
  size_t a = col;
  while (a > 0 && isIdent(line[a - 1])) --a;
  std::string prefix(line.substr(a, col - a));
  std::vector<CompletionInfo> out;
  if (a > 0 && line[a - 1] == '.') {
    // `obj.pre|`: the dotted name before the dot, e.g. "tf.nn".
    size_t dot = a - 1, b = dot;
    while (b > 0 && (isIdent(line[b - 1]) || line[b - 1] == '.')) --b;
    std::string object(line.substr(b, dot - b));
    if (auto it = s.moduleMembers.find(object); it != s.moduleMembers.end()) {
      addMembers(it->second.get(), prefix, out);
    } else {
      // Any expression the analysis saw ending right before the dot (`x.`, `model.`).
      uint32_t lineStart = s.file->offsetOf({pos.line, 0});
      uint32_t end = lineStart + static_cast<uint32_t>(dot);
      const ValueInfo* best = nullptr;
      for (const ValueInfo& v : s.values)
        if (v.end == end && v.members() && (!best || v.start > best->start)) best = &v;
      if (!best)
        if (auto g = s.globals.find(object); g != s.globals.end() && g->second.members()) best = &g->second;
      if (best) addMembers(best->members(), prefix, out);
    }
    return out;
  }
  // A user symbol: names bound in enclosing scopes, then the module's globals after the run.
  for (const std::string& n : visibleNames(s, pos)) {
    if (n.compare(0, prefix.size(), prefix) != 0 || n == prefix) continue;
    CompletionInfo c{n, Member::Kind::Value, "", ""};
    if (auto g = s.globals.find(n); g != s.globals.end()) {
      const ValueInfo& v = g->second;
      c.kind = v.kind == ValueInfo::Kind::Callable ? Member::Kind::Function
               : v.kind == ValueInfo::Kind::Class  ? Member::Kind::Class
               : v.kind == ValueInfo::Kind::Module ? Member::Kind::Module
                                                   : Member::Kind::Value;
      c.detail = v.signature().empty() ? v.type() : v.signature();
      c.doc = v.doc();
    }
    out.push_back(std::move(c));
  }
  for (const auto& global : s.globals) {
    const std::string& name = global.first;  // not a structured binding: clang 14 cannot capture those
    const ValueInfo& v = global.second;
    if (name.compare(0, prefix.size(), prefix) != 0 || name == prefix) continue;
    if (std::any_of(out.begin(), out.end(), [&](const CompletionInfo& c) { return c.label == name; })) continue;
    out.push_back({name, v.kind == ValueInfo::Kind::Module ? Member::Kind::Module : Member::Kind::Value, std::string(v.type()), ""});
  }
  return out;
}

}  // namespace tlens::lsp
