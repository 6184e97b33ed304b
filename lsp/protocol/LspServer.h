// LspServer: the protocol adapter (clangd's ClangdLSPServer). Reads JSON-RPC messages from a
// Channel, maps each method through one flat table to the typed Server, and writes responses and
// notifications. It is the only code that knows JSON and the only code that knows the lifecycle
// rules: requests before `initialize` get ServerNotInitialized, requests after `shutdown` get
// InvalidRequest, unknown requests get MethodNotFound, malformed JSON gets ParseError (id null),
// a handler that throws gets InvalidParams (bad params) or InternalError; the loop keeps reading
// in every case. `$/cancelRequest` marks a pending request cancelled; a read not yet answered
// then answers RequestCancelled.
//
// Settings (`analysisBudgetMs`, `inlayHints`, `virtualGpus`) come in initializationOptions and
// in workspace/didChangeConfiguration (see parseSettings in Json.h); a bad value is a
// window/logMessage warning, never an error.
//
// Work-done progress: when the client advertises `window.workDoneProgress`, each batch of
// background analyses (the workspace scan after `initialized`) gets a token from
// `window/workDoneProgress/create`; `$/progress` begin/report/end follow only once the client
// has answered the create request successfully (an error answer means no progress for that batch).
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "lsp/server/Server.h"
#include "protocol/Channel.h"

namespace tlens::lsp {

class LspServer {
 public:
  LspServer(protocol::Channel& channel, ServerOptions options);
  ~LspServer();

  /// Reads until `exit` or the end of the stream. Returns the process exit status: 0 after a
  /// shutdown request, 1 otherwise (as the specification asks).
  int run();
  /// Handles one message body (run() calls it for each; tests may call it directly).
  void handle(const std::string& body);
  bool exited() const { return exited_; }

 private:
  using json = nlohmann::json;
  using Handler = std::function<void(const json& params, const json& id)>;

  void send(const json& msg);
  void reply(const json& id, json result);
  void replyError(const json& id, ErrorCode code, const std::string& message);
  template <class T>
  Server::Reply<T> replier(const json& id);
  void notify(const std::string& method, json params);
  void bind();

  void onInitialize(const json& params, const json& id);
  void onShutdown(const json& params, const json& id);
  /// initializationOptions or workspace/didChangeConfiguration's settings: bad values are
  /// reported with window/logMessage (a warning) and ignored; the rest goes to the server.
  void applySettings(const json& settings);
  /// Sends a request to the client; `onResponse` gets its response message (result or error).
  void request(const std::string& method, json params, std::function<void(const json&)> onResponse);
  void onProgress(const BackgroundProgress& p);
  void sendProgress(const json& value);

  protocol::Channel& channel_;
  ServerOptions options_;
  std::function<void(const std::string&)> previousOnError_;  ///< the channel's, restored on exit
  std::unique_ptr<Server> server_;
  std::map<std::string, Handler> requests_, notifications_;
  std::mutex pendingMu_;
  std::map<std::string, CancelFlag> pending_;  ///< by id.dump()
  bool initialized_ = false, shutdown_ = false, exited_ = false, initializedNotified_ = false;
  bool clientProgress_ = false;
  std::mutex outMu_;
  int nextOutId_ = 1;
  std::map<std::string, std::function<void(const json&)>> outgoing_;  ///< by id.dump()
  // Progress of the current background batch.
  std::mutex progMu_;
  enum class Prog { Idle, Creating, Active, Refused } prog_ = Prog::Idle;
  std::string progToken_;
  int progCount_ = 0;
  std::optional<BackgroundProgress> progLatest_;  ///< what arrived while the token was being created
};

}  // namespace tlens::lsp
