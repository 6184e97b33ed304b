#include "lsp/server/Server.h"

#include <algorithm>
#include <filesystem>

#include "lang/syntax/SourceText.h"
#include "lsp/features/Features.h"
#include "lsp/protocol/Uri.h"
#include "lsp/server/Convert.h"
#include "lsp/server/Document.h"
#include "lsp/server/WorkspaceScan.h"

namespace tlens::lsp {

namespace {

int completionKind(Member::Kind k) {
  switch (k) {
    case Member::Kind::Function: return 3;
    case Member::Kind::Class: return 7;
    case Member::Kind::Module: return 9;
    case Member::Kind::Value: return 6;
  }
  return 6;
}

Location toLsp(const Converter& c, const Snapshot& s, const SourceLocation& l) {
  const std::string& file = l.file.empty() ? s.file->path() : l.file;
  std::string uri = file == s.file->path() ? s.uri : pathToUri(file);
  return {uri, c.toLspIn(file, textRange(l))};
}

DiagnosticPayload toLsp(const Converter& c, const Snapshot& s, const DiagnosticData& d) {
  DiagnosticPayload o;
  o.code = d.code;
  o.opType = d.opType;
  o.conflict = d.conflict;
  for (const OperandInfo& in : d.inputs)
    o.inputs.push_back({in.shape, in.dtype, in.location.known() ? std::optional<Location>(toLsp(c, s, in.location)) : std::nullopt,
                        in.blamed});
  o.shapes = d.shapes;
  for (const SourceLocation& r : d.ranges)
    if (r.known()) o.ranges.push_back(toLsp(c, s, r));
  for (const SuggestedFix& f : d.fixes) o.fixes.push_back({f.title, toLsp(c, s, f.range), f.replacement});
  return o;
}

/// A place a client sent back: byte columns in this document (through the converter), kept as
/// given in other files (toLspIn sends byte columns there).
SourceLocation fromLsp(const Converter& c, const Snapshot& s, const Location& l) {
  const bool here = l.uri == s.uri;
  const TextRange r = here ? c.toText(l.range)
                           : TextRange{{l.range.start.line, l.range.start.character}, {l.range.end.line, l.range.end.character}};
  SourceLocation o;
  o.file = here ? s.file->path() : uriToPath(l.uri);
  o.line = r.start.line + 1;
  o.column = r.start.column + 1;
  o.endLine = r.end.line + 1;
  o.endColumn = r.end.column + 1;
  return o;
}

DiagnosticData fromLsp(const Converter& c, const Snapshot& s, const DiagnosticPayload& p) {
  DiagnosticData d;
  d.code = p.code;
  d.opType = p.opType;
  d.conflict = p.conflict;
  for (const DiagnosticOperand& in : p.inputs)
    d.inputs.push_back({in.shape, in.dtype, in.location ? fromLsp(c, s, *in.location) : SourceLocation{}, in.blamed});
  d.shapes = p.shapes;
  for (const Location& r : p.ranges) d.ranges.push_back(fromLsp(c, s, r));
  for (const DiagnosticFix& f : p.fixes) d.fixes.push_back({f.title, fromLsp(c, s, f.range), f.replacement});
  return d;
}

/// The diagnostics a codeAction request is about, as the features read them (see
/// Server::codeActions).
std::vector<DiagnosticInfo> requestDiagnostics(const Converter& c, const Snapshot& s,
                                               const std::vector<Diagnostic>& context) {
  if (context.empty()) return diagnostics(s);
  std::vector<DiagnosticInfo> server;
  bool serverRead = false;
  std::vector<DiagnosticInfo> out;
  for (const Diagnostic& d : context) {
    if (!d.source.empty() && d.source != "tlens") continue;
    if (d.data) {
      DiagnosticInfo info;
      info.range = c.toText(d.range);
      info.severity = d.severity;
      info.code = d.code.empty() ? d.data->code : d.code;
      info.message = d.message;
      info.data = fromLsp(c, s, *d.data);
      out.push_back(std::move(info));
      continue;
    }
    if (!serverRead) {
      server = diagnostics(s);
      serverRead = true;
    }
    for (const DiagnosticInfo& mine : server)
      if (c.toLsp(mine.range) == d.range && mine.code == d.code) out.push_back(mine);
  }
  return out;
}

Diagnostic toLsp(const Converter& c, const Snapshot& s, const DiagnosticInfo& d) {
  Diagnostic o;
  o.range = c.toLsp(d.range);
  o.severity = d.severity;
  o.code = d.code;
  o.message = d.message;
  for (const auto& r : d.related) {
    std::string uri = r.file == s.file->path() ? s.uri : pathToUri(r.file);
    o.relatedInformation.push_back({{uri, c.toLspIn(r.file, r.range)}, r.message});
  }
  if (!d.data.empty()) o.data = toLsp(c, s, d.data);
  return o;
}

DocumentSymbol toLsp(const Converter& c, const SymbolInfo& s) {
  DocumentSymbol o;
  o.name = s.name;
  o.detail = s.detail;
  o.kind = s.kind;
  o.range = c.toLsp(s.range);
  o.selectionRange = c.toLsp(s.selection);
  for (const auto& ch : s.children) o.children.push_back(toLsp(c, ch));
  return o;
}

}  // namespace

Server::Server(ServerOptions o, Publish publish) : opts_(o), inlayHints_(o.inlayHints), publish_(std::move(publish)) {
  SchedulerOptions so;
  so.threads = o.asyncThreads;
  so.debounceMs = o.debounceMs;
  so.timeBudgetMs = o.timeBudgetMs;
  so.devices.virtualGpus = o.virtualGpus;
  so.backgroundBudgetMs = o.backgroundBudgetMs;
  sched_ = std::make_unique<Scheduler>(so, [this](const Snapshot& s) { this->publish(s); });
}

Server::~Server() { sched_.reset(); }

PositionEncoding Server::initialize(const InitializeParams& p) {
  enc_ = PositionEncoding::Utf16;
  for (PositionEncoding e : p.positionEncodings)
    if (e == PositionEncoding::Utf8) enc_ = PositionEncoding::Utf8;
  roots_.clear();
  for (const auto& r : p.workspaceFolders) {
    std::error_code ec;
    roots_.push_back(std::filesystem::absolute(r, ec).lexically_normal().string());
  }
  sched_->setRoots(roots_);
  sched_->warmUp();
  return enc_;
}

void Server::configure(const SettingsChange& change) {
  if (change.inlayHints) inlayHints_ = *change.inlayHints;
  bool analysis = (change.analysisBudgetMs && *change.analysisBudgetMs != opts_.timeBudgetMs) ||
                  (change.virtualGpus && *change.virtualGpus != opts_.virtualGpus);
  if (!analysis) return;
  if (change.analysisBudgetMs) opts_.timeBudgetMs = *change.analysisBudgetMs;
  if (change.virtualGpus) opts_.virtualGpus = *change.virtualGpus;
  DeviceRequest devices;
  devices.virtualGpus = opts_.virtualGpus;
  sched_->reconfigure(opts_.timeBudgetMs, devices);
}

void Server::setProgressListener(std::function<void(const BackgroundProgress&)> l) {
  sched_->setBackgroundListener(std::move(l));
}

void Server::startWorkspaceAnalysis() {
  if (!opts_.workspaceAnalysis || roots_.empty()) return;
  ScanResult scan = scanWorkspace(roots_, opts_.maxWorkspaceFiles);
  {
    std::lock_guard<std::mutex> l(filesMu_);
    files_ = scan.files;
  }
  sched_->analyzeInBackground(scan.files, /*report=*/true);
}

bool Server::inWorkspace(const std::string& path) const {
  std::lock_guard<std::mutex> l(filesMu_);
  return std::binary_search(files_.begin(), files_.end(), path);
}

void Server::filesChanged(const std::vector<FileChange>& changes) {
  std::vector<std::string> again;
  for (const FileChange& c : changes) {
    std::string path = uriToPath(c.uri);
    if (std::filesystem::path(path).extension() != ".py") continue;
    bool underRoot = std::any_of(roots_.begin(), roots_.end(), [&](const std::string& r) {
      return path.compare(0, r.size(), r) == 0 && (path.size() == r.size() || path[r.size()] == '/');
    });
    if (!underRoot) continue;
    {
      std::lock_guard<std::mutex> l(filesMu_);
      auto it = std::lower_bound(files_.begin(), files_.end(), path);
      bool known = it != files_.end() && *it == path;
      if (c.deleted && known) files_.erase(it);
      if (!c.deleted && !known && files_.size() < opts_.maxWorkspaceFiles) files_.insert(it, path);
    }
    again.push_back(path);  // a deleted file is analysed as empty: its diagnostics are cleared
    sched_->reanalyzeImporters(path);
  }
  if (!again.empty()) sched_->analyzeInBackground(again, false);
}

WorkspaceView Server::workspace() const {
  WorkspaceView v;
  v.roots = roots_;
  {
    std::lock_guard<std::mutex> l(filesMu_);
    v.files = files_;
  }
  v.open = sched_->openTexts();
  for (const auto& [path, text] : *v.open)
    if (!std::binary_search(v.files.begin(), v.files.end(), path)) v.files.push_back(path);
  return v;
}

namespace {

/// The one diagnostic of a document too large to analyse.
PublishDiagnosticsParams tooLarge(const std::string& uri, int version, size_t bytes) {
  Diagnostic d;
  d.severity = 2;
  d.code = "document-too-large";
  d.message = "this document is " + std::to_string(bytes >> 20) + " MiB, over the " +
              std::to_string(lang::kMaxSourceBytes >> 20) +
              " MiB limit for source files: tensorlens does not analyse it (reopen it once it is smaller)";
  return PublishDiagnosticsParams{uri, version, {d}};
}

}  // namespace

void Server::didOpen(const TextDocumentItem& doc) {
  // A document over the source limit is not kept or analysed (a 60 MB one took 3.3 GB and held
  // up every other document): it gets one warning, and requests on it fail as on a closed one.
  if (doc.text.size() > lang::kMaxSourceBytes) {
    if (publish_) publish_(tooLarge(doc.uri, doc.version, doc.text.size()));
    return;
  }
  sched_->update(doc.uri, uriToPath(doc.uri), doc.text, doc.version);
}

void Server::didChange(const std::string& uri, int version, const std::vector<TextDocumentContentChangeEvent>& changes) {
  auto old = sched_->text(uri);
  if (!old) return;
  std::string text = *old;
  for (const auto& c : changes) applyChange(text, c, enc_);
  if (text.size() > lang::kMaxSourceBytes) {  // grown past the limit: dropped, as on open
    sched_->remove(uri);
    if (publish_) publish_(tooLarge(uri, version, text.size()));
    return;
  }
  sched_->update(uri, uriToPath(uri), std::move(text), version);
}

void Server::didClose(const std::string& uri) {
  sched_->remove(uri);
  std::string path = uriToPath(uri);
  // A workspace file goes back to its disk version's diagnostics; any other file is cleared.
  if (opts_.workspaceAnalysis && inWorkspace(path)) sched_->analyzeInBackground({path}, false);
  else if (publish_) publish_(PublishDiagnosticsParams{uri, std::nullopt, {}});
}

void Server::didSave(const std::string& uri) {
  // Open documents are analysed on the editor's text already; unopened files that import the
  // saved module read it from disk, so they are analysed again.
  if (opts_.workspaceAnalysis) sched_->reanalyzeImporters(uriToPath(uri));
}

void Server::publish(const Snapshot& s) {
  if (!publish_) return;
  PublishDiagnosticsParams p;
  p.uri = s.uri;
  if (s.version >= 0) p.version = s.version;  // background analyses of unopened files: none
  Converter c{s, enc_};
  try {
    for (const DiagnosticInfo& d : diagnostics(s)) p.diagnostics.push_back(toLsp(c, s, d));
  } catch (const std::exception&) {
    p.diagnostics.clear();
  }
  publish_(p);
}

template <class T, class F>
void Server::withSnapshot(const std::string& uri, const char* what, CancelFlag cancel, Reply<T> reply, F&& feature) {
  sched_->read(uri, [this, what, cancel, reply = std::move(reply), feature = std::forward<F>(feature)](
                        Expected<std::shared_ptr<const Snapshot>> snap) {
    if (!snap) return reply(snap.error());
    if (cancel && cancel->load()) return reply(Error{ErrorCode::RequestCancelled, "request cancelled"});
    try {
      Converter c{**snap, enc_};
      reply(feature(**snap, c));
    } catch (const std::exception& e) {
      reply(Error{ErrorCode::InternalError, std::string(what) + " failed: " + e.what()});
    } catch (...) {
      reply(Error{ErrorCode::InternalError, std::string(what) + " failed"});
    }
  });
}

void Server::hover(const std::string& uri, Position pos, Reply<std::optional<Hover>> reply, CancelFlag cancel) {
  withSnapshot<std::optional<Hover>>(uri, "hover", cancel, std::move(reply),
                                     [pos](const Snapshot& s, const Converter& c) -> std::optional<Hover> {
                                       auto h = lsp::hover(s, c.toText(pos));
                                       if (!h) return std::nullopt;
                                       return Hover{{"markdown", h->present()}, c.toLsp(h->range)};
                                     });
}

void Server::inlayHints(const std::string& uri, Range range, Reply<std::vector<InlayHint>> reply, CancelFlag cancel) {
  if (!inlayHints_) {  // turned off by the client's settings
    if (!sched_->text(uri)) return reply(Error{ErrorCode::InvalidParams, "unknown document: " + uri});
    return reply(std::vector<InlayHint>{});
  }
  withSnapshot<std::vector<InlayHint>>(uri, "inlay hints", cancel, std::move(reply),
                                       [range](const Snapshot& s, const Converter& c) {
                                         std::vector<InlayHint> out;
                                         for (const auto& h : lsp::inlayHints(s, c.toText(range)))
                                           out.push_back({c.toLsp(h.position), h.label, 1, false, false});
                                         return out;
                                       });
}

void Server::documentSymbols(const std::string& uri, Reply<std::vector<DocumentSymbol>> reply, CancelFlag cancel) {
  withSnapshot<std::vector<DocumentSymbol>>(uri, "document symbols", cancel, std::move(reply),
                                            [](const Snapshot& s, const Converter& c) {
                                              std::vector<DocumentSymbol> out;
                                              for (const auto& sym : lsp::documentSymbols(s)) out.push_back(toLsp(c, sym));
                                              return out;
                                            });
}

namespace {

Location toLsp(const Converter& c, const Snapshot& s, const XRef& x) {
  if (x.path == s.file->path() || !x.file) return {s.uri, c.toLsp(x.range)};
  Snapshot other;  // only its file, for the conversion of columns
  other.file = x.file;
  Converter oc{other, c.enc};
  return {pathToUri(x.path), oc.toLsp(x.range)};
}

}  // namespace

void Server::definition(const std::string& uri, Position pos, Reply<std::vector<Location>> reply, CancelFlag cancel) {
  withSnapshot<std::vector<Location>>(uri, "definition", cancel, std::move(reply),
                                      [pos, ws = workspace()](const Snapshot& s, const Converter& c) {
                                        std::vector<Location> out;
                                        for (const auto& x : lsp::definition(s, c.toText(pos), ws))
                                          out.push_back(toLsp(c, s, x));
                                        return out;
                                      });
}

void Server::references(const std::string& uri, Position pos, bool includeDeclaration,
                        Reply<std::vector<Location>> reply, CancelFlag cancel) {
  withSnapshot<std::vector<Location>>(uri, "references", cancel, std::move(reply),
                                      [pos, includeDeclaration, ws = workspace()](const Snapshot& s, const Converter& c) {
                                        std::vector<Location> out;
                                        for (const auto& x : lsp::references(s, c.toText(pos), includeDeclaration, ws))
                                          out.push_back(toLsp(c, s, x));
                                        return out;
                                      });
}

void Server::completion(const std::string& uri, Position pos, Reply<std::vector<CompletionItem>> reply,
                        CancelFlag cancel) {
  withSnapshot<std::vector<CompletionItem>>(uri, "completion", cancel, std::move(reply),
                                            [pos](const Snapshot& s, const Converter& c) {
                                              std::vector<CompletionItem> out;
                                              for (const auto& i : lsp::completion(s, c.toText(pos)))
                                                out.push_back({i.label, completionKind(i.kind), i.detail, i.doc, ""});
                                              return out;
                                            });
}

void Server::signatureHelp(const std::string& uri, Position pos, Reply<std::optional<SignatureHelp>> reply,
                           CancelFlag cancel) {
  withSnapshot<std::optional<SignatureHelp>>(
      uri, "signature help", cancel, std::move(reply),
      [pos](const Snapshot& s, const Converter& c) -> std::optional<SignatureHelp> {
        auto h = lsp::signatureHelp(s, c.toText(pos));
        if (!h) return std::nullopt;
        SignatureInformation info{h->label, h->doc, {}};
        for (const auto& p : h->params) info.parameters.push_back({p});
        return SignatureHelp{{info}, 0, h->activeParameter};
      });
}

void Server::codeActions(const std::string& uri, Range range, Reply<std::vector<CodeAction>> reply, CancelFlag cancel) {
  codeActions(uri, range, {}, std::move(reply), std::move(cancel));
}

void Server::codeActions(const std::string& uri, Range range, std::vector<Diagnostic> context,
                         Reply<std::vector<CodeAction>> reply, CancelFlag cancel) {
  withSnapshot<std::vector<CodeAction>>(uri, "code actions", cancel, std::move(reply),
                                        [range, context = std::move(context)](const Snapshot& s, const Converter& c) {
                                          std::vector<CodeAction> out;
                                          const auto diags = requestDiagnostics(c, s, context);
                                          for (const auto& a : lsp::codeActions(s, c.toText(range), diags)) {
                                            CodeAction o;
                                            o.title = a.title;
                                            o.uri = s.uri;
                                            o.edits.push_back({c.toLsp(a.edit), a.newText});
                                            o.diagnostics.push_back(toLsp(c, s, a.diagnostic));
                                            out.push_back(std::move(o));
                                          }
                                          return out;
                                        });
}

}  // namespace tlens::lsp
