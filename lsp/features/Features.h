// Features: pure functions over an immutable Snapshot, one .cpp per feature (as clangd's
// Hover.cpp, XRefs.cpp). Positions are lang::TextPos (0-based line, byte column); the server
// converts to and from the client's encoding. Each returns a structured result; rendering to
// markdown lives next to the struct (HoverInfo::present), so tests assert fields.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "lsp/analysis/Snapshot.h"
#include "lsp/features/Workspace.h"

namespace tlens::lsp {

struct TextRange {
  lang::TextPos start, end;
};

/// A source location's range (1-based line and byte column) as 0-based positions; a location
/// without an end is empty at its start.
inline TextRange textRange(const SourceLocation& l) {
  return {{l.line - 1, l.column - 1},
          {(l.endLine ? l.endLine : l.line) - 1, (l.endColumn ? l.endColumn : l.column) - 1}};
}

// --- Diagnostics.cpp -------------------------------------------------------------------------
struct DiagnosticInfo {
  TextRange range;
  int severity = 1;  ///< 1 error .. 4 hint
  std::string code;
  std::string message;
  struct Related {
    std::string file;  ///< a file path; the snapshot's own path for this document
    TextRange range;
    std::string message;
  };
  std::vector<Related> related;
  /// The structured payload (op type, operands' shapes, dtypes and places, named shapes): what
  /// code actions and other consumers read; the message is for people only.
  DiagnosticData data;
};
/// What to publish: the interpreter's diagnostics for this file; unsupported constructs are
/// hints; syntax errors, shape/dtype errors and exceptions on known values keep their severity.
std::vector<DiagnosticInfo> diagnostics(const Snapshot& s);

// --- Lints.cpp -------------------------------------------------------------------------------
/// Checks over the snapshot that the interpreter does not make: attributes a tf/np module does
/// not have ("unknown-attribute"), tf.log of a softmax output ("log-softmax", the tfdbg
/// tutorial's NaN). diagnostics() includes them.
std::vector<DiagnosticInfo> lints(const Snapshot& s);

// --- Hover.cpp -------------------------------------------------------------------------------
struct HoverInfo {
  TextRange range;
  std::string expression;           ///< the source text hovered ("tf.nn.relu(tf.matmul(x, w1))")
  ValueInfo::Kind kind = ValueInfo::Kind::Unknown;
  std::string type;                 ///< "float32[?, 256]", "int", "Sequential"
  std::vector<std::string> types;   ///< all distinct types seen (one per call site)
  std::string value;                ///< known Python value, or the tensor class
  std::string device, node, op, opSummary;
  std::string placementNote;        ///< why the tensor is not on the device asked or defaulted to
  std::string signature, doc;
  std::vector<std::vector<std::string>> summaryRows;
  /// Markdown for the editor.
  std::string present() const;
};
std::optional<HoverInfo> hover(const Snapshot& s, lang::TextPos pos);

// --- InlayHints.cpp --------------------------------------------------------------------------
struct InlayHintInfo {
  lang::TextPos position;  ///< right after the assignment target
  std::string label;       ///< ": float32[?, 256]"
};
std::vector<InlayHintInfo> inlayHints(const Snapshot& s, TextRange range);

// --- DocumentSymbols.cpp ---------------------------------------------------------------------
struct SymbolInfo {
  std::string name, detail;
  int kind = 13;  ///< LSP SymbolKind: 5 class, 6 method, 12 function, 13 variable
  TextRange range, selection;
  std::vector<SymbolInfo> children;
};
std::vector<SymbolInfo> documentSymbols(const Snapshot& s);

// --- XRefs.cpp -------------------------------------------------------------------------------
/// Where the user symbol at `pos` is bound (assignments, defs, classes, parameters, imports).
std::vector<TextRange> definition(const Snapshot& s, lang::TextPos pos);
/// Every use of the user symbol at `pos`, resolved by Python's scoping rules.
std::vector<TextRange> references(const Snapshot& s, lang::TextPos pos, bool includeDeclaration);

// --- CrossFile.cpp ---------------------------------------------------------------------------
/// A range in some file (this document or another workspace file, whose text `file` holds).
struct XRef {
  std::string path;
  std::shared_ptr<const lang::SourceFile> file;
  TextRange range;
};
/// Where the symbol at `pos` is defined, following imports into workspace modules (a module
/// itself: its first line). A name imported from a module outside the workspace (tensorflow)
/// resolves to the import.
std::vector<XRef> definition(const Snapshot& s, lang::TextPos pos, const WorkspaceView& ws);
/// Every reference to the symbol at `pos` in this document and, for module-level symbols, in the
/// workspace files (imports, `module.name` attributes, uses of imported names).
std::vector<XRef> references(const Snapshot& s, lang::TextPos pos, bool includeDeclaration, const WorkspaceView& ws);

/// Names bound in the scopes enclosing `pos` (completion of user symbols).
std::vector<std::string> visibleNames(const Snapshot& s, lang::TextPos pos);

// --- Completion.cpp --------------------------------------------------------------------------
struct CompletionInfo {
  std::string label;
  Member::Kind kind = Member::Kind::Value;
  std::string detail, doc;
};
std::vector<CompletionInfo> completion(const Snapshot& s, lang::TextPos pos);

// --- SignatureHelp.cpp -----------------------------------------------------------------------
struct SignatureInfo {
  std::string label, doc;
  std::vector<std::string> params;
  int activeParameter = 0;
};
std::optional<SignatureInfo> signatureHelp(const Snapshot& s, lang::TextPos pos);

// --- CodeActions.cpp -------------------------------------------------------------------------
struct CodeActionInfo {
  std::string title;
  TextRange edit;
  std::string newText;
  DiagnosticInfo diagnostic;  ///< the diagnostic it fixes
};
/// The quick fixes for the snapshot's diagnostics that touch `range`.
std::vector<CodeActionInfo> codeActions(const Snapshot& s, TextRange range);
/// The quick fixes for `diags` (diagnostics of this snapshot) that touch `range`; each fix reads
/// the diagnostic's code and data, never its message.
std::vector<CodeActionInfo> codeActions(const Snapshot& s, TextRange range, const std::vector<DiagnosticInfo>& diags);

}  // namespace tlens::lsp
