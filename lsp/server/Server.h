// Server: the typed language server (clangd's ClangdServer). No JSON: the protocol adapter
// (lsp/protocol/LspServer) parses messages into these calls and serialises their results.
//
// Document notifications update the text and schedule an analysis (Scheduler). Each read
// (hover, completion, ...) runs a feature (lsp/features) on the snapshot of the latest text,
// converts positions between the client's encoding and byte columns, and answers through a
// callback exactly once: with a result, or with an Error when the document is unknown, the
// request was cancelled, or the feature failed (a failing feature never takes the server down).
// Callbacks run on the caller's thread or on the scheduler's worker.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "lsp/protocol/Types.h"
#include "lsp/server/Expected.h"
#include "lsp/features/Workspace.h"
#include "lsp/server/Scheduler.h"

namespace tlens::lsp {

struct ServerOptions {
  int asyncThreads = 1;  ///< 0: analyse synchronously on the caller's thread (tests)
  int debounceMs = 30;
  int timeBudgetMs = 10000;  ///< the analyses' wall-clock safety limit; work (steps) bounds them (AnalysisInput)
  /// Answer textDocument/inlayHint (false: always no hints).
  bool inlayHints = true;
  /// >= 0: analyses assume this many virtual GPUs (hovers show placement as on a GPU machine);
  /// -1: the machine's devices.
  int virtualGpus = -1;
  /// Analyse the workspace's unopened .py files in the background after `initialized`.
  bool workspaceAnalysis = true;
  size_t maxWorkspaceFiles = 500;
  int backgroundBudgetMs = 60000;
};

/// A file the client saw change on disk (workspace/didChangeWatchedFiles).
struct FileChange {
  std::string uri;
  bool deleted = false;
};

using CancelFlag = std::shared_ptr<std::atomic<bool>>;

class Server {
 public:
  template <class T>
  using Reply = std::function<void(Expected<T>)>;
  using Publish = std::function<void(const PublishDiagnosticsParams&)>;

  Server(ServerOptions o, Publish publish);
  ~Server();

  /// Returns the negotiated position encoding: UTF-8 when the client offers it, else UTF-16.
  PositionEncoding initialize(const InitializeParams& p);
  PositionEncoding encoding() const { return enc_; }

  void didOpen(const TextDocumentItem& doc);
  /// Applies the changes in order; unknown documents are ignored (nothing to answer).
  void didChange(const std::string& uri, int version, const std::vector<TextDocumentContentChangeEvent>& changes);
  void didClose(const std::string& uri);
  void didSave(const std::string& uri);
  /// After `initialized`: finds the workspace's .py files and analyses the unopened ones in the
  /// background (their diagnostics are published), reporting progress to the listener.
  void startWorkspaceAnalysis();
  void filesChanged(const std::vector<FileChange>& changes);
  /// The client's settings changed (initializationOptions, workspace/didChangeConfiguration):
  /// applies the values present; a new budget or GPU count re-analyses every open document.
  void configure(const SettingsChange& change);
  void setProgressListener(std::function<void(const BackgroundProgress&)> l);

  void hover(const std::string& uri, Position pos, Reply<std::optional<Hover>> reply, CancelFlag cancel = {});
  void inlayHints(const std::string& uri, Range range, Reply<std::vector<InlayHint>> reply, CancelFlag cancel = {});
  void documentSymbols(const std::string& uri, Reply<std::vector<DocumentSymbol>> reply, CancelFlag cancel = {});
  void definition(const std::string& uri, Position pos, Reply<std::vector<Location>> reply, CancelFlag cancel = {});
  void references(const std::string& uri, Position pos, bool includeDeclaration, Reply<std::vector<Location>> reply,
                  CancelFlag cancel = {});
  void completion(const std::string& uri, Position pos, Reply<std::vector<CompletionItem>> reply, CancelFlag cancel = {});
  void signatureHelp(const std::string& uri, Position pos, Reply<std::optional<SignatureHelp>> reply,
                     CancelFlag cancel = {});
  void codeActions(const std::string& uri, Range range, Reply<std::vector<CodeAction>> reply, CancelFlag cancel = {});
  /// Quick fixes for the diagnostics the client sent (codeAction's context.diagnostics): each is
  /// read from its own code and data, so a fix does not depend on the server still publishing the
  /// same diagnostic. One without data (or whose data was dropped as malformed) stands for the
  /// server's diagnostic with the same range and code, if there is one; another source's
  /// diagnostics are skipped. An empty list is the server's current diagnostics, as is the
  /// overload without it.
  void codeActions(const std::string& uri, Range range, std::vector<Diagnostic> context,
                   Reply<std::vector<CodeAction>> reply, CancelFlag cancel = {});

 private:
  template <class T, class F>
  void withSnapshot(const std::string& uri, const char* what, CancelFlag cancel, Reply<T> reply, F&& feature);
  void publish(const Snapshot& s);
  WorkspaceView workspace() const;
  bool inWorkspace(const std::string& path) const;

  ServerOptions opts_;
  std::atomic<bool> inlayHints_{true};
  Publish publish_;
  PositionEncoding enc_ = PositionEncoding::Utf16;
  std::unique_ptr<Scheduler> sched_;
  std::vector<std::string> roots_;
  mutable std::mutex filesMu_;
  std::vector<std::string> files_;  ///< the workspace's .py files (sorted), from the scan
};

}  // namespace tlens::lsp
