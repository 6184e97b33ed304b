// Quick fixes for the diagnostics in range: `transpose_b=True` when it resolves a matmul's inner
// dimension mismatch, `tf.cast(x, tf.float32)` for an int32 operand of a float32 op, and a
// corrected target for a reshape whose element count does not match. The shapes come from the
// diagnostic's message ("with input shapes: [batch,256], [784,10]"; "Cannot reshape a tensor
// with 24 elements to shape [7, 3] (21 elements)"), which every shape error carries.
#include <algorithm>
#include <cstdint>
#include <sstream>

#include "lsp/features/Bindings.h"
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

/// "b*784" -> {"b*", 784}; "24" -> {"", 24}. False when the known part is not a number.
bool splitCount(const std::string& s, std::string& symbols, int64_t& known) {
  size_t star = s.rfind('*');
  symbols = star == std::string::npos ? "" : s.substr(0, star + 1);
  std::string k = star == std::string::npos ? s : s.substr(star + 1);
  if (k.empty() || k.size() > 15 || k.find_first_not_of("0123456789") != std::string::npos) return false;
  known = std::stoll(k);
  return true;
}

bool isIntLiteral(std::string_view t) { return !t.empty() && t.find_first_not_of("0123456789") == std::string_view::npos; }

/// The `shape` argument of a reshape call (positional 1 or `shape=`), or a null node.
TSNode shapeArgument(const lang::SourceFile& f, TSNode call) {
  TSNode args = fieldOf(call, "arguments");
  TSNode null{};
  if (ts_node_is_null(args)) return null;
  int positional = 0;
  for (uint32_t i = 0; i < ts_node_named_child_count(args); ++i) {
    TSNode a = ts_node_named_child(args, i);
    if (nodeType(a) == "keyword_argument") {
      if (f.textOf(fieldOf(a, "name")) == "shape") return fieldOf(a, "value");
      continue;
    }
    if (nodeType(a) == "comment") continue;
    if (positional++ == 1) return a;
  }
  return null;
}

/// A reshape whose element count does not match: replace one dim of the target (a list or tuple
/// literal in the call) so that the counts match. An integer literal becomes the number that
/// fits; any other expression (a variable, `n * 2`) becomes -1, so TensorFlow infers it. One
/// action per dim that can be corrected that way; none when the target already has a -1 (its
/// known dims do not divide the input: no single dim can fix that without guessing).
void correctReshape(const Snapshot& s, const DiagnosticInfo& d, std::vector<CodeActionInfo>& out) {
  const std::string& m = d.message;
  static const std::string head = "Cannot reshape a tensor with ";
  if (m.compare(0, head.size(), head) != 0) return;
  size_t elems = m.find(" elements to shape [", head.size());
  if (elems == std::string::npos) return;
  std::string inSyms;
  int64_t inKnown = 0;
  if (!splitCount(m.substr(head.size(), elems - head.size()), inSyms, inKnown)) return;
  size_t open = elems + std::string(" elements to shape ").size(), close = m.find(']', open);
  if (close == std::string::npos) return;
  // The target's dims as the shape function saw them: integers or symbols.
  std::vector<std::string> dims;
  std::stringstream ss(m.substr(open + 1, close - open - 1));
  for (std::string dim; std::getline(ss, dim, ',');) {
    size_t a = dim.find_first_not_of(' ');
    dims.push_back(a == std::string::npos ? "" : dim.substr(a));
  }
  if (dims.empty()) return;
  for (const auto& dim : dims)
    if (dim == "-1") return;
  // Symbols of the input must all appear among the target's (they cancel); the rest is numbers.
  std::string targetSyms;
  int64_t targetKnown = 1;
  std::vector<int64_t> values(dims.size(), -1);
  for (size_t i = 0; i < dims.size(); ++i) {
    if (isIntLiteral(dims[i]) && dims[i].size() < 16) {
      values[i] = std::stoll(dims[i]);
      targetKnown *= values[i];
    } else {
      targetSyms += dims[i] + "*";
    }
  }
  auto symbolSet = [](const std::string& syms) {
    std::vector<std::string> v;
    std::stringstream parts(syms);
    for (std::string p; std::getline(parts, p, '*');)
      if (!p.empty()) v.push_back(p);
    std::sort(v.begin(), v.end());
    return v;
  };
  if (symbolSet(targetSyms) != symbolSet(inSyms) || targetKnown == inKnown) return;

  // The target literal in the source: the call at the diagnostic's range.
  const lang::SourceFile& f = *s.file;
  uint32_t a = f.offsetOf(d.range.start), b = f.offsetOf(d.range.end);
  TSNode call = ts_node_descendant_for_byte_range(f.root(), a, b);
  while (!ts_node_is_null(call) && !(nodeType(call) == "call" && ts_node_start_byte(call) == a && ts_node_end_byte(call) == b))
    call = ts_node_parent(call);
  if (ts_node_is_null(call)) return;
  std::string_view fn = f.textOf(fieldOf(call, "function"));
  if (fn.size() < 7 || fn.substr(fn.size() - 7) != "reshape") return;
  TSNode target = shapeArgument(f, call);
  if (ts_node_is_null(target) || (nodeType(target) != "list" && nodeType(target) != "tuple")) return;
  std::vector<TSNode> elements;
  for (uint32_t i = 0; i < ts_node_named_child_count(target); ++i) {
    TSNode e = ts_node_named_child(target, i);
    if (nodeType(e) == "comment") continue;
    if (nodeType(e) == "list_splat") return;
    elements.push_back(e);
  }
  if (elements.size() != dims.size()) return;

  int offered = 0;
  for (size_t i = 0; i < dims.size() && offered < 3; ++i) {
    if (values[i] <= 0) continue;
    int64_t others = targetKnown / values[i];
    if (others <= 0 || inKnown % others != 0) continue;
    int64_t fit = inKnown / others;
    if (fit == values[i] || fit <= 0) continue;
    TSNode e = elements[i];
    std::string_view src = f.textOf(e);
    std::string replacement = isIntLiteral(src) ? std::to_string(fit) : "-1";
    std::string shown = "[";
    for (size_t j = 0; j < dims.size(); ++j)
      shown += (j ? ", " : "") + (j == i ? replacement : dims[j]);
    shown += "]";
    std::string title = "Reshape to " + shown + " (" + (inSyms.empty() ? "" : inSyms) + std::to_string(inKnown) +
                        " elements): replace " + std::string(src) + " with " + replacement;
    TextRange range{f.positionOf(ts_node_start_byte(e)), f.positionOf(ts_node_end_byte(e))};
    out.push_back({title, range, replacement, d});
    ++offered;
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
    correctReshape(s, d, out);
  }
  return out;
}

}  // namespace tlens::lsp
