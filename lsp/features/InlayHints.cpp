#include "lsp/features/Bindings.h"
#include "lsp/features/Features.h"

namespace tlens::lsp {

std::vector<InlayHintInfo> inlayHints(const Snapshot& s, TextRange range) {
  std::vector<InlayHintInfo> out;
  uint32_t from = s.file->offsetOf(range.start), to = s.file->offsetOf(range.end);
  for (TSNode n : assignedNames(*s.file, s.file->root())) {
    uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
    if (b < from || a > to) continue;
    const ValueInfo* v = s.valueOf(a, b);
    // Only tensors whose dtype and rank are known: a hint must never guess.
    if (!v || v->kind != ValueInfo::Kind::Tensor || !v->known) continue;
    // A name bound to different types (a loop, several call sites) gets no hint.
    if (v->types().size() > 1) continue;
    out.push_back({s.file->positionOf(b), ": " + std::string(v->type())});
  }
  return out;
}

}  // namespace tlens::lsp
