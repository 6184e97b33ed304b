// Where two versions of a text differ: the length of their common prefix and of their common
// suffix (not overlapping the prefix). The incremental re-parse (SourceFile) and the language
// server's edit place (lsp/server/Scheduler) use the same two functions.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string_view>

namespace tlens::lang {

inline size_t commonPrefix(std::string_view a, std::string_view b) {
  size_t n = std::min(a.size(), b.size()), i = 0;
  while (i < n && a[i] == b[i]) ++i;
  return i;
}

/// Bytes equal at the ends of `a` and `b`, at most min(size) - `prefix`.
inline size_t commonSuffix(std::string_view a, std::string_view b, size_t prefix) {
  size_t n = std::min(a.size(), b.size()) - prefix, i = 0;
  while (i < n && a[a.size() - 1 - i] == b[b.size() - 1 - i]) ++i;
  return i;
}

}  // namespace tlens::lang
