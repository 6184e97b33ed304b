// How deeply a JSON text nests, found by a scan of its bytes (no parse). Both servers check every
// message body with it before parsing: nlohmann's copies and dumps recurse once per level, so a
// body nested 100,000 deep would overflow the stack (issue 22.4). Brackets inside strings do not
// count; the text need not be valid JSON (the parser reports that afterwards).
#pragma once

#include <cstddef>
#include <string_view>

namespace tlens::protocol {

/// Deepest nesting a message may have. Real LSP and DAP messages nest fewer than 20 levels.
inline constexpr size_t kMaxJsonDepth = 512;

/// True when `text` opens more than `limit` arrays/objects inside one another.
inline bool jsonNestsDeeperThan(std::string_view text, size_t limit = kMaxJsonDepth) {
  size_t depth = 0;
  bool inString = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (inString) {
      if (c == '\\') ++i;
      else if (c == '"') inString = false;
    } else if (c == '"') {
      inString = true;
    } else if (c == '[' || c == '{') {
      if (++depth > limit) return true;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return false;
}

}  // namespace tlens::protocol
