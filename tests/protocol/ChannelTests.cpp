// Framing and transports: the decoder on split, joined and broken input; the memory, pair and
// TCP channels end to end.
#include <catch2/catch.hpp>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "protocol/Channel.h"
#include "protocol/JsonDepth.h"

using namespace tlens::protocol;

namespace {
std::vector<std::string> drain(FrameDecoder& d, std::vector<std::string>* errors = nullptr) {
  std::vector<std::string> out;
  while (true) {
    try {
      auto body = d.next();
      if (!body) return out;
      out.push_back(*body);
    } catch (const FramingError& e) {
      if (!errors) throw;
      errors->push_back(e.what());
    }
  }
}
}  // namespace

TEST_CASE("the allocation-free frame header is encodeFrame's") {
  for (size_t n : {size_t(0), size_t(7), size_t(10), size_t(12345678)}) {
    char buf[48];
    size_t h = formatFrameHeader(n, buf);
    std::string body(n == 12345678 ? 0 : n, 'x');
    std::string expected = n == 12345678 ? "Content-Length: 12345678\r\n\r\n" : encodeFrame(body).substr(0, encodeFrame(body).size() - n);
    CHECK(std::string(buf, h) == expected);
  }
}

TEST_CASE("frames round-trip, whole or a byte at a time") {
  std::string wire = encodeFrame(R"({"a":1})") + encodeFrame("") + encodeFrame("é\r\n\r\nx");
  CHECK(wire.rfind("Content-Length: 7\r\n\r\n", 0) == 0);
  FrameDecoder whole;
  whole.feed(wire);
  CHECK(drain(whole) == std::vector<std::string>{R"({"a":1})", "", "é\r\n\r\nx"});
  CHECK(whole.buffered() == 0);

  FrameDecoder bytewise;
  std::vector<std::string> got;
  for (char c : wire) {
    bytewise.feed(std::string_view(&c, 1));
    for (auto& b : drain(bytewise)) got.push_back(b);
  }
  CHECK(got == std::vector<std::string>{R"({"a":1})", "", "é\r\n\r\nx"});
}

TEST_CASE("other headers are ignored and the field name is case-insensitive") {
  FrameDecoder d;
  d.feed("Content-Type: application/vscode-jsonrpc; charset=utf-8\r\ncontent-length:  3 \r\n\r\nabc");
  CHECK(drain(d) == std::vector<std::string>{"abc"});
}

TEST_CASE("a broken header is reported once and the next frame still arrives") {
  for (std::string bad : {"Content-Length: x\r\n\r\n", "Content-Type: a\r\n\r\n",
                          "garbage\r\n\r\n", "Content-Length: -4\r\n\r\n",
                          "Content-Length: 99999999999999999999\r\n\r\n"}) {
    INFO(bad);
    FrameDecoder d;
    d.feed(bad + encodeFrame("ok"));
    std::vector<std::string> errors;
    CHECK(drain(d, &errors) == std::vector<std::string>{"ok"});
    CHECK(errors.size() == 1);
  }
}

TEST_CASE("a broken header followed by its body: the body is skipped, later frames arrive") {
  FrameDecoder d;
  d.feed("Content-Length: x\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":1}" + encodeFrame("next") + encodeFrame("last"));
  std::vector<std::string> errors;
  CHECK(drain(d, &errors) == std::vector<std::string>{"next", "last"});
  CHECK(errors.size() == 1);
}

TEST_CASE("a broken header whose next header is still on its way") {
  FrameDecoder d;
  std::vector<std::string> errors;
  std::string wire = "Content-Type: a\r\n\r\nbody bytes" + encodeFrame("ok");
  for (char c : wire) {
    d.feed(std::string_view(&c, 1));
    for (auto& b : drain(d, &errors)) CHECK(b == "ok");
  }
  CHECK(errors.size() == 1);
  CHECK(d.buffered() == 0);
}

TEST_CASE("an endless header is cut off and decoding resynchronises") {
  FrameDecoder d;
  d.feed(std::string(20000, 'x'));
  std::vector<std::string> errors;
  CHECK(drain(d, &errors).empty());
  CHECK(errors.size() == 1);
  d.feed(encodeFrame("after"));
  CHECK(drain(d, &errors) == std::vector<std::string>{"after"});
}

TEST_CASE("a header that ends past the limit is refused whether it arrives whole or in pieces") {
  // Once decoded when it arrived whole and refused when it arrived in pieces (the framing
  // fuzzer's property: chunking must not matter).
  const std::string stream = "X-Padding: " + std::string(9000, 'p') + "\r\nContent-Length: 2\r\n\r\nhi" + encodeFrame("after");
  FrameDecoder whole;
  whole.feed(stream);
  std::vector<std::string> errorsWhole;
  const std::vector<std::string> fromWhole = drain(whole, &errorsWhole);
  FrameDecoder pieces;
  std::vector<std::string> errorsPieces, fromPieces;
  for (size_t at = 0; at < stream.size(); at += 7) {
    pieces.feed(stream.substr(at, 7));
    for (std::string& b : drain(pieces, &errorsPieces)) fromPieces.push_back(std::move(b));
  }
  CHECK(fromWhole == fromPieces);
  CHECK(fromWhole.back() == "after");
  // The over-long block is reported; decoding resynchronises on the next Content-Length field.
  CHECK(errorsWhole.size() == 1);
  CHECK(errorsPieces.size() == 1);
}

TEST_CASE("an incomplete body waits for more bytes") {
  FrameDecoder d;
  d.feed("Content-Length: 5\r\n\r\nab");
  CHECK_FALSE(d.next());
  d.feed("cde");
  CHECK(d.next() == std::optional<std::string>("abcde"));
}

TEST_CASE("the memory channel reads frames and writes framed bodies") {
  std::string out;
  auto ch = memoryChannel("Content-Length: bad\r\n\r\n" + encodeFrame("one"), &out);
  std::vector<std::string> errors;
  ch->onError = [&](const std::string& e) { errors.push_back(e); };
  CHECK(ch->read() == std::optional<std::string>("one"));
  CHECK_FALSE(ch->read());
  CHECK(errors.size() == 1);
  ch->write("reply");
  CHECK(out == encodeFrame("reply"));
}

TEST_CASE("a channel pair delivers both ways, and close wakes a blocked reader") {
  auto [a, b] = channelPair();
  a->write("ping");
  CHECK(b->read() == std::optional<std::string>("ping"));
  b->write("pong");
  CHECK(a->read() == std::optional<std::string>("pong"));
  std::optional<std::string> last = "unset";
  std::thread reader([&, &b = b] { last = b->read(); });
  a->close();
  reader.join();
  CHECK_FALSE(last);
}

TEST_CASE("TCP on 127.0.0.1: one session after another") {
  int port = 0;
  std::mutex m;
  std::condition_variable cv;
  std::vector<std::string> seen;
  std::thread server([&] {
    serveTcp(
        0,
        [&](Channel& ch) {
          auto body = ch.read();
          if (!body) return true;
          seen.push_back(*body);
          ch.write("echo " + *body);
          return seen.size() < 2;
        },
        [&](int p) {
          std::lock_guard<std::mutex> lock(m);
          port = p;
          cv.notify_all();
        });
  });
  {
    std::unique_lock<std::mutex> lock(m);
    cv.wait(lock, [&] { return port != 0; });
  }
  for (std::string msg : {"first", "second"}) {
    auto client = connectTcp(port);
    client->write(msg);
    CHECK(client->read() == std::optional<std::string>("echo " + msg));
  }
  server.join();
  CHECK(seen == std::vector<std::string>{"first", "second"});
  CHECK_THROWS_AS(connectTcp(port), std::runtime_error);
}

TEST_CASE("a header block with two Content-Length fields is refused with its body, the next frame arrives") {
  FrameDecoder d;
  // Before: the second length framed the body, so the decoder waited for 50 bytes forever.
  d.feed("Content-Length: 2\r\nContent-Length: 50\r\n\r\n{}" + encodeFrame("next"));
  std::vector<std::string> errors;
  CHECK(drain(d, &errors) == std::vector<std::string>{"next"});
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].find("two Content-Length") != std::string::npos);
}

TEST_CASE("the nesting scan counts brackets outside strings only") {
  using tlens::protocol::jsonNestsDeeperThan;
  CHECK_FALSE(jsonNestsDeeperThan(R"({"a": [1, {"b": "[[[[{{{{"}]})", 3));
  CHECK(jsonNestsDeeperThan(R"({"a": [1, {"b": 2}]})", 2));
  CHECK_FALSE(jsonNestsDeeperThan(R"({"a": "\"[[[", "b": []})", 2));
  CHECK(jsonNestsDeeperThan(std::string(200000, '[')));
  CHECK_FALSE(jsonNestsDeeperThan(std::string(512, '[') + std::string(512, ']')));
}
