// Test support for the language server: annotated fixtures (STYLE.md) and a channel double.
//
// Fixture annotations are Python comments under the line they describe, so fixtures stay valid,
// runnable Python:
//
//   c = tf.matmul(a, b)
//   #   ^^^^^^^^^^^^^^^ error: inner dimensions
//   y = tf.nn.relu(c)
//   # <- hover: float32[8, 16]
//   #        ^ hover: float32[8, 16]
//
// `^^^` marks a range (first to last caret) on the nearest code line above; `<-` marks the column
// of the `#` (and gives only a start). `error|warning|info|hint: text` expects a diagnostic of that severity at exactly
// that range whose message contains `text`; `hover: text` expects a hover whose type (or value)
// contains `text`. checkDiagnostics compares the full set both ways.
#pragma once

#include <algorithm>
#include <condition_variable>
#include <cstdlib>
#include <deque>
#include <functional>
#include <thread>
#include <mutex>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "lsp/analysis/Analyzer.h"
#include "lsp/features/Features.h"
#include "lsp/protocol/LspServer.h"
#include "protocol/Channel.h"

namespace tlens::lsp::test {

struct Annotation {
  std::string kind;  ///< "error", "warning", "info", "hint", "hover"
  lang::TextPos start, end;
  std::string text;
  int fixtureLine = 0;  ///< 1-based line of the annotation itself
  bool startOnly = false;  ///< `<-`: only the start is given
};

inline std::vector<Annotation> parseAnnotations(const std::string& src) {
  std::vector<Annotation> out;
  std::vector<std::string> lines;
  std::stringstream ss(src);
  for (std::string l; std::getline(ss, l);) lines.push_back(l);
  static const std::regex caret(R"(^(\s*)#(\s*)(\^+|<-)\s+(error|warning|info|hint|hover):\s*(.*?)\s*$)");
  int code = -1;
  for (int i = 0; i < static_cast<int>(lines.size()); ++i) {
    std::smatch m;
    if (!std::regex_match(lines[i], m, caret)) {
      code = i;
      continue;
    }
    Annotation a;
    a.kind = m[4];
    a.text = m[5];
    a.fixtureLine = i + 1;
    int hash = static_cast<int>(m[1].length());
    if (m[3] == "<-") {
      a.start = {code, hash};
      a.end = {code, hash + 1};
      a.startOnly = true;
    } else {
      int col = hash + 1 + static_cast<int>(m[2].length());
      a.start = {code, col};
      a.end = {code, col + static_cast<int>(m[3].length())};
    }
    out.push_back(a);
  }
  return out;
}

inline const char* severityWord(int s) {
  switch (s) {
    case 1: return "error";
    case 2: return "warning";
    case 3: return "info";
    default: return "hint";
  }
}

/// The analysis budget tests use: `ms`, or $TLENS_TEST_BUDGET_MS (`dev.sh test` raises it for the
/// AddressSanitizer run, `dev.sh tsan` for ThreadSanitizer: there an analysis runs 5-10 times
/// slower and, on a loaded machine, hit the wall-clock safety limit before the work budget).
inline int testBudgetMs(int ms) {
  const char* e = std::getenv("TLENS_TEST_BUDGET_MS");
  int v = e ? std::atoi(e) : 0;
  return v > 0 ? std::max(v, ms) : ms;
}

inline std::shared_ptr<const Snapshot> analyzeFixture(const std::string& src, const std::string& path = "/fixture.py") {
  AnalysisInput in;
  in.uri = "file://" + path;
  in.path = path;
  in.text = src;
  in.timeBudgetMs = testBudgetMs(5000);  // a loaded test machine must not cut analyses short
  return analyze(in);
}

inline std::string describe(const DiagnosticInfo& d) {
  std::ostringstream o;
  o << (d.range.start.line + 1) << ":" << d.range.start.column << "-" << d.range.end.column << " "
    << severityWord(d.severity) << ": " << d.message << " [" << d.code << "]";
  return o.str();
}

/// Every diagnostic matches an annotation and every diagnostic annotation matches a diagnostic.
inline void checkDiagnostics(const std::string& src) {
  auto snap = analyzeFixture(src);
  REQUIRE(snap);
  std::vector<Annotation> want;
  for (auto& a : parseAnnotations(src))
    if (a.kind != "hover") want.push_back(a);
  std::vector<DiagnosticInfo> got = diagnostics(*snap);
  std::vector<bool> used(want.size(), false);
  std::string unexpected, missing;
  for (const DiagnosticInfo& d : got) {
    bool found = false;
    for (size_t i = 0; i < want.size() && !found; ++i) {
      const Annotation& a = want[i];
      if (used[i] || a.kind != severityWord(d.severity)) continue;
      if (!(a.start == d.range.start)) continue;
      if (!a.startOnly && d.range.end.line == d.range.start.line && !(a.end == d.range.end)) continue;
      if (d.message.find(a.text) == std::string::npos) continue;
      used[i] = found = true;
    }
    if (!found) unexpected += "  " + describe(d) + "\n";
  }
  for (size_t i = 0; i < want.size(); ++i)
    if (!used[i])
      missing += "  " + std::to_string(want[i].start.line + 1) + ":" + std::to_string(want[i].start.column) + "-" +
                 std::to_string(want[i].end.column) + " " + want[i].kind + ": " + want[i].text + " (annotation line " +
                 std::to_string(want[i].fixtureLine) + ")\n";
  INFO("fixture:\n" << src << "\nunexpected diagnostics:\n" << unexpected << "missing diagnostics:\n" << missing);
  CHECK(unexpected.empty());
  CHECK(missing.empty());
}

/// Every hover annotation: the hover at the annotation's start shows the text.
inline void checkHovers(const std::string& src) {
  auto snap = analyzeFixture(src);
  REQUIRE(snap);
  int n = 0;
  for (const Annotation& a : parseAnnotations(src)) {
    if (a.kind != "hover") continue;
    ++n;
    auto h = hover(*snap, a.start);
    INFO("fixture:\n" << src << "\nhover at " << a.start.line + 1 << ":" << a.start.column << " (annotation line "
                      << a.fixtureLine << ") expecting '" << a.text << "'");
    REQUIRE(h);
    std::string shown = h->type + (h->value.empty() ? "" : " = " + h->value) + " " + h->device;
    INFO("shown: " << shown);
    CHECK(shown.find(a.text) != std::string::npos);
  }
  CHECK(n > 0);
}

/// A channel double: bodies in, bodies out, no framing (the codec is protocol/'s business).
class QueueChannel : public protocol::Channel {
 public:
  std::optional<std::string> read() override {
    std::unique_lock<std::mutex> l(mu_);
    cv_.wait(l, [&] { return closed_ || !in_.empty(); });
    if (in_.empty()) return std::nullopt;
    std::string b = std::move(in_.front());
    in_.pop_front();
    return b;
  }
  void write(std::string_view body) override {
    std::lock_guard<std::mutex> l(mu_);
    out_.emplace_back(body);
    cv_.notify_all();
  }
  void close() override {
    std::lock_guard<std::mutex> l(mu_);
    closed_ = true;
    cv_.notify_all();
  }
  void push(std::string body) {
    std::lock_guard<std::mutex> l(mu_);
    in_.push_back(std::move(body));
    cv_.notify_all();
  }
  /// Waits (up to 10 s) until `pred` holds for the written bodies; returns them.
  template <class P>
  std::vector<std::string> waitFor(P pred) {
    std::unique_lock<std::mutex> l(mu_);
    cv_.wait_for(l, std::chrono::seconds(10), [&] { return pred(out_); });
    return out_;
  }
  std::vector<std::string> written() {
    std::lock_guard<std::mutex> l(mu_);
    return out_;
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::string> in_;
  std::vector<std::string> out_;
  bool closed_ = false;
};

using nlohmann::json;

/// The adapter on a thread over a QueueChannel, with helpers to send and wait for messages.
struct ProtocolSession {
  QueueChannel ch;
  std::unique_ptr<LspServer> server;
  std::thread loop;
  int status = -1;
  int nextId = 1;

  explicit ProtocolSession(int threads = 1, std::function<void(ServerOptions&)> tune = {}) {
    ServerOptions o;
    o.asyncThreads = threads;
    o.debounceMs = 5;
    o.timeBudgetMs = testBudgetMs(5000);  // the wall-clock safety net only: work bounds analyses
    if (tune) tune(o);
    server = std::make_unique<LspServer>(ch, o);
    loop = std::thread([this] { status = server->run(); });
  }
  ~ProtocolSession() {
    ch.close();
    if (loop.joinable()) loop.join();
  }
  void raw(const std::string& body) { ch.push(body); }
  void notify(const std::string& method, json params) {
    ch.push(json{{"jsonrpc", "2.0"}, {"method", method}, {"params", std::move(params)}}.dump());
  }
  int send(const std::string& method, json params) {
    int id = nextId++;
    ch.push(json{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}}.dump());
    return id;
  }
  /// The response with `id` (waits up to 10 s); null json when none came.
  json response(const json& id) {
    json found;
    ch.waitFor([&](const std::vector<std::string>& out) {
      for (const auto& b : out) {
        json m = json::parse(b, nullptr, false);
        if (m.is_object() && m.contains("id") && m["id"] == id && !m.contains("method")) {
          found = m;
          return true;
        }
      }
      return false;
    });
    return found;
  }
  json request(const std::string& method, json params) { return response(send(method, std::move(params))); }
  /// The latest publishDiagnostics for `uri` with `version` (waits up to 10 s).
  json diagnostics(const std::string& uri, int version) {
    json found;
    ch.waitFor([&](const std::vector<std::string>& out) {
      for (const auto& b : out) {
        json m = json::parse(b, nullptr, false);
        if (m.value("method", "") == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri &&
            m["params"].value("version", -1) == version)
          found = m["params"];
      }
      return !found.is_null();
    });
    return found;
  }
  /// A message the server sent with `method` (the n-th, 0-based; waits up to 10 s), or null.
  json sent(const std::string& method, int n = 0) {
    json found;
    ch.waitFor([&](const std::vector<std::string>& out) {
      int seen = 0;
      for (const auto& b : out) {
        json m = json::parse(b, nullptr, false);
        if (m.is_object() && m.value("method", "") == method && seen++ == n) {
          found = m;
          return true;
        }
      }
      return false;
    });
    return found;
  }
  /// Every message sent so far with `method`.
  std::vector<json> allSent(const std::string& method) {
    std::vector<json> out;
    for (const auto& b : ch.written()) {
      json m = json::parse(b, nullptr, false);
      if (m.is_object() && m.value("method", "") == method) out.push_back(m);
    }
    return out;
  }
  void initialize(json caps = json::object(), json rootUri = nullptr) {
    json r = request("initialize", {{"processId", nullptr}, {"rootUri", rootUri}, {"capabilities", caps}});
    REQUIRE(r.contains("result"));
    notify("initialized", json::object());
  }
  void open(const std::string& uri, const std::string& text, int version = 1) {
    notify("textDocument/didOpen", {{"textDocument", {{"uri", uri}, {"languageId", "python"}, {"version", version}, {"text", text}}}});
  }
};


}  // namespace tlens::lsp::test
