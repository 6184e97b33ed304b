// Quick fixes for the diagnostics in range: `transpose_b=True` when it resolves a matmul's inner
// dimension mismatch, `tf.cast(x, tf.float32)` for an int32 operand of a float32 op. The shapes
// come from the diagnostic's message ("with input shapes: [batch,256], [784,10]"), which every
// shape error carries. FIXME: a corrected reshape target is not offered yet.
#include <sstream>

#include "lsp/features/Features.h"

namespace tlens::lsp {

namespace {

/// "[batch,256], [784,10]" after "with input shapes: " -> {{"batch","256"},{"784","10"}}.
std::vector<std::vector<std::string>> inputShapes(const std::string& message) {
  std::vector<std::vector<std::string>> out;
  size_t at = message.find("with input shapes: ");
  if (at == std::string::npos) return out;
  for (size_t i = at; i < message.size(); ++i) {
    if (message[i] != '[') continue;
    size_t close = message.find(']', i);
    if (close == std::string::npos) break;
    std::vector<std::string> dims;
    std::stringstream ss(message.substr(i + 1, close - i - 1));
    for (std::string d; std::getline(ss, d, ',');) dims.push_back(d);
    out.push_back(std::move(dims));
    i = close;
  }
  return out;
}

void transposeB(const Snapshot& s, const DiagnosticInfo& d, std::vector<CodeActionInfo>& out) {
  if (d.message.find("(op: 'MatMul')") == std::string::npos || d.message.find("Dimensions must be equal") == std::string::npos)
    return;
  auto shapes = inputShapes(d.message);
  if (shapes.size() < 2 || shapes[0].size() != 2 || shapes[1].size() != 2) return;
  // a @ b fails on a[-1] != b[0]; a @ b^T works when a[-1] == b[1].
  if (shapes[0][1] != shapes[1][1]) return;
  uint32_t a = s.file->offsetOf(d.range.start), b = s.file->offsetOf(d.range.end);
  const std::string& text = s.file->text();
  if (b <= a || b > text.size() || text[b - 1] != ')') return;
  std::string call = text.substr(a, b - a);
  if (call.find("transpose_b") != std::string::npos) return;
  lang::TextPos at = s.file->positionOf(b - 1);
  out.push_back({"Transpose the second operand: transpose_b=True", {at, at}, ", transpose_b=True", d});
}

void castInt(const Snapshot& s, const DiagnosticInfo& d, std::vector<CodeActionInfo>& out) {
  if (d.message.find("int32") == std::string::npos || d.message.find("float32") == std::string::npos) return;
  for (const auto& r : d.related) {
    if (r.file != s.file->path() || r.message.find("int32") == std::string::npos) continue;
    uint32_t a = s.file->offsetOf(r.range.start), b = s.file->offsetOf(r.range.end);
    if (b <= a) continue;
    std::string expr = s.file->text().substr(a, b - a);
    out.push_back({"Cast to float32: tf.cast(" + expr + ", tf.float32)", r.range, "tf.cast(" + expr + ", tf.float32)", d});
  }
}

}  // namespace

std::vector<CodeActionInfo> codeActions(const Snapshot& s, TextRange range) {
  std::vector<CodeActionInfo> out;
  for (const DiagnosticInfo& d : diagnostics(s)) {
    if (d.range.end.line < range.start.line || d.range.start.line > range.end.line) continue;
    if (d.code != "shape-error") continue;
    transposeB(s, d, out);
    castInt(s, d, out);
  }
  return out;
}

}  // namespace tlens::lsp
