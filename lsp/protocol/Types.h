// Types: one plain struct per LSP type the server uses, fields spelled as on the wire. No JSON
// here: Json.h holds the to/from-JSON functions (only the directions actually needed), so the
// typed server (lsp/server) can use these structs without knowing JSON.
//
// Positions are in the negotiated encoding (UTF-16 code units by default, UTF-8 bytes when the
// client offers it); the typed server converts them to byte columns before any feature runs.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/base/DiagnosticData.h"

namespace tlens::lsp {

enum class PositionEncoding { Utf16, Utf8 };

struct Position {
  int line = 0;       ///< 0-based
  int character = 0;  ///< 0-based, in the negotiated encoding's units
  bool operator==(const Position& o) const { return line == o.line && character == o.character; }
};

struct Range {
  Position start, end;
  bool operator==(const Range& o) const { return start == o.start && end == o.end; }
};

struct Location {
  std::string uri;
  Range range;
};

struct DiagnosticRelatedInformation {
  Location location;
  std::string message;
};

/// Diagnostic.data: the structured payload of a diagnostic (engine/base/DiagnosticData.h) with
/// its source places as LSP locations. Clients give it back in codeAction requests; on the wire
/// a shape is an array of dims (a number, a symbol's name, or null for an unknown dim) or null
/// for an unknown rank.
struct DiagnosticOperand {
  ShapeInfo shape{false, {}};
  std::string dtype;                ///< "float32"; omitted when unknown
  std::optional<Location> location;  ///< the operand's expression
  bool blamed = false;              ///< the conflict involves it
};
struct DiagnosticFix {
  std::string title;
  Location range;
  std::string replacement;
};
struct DiagnosticPayload {
  std::string code;
  std::string opType;
  std::string conflict;  ///< "dtype" or "shape" (a failed shape function)
  std::vector<DiagnosticOperand> inputs;
  std::vector<NamedShape> shapes;  ///< named shapes ("target": a reshape's requested shape)
  std::vector<Location> ranges;
  std::vector<DiagnosticFix> fixes;
};

struct Diagnostic {
  Range range;
  int severity = 1;  ///< 1 error, 2 warning, 3 information, 4 hint
  std::string code;  ///< omitted when empty
  std::string source = "tlens";
  std::string message;
  std::vector<DiagnosticRelatedInformation> relatedInformation;
  std::vector<int> tags;  ///< 1 unnecessary, 2 deprecated
  std::optional<DiagnosticPayload> data;  ///< omitted when the producer filled nothing
};

struct PublishDiagnosticsParams {
  std::string uri;
  std::optional<int> version;
  std::vector<Diagnostic> diagnostics;
};

struct TextDocumentItem {
  std::string uri;
  std::string languageId;
  int version = 0;
  std::string text;
};

/// A whole-document replacement when `range` is absent, else an incremental edit.
struct TextDocumentContentChangeEvent {
  std::optional<Range> range;
  std::string text;
};

struct MarkupContent {
  std::string kind = "markdown";
  std::string value;
};

struct Hover {
  MarkupContent contents;
  std::optional<Range> range;
};

struct InlayHint {
  Position position;
  std::string label;
  int kind = 1;  ///< 1 type, 2 parameter
  bool paddingLeft = false;
  bool paddingRight = false;
};

struct DocumentSymbol {
  std::string name;
  std::string detail;
  int kind = 13;  ///< SymbolKind: 5 class, 6 method, 12 function, 13 variable
  Range range;
  Range selectionRange;
  std::vector<DocumentSymbol> children;
};

struct CompletionItem {
  std::string label;
  int kind = 6;  ///< CompletionItemKind: 3 function, 6 variable, 7 class, 9 module, 10 property
  std::string detail;
  std::string documentation;
  std::string sortText;
};

struct ParameterInformation {
  std::string label;
};

struct SignatureInformation {
  std::string label;
  std::string documentation;
  std::vector<ParameterInformation> parameters;
};

struct SignatureHelp {
  std::vector<SignatureInformation> signatures;
  int activeSignature = 0;
  int activeParameter = 0;
};

struct TextEdit {
  Range range;
  std::string newText;
};

struct CodeAction {
  std::string title;
  std::string kind = "quickfix";
  std::string uri;
  std::vector<TextEdit> edits;
  std::vector<Diagnostic> diagnostics;
};

/// What the client told us in `initialize`, reduced to what the server uses.
struct InitializeParams {
  std::vector<PositionEncoding> positionEncodings;  ///< general.positionEncodings, in order
  std::vector<std::string> workspaceFolders;        ///< file paths (rootUri/rootPath/workspaceFolders)
  bool hierarchicalDocumentSymbols = true;
  bool workDoneProgress = false;  ///< window.workDoneProgress: the server may create progress
};

/// The client's settings for tlens (initializationOptions, or the `tensorlens` section of
/// workspace/didChangeConfiguration). Only what the client sent, and only valid values: each
/// rejected value leaves a warning for window/logMessage instead.
struct SettingsChange {
  std::optional<int> analysisBudgetMs;  ///< > 0
  std::optional<bool> inlayHints;
  std::optional<int> virtualGpus;  ///< 1..64 simulated GPUs; -1 (sent as 0): the machine's devices
  std::vector<std::string> warnings;
  bool empty() const { return !analysisBudgetMs && !inlayHints && !virtualGpus; }
};

}  // namespace tlens::lsp
