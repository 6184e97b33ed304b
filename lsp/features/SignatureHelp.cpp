// Signature help works on the text, not the tree: while a call is being typed the tree has an
// ERROR node where the call will be. From the cursor, find the unclosed '(' and the dotted name
// before it; count the commas at depth 0 for the active parameter.
#include <cctype>

#include "lsp/features/Features.h"

namespace tlens::lsp {

namespace {

bool isIdent(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

}  // namespace

std::optional<SignatureInfo> signatureHelp(const Snapshot& s, lang::TextPos pos) {
  const std::string& text = s.file->text();
  uint32_t off = s.file->offsetOf(pos);
  int depth = 0, commas = 0;
  size_t open = std::string::npos;
  // Look back at most 4 KB: signature help is for the call being typed.
  size_t limit = off > 4096 ? off - 4096 : 0;
  for (size_t i = off; i-- > limit;) {
    char c = text[i];
    if (c == ')' || c == ']' || c == '}') ++depth;
    else if (c == '(' || c == '[' || c == '{') {
      if (depth == 0) {
        if (c != '(') return std::nullopt;
        open = i;
        break;
      }
      --depth;
    } else if (c == ',' && depth == 0) {
      ++commas;
    }
  }
  if (open == std::string::npos) return std::nullopt;
  size_t end = open;
  while (end > 0 && text[end - 1] == ' ') --end;
  size_t b = end;
  while (b > 0 && (isIdent(text[b - 1]) || text[b - 1] == '.')) --b;
  if (b == end) return std::nullopt;
  std::string callee = text.substr(b, end - b);
  SignatureInfo out;
  // The callee as the analysis saw it, else a member of a global module ("tf.matmul").
  if (const ValueInfo* v = s.valueOf(static_cast<uint32_t>(b), static_cast<uint32_t>(end)); v && !v->signature().empty()) {
    out.label = v->signature();
    out.params = v->params();
    out.doc = v->doc();
  } else {
    size_t dot = callee.rfind('.');
    const Members* ms = nullptr;
    std::string name = callee;
    if (dot != std::string::npos) {
      if (auto it = s.moduleMembers.find(callee.substr(0, dot)); it != s.moduleMembers.end()) ms = &it->second;
      name = callee.substr(dot + 1);
    }
    if (ms && *ms) {
      for (const Member& m : **ms)
        if (m.name == name && m.kind == Member::Kind::Function) {
          out.label = m.detail;
          out.doc = m.doc;
        }
    } else if (auto g = s.globals.find(callee); g != s.globals.end() && !g->second.signature().empty()) {
      out.label = g->second.signature();
      out.params = g->second.params();
      out.doc = g->second.doc();
    }
    if (out.label.empty()) return std::nullopt;
    if (out.params.empty()) {
      // Split "name(a, b=1)" into parameters.
      size_t lp = out.label.find('('), rp = out.label.rfind(')');
      if (lp != std::string::npos && rp != std::string::npos && rp > lp + 1) {
        std::string inner = out.label.substr(lp + 1, rp - lp - 1);
        int d = 0;
        std::string cur;
        for (char c : inner) {
          if (c == '(' || c == '[') ++d;
          if (c == ')' || c == ']') --d;
          if (c == ',' && d == 0) {
            out.params.push_back(cur);
            cur.clear();
            continue;
          }
          if (!(cur.empty() && c == ' ')) cur += c;
        }
        if (!cur.empty()) out.params.push_back(cur);
      }
    }
  }
  out.activeParameter = commas;
  return out;
}

}  // namespace tlens::lsp
