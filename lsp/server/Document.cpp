#include "lsp/server/Document.h"

#include <algorithm>

namespace tlens::lsp {

namespace {

/// Where the line starting at `off` ends (its line break, or the end): \n, \r\n and a lone \r
/// end lines, as the LSP says.
size_t lineEndFrom(const std::string& text, size_t off) {
  size_t e = text.find_first_of("\r\n", off);
  return e == std::string::npos ? text.size() : e;
}

}  // namespace

size_t offsetAt(const std::string& text, Position p, PositionEncoding enc) {
  size_t off = 0;
  for (int line = 0; line < p.line; ++line) {
    size_t nl = lineEndFrom(text, off);
    if (nl == text.size()) return text.size();
    off = nl + (text[nl] == '\r' && nl + 1 < text.size() && text[nl + 1] == '\n' ? 2 : 1);
  }
  size_t lineEnd = lineEndFrom(text, off);
  if (p.character <= 0) return off;
  if (enc == PositionEncoding::Utf8) return std::min(off + static_cast<size_t>(p.character), lineEnd);
  int units = 0;
  size_t i = off;
  while (i < lineEnd && units < p.character) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    size_t len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 1;
    if (i + len > lineEnd) len = 1;
    units += len == 4 ? 2 : 1;
    i += len;
  }
  return i;
}

void applyChange(std::string& text, const TextDocumentContentChangeEvent& c, PositionEncoding enc) {
  if (!c.range) {
    text = c.text;
    return;
  }
  size_t a = offsetAt(text, c.range->start, enc), b = offsetAt(text, c.range->end, enc);
  if (b < a) std::swap(a, b);
  text.replace(a, b - a, c.text);
}

}  // namespace tlens::lsp
