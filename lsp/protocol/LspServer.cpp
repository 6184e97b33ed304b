#include "lsp/protocol/LspServer.h"

#include "lsp/protocol/Json.h"
#include "protocol/JsonDepth.h"

namespace tlens::lsp {

namespace {

std::string textDocumentUri(const json& params) { return params.at("textDocument").at("uri").get<std::string>(); }

}  // namespace

LspServer::LspServer(protocol::Channel& channel, ServerOptions options) : channel_(channel), options_(options) {
  server_ = std::make_unique<Server>(options_, [this](const PublishDiagnosticsParams& p) {
    notify("textDocument/publishDiagnostics", p);
  });
  server_->setProgressListener([this](const BackgroundProgress& p) { onProgress(p); });
  bind();
  // A header the framing cannot read has no id to answer (JSON-RPC's error responses need the
  // request's id, or null for a body that is not JSON): the client is told with window/logMessage
  // (an error, in its output channel), besides whatever the transport already did (stderr).
  previousOnError_ = channel_.onError;
  channel_.onError = [this](const std::string& e) {
    if (previousOnError_) previousOnError_(e);
    notify("window/logMessage",
           json{{"type", 1}, {"message", "tlens lsp: skipped a message whose header could not be read: " + e}});
  };
}

LspServer::~LspServer() {
  channel_.onError = previousOnError_;
  server_.reset();
}

void LspServer::send(const json& msg) {
  // Invalid UTF-8 from the client (document text echoed in a message) must not throw here.
  channel_.write(msg.dump(-1, ' ', false, json::error_handler_t::replace));
}

void LspServer::reply(const json& id, json result) {
  {
    std::lock_guard<std::mutex> l(pendingMu_);
    pending_.erase(id.dump());
  }
  send(json{{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}});
}

void LspServer::replyError(const json& id, ErrorCode code, const std::string& message) {
  {
    std::lock_guard<std::mutex> l(pendingMu_);
    pending_.erase(id.dump());
  }
  send(json{{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", static_cast<int>(code)}, {"message", message}}}});
}

void LspServer::notify(const std::string& method, json params) {
  send(json{{"jsonrpc", "2.0"}, {"method", method}, {"params", std::move(params)}});
}

template <class T>
Server::Reply<T> LspServer::replier(const json& id) {
  return [this, id](Expected<T> r) {
    if (!r) return replyError(id, r.error().code, r.error().message);
    json j;
    if constexpr (std::is_same_v<T, std::optional<Hover>> || std::is_same_v<T, std::optional<SignatureHelp>>) {
      j = *r ? json(**r) : json(nullptr);
    } else {
      j = json::array();
      for (const auto& item : *r) j.push_back(item);
    }
    reply(id, std::move(j));
  };
}

void LspServer::bind() {
  auto flag = [this](const json& id) {
    auto f = std::make_shared<std::atomic<bool>>(false);
    std::lock_guard<std::mutex> l(pendingMu_);
    pending_[id.dump()] = f;
    return f;
  };
  requests_["initialize"] = [this](const json& p, const json& id) { onInitialize(p, id); };
  requests_["shutdown"] = [this](const json& p, const json& id) { onShutdown(p, id); };
  requests_["textDocument/hover"] = [this, flag](const json& p, const json& id) {
    server_->hover(textDocumentUri(p), p.at("position").get<Position>(), replier<std::optional<Hover>>(id), flag(id));
  };
  requests_["textDocument/inlayHint"] = [this, flag](const json& p, const json& id) {
    server_->inlayHints(textDocumentUri(p), p.at("range").get<Range>(), replier<std::vector<InlayHint>>(id), flag(id));
  };
  requests_["textDocument/documentSymbol"] = [this, flag](const json& p, const json& id) {
    server_->documentSymbols(textDocumentUri(p), replier<std::vector<DocumentSymbol>>(id), flag(id));
  };
  requests_["textDocument/definition"] = [this, flag](const json& p, const json& id) {
    server_->definition(textDocumentUri(p), p.at("position").get<Position>(), replier<std::vector<Location>>(id), flag(id));
  };
  requests_["textDocument/references"] = [this, flag](const json& p, const json& id) {
    bool decl = p.contains("context") ? p["context"].value("includeDeclaration", true) : true;
    server_->references(textDocumentUri(p), p.at("position").get<Position>(), decl, replier<std::vector<Location>>(id),
                        flag(id));
  };
  requests_["textDocument/completion"] = [this, flag](const json& p, const json& id) {
    server_->completion(textDocumentUri(p), p.at("position").get<Position>(), replier<std::vector<CompletionItem>>(id),
                        flag(id));
  };
  requests_["textDocument/signatureHelp"] = [this, flag](const json& p, const json& id) {
    server_->signatureHelp(textDocumentUri(p), p.at("position").get<Position>(),
                           replier<std::optional<SignatureHelp>>(id), flag(id));
  };
  requests_["textDocument/codeAction"] = [this, flag](const json& p, const json& id) {
    // The client's diagnostics carry the data we published: fixes read it from there. A
    // malformed diagnostic (no range) fails the request with InvalidParams; malformed data is
    // dropped by from_json.
    std::vector<Diagnostic> context;
    if (p.contains("context") && p["context"].is_object() && p["context"].contains("diagnostics"))
      context = p["context"]["diagnostics"].get<std::vector<Diagnostic>>();
    server_->codeActions(textDocumentUri(p), p.at("range").get<Range>(), std::move(context),
                         replier<std::vector<CodeAction>>(id), flag(id));
  };

  notifications_["initialized"] = [this](const json&, const json&) {
    if (initializedNotified_) return;
    initializedNotified_ = true;
    server_->startWorkspaceAnalysis();
  };
  notifications_["workspace/didChangeWatchedFiles"] = [this](const json& p, const json&) {
    std::vector<FileChange> changes;
    for (const auto& c : p.at("changes")) changes.push_back({c.at("uri").get<std::string>(), c.value("type", 2) == 3});
    server_->filesChanged(changes);
  };
  notifications_["textDocument/didOpen"] = [this](const json& p, const json&) {
    server_->didOpen(p.at("textDocument").get<TextDocumentItem>());
  };
  notifications_["textDocument/didChange"] = [this](const json& p, const json&) {
    std::vector<TextDocumentContentChangeEvent> changes;
    for (const auto& c : p.at("contentChanges")) changes.push_back(c.get<TextDocumentContentChangeEvent>());
    server_->didChange(textDocumentUri(p), p.at("textDocument").value("version", 0), changes);
  };
  notifications_["textDocument/didClose"] = [this](const json& p, const json&) { server_->didClose(textDocumentUri(p)); };
  notifications_["textDocument/didSave"] = [this](const json& p, const json&) { server_->didSave(textDocumentUri(p)); };
  notifications_["workspace/didChangeConfiguration"] = [this](const json& p, const json&) {
    applySettings(p.is_object() && p.contains("settings") ? p["settings"] : json(nullptr));
  };
  notifications_["workspace/didChangeWorkspaceFolders"] = [](const json&, const json&) {};
  notifications_["$/cancelRequest"] = [this](const json& p, const json&) {
    std::lock_guard<std::mutex> l(pendingMu_);
    if (auto it = pending_.find(p.at("id").dump()); it != pending_.end()) it->second->store(true);
  };
  notifications_["exit"] = [this](const json&, const json&) { exited_ = true; };
}

void LspServer::onInitialize(const json& p, const json& id) {
  InitializeParams ip = p.is_object() ? p.get<InitializeParams>() : InitializeParams{};
  PositionEncoding enc = server_->initialize(ip);
  {
    std::lock_guard<std::mutex> l(progMu_);
    clientProgress_ = ip.workDoneProgress;
  }
  initialized_ = true;
  json caps = {
      {"positionEncoding", enc == PositionEncoding::Utf8 ? "utf-8" : "utf-16"},
      {"textDocumentSync", {{"openClose", true}, {"change", 2}, {"save", {{"includeText", false}}}}},
      {"hoverProvider", true},
      {"completionProvider", {{"triggerCharacters", {"."}}}},
      {"signatureHelpProvider", {{"triggerCharacters", {"(", ","}}}},
      {"definitionProvider", true},
      {"referencesProvider", true},
      {"documentSymbolProvider", true},
      {"inlayHintProvider", true},
      {"codeActionProvider", {{"codeActionKinds", {"quickfix"}}}},
      {"workspace", {{"workspaceFolders", {{"supported", true}, {"changeNotifications", true}}}}},
  };
  reply(id, {{"capabilities", caps}, {"serverInfo", {{"name", "tlens"}, {"version", "0.1.0"}}}});
  if (p.is_object() && p.contains("initializationOptions")) applySettings(p["initializationOptions"]);
}

void LspServer::applySettings(const json& settings) {
  SettingsChange change = parseSettings(settings);
  for (const auto& w : change.warnings) notify("window/logMessage", {{"type", 2}, {"message", w}});
  server_->configure(change);
}

void LspServer::request(const std::string& method, json params, std::function<void(const json&)> onResponse) {
  std::string id;
  {
    std::lock_guard<std::mutex> l(outMu_);
    id = "tlens-" + std::to_string(nextOutId_++);
    outgoing_[json(id).dump()] = std::move(onResponse);
  }
  send(json{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}});
}

void LspServer::sendProgress(const json& value) {
  notify("$/progress", {{"token", progToken_}, {"value", value}});
}

namespace {

nlohmann::json progressValue(const char* kind, const BackgroundProgress& p) {
  nlohmann::json v = {{"kind", kind}};
  if (std::string(kind) == "begin") {
    v["title"] = "tlens: analysing the workspace";
    v["cancellable"] = false;
  }
  if (std::string(kind) == "end") {
    v["message"] = p.message;
    return v;
  }
  v["message"] = p.message;
  v["percentage"] = p.total > 0 ? (100 * p.done) / p.total : 0;
  return v;
}

}  // namespace

void LspServer::onProgress(const BackgroundProgress& p) {
  std::lock_guard<std::mutex> l(progMu_);
  if (!clientProgress_) return;
  switch (prog_) {
    case Prog::Idle: {
      if (p.finished) return;  // nothing to show
      prog_ = Prog::Creating;
      progToken_ = "tlens-workspace-" + std::to_string(++progCount_);
      progLatest_.reset();
      std::string token = progToken_;
      request("window/workDoneProgress/create", {{"token", token}}, [this, token, first = p](const json& response) {
        std::lock_guard<std::mutex> l(progMu_);
        if (prog_ != Prog::Creating || progToken_ != token) return;
        if (response.contains("error")) {
          prog_ = Prog::Refused;
          if (progLatest_ && progLatest_->finished) prog_ = Prog::Idle;
          return;
        }
        prog_ = Prog::Active;
        BackgroundProgress now = progLatest_ ? *progLatest_ : first;
        sendProgress(progressValue("begin", now));
        if (now.finished) {
          sendProgress(progressValue("end", now));
          prog_ = Prog::Idle;
        }
      });
      return;
    }
    case Prog::Creating:
      progLatest_ = p;
      return;
    case Prog::Refused:
      if (p.finished) prog_ = Prog::Idle;
      return;
    case Prog::Active:
      sendProgress(progressValue(p.finished ? "end" : "report", p));
      if (p.finished) prog_ = Prog::Idle;
      return;
  }
}

void LspServer::onShutdown(const json&, const json& id) {
  shutdown_ = true;
  reply(id, nullptr);
}

void LspServer::handle(const std::string& body) {
  if (protocol::jsonNestsDeeperThan(body)) {
    // Only the top level is kept (deeper values are dropped while parsing), to answer the id.
    json top = json::parse(body, [](int depth, json::parse_event_t, json&) { return depth <= 1; }, false);
    json id = top.is_object() && top.contains("id") && (top["id"].is_string() || top["id"].is_number_integer()) ? top["id"] : json();
    if (top.is_object() && !top.contains("id")) return;  // a notification: nobody to answer
    return replyError(id, ErrorCode::InvalidRequest,
                      "message nested deeper than " + std::to_string(protocol::kMaxJsonDepth) + " levels");
  }
  json msg = json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (msg.is_discarded()) return replyError(nullptr, ErrorCode::ParseError, "malformed JSON");
  if (!msg.is_object()) return replyError(nullptr, ErrorCode::InvalidRequest, "a message must be a JSON object");
  json id = msg.contains("id") ? msg["id"] : json();
  bool isRequest = msg.contains("id");
  if (isRequest && !id.is_string() && !id.is_number_integer()) return replyError(nullptr, ErrorCode::InvalidRequest, "bad id");
  auto m = msg.find("method");
  if (m == msg.end()) {
    if (isRequest && (msg.contains("result") || msg.contains("error"))) {  // a response to our request
      std::function<void(const json&)> done;
      {
        std::lock_guard<std::mutex> l(outMu_);
        auto it = outgoing_.find(id.dump());
        if (it == outgoing_.end()) return;  // not ours, or answered twice: ignored
        done = std::move(it->second);
        outgoing_.erase(it);
      }
      return done(msg);
    }
    return replyError(isRequest ? id : json(), ErrorCode::InvalidRequest, "a message needs a method");
  }
  if (!m->is_string()) return replyError(isRequest ? id : json(), ErrorCode::InvalidRequest, "method must be a string");
  std::string method = *m;
  json params = msg.contains("params") ? msg["params"] : json::object();

  try {
    if (!isRequest) {
      if (method == "exit") return notifications_["exit"](params, id);
      if (!initialized_) return;  // notifications before initialize are dropped
      auto it = notifications_.find(method);
      if (it != notifications_.end()) it->second(params, id);
      return;  // unknown notifications ($/...) are ignored
    }
    if (method != "initialize" && !initialized_)
      return replyError(id, ErrorCode::ServerNotInitialized, "the server has not been initialized");
    if (method == "initialize" && initialized_) return replyError(id, ErrorCode::InvalidRequest, "initialize was already sent");
    if (shutdown_) return replyError(id, ErrorCode::InvalidRequest, "the server is shutting down");
    auto it = requests_.find(method);
    if (it == requests_.end()) return replyError(id, ErrorCode::MethodNotFound, "method not found: " + method);
    it->second(params, id);
  } catch (const json::exception& e) {
    if (isRequest) replyError(id, ErrorCode::InvalidParams, std::string("invalid params: ") + e.what());
  } catch (const std::exception& e) {
    if (isRequest) replyError(id, ErrorCode::InternalError, e.what());
  }
}

int LspServer::run() {
  while (!exited_) {
    std::optional<std::string> body = channel_.read();
    if (!body) break;
    handle(*body);
  }
  return shutdown_ ? 0 : 1;
}

}  // namespace tlens::lsp
