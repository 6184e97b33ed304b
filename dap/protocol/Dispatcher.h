// Dispatcher: one DAP message in, one response out. A flat table maps each command to a typed
// handler `Body fn(const Args&, RequestContext&)`; the binder parses the arguments (a missing or
// mistyped field answers an error response), serialises the body, and turns any exception into
// an error response, so a failing handler never stops the server. Handlers stay only their logic.
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "protocol/Channel.h"

namespace tlens::dap::proto {

using json = nlohmann::json;

/// Writes responses and events with increasing sequence numbers (any thread).
class Transport {
 public:
  explicit Transport(protocol::Channel& channel) : channel_(channel) {}
  void respond(int requestSeq, const std::string& command, bool success, const json& body,
               const std::string& message = {});
  void event(const std::string& name, const json& body);
  /// From a fatal-signal handler (LastWords.cpp): an `output` event (stderr) with `text`, then
  /// `exited` with `exitCode` and `terminated`, written without allocating; nothing is written
  /// after them.
  bool lastWords(const char* text, size_t size, int exitCode) noexcept;

 private:
  void send(json message);
  protocol::Channel& channel_;
  std::mutex mu_;
  std::atomic<int> seq_{1};  ///< incremented under mu_; read without it by lastWords
};

/// What a handler may ask for besides its response.
struct RequestContext {
  /// Runs after the response is sent (initialize's `initialized` event, starting the program).
  std::vector<std::function<void()>> afterResponse;
};

class Dispatcher {
 public:
  explicit Dispatcher(Transport& transport) : transport_(transport) {}

  template <class Args, class Body, class Fn>
  void bind(const std::string& command, Fn fn) {
    handlers_[command] = [fn](const json& arguments, RequestContext& ctx) -> json {
      Args args = arguments.get<Args>();
      Body body = fn(args, ctx);
      return json(body);
    };
  }

  /// Handles one message body. Requests always get a response; malformed JSON gets an error
  /// response with request_seq 0.
  void handle(const std::string& body);
  bool has(const std::string& command) const { return handlers_.count(command) != 0; }

  /// The seq and command of a request body (seq 0, empty command when it is not one); the
  /// session's reader uses it to answer `cancel` while another request is being served.
  struct Peeked {
    int seq = 0;
    std::string command;
    json arguments;
  };
  static Peeked peek(const std::string& body);

 private:
  using Raw = std::function<json(const json&, RequestContext&)>;
  Transport& transport_;
  std::map<std::string, Raw> handlers_;
};

}  // namespace tlens::dap::proto
