#include "lsp/protocol/LspServer.h"

#include "lsp/protocol/Json.h"

namespace tlens::lsp {

namespace {

std::string textDocumentUri(const json& params) { return params.at("textDocument").at("uri").get<std::string>(); }

}  // namespace

LspServer::LspServer(protocol::Channel& channel, ServerOptions options) : channel_(channel), options_(options) {
  server_ = std::make_unique<Server>(options_, [this](const PublishDiagnosticsParams& p) {
    notify("textDocument/publishDiagnostics", p);
  });
  bind();
}

LspServer::~LspServer() { server_.reset(); }

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
    server_->codeActions(textDocumentUri(p), p.at("range").get<Range>(), replier<std::vector<CodeAction>>(id), flag(id));
  };

  notifications_["initialized"] = [](const json&, const json&) {};
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
  notifications_["workspace/didChangeConfiguration"] = [](const json&, const json&) {};
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
}

void LspServer::onShutdown(const json&, const json& id) {
  shutdown_ = true;
  reply(id, nullptr);
}

void LspServer::handle(const std::string& body) {
  json msg = json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (msg.is_discarded()) return replyError(nullptr, ErrorCode::ParseError, "malformed JSON");
  if (!msg.is_object()) return replyError(nullptr, ErrorCode::InvalidRequest, "a message must be a JSON object");
  json id = msg.contains("id") ? msg["id"] : json();
  bool isRequest = msg.contains("id");
  if (isRequest && !id.is_string() && !id.is_number_integer()) return replyError(nullptr, ErrorCode::InvalidRequest, "bad id");
  auto m = msg.find("method");
  if (m == msg.end()) {
    if (isRequest && (msg.contains("result") || msg.contains("error"))) return;  // a response to us: none expected
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
