// Quick fixes for the diagnostics in range: `transpose_b=True` when it resolves a matmul's inner
// dimension mismatch, `tf.cast(x, tf.float32)` for an int32 operand of a float32 op, and a
// corrected target for a reshape whose element count does not match. Each reads the diagnostic's
// code and structured payload (DiagnosticData: the op type, the operands' shapes, dtypes and
// places, a reshape's "target" shape), never its message, which is for people and may change.
#include <algorithm>
#include <cstdint>

#include "lsp/features/Bindings.h"
#include "lsp/features/Features.h"

namespace tlens::lsp {

namespace {

/// Whether two dims print alike in a shape error ("3" and "3", "batch" and "batch").
bool sameDim(const DimInfo& a, const DimInfo& b) { return a.str() == b.str(); }

bool isMatrix(const OperandInfo& o) { return o.shape.rankKnown && o.shape.dims.size() == 2; }

void transposeB(const Snapshot& s, const DiagnosticInfo& d, std::vector<CodeActionInfo>& out) {
  const DiagnosticData& data = d.data;
  if (data.opType != "MatMul" || data.inputs.size() < 2 || !isMatrix(data.inputs[0]) || !isMatrix(data.inputs[1])) return;
  const auto& a = data.inputs[0].shape.dims;
  const auto& b = data.inputs[1].shape.dims;
  // a @ b fails on a[-1] != b[0]; a @ b^T works when a[-1] == b[1].
  if (sameDim(a[1], b[0]) || !sameDim(a[1], b[1])) return;
  uint32_t from = s.file->offsetOf(d.range.start), to = s.file->offsetOf(d.range.end);
  const std::string& text = s.file->text();
  if (to <= from || to > text.size() || text[to - 1] != ')') return;
  std::string call = text.substr(from, to - from);
  if (call.find("transpose_b") != std::string::npos) return;
  lang::TextPos at = s.file->positionOf(to - 1);
  out.push_back({"Transpose the second operand: transpose_b=True", {at, at}, ", transpose_b=True", d});
}

void castInt(const Snapshot& s, const DiagnosticInfo& d, std::vector<CodeActionInfo>& out) {
  const auto& ins = d.data.inputs;
  if (d.data.conflict != "dtype") return;
  if (std::none_of(ins.begin(), ins.end(), [](const OperandInfo& o) { return o.dtype == "float32"; })) return;
  for (const OperandInfo& o : ins) {
    if (!o.blamed || o.dtype != "int32" || !o.location.known() || o.location.file != s.file->path()) continue;
    TextRange r = textRange(o.location);
    uint32_t a = s.file->offsetOf(r.start), b = s.file->offsetOf(r.end);
    if (b <= a) continue;
    std::string expr = s.file->text().substr(a, b - a);
    out.push_back({"Cast to float32: tf.cast(" + expr + ", tf.float32)", r, "tf.cast(" + expr + ", tf.float32)", d});
  }
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
  const DiagnosticData& data = d.data;
  const ShapeInfo* targetShape = data.shape("target");
  if (data.opType != "Reshape" || data.inputs.empty() || !targetShape || !targetShape->rankKnown) return;
  const ShapeInfo& input = data.inputs[0].shape;
  if (!input.rankKnown) return;
  // The input's element count: the product of its known dims, times its symbols ("b*784").
  std::vector<std::string> inSymbols;
  for (const DimInfo& dim : input.dims)
    if (!dim.known()) inSymbols.push_back(dim.str());
  const int64_t inKnown = input.knownElements();
  std::string inSyms;
  for (const std::string& sym : inSymbols) inSyms += sym + "*";
  // The target's dims as the shape function saw them: integers or symbols.
  std::vector<std::string> dims;
  for (const DimInfo& dim : targetShape->dims) dims.push_back(dim.str());
  if (dims.empty()) return;
  for (const auto& dim : dims)
    if (dim == "-1") return;
  // Symbols of the input must all appear among the target's (they cancel); the rest is numbers.
  std::vector<std::string> targetSymbols;
  int64_t targetKnown = 1;
  std::vector<int64_t> values(dims.size(), -1);
  for (size_t i = 0; i < dims.size(); ++i) {
    const DimInfo& dim = targetShape->dims[i];
    if (dim.known()) {
      values[i] = dim.size;
      targetKnown *= values[i];
    } else {
      targetSymbols.push_back(dim.str());
    }
  }
  std::sort(inSymbols.begin(), inSymbols.end());
  std::sort(targetSymbols.begin(), targetSymbols.end());
  if (targetSymbols != inSymbols || targetKnown == inKnown) return;

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

std::vector<CodeActionInfo> codeActions(const Snapshot& s, TextRange range) { return codeActions(s, range, diagnostics(s)); }

std::vector<CodeActionInfo> codeActions(const Snapshot& s, TextRange range, const std::vector<DiagnosticInfo>& diags) {
  std::vector<CodeActionInfo> out;
  for (const DiagnosticInfo& d : diags) {
    if (d.range.end.line < range.start.line || d.range.start.line > range.end.line) continue;
    if (d.code != "shape-error") continue;
    transposeB(s, d, out);
    castInt(s, d, out);
    correctReshape(s, d, out);
  }
  return out;
}

}  // namespace tlens::lsp
