#include "dap/protocol/Dispatcher.h"

#include "protocol/JsonDepth.h"

namespace tlens::dap::proto {

void Transport::send(json message) {
  // Numbering and writing together: messages from several threads arrive in seq order.
  std::lock_guard<std::mutex> lk(mu_);
  message["seq"] = seq_++;
  channel_.write(message.dump(-1, ' ', false, json::error_handler_t::replace));
}

void Transport::respond(int requestSeq, const std::string& command, bool success, const json& body,
                        const std::string& message) {
  json r{{"type", "response"}, {"request_seq", requestSeq}, {"success", success}, {"command", command}};
  if (!success) {
    r["message"] = message;
    r["body"] = json{{"error", json{{"id", 1}, {"format", message}, {"showUser", false}}}};
  } else if (!body.is_null()) {
    r["body"] = body;
  }
  send(std::move(r));
}

void Transport::event(const std::string& name, const json& body) {
  json e{{"type", "event"}, {"event", name}};
  if (!body.is_null()) e["body"] = body;
  send(std::move(e));
}

Dispatcher::Peeked Dispatcher::peek(const std::string& body) {
  Peeked p;
  if (protocol::jsonNestsDeeperThan(body)) {
    // Only the seq, to answer it: handle() refuses the message.
    json top = json::parse(body, [](int depth, json::parse_event_t, json&) { return depth <= 1; }, false);
    if (top.is_object() && top.contains("seq") && top["seq"].is_number_integer()) p.seq = top["seq"].get<int>();
    return p;
  }
  json msg = json::parse(body, nullptr, false);
  if (!msg.is_object() || msg.value("type", "") != "request") return p;
  if (msg.contains("seq") && msg["seq"].is_number_integer()) p.seq = msg["seq"].get<int>();
  if (msg.contains("command") && msg["command"].is_string()) p.command = msg["command"].get<std::string>();
  if (msg.contains("arguments") && msg["arguments"].is_object()) p.arguments = msg["arguments"];
  return p;
}

void Dispatcher::handle(const std::string& body) {
  if (protocol::jsonNestsDeeperThan(body)) {
    const Peeked p = peek(body);
    transport_.respond(p.seq, "", false, nullptr,
                       "malformed message: nested deeper than " + std::to_string(protocol::kMaxJsonDepth) + " levels");
    return;
  }
  json msg;
  try {
    msg = json::parse(body);
  } catch (const json::exception& e) {
    transport_.respond(0, "", false, nullptr, std::string("malformed message: ") + e.what());
    return;
  }
  if (!msg.is_object() || msg.value("type", "") != "request" || !msg.contains("command") ||
      !msg["command"].is_string()) {
    const int seq = msg.is_object() && msg.contains("seq") && msg["seq"].is_number_integer() ? msg["seq"].get<int>() : 0;
    transport_.respond(seq, "", false, nullptr, "malformed message: not a request with a command");
    return;
  }
  const int seq = msg.contains("seq") && msg["seq"].is_number_integer() ? msg["seq"].get<int>() : 0;
  const std::string command = msg["command"].get<std::string>();
  auto h = handlers_.find(command);
  if (h == handlers_.end()) {
    transport_.respond(seq, command, false, nullptr, "unknown request '" + command + "'");
    return;
  }
  RequestContext ctx;
  json result;
  try {
    const json& args = msg.contains("arguments") && !msg["arguments"].is_null() ? msg["arguments"] : json::object();
    result = h->second(args, ctx);
  } catch (const json::exception& e) {
    transport_.respond(seq, command, false, nullptr, "invalid arguments for '" + command + "': " + e.what());
    return;
  } catch (const std::exception& e) {
    transport_.respond(seq, command, false, nullptr, e.what());
    return;
  }
  transport_.respond(seq, command, true, result);
  // What runs after a response must not end the session (or a TCP server's every session).
  for (auto& f : ctx.afterResponse) {
    try {
      f();
    } catch (const std::exception& e) {
      transport_.event("output", json{{"category", "console"}, {"output", std::string("tlens dap: ") + e.what() + "\n"}});
    }
  }
}

}  // namespace tlens::dap::proto
