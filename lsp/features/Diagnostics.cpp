#include <algorithm>

#include "lsp/features/Features.h"

namespace tlens::lsp {

std::vector<DiagnosticInfo> diagnostics(const Snapshot& s) {
  std::vector<DiagnosticInfo> out;
  const std::string& path = s.file->path();
  for (const interp::Diagnostic& d : s.diagnostics) {
    if (!d.file.empty() && d.file != path) continue;  // reported inside an imported module
    // A loop body analysed twice (an unknown trip count) reports the same error twice: once is enough.
    if (std::any_of(out.begin(), out.end(), [&](const DiagnosticInfo& o) {
          return o.range.start == d.start && o.range.end == d.end && o.message == d.message && o.code == d.code;
        }))
      continue;
    DiagnosticInfo o;
    o.range = {d.start, d.end};
    o.severity = static_cast<int>(d.severity);
    o.code = d.code;
    o.message = d.message;
    o.data = d.data;
    // Unsupported constructs are hints, never errors: the code may well be right.
    if (d.code == "unsupported") o.severity = 4;
    for (const auto& r : d.related) o.related.push_back({r.file.empty() ? path : r.file, {r.start, r.end}, r.message});
    out.push_back(std::move(o));
  }
  for (DiagnosticInfo& d : lints(s)) out.push_back(std::move(d));
  return out;
}

}  // namespace tlens::lsp
