// Drives a real DapSession over an in-memory channel pair: the session runs on its own thread,
// the test sends requests and reads responses and events as a client would. Fixtures are
// annotated Python programs: a comment `#$ name` at the end of a line names that line.
#pragma once

#include <catch2/catch.hpp>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <filesystem>
#include <future>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

#include "dap/session/DapSession.h"
#include "protocol/Channel.h"

namespace tlens::dap::testing {

using json = nlohmann::json;

/// A Python fixture written to a temporary file; `line("name")` is the line marked `#$ name`.
struct Fixture {
  std::string path;
  std::map<std::string, int> marks;

  static Fixture fromText(const std::string& name, const std::string& text) {
    Fixture f;
    auto dir = std::filesystem::temp_directory_path() / "tlens_dap_tests";
    std::filesystem::create_directories(dir);
    f.path = (dir / name).string();
    std::ofstream(f.path) << text;
    f.scan(text);
    return f;
  }
  static Fixture fromFile(const std::string& path) {
    Fixture f;
    f.path = path;
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    f.scan(ss.str());
    return f;
  }
  /// A line found by its text (for files that cannot carry markers).
  int find(const std::string& text) const {
    std::ifstream in(path);
    std::string l;
    for (int n = 1; std::getline(in, l); ++n)
      if (l.find(text) != std::string::npos) return n;
    FAIL("no line containing '" << text << "' in " << path);
    return 0;
  }
  int line(const std::string& name) const {
    auto it = marks.find(name);
    if (it == marks.end()) FAIL("fixture has no mark '#$ " << name << "'");
    return it->second;
  }

 private:
  void scan(const std::string& text) {
    std::istringstream in(text);
    std::string l;
    for (int n = 1; std::getline(in, l); ++n) {
      auto p = l.find("#$ ");
      if (p != std::string::npos) marks[l.substr(p + 3)] = n;
    }
  }
};

/// A DAP client over protocol::channelPair(), or over any channel to a server run elsewhere.
/// A reader thread queues what arrives, so waits can time out.
class Client {
 public:
  Client() {
    auto [server, client] = protocol::channelPair();
    server_ = std::move(server);
    client_ = std::move(client);
    session_ = std::make_unique<DapSession>(*server_);
    thread_ = std::thread([this] { session_->run(); });
    startReader();
  }
  /// A client of a server reached through `channel` (TCP tests).
  explicit Client(std::unique_ptr<protocol::Channel> channel) : client_(std::move(channel)) { startReader(); }
  ~Client() {
    client_->close();
    if (server_) server_->close();
    if (thread_.joinable()) thread_.join();
    reader_.join();
  }

  /// Sends a raw body (for malformed-message tests).
  void sendRaw(const std::string& body) { client_->write(body); }

  /// Sends a request and returns its response (events met on the way are kept).
  json request(const std::string& command, json arguments = json::object()) {
    return responseTo(send(command, std::move(arguments)));
  }
  /// Sends a request without waiting; returns its seq (for responseTo).
  int send(const std::string& command, json arguments = json::object()) {
    const int seq = seq_++;
    json r{{"seq", seq}, {"type", "request"}, {"command", command}};
    if (!arguments.is_null()) r["arguments"] = std::move(arguments);
    client_->write(r.dump());
    return seq;
  }
  json responseTo(int seq) {
    for (auto it = responses_.begin(); it != responses_.end(); ++it)
      if ((*it)["request_seq"] == seq) {
        json m = *it;
        responses_.erase(it);
        return m;
      }
    for (;;) {
      json m = next();
      if (m.is_null()) FAIL("no response to request " << seq);
      if (m["type"] == "response" && m["request_seq"] == seq) return m;
      if (m["type"] == "event") events_.push_back(m);
      else if (m["type"] == "response") responses_.push_back(m);
    }
  }
  /// The next response not yet consumed (for raw-sent requests).
  json anyResponse() {
    if (!responses_.empty()) {
      json m = responses_.front();
      responses_.pop_front();
      return m;
    }
    for (;;) {
      json m = next();
      if (m.is_null()) FAIL("no response");
      if (m["type"] == "response") return m;
      events_.push_back(m);
    }
  }
  /// Waits for event `name` (earlier events of other names stay queued).
  json event(const std::string& name, std::chrono::milliseconds timeout = std::chrono::seconds(60)) {
    for (auto it = events_.begin(); it != events_.end(); ++it)
      if ((*it)["event"] == name) {
        json e = *it;
        events_.erase(it);
        return e;
      }
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    for (;;) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) return json();
      json m = next(left);
      if (m.is_null()) return json();
      if (m["type"] == "event" && m["event"] == name) return m;
      if (m["type"] == "event") events_.push_back(m);
      else responses_.push_back(m);
    }
  }
  /// All output text received so far (and waits briefly for more).
  std::string output() {
    std::string s;
    for (auto it = events_.begin(); it != events_.end();) {
      if ((*it)["event"] == "output") {
        s += (*it)["body"]["output"].get<std::string>();
        it = events_.erase(it);
      } else {
        ++it;
      }
    }
    return s;
  }

  /// initialize + launch + breakpoints + configurationDone.
  /// `functions`: function breakpoints, set before configurationDone (after it, a fast program
  /// may pass the node first).
  void start(const std::string& program, const std::map<int, json>& breakpoints = {}, json launchExtra = json::object(),
             std::vector<std::string> filters = {"nan_inf"}, const std::vector<std::string>& functions = {}) {
    json init = request("initialize", {{"adapterID", "tlens"}});
    REQUIRE(init["success"] == true);
    REQUIRE(event("initialized").is_object());
    json la = launchExtra;
    la["program"] = program;
    REQUIRE(request("launch", la)["success"] == true);
    if (!breakpoints.empty()) {
      json bps = json::array();
      for (const auto& [line, extra] : breakpoints) {
        json b = extra.is_object() ? extra : json::object();
        b["line"] = line;
        bps.push_back(b);
      }
      json r = request("setBreakpoints", {{"source", {{"path", program}}}, {"breakpoints", bps}});
      REQUIRE(r["success"] == true);
    }
    if (!functions.empty()) {
      json fbs = json::array();
      for (const std::string& name : functions) fbs.push_back(json{{"name", name}});
      REQUIRE(request("setFunctionBreakpoints", {{"breakpoints", fbs}})["success"] == true);
    }
    REQUIRE(request("setExceptionBreakpoints", {{"filters", filters}})["success"] == true);
    REQUIRE(request("configurationDone")["success"] == true);
  }

  json stackTrace() {
    json r = request("stackTrace", {{"threadId", 1}});
    REQUIRE(r["success"] == true);
    return r["body"]["stackFrames"];
  }
  /// Variables of the scope named `scope` in frame `frameId`.
  int scopeRef(int frameId, const std::string& scope) {
    json r = request("scopes", {{"frameId", frameId}});
    for (const json& s : r["body"]["scopes"])
      if (s["name"] == scope) return s["variablesReference"].get<int>();
    FAIL("no scope " << scope << " in " << r.dump());
    return 0;
  }
  json scope(int frameId, const std::string& scope) {
    json r = request("scopes", {{"frameId", frameId}});
    REQUIRE(r["success"] == true);
    for (const json& s : r["body"]["scopes"])
      if (s["name"] == scope) return variables(s["variablesReference"].get<int>());
    FAIL("no scope " << scope << " in " << r.dump());
    return json();
  }
  json variables(int ref, json extra = json::object()) {
    extra["variablesReference"] = ref;
    json r = request("variables", extra);
    REQUIRE(r["success"] == true);
    return r["body"]["variables"];
  }
  static json named(const json& vars, const std::string& name) {
    for (const json& v : vars)
      if (v["name"] == name) return v;
    FAIL("no variable " << name << " in " << vars.dump());
    return json();
  }

 private:
  void startReader() {
    reader_ = std::thread([this] {
      while (std::optional<std::string> body = client_->read()) {
        std::lock_guard<std::mutex> lk(mu_);
        inbox_.push_back(std::move(*body));
        cv_.notify_all();
      }
      std::lock_guard<std::mutex> lk(mu_);
      closed_ = true;
      cv_.notify_all();
    });
  }
  json next(std::chrono::milliseconds timeout = std::chrono::seconds(60)) {
    std::unique_lock<std::mutex> lk(mu_);
    if (!cv_.wait_for(lk, timeout, [&] { return !inbox_.empty() || closed_; }) || inbox_.empty()) return json();
    std::string body = std::move(inbox_.front());
    inbox_.pop_front();
    return json::parse(body);
  }

  std::unique_ptr<protocol::Channel> server_, client_;
  std::thread reader_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::string> inbox_;
  bool closed_ = false;
  std::unique_ptr<DapSession> session_;
  std::thread thread_;
  int seq_ = 1;
  std::deque<json> events_, responses_;
};

}  // namespace tlens::dap::testing
