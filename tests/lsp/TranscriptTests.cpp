// Transcripts through the real framing (protocol::memoryChannel): what an editor sends, byte for
// byte, including a broken header, and what the server writes back.
#include <future>
#include <thread>

#include <nlohmann/json.hpp>

#include "lsp/protocol/LspServer.h"
#include "tests/lsp/LspTestSupport.h"

using namespace tlens;
using namespace tlens::lsp;
using nlohmann::json;

namespace {

std::vector<json> decode(const std::string& bytes) {
  protocol::FrameDecoder dec;
  dec.feed(bytes);
  std::vector<json> out;
  while (auto body = dec.next()) out.push_back(json::parse(*body));
  return out;
}

std::string frame(const json& j) { return protocol::encodeFrame(j.dump()); }

}  // namespace

TEST_CASE("a framed transcript: a wrong Content-Length is skipped, every request is answered", "[lsp][transcript]") {
  std::string in;
  in += frame({{"jsonrpc", "2.0"}, {"id", 1}, {"method", "initialize"}, {"params", {{"capabilities", json::object()}}}});
  in += frame({{"jsonrpc", "2.0"}, {"method", "initialized"}, {"params", json::object()}});
  // A header block with a bad length, and the body that came with it: both are skipped.
  in += "Content-Length: banana\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":99,\"method\":\"shutdown\"}";
  in += frame({{"jsonrpc", "2.0"},
               {"method", "textDocument/didOpen"},
               {"params", {{"textDocument", {{"uri", "file:///t.py"}, {"version", 1}, {"text", "import tensorflow as tf\nx = tf.zeros([2, 3])\n"}}}}}});
  in += frame({{"jsonrpc", "2.0"}, {"id", 2}, {"method", "textDocument/hover"},
               {"params", {{"textDocument", {{"uri", "file:///t.py"}}}, {"position", {{"line", 1}, {"character", 0}}}}}});
  in += frame({{"jsonrpc", "2.0"}, {"id", 3}, {"method", "shutdown"}});
  in += frame({{"jsonrpc", "2.0"}, {"method", "exit"}});
  std::string out;
  auto ch = protocol::memoryChannel(in, &out);
  std::vector<std::string> errors;
  ch->onError = [&](const std::string& e) { errors.push_back(e); };
  ServerOptions o;
  o.asyncThreads = 0;
  LspServer server(*ch, o);
  CHECK(server.run() == 0);
  CHECK(errors.size() == 1);
  auto msgs = decode(out);
  // initialize, the skipped header's window/logMessage, publishDiagnostics, hover, shutdown
  REQUIRE(msgs.size() == 5);
  CHECK(msgs[0]["id"] == 1);
  CHECK(msgs[1]["method"] == "window/logMessage");
  CHECK(msgs[1]["params"]["type"] == 1);
  msgs.erase(msgs.begin() + 1);
  CHECK(msgs[1]["method"] == "textDocument/publishDiagnostics");
  CHECK(msgs[1]["params"]["diagnostics"].empty());
  CHECK(msgs[2]["id"] == 2);
  CHECK(msgs[2]["result"]["contents"]["value"].get<std::string>().find("float32[2, 3]") != std::string::npos);
  CHECK(msgs[3]["id"] == 3);
  CHECK(msgs[3]["result"].is_null());
}

TEST_CASE("a stream that ends without exit ends the server with status 1", "[lsp][transcript]") {
  std::string out;
  auto ch = protocol::memoryChannel(frame({{"jsonrpc", "2.0"}, {"id", 1}, {"method", "initialize"}, {"params", json::object()}}), &out);
  ServerOptions o;
  o.asyncThreads = 0;
  LspServer server(*ch, o);
  CHECK(server.run() == 1);
  CHECK(decode(out).size() == 1);
}

TEST_CASE("the server runs over a channel pair with an asynchronous scheduler", "[lsp][transcript]") {
  auto [client, serverEnd] = protocol::channelPair();
  ServerOptions o;
  o.debounceMs = 1;
  LspServer server(*serverEnd, o);
  std::thread loop([&] { server.run(); });
  client->write(json{{"jsonrpc", "2.0"}, {"id", 1}, {"method", "initialize"}, {"params", json::object()}}.dump());
  client->write(json{{"jsonrpc", "2.0"},
                     {"method", "textDocument/didOpen"},
                     {"params", {{"textDocument", {{"uri", "file:///p.py"}, {"version", 1}, {"text", "import tensorflow as tf\na = tf.zeros([2, 3]) + tf.zeros([3, 2])\n"}}}}}}
                    .dump());
  json pub;
  while (auto body = client->read()) {
    json m = json::parse(*body);
    if (m.value("method", "") == "textDocument/publishDiagnostics") {
      pub = m;
      break;
    }
  }
  REQUIRE(!pub.is_null());
  CHECK(pub["params"]["diagnostics"].size() == 1);
  client->write(json{{"jsonrpc", "2.0"}, {"method", "exit"}}.dump());
  loop.join();
  client->close();
}

TEST_CASE("the server answers over TCP on 127.0.0.1 (tlens lsp --port)", "[lsp][transcript][tcp]") {
  std::promise<int> portPromise;
  auto portFuture = portPromise.get_future();
  int status = -1;
  std::thread srv([&] {
    protocol::serveTcp(
        0,
        [&](protocol::Channel& ch) {
          ServerOptions o;
          o.debounceMs = 1;
          LspServer server(ch, o);
          status = server.run();
          return false;
        },
        [&](int port) { portPromise.set_value(port); });
  });
  REQUIRE(portFuture.wait_for(std::chrono::seconds(10)) == std::future_status::ready);
  auto client = protocol::connectTcp(portFuture.get());
  client->write(json{{"jsonrpc", "2.0"}, {"id", 1}, {"method", "initialize"}, {"params", json::object()}}.dump());
  auto first = client->read();
  REQUIRE(first);
  CHECK(json::parse(*first)["result"]["capabilities"]["hoverProvider"] == true);
  client->write(json{{"jsonrpc", "2.0"}, {"id", 2}, {"method", "shutdown"}}.dump());
  auto second = client->read();
  REQUIRE(second);
  CHECK(json::parse(*second)["id"] == 2);
  client->write(json{{"jsonrpc", "2.0"}, {"method", "exit"}}.dump());
  srv.join();
  CHECK(status == 0);
  client->close();
}
