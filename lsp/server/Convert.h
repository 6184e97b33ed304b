// Conversions between the features' byte positions and the client's positions.
#pragma once

#include "lsp/analysis/Snapshot.h"
#include "lsp/features/Features.h"
#include "lsp/protocol/Types.h"

namespace tlens::lsp {

struct Converter {
  const Snapshot& snap;
  PositionEncoding enc;

  lang::TextPos toText(Position p) const {
    int line = std::max(0, std::min(p.line, snap.file->lineCount() - 1));
    if (p.line >= snap.file->lineCount()) return {line, static_cast<int>(snap.file->lineText(line).size())};
    int col = enc == PositionEncoding::Utf8 ? p.character : snap.file->byteColumn(line, std::max(0, p.character));
    return {line, col};
  }
  Position toLsp(lang::TextPos t) const {
    if (enc == PositionEncoding::Utf8 || t.line < 0 || t.line >= snap.file->lineCount()) return {t.line, t.column};
    return {t.line, snap.file->utf16Column(t.line, t.column)};
  }
  Range toLsp(const TextRange& r) const { return {toLsp(r.start), toLsp(r.end)}; }
  TextRange toText(const Range& r) const { return {toText(r.start), toText(r.end)}; }
  /// Related locations in other files keep byte columns (their text is not at hand).
  Range toLspIn(const std::string& file, const TextRange& r) const {
    if (file == snap.file->path()) return toLsp(r);
    return {{r.start.line, r.start.column}, {r.end.line, r.end.column}};
  }
};

}  // namespace tlens::lsp
