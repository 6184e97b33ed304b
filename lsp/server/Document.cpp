#include "lsp/server/Document.h"

#include <algorithm>

namespace tlens::lsp {

size_t offsetAt(const std::string& text, Position p, PositionEncoding enc) {
  size_t off = 0;
  for (int line = 0; line < p.line; ++line) {
    size_t nl = text.find('\n', off);
    if (nl == std::string::npos) return text.size();
    off = nl + 1;
  }
  size_t lineEnd = text.find('\n', off);
  if (lineEnd == std::string::npos) lineEnd = text.size();
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
