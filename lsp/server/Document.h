// Document text edits in the client's position encoding (didChange). Pure functions over a
// string: an out-of-range position is clamped, invalid UTF-8 counts one unit per byte, so no
// edit can crash the server.
#pragma once

#include <string>

#include "lsp/protocol/Types.h"

namespace tlens::lsp {

/// Byte offset of `p` in `text` (p.character in `enc` units), clamped to the line and the text.
size_t offsetAt(const std::string& text, Position p, PositionEncoding enc);
/// Applies one change (a whole-text replacement when it has no range).
void applyChange(std::string& text, const TextDocumentContentChangeEvent& c, PositionEncoding enc);

}  // namespace tlens::lsp
