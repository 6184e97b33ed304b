#include <algorithm>

#include "engine/ops/OpRegistry.h"
#include "lsp/features/Features.h"

namespace tlens::lsp {

namespace {

/// The callee of the call whose value `v` is, when `v` is a call expression: its observation
/// gives the signature and, for `tf.*` functions, the op's documentation.
const ValueInfo* calleeOf(const Snapshot& s, const ValueInfo& v) {
  TSNode n = ts_node_descendant_for_byte_range(s.file->root(), v.start, v.end);
  while (!ts_node_is_null(n) && (ts_node_start_byte(n) != v.start || ts_node_end_byte(n) != v.end ||
                                 std::string_view(ts_node_type(n)) != "call")) {
    TSNode p = ts_node_parent(n);
    if (ts_node_is_null(p) || ts_node_start_byte(p) != v.start || ts_node_end_byte(p) != v.end) return nullptr;
    n = p;
  }
  if (ts_node_is_null(n)) return nullptr;
  TSNode fn = ts_node_child_by_field_name(n, "function", 8);
  if (ts_node_is_null(fn)) return nullptr;
  return s.valueOf(ts_node_start_byte(fn), ts_node_end_byte(fn));
}

}  // namespace

std::optional<HoverInfo> hover(const Snapshot& s, lang::TextPos pos) {
  uint32_t off = s.file->offsetOf(pos);
  const ValueInfo* v = s.valueAt(off);
  if (!v) return std::nullopt;
  HoverInfo h;
  h.range = {s.file->positionOf(v->start), s.file->positionOf(v->end)};
  h.expression = std::string(s.file->text().substr(v->start, v->end - v->start));
  h.kind = v->kind;
  h.type = v->type();
  h.types = v->types().empty() ? std::vector<std::string>{h.type} : v->types();
  h.value = v->value();
  h.device = v->device();
  h.placementNote = v->placementNote();
  h.node = v->node();
  h.op = v->op();
  h.opSummary = v->opSummary();
  h.signature = v->signature();
  h.doc = v->doc();
  h.summaryRows = v->summaryRows();
  if (const ValueInfo* callee = calleeOf(s, *v)) {
    if (h.signature.empty()) h.signature = callee->signature();
    if (h.doc.empty()) h.doc = callee->doc();
  }
  if (h.opSummary.empty() && !h.op.empty())
    if (const OpDef* op = OpRegistry::global().find(h.op)) h.opSummary = op->summary;
  // `tf.nn.relu` as written: the registry knows the op behind a public name.
  if (h.opSummary.empty()) {
    std::string callee = h.expression.substr(0, h.expression.find('('));
    if (const OpDef* op = OpRegistry::global().findByApi(callee)) {
      h.op = op->type;
      h.opSummary = op->summary;
    }
  }
  return h;
}

std::string HoverInfo::present() const {
  std::string md;
  auto code = [](const std::string& s) { return "`" + s + "`"; };
  switch (kind) {
    case ValueInfo::Kind::Tensor:
      md += "```\n" + type + (device.empty() ? "" : "  " + device) + "\n```\n";
      if (types.size() > 1) {
        md += "\nper call site:\n";
        for (const auto& t : types) md += "- " + code(t) + "\n";
      }
      if (!node.empty()) md += "\nnode " + code(node) + (op.empty() ? "" : " (" + op + ")") + "\n";
      if (!placementNote.empty()) md += "\nplacement: " + placementNote + "\n";
      break;
    case ValueInfo::Kind::Python:
    case ValueInfo::Kind::DType:
      md += "```\n" + type + (value.empty() ? "" : " = " + value) + "\n```\n";
      break;
    case ValueInfo::Kind::Unknown:
      md += "```\n" + type + " (value not known statically)\n```\n";
      break;
    case ValueInfo::Kind::Module:
      md += "```\nmodule " + value + "\n```\n";
      break;
    case ValueInfo::Kind::Class:
      md += "```\nclass " + (signature.empty() ? value : signature) + "\n```\n";
      break;
    case ValueInfo::Kind::Instance:
      md += "```\n" + (value.empty() ? type : value) + "\n```\n";
      break;
    case ValueInfo::Kind::Callable:
      break;
  }
  if (!signature.empty() && kind != ValueInfo::Kind::Class) md += "\n```python\n" + signature + "\n```\n";
  if (!opSummary.empty()) md += "\n" + opSummary + "\n";
  else if (!doc.empty()) md += "\n" + doc + "\n";
  if (!summaryRows.empty()) {
    md += "\n";
    for (size_t i = 0; i < summaryRows.size(); ++i) {
      md += "|";
      for (const auto& c : summaryRows[i]) md += " " + c + " |";
      md += "\n";
      if (i == 0) {
        md += "|";
        for (size_t k = 0; k < summaryRows[0].size(); ++k) md += " --- |";
        md += "\n";
      }
    }
  }
  return md;
}

}  // namespace tlens::lsp
