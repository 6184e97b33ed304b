#include "lsp/protocol/Json.h"

#include <cmath>
#include <cstdio>

namespace tlens::lsp {

void from_json(const json& j, Position& p) {
  p.line = j.at("line").get<int>();
  p.character = j.at("character").get<int>();
}
void to_json(json& j, const Position& p) { j = json{{"line", p.line}, {"character", p.character}}; }
void from_json(const json& j, Range& r) {
  r.start = j.at("start").get<Position>();
  r.end = j.at("end").get<Position>();
}
void to_json(json& j, const Range& r) { j = json{{"start", r.start}, {"end", r.end}}; }
void to_json(json& j, const Location& l) { j = json{{"uri", l.uri}, {"range", l.range}}; }
void from_json(const json& j, Location& l) {
  l.uri = j.at("uri").get<std::string>();
  l.range = j.at("range").get<Range>();
}

namespace {

json shapeJson(const ShapeInfo& s) {
  if (!s.rankKnown) return nullptr;
  json dims = json::array();
  for (const DimInfo& d : s.dims) {
    if (d.known()) dims.push_back(d.size);
    else if (!d.symbol.empty()) dims.push_back(d.symbol);
    else dims.push_back(nullptr);
  }
  return dims;
}

ShapeInfo shapeFromJson(const json& j) {
  ShapeInfo s;
  if (j.is_null()) return ShapeInfo{false, {}};
  for (const json& d : j.get_ref<const json::array_t&>()) {
    DimInfo dim;
    if (d.is_number_integer()) dim.size = d.get<int64_t>();
    else if (d.is_string()) dim.symbol = d.get<std::string>();
    else if (!d.is_null()) throw json::type_error::create(302, "a dim is a number, a symbol or null", &d);
    s.dims.push_back(std::move(dim));
  }
  return s;
}

}  // namespace

void to_json(json& j, const DiagnosticPayload& d) {
  j = json::object();
  if (!d.code.empty()) j["code"] = d.code;
  if (!d.opType.empty()) j["opType"] = d.opType;
  if (!d.conflict.empty()) j["conflict"] = d.conflict;
  if (!d.inputs.empty()) {
    json ins = json::array();
    for (const DiagnosticOperand& o : d.inputs) {
      json x{{"shape", shapeJson(o.shape)}};
      if (!o.dtype.empty()) x["dtype"] = o.dtype;
      if (o.location) x["location"] = *o.location;
      if (o.blamed) x["blamed"] = true;
      ins.push_back(std::move(x));
    }
    j["inputs"] = std::move(ins);
  }
  if (!d.shapes.empty()) {
    json shapes = json::object();
    for (const NamedShape& s : d.shapes) shapes[s.role] = shapeJson(s.shape);
    j["shapes"] = std::move(shapes);
  }
  if (!d.ranges.empty()) j["ranges"] = d.ranges;
  if (!d.fixes.empty()) {
    json fixes = json::array();
    for (const DiagnosticFix& f : d.fixes) fixes.push_back({{"title", f.title}, {"range", f.range}, {"replacement", f.replacement}});
    j["fixes"] = std::move(fixes);
  }
}

void from_json(const json& j, DiagnosticPayload& d) {
  d = DiagnosticPayload{};
  d.code = j.value("code", "");
  d.opType = j.value("opType", "");
  d.conflict = j.value("conflict", "");
  if (j.contains("inputs"))
    for (const json& x : j.at("inputs").get_ref<const json::array_t&>()) {
      DiagnosticOperand o;
      o.shape = shapeFromJson(x.at("shape"));
      o.dtype = x.value("dtype", "");
      if (x.contains("location")) o.location = x.at("location").get<Location>();
      o.blamed = x.value("blamed", false);
      d.inputs.push_back(std::move(o));
    }
  if (j.contains("shapes"))
    for (const auto& [role, s] : j.at("shapes").items()) d.shapes.push_back(NamedShape{role, shapeFromJson(s)});
  if (j.contains("ranges")) d.ranges = j.at("ranges").get<std::vector<Location>>();
  if (j.contains("fixes"))
    for (const json& f : j.at("fixes").get_ref<const json::array_t&>())
      d.fixes.push_back(DiagnosticFix{f.at("title").get<std::string>(), f.at("range").get<Location>(),
                                      f.at("replacement").get<std::string>()});
}

void to_json(json& j, const Diagnostic& d) {
  j = json{{"range", d.range}, {"severity", d.severity}, {"source", d.source}, {"message", d.message}};
  if (!d.code.empty()) j["code"] = d.code;
  if (!d.relatedInformation.empty()) {
    json rel = json::array();
    for (const auto& r : d.relatedInformation) rel.push_back({{"location", r.location}, {"message", r.message}});
    j["relatedInformation"] = std::move(rel);
  }
  if (!d.tags.empty()) j["tags"] = d.tags;
  if (d.data) j["data"] = *d.data;
}

void from_json(const json& j, Diagnostic& d) {
  d = Diagnostic{};
  d.range = j.at("range").get<Range>();
  if (j.contains("severity") && j["severity"].is_number_integer()) d.severity = j["severity"].get<int>();
  if (j.contains("code")) {
    const json& c = j["code"];
    if (c.is_string()) d.code = c.get<std::string>();
    else if (c.is_number_integer()) d.code = std::to_string(c.get<int64_t>());
  }
  d.source = j.contains("source") && j["source"].is_string() ? j["source"].get<std::string>() : "";
  d.message = j.contains("message") && j["message"].is_string() ? j["message"].get<std::string>() : "";
  if (j.contains("data") && j["data"].is_object()) {
    try {
      d.data = j["data"].get<DiagnosticPayload>();
    } catch (const json::exception&) {
      d.data.reset();
    }
  }
}

void to_json(json& j, const PublishDiagnosticsParams& p) {
  j = json{{"uri", p.uri}, {"diagnostics", p.diagnostics}};
  if (p.version) j["version"] = *p.version;
}

void from_json(const json& j, TextDocumentItem& t) {
  t.uri = j.at("uri").get<std::string>();
  t.languageId = j.value("languageId", "python");
  t.version = j.value("version", 0);
  t.text = j.at("text").get<std::string>();
}

void from_json(const json& j, TextDocumentContentChangeEvent& c) {
  if (j.contains("range")) c.range = j.at("range").get<Range>();
  c.text = j.at("text").get<std::string>();
}

void to_json(json& j, const Hover& h) {
  j = json{{"contents", {{"kind", h.contents.kind}, {"value", h.contents.value}}}};
  if (h.range) j["range"] = *h.range;
}

void to_json(json& j, const InlayHint& h) {
  j = json{{"position", h.position}, {"label", h.label}, {"kind", h.kind}};
  if (h.paddingLeft) j["paddingLeft"] = true;
  if (h.paddingRight) j["paddingRight"] = true;
}

void to_json(json& j, const DocumentSymbol& s) {
  j = json{{"name", s.name}, {"kind", s.kind}, {"range", s.range}, {"selectionRange", s.selectionRange}};
  if (!s.detail.empty()) j["detail"] = s.detail;
  if (!s.children.empty()) j["children"] = s.children;
}

void to_json(json& j, const CompletionItem& c) {
  j = json{{"label", c.label}, {"kind", c.kind}};
  if (!c.detail.empty()) j["detail"] = c.detail;
  if (!c.documentation.empty()) j["documentation"] = {{"kind", "markdown"}, {"value", c.documentation}};
  if (!c.sortText.empty()) j["sortText"] = c.sortText;
}

void to_json(json& j, const SignatureHelp& s) {
  json sigs = json::array();
  for (const auto& sig : s.signatures) {
    json params = json::array();
    for (const auto& p : sig.parameters) params.push_back({{"label", p.label}});
    json o{{"label", sig.label}, {"parameters", params}};
    if (!sig.documentation.empty()) o["documentation"] = {{"kind", "markdown"}, {"value", sig.documentation}};
    sigs.push_back(std::move(o));
  }
  j = json{{"signatures", sigs}, {"activeSignature", s.activeSignature}, {"activeParameter", s.activeParameter}};
}

void to_json(json& j, const CodeAction& a) {
  json edits = json::array();
  for (const auto& e : a.edits) edits.push_back({{"range", e.range}, {"newText", e.newText}});
  j = json{{"title", a.title}, {"kind", a.kind}, {"edit", {{"changes", {{a.uri, edits}}}}}};
  if (!a.diagnostics.empty()) j["diagnostics"] = a.diagnostics;
}

void from_json(const json& j, InitializeParams& p) {
  if (auto g = j.find("capabilities"); g != j.end() && g->is_object()) {
    if (auto gen = g->find("general"); gen != g->end() && gen->is_object()) {
      if (auto enc = gen->find("positionEncodings"); enc != gen->end() && enc->is_array())
        for (const auto& e : *enc) {
          if (!e.is_string()) continue;
          if (e == "utf-8") p.positionEncodings.push_back(PositionEncoding::Utf8);
          else if (e == "utf-16") p.positionEncodings.push_back(PositionEncoding::Utf16);
        }
    }
    const json* ds = nullptr;
    if (auto td = g->find("textDocument"); td != g->end() && td->is_object())
      if (auto s = td->find("documentSymbol"); s != td->end() && s->is_object()) ds = &*s;
    if (ds) p.hierarchicalDocumentSymbols = ds->value("hierarchicalDocumentSymbolSupport", false);
    if (auto w = g->find("window"); w != g->end() && w->is_object()) {
      auto wdp = w->find("workDoneProgress");
      p.workDoneProgress = wdp != w->end() && wdp->is_boolean() && wdp->get<bool>();
    }
  }
  if (auto wf = j.find("workspaceFolders"); wf != j.end() && wf->is_array()) {
    for (const auto& f : *wf)
      if (f.is_object() && f.contains("uri") && f["uri"].is_string()) p.workspaceFolders.push_back(uriToPath(f["uri"]));
  } else if (auto ru = j.find("rootUri"); ru != j.end() && ru->is_string()) {
    p.workspaceFolders.push_back(uriToPath(*ru));
  } else if (auto rp = j.find("rootPath"); rp != j.end() && rp->is_string()) {
    p.workspaceFolders.push_back(*rp);
  }
}

namespace {

/// An integer in [lo, hi] (a number with a fractional part is not one).
std::optional<int> intSetting(const json& v, const std::string& key, long long lo, long long hi,
                              std::vector<std::string>& warnings) {
  auto bad = [&](const std::string& why) {
    warnings.push_back("tlens: ignoring the setting " + key + " = " +
                       v.dump(-1, ' ', false, json::error_handler_t::replace) + ": " + why);
    return std::nullopt;
  };
  long long n = 0;
  if (v.is_number_unsigned()) n = v.get<unsigned long long>() > static_cast<unsigned long long>(hi) ? hi + 1 : v.get<long long>();
  else if (v.is_number_integer()) n = v.get<long long>();
  else if (v.is_number_float() && std::isfinite(v.get<double>()) && v.get<double>() == std::floor(v.get<double>()) &&
           std::fabs(v.get<double>()) < 1e15)
    n = static_cast<long long>(v.get<double>());
  else
    return bad("it must be an integer from " + std::to_string(lo) + " to " + std::to_string(hi));
  if (n < lo || n > hi) return bad("it must be from " + std::to_string(lo) + " to " + std::to_string(hi));
  return static_cast<int>(n);
}

std::optional<bool> boolSetting(const json& v, const std::string& key, std::vector<std::string>& warnings) {
  if (v.is_boolean()) return v.get<bool>();
  warnings.push_back("tlens: ignoring the setting " + key + " = " +
                     v.dump(-1, ' ', false, json::error_handler_t::replace) + ": it must be true or false");
  return std::nullopt;
}

}  // namespace

SettingsChange parseSettings(const json& options) {
  SettingsChange out;
  if (!options.is_object()) return out;  // null: the client has no settings for us
  const json* o = &options;
  if (auto t = options.find("tensorlens"); t != options.end()) {
    if (!t->is_object()) {
      out.warnings.push_back("tlens: ignoring the settings: \"tensorlens\" must be an object");
      return out;
    }
    o = &*t;
  }
  constexpr int kMaxBudgetMs = 3'600'000;
  if (auto v = o->find("analysisBudgetMs"); v != o->end())
    out.analysisBudgetMs = intSetting(*v, "analysisBudgetMs", 1, kMaxBudgetMs, out.warnings);
  if (auto a = o->find("analysis"); a != o->end() && a->is_object() && !out.analysisBudgetMs)
    if (auto v = a->find("budgetMs"); v != a->end())
      out.analysisBudgetMs = intSetting(*v, "analysis.budgetMs", 1, kMaxBudgetMs, out.warnings);
  if (auto v = o->find("inlayHints"); v != o->end()) {
    if (v->is_object()) {
      if (auto e = v->find("enabled"); e != v->end()) out.inlayHints = boolSetting(*e, "inlayHints.enabled", out.warnings);
    } else {
      out.inlayHints = boolSetting(*v, "inlayHints", out.warnings);
    }
  }
  if (auto v = o->find("virtualGpus"); v != o->end()) {
    out.virtualGpus = intSetting(*v, "virtualGpus", 0, 64, out.warnings);
    // 0 (the editor's default) means the machine's own devices, not "no GPU".
    if (out.virtualGpus && *out.virtualGpus == 0) out.virtualGpus = -1;
  }
  return out;
}

}  // namespace tlens::lsp
