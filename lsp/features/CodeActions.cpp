// Quick fixes for the diagnostics in range. FIXME: transpose_b=True and the reshape fix need the
// shapes of the operands in the diagnostic; only tf.cast is offered so far.
#include "lsp/features/Features.h"

namespace tlens::lsp {

std::vector<CodeActionInfo> codeActions(const Snapshot& s, TextRange range) {
  std::vector<CodeActionInfo> out;
  for (const DiagnosticInfo& d : diagnostics(s)) {
    if (d.range.end.line < range.start.line || d.range.start.line > range.end.line) continue;
    // A dtype mismatch "... int32 ... float32 ...": cast the int operand.
    if (d.code != "shape-error" && d.code != "dtype-error") continue;
    if (d.message.find("int32") == std::string::npos || d.message.find("float32") == std::string::npos) continue;
    for (const auto& r : d.related) {
      if (r.file != s.file->path() || r.message.find("int32") == std::string::npos) continue;
      uint32_t a = s.file->offsetOf(r.range.start), b = s.file->offsetOf(r.range.end);
      if (b <= a) continue;
      std::string expr = s.file->text().substr(a, b - a);
      out.push_back({"Cast to float32: tf.cast(" + expr + ", tf.float32)", r.range, "tf.cast(" + expr + ", tf.float32)", d});
    }
  }
  return out;
}

}  // namespace tlens::lsp
