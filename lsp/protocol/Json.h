// Json: to/from-JSON for the structs of Types.h (nlohmann/json). Only the directions the server
// needs exist: requests and notifications from the client are parsed (from_json, required fields
// read with at(), so a missing one throws json::exception, which the adapter answers with
// InvalidParams); results are serialised (to_json), empty optionals and empty optional arrays
// omitted rather than written as null.
#pragma once

#include <nlohmann/json.hpp>

#include "lsp/protocol/Types.h"
#include "lsp/protocol/Uri.h"

namespace tlens::lsp {

using json = nlohmann::json;

/// The settings in `options` (initializationOptions, or the `settings` of
/// workspace/didChangeConfiguration: its `tensorlens` section when there is one). Both spellings
/// are read: the flat keys of initializationOptions (`analysisBudgetMs`, `inlayHints`,
/// `virtualGpus`) and the VS Code section's (`analysis.budgetMs`, `inlayHints.enabled`). Never
/// throws: a value of the wrong type or range becomes a warning; unknown keys are ignored.
SettingsChange parseSettings(const json& options);

void from_json(const json& j, Position& p);
void to_json(json& j, const Position& p);
void from_json(const json& j, Range& r);
void to_json(json& j, const Range& r);
void to_json(json& j, const Location& l);
void from_json(const json& j, Location& l);
void to_json(json& j, const DiagnosticPayload& d);
/// Throws json::exception on a malformed payload (the caller answers with an error).
void from_json(const json& j, DiagnosticPayload& d);
void to_json(json& j, const Diagnostic& d);
/// A diagnostic a client sends back (codeAction's context.diagnostics). `range` is required and
/// throws json::exception when missing or malformed; a `data` that is not a payload is dropped
/// (the diagnostic then has none), so a client's own or damaged data never fails the request.
void from_json(const json& j, Diagnostic& d);
void to_json(json& j, const PublishDiagnosticsParams& p);
void from_json(const json& j, TextDocumentItem& t);
void from_json(const json& j, TextDocumentContentChangeEvent& c);
void to_json(json& j, const Hover& h);
void to_json(json& j, const InlayHint& h);
void to_json(json& j, const DocumentSymbol& s);
void to_json(json& j, const CompletionItem& c);
void to_json(json& j, const SignatureHelp& s);
void to_json(json& j, const CodeAction& a);
void from_json(const json& j, InitializeParams& p);

}  // namespace tlens::lsp
