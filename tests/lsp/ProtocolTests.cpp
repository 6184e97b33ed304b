// The protocol adapter and the typed server, end to end over a channel double (bodies without
// framing). Robustness: malformed JSON, unknown methods, requests before initialize, hostile
// documents; the server answers and lives on.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "lsp/protocol/Json.h"
#include "lsp/protocol/LspServer.h"
#include "tests/lsp/LspTestSupport.h"

using namespace tlens::lsp;
using namespace tlens::lsp::test;
using nlohmann::json;

namespace {

using Session = ProtocolSession;

const char* kBug = R"(import tensorflow as tf
a = tf.placeholder(tf.float32, [None, 3])
b = tf.Variable(tf.zeros([4, 5]))
c = tf.matmul(a, b)
)";

}  // namespace

TEST_CASE("initialize answers the capabilities and UTF-16 unless UTF-8 is offered", "[lsp][protocol]") {
  Session s;
  json r = s.request("initialize", {{"capabilities", json::object()}});
  CHECK(r["result"]["capabilities"]["positionEncoding"] == "utf-16");
  CHECK(r["result"]["capabilities"]["hoverProvider"] == true);
  CHECK(r["result"]["capabilities"]["textDocumentSync"]["change"] == 2);
  Session u;
  json r8 = u.request("initialize", {{"capabilities", {{"general", {{"positionEncodings", {"utf-8", "utf-16"}}}}}}});
  CHECK(r8["result"]["capabilities"]["positionEncoding"] == "utf-8");
}

TEST_CASE("requests before initialize are refused and the server keeps running", "[lsp][protocol]") {
  Session s;
  json r = s.request("textDocument/hover", {{"textDocument", {{"uri", "file:///a.py"}}}, {"position", {{"line", 0}, {"character", 0}}}});
  CHECK(r["error"]["code"] == -32002);
  s.initialize();
  json again = s.request("textDocument/documentSymbol", {{"textDocument", {{"uri", "file:///nope.py"}}}});
  CHECK(again["error"]["code"] == -32602);  // unknown document, but initialised now
}

TEST_CASE("malformed JSON, bad messages and unknown methods get JSON-RPC errors", "[lsp][protocol]") {
  Session s;
  s.initialize();
  s.raw("{\"jsonrpc\": \"2.0\", \"id\": 99, \"method\": ");
  json parse = s.response(nullptr);
  CHECK(parse["error"]["code"] == -32700);
  json unknown = s.request("textDocument/frobnicate", json::object());
  CHECK(unknown["error"]["code"] == -32601);
  json badParams = s.request("textDocument/hover", {{"position", 3}});
  CHECK(badParams["error"]["code"] == -32602);
  s.raw("[1, 2, 3]");
  s.notify("$/setTrace", {{"value", "off"}});  // unknown notification: ignored
  json alive = s.request("shutdown", nullptr);
  CHECK(alive.contains("result"));
}

TEST_CASE("diagnostics are published after open and after an incremental change", "[lsp][protocol]") {
  Session s;
  s.initialize();
  s.open("file:///bug.py", kBug);
  json d1 = s.diagnostics("file:///bug.py", 1);
  REQUIRE(d1["diagnostics"].size() == 1);
  CHECK(d1["diagnostics"][0]["range"]["start"]["line"] == 3);
  CHECK(d1["diagnostics"][0]["relatedInformation"].size() == 2);
  CHECK(d1["diagnostics"][0]["relatedInformation"][0]["location"]["uri"] == "file:///bug.py");
  // Fix the 3 into a 4: line 1, "[None, 3]" -> "[None, 4]".
  std::string line1 = "a = tf.placeholder(tf.float32, [None, 3])";
  int col = static_cast<int>(line1.find("3]"));
  s.notify("textDocument/didChange",
           {{"textDocument", {{"uri", "file:///bug.py"}, {"version", 2}}},
            {"contentChanges", {{{"range", {{"start", {{"line", 1}, {"character", col}}}, {"end", {{"line", 1}, {"character", col + 1}}}}},
                                 {"text", "4"}}}}});
  json d2 = s.diagnostics("file:///bug.py", 2);
  INFO(d2.dump());
  CHECK(d2["diagnostics"].empty());
}

TEST_CASE("hover over the protocol converts UTF-16 columns", "[lsp][protocol][hover]") {
  Session s;
  s.initialize();
  // "é" is 2 bytes in UTF-8 and 1 unit in UTF-16: `t` starts at UTF-16 column 9, byte 10.
  s.open("file:///u.py", "import tensorflow as tf\ns = \"é\"; t = tf.zeros([2, 3])\n");
  json r = s.request("textDocument/hover", {{"textDocument", {{"uri", "file:///u.py"}}}, {"position", {{"line", 1}, {"character", 9}}}});
  REQUIRE(r.contains("result"));
  REQUIRE(r["result"].is_object());
  CHECK(r["result"]["contents"]["value"].get<std::string>().find("float32[2, 3]") != std::string::npos);
  CHECK(r["result"]["range"]["start"]["character"] == 9);
}

TEST_CASE("every read request answers on a real document", "[lsp][protocol]") {
  Session s;
  s.initialize();
  s.open("file:///p.py", "import tensorflow as tf\ndef f(x):\n    return x\ny = f(tf.zeros([2]))\nz = tf.\n");
  json td = {{"uri", "file:///p.py"}};
  json pos = {{"line", 3}, {"character", 0}};
  CHECK(s.request("textDocument/definition", {{"textDocument", td}, {"position", {{"line", 3}, {"character", 4}}}})["result"].size() == 1);
  CHECK(s.request("textDocument/references", {{"textDocument", td}, {"position", pos}, {"context", {{"includeDeclaration", true}}}})["result"].size() == 1);
  CHECK(s.request("textDocument/documentSymbol", {{"textDocument", td}})["result"].size() >= 2);
  CHECK(s.request("textDocument/completion", {{"textDocument", td}, {"position", {{"line", 4}, {"character", 7}}}})["result"].size() > 50);
  CHECK(s.request("textDocument/inlayHint", {{"textDocument", td}, {"range", {{"start", {{"line", 0}, {"character", 0}}}, {"end", {{"line", 5}, {"character", 0}}}}}})["result"].is_array());
  CHECK(s.request("textDocument/signatureHelp", {{"textDocument", td}, {"position", {{"line", 3}, {"character", 6}}}})["result"].is_object());
  CHECK(s.request("textDocument/codeAction", {{"textDocument", td}, {"range", {{"start", pos}, {"end", pos}}}, {"context", {{"diagnostics", json::array()}}}})["result"].is_array());
}

TEST_CASE("a cancelled request answers RequestCancelled", "[lsp][protocol]") {
  Session s;
  s.initialize();
  s.open("file:///c.py", "import tensorflow as tf\nx = tf.zeros([2])\n");
  s.diagnostics("file:///c.py", 1);
  // An edit makes the snapshot stale, so the hover waits for the next analysis; cancel it now.
  s.notify("textDocument/didChange", {{"textDocument", {{"uri", "file:///c.py"}, {"version", 2}}},
                                      {"contentChanges", {{{"text", "import tensorflow as tf\nx = tf.zeros([3])\n"}}}}});
  int id = s.send("textDocument/hover", {{"textDocument", {{"uri", "file:///c.py"}}}, {"position", {{"line", 1}, {"character", 0}}}});
  s.notify("$/cancelRequest", {{"id", id}});
  json r = s.response(id);
  REQUIRE(!r.is_null());
  // Either it was answered before the cancel arrived, or it was cancelled: never both, never neither.
  CHECK((r.contains("result") || r["error"]["code"] == -32800));
}

TEST_CASE("hostile documents: while True, 10,000 nested parentheses, invalid UTF-8, a big file", "[lsp][protocol][robustness]") {
  Session s;
  s.initialize();
  s.open("file:///loop.py", "i = 0\nwhile True:\n    i += 1\n");
  std::string parens = "x = " + std::string(10000, '(') + "1" + std::string(10000, ')') + "\n";
  s.open("file:///parens.py", parens);
  // Invalid UTF-8 inside a JSON string: the message is not valid JSON text, so ParseError.
  s.raw(std::string("{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didOpen\",\"params\":{\"textDocument\":"
                    "{\"uri\":\"file:///bad.py\",\"version\":1,\"text\":\"x = '\xff\xfe'\\ny = 1\\n\"}}}"));
  CHECK(s.response(nullptr)["error"]["code"] == -32700);
  std::string big;
  for (int i = 0; i < 25000; ++i) big += "v" + std::to_string(i) + " = " + std::to_string(i) + " * 2  # padding padding padding\n";
  REQUIRE(big.size() >= (1u << 20));  // a 1 MB file
  s.open("file:///big.py", big);
  auto t0 = std::chrono::steady_clock::now();
  CHECK(!s.diagnostics("file:///loop.py", 1).is_null());
  CHECK(!s.diagnostics("file:///parens.py", 1).is_null());
  CHECK(!s.diagnostics("file:///big.py", 1).is_null());
  CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(20));
  json h = s.request("textDocument/hover", {{"textDocument", {{"uri", "file:///parens.py"}}}, {"position", {{"line", 0}, {"character", 0}}}});
  CHECK(h.contains("result"));
  // The big file answers reads (the analysis stops at its time budget; the reads do not wait).
  json hb = s.request("textDocument/hover", {{"textDocument", {{"uri", "file:///big.py"}}}, {"position", {{"line", 3}, {"character", 0}}}});
  REQUIRE(hb.contains("result"));
  CHECK(hb["result"]["contents"]["value"].get<std::string>().find("int") != std::string::npos);
  json sym = s.request("textDocument/documentSymbol", {{"textDocument", {{"uri", "file:///big.py"}}}});
  CHECK(sym["result"].size() == 25000);
  // An edit of the endless loop is analysed too: the loop did not block the worker.
  s.notify("textDocument/didChange", {{"textDocument", {{"uri", "file:///loop.py"}, {"version", 2}}},
                                      {"contentChanges", {{{"text", "import tensorflow as tf\nwhile True:\n    x = tf.matmul(tf.zeros([1, 2]), tf.zeros([3, 4]))\n"}}}}});
  json loop2 = s.diagnostics("file:///loop.py", 2);
  REQUIRE(loop2["diagnostics"].size() == 1);
  CHECK(loop2["diagnostics"][0]["message"].get<std::string>().find("2 and 3") != std::string::npos);
  json shut = s.request("shutdown", nullptr);
  CHECK(shut.contains("result"));
  s.notify("exit", json::object());
  s.loop.join();
  CHECK(s.status == 0);
}

TEST_CASE("exit without shutdown exits with status 1", "[lsp][protocol]") {
  Session s;
  s.initialize();
  s.notify("exit", json::object());
  s.loop.join();
  CHECK(s.status == 1);
}

TEST_CASE("the synchronous server publishes before returning from didOpen", "[lsp][protocol]") {
  QueueChannel ch;
  ServerOptions o;
  o.asyncThreads = 0;
  LspServer server(ch, o);
  server.handle(json{{"jsonrpc", "2.0"}, {"id", 1}, {"method", "initialize"}, {"params", {{"capabilities", json::object()}}}}.dump());
  server.handle(json{{"jsonrpc", "2.0"}, {"method", "textDocument/didOpen"},
                     {"params", {{"textDocument", {{"uri", "file:///s.py"}, {"version", 7}, {"text", kBug}}}}}}.dump());
  auto out = ch.written();
  REQUIRE(out.size() == 2);
  json pub = json::parse(out[1]);
  CHECK(pub["method"] == "textDocument/publishDiagnostics");
  CHECK(pub["params"]["version"] == 7);
  CHECK(pub["params"]["diagnostics"].size() == 1);
}

TEST_CASE("a burst of edits is analysed once, on the latest text", "[lsp][scheduler]") {
  Session s;
  s.initialize();
  s.open("file:///e.py", "x = 1\n", 1);
  s.diagnostics("file:///e.py", 1);
  for (int v = 2; v <= 20; ++v)
    s.notify("textDocument/didChange", {{"textDocument", {{"uri", "file:///e.py"}, {"version", v}}},
                                        {"contentChanges", {{{"text", "x = " + std::to_string(v) + "\n"}}}}});
  json last = s.diagnostics("file:///e.py", 20);
  CHECK(!last.is_null());
  int published = 0;
  for (const auto& b : s.ch.written()) {
    json m = json::parse(b);
    if (m.value("method", "") == "textDocument/publishDiagnostics") ++published;
  }
  CHECK(published < 20);  // debounced: far fewer analyses than edits
  json h = s.request("textDocument/hover", {{"textDocument", {{"uri", "file:///e.py"}}}, {"position", {{"line", 0}, {"character", 0}}}});
  CHECK(h["result"]["contents"]["value"].get<std::string>().find("= 20") != std::string::npos);
}

TEST_CASE("imports between open documents follow the editor's text and an edit re-analyses importers", "[lsp][workspace]") {
  Session s;
  s.initialize();
  s.open("file:///ws/shapes.py", "import tensorflow as tf\ndef make():\n    return tf.zeros([2, 3])\n");
  s.open("file:///ws/main.py",
         "import tensorflow as tf\nfrom shapes import make\ny = tf.matmul(make(), tf.zeros([4, 5]))\n");
  json d1 = s.diagnostics("file:///ws/main.py", 1);
  REQUIRE(d1["diagnostics"].size() == 1);
  CHECK(d1["diagnostics"][0]["message"].get<std::string>().find("3 and 4") != std::string::npos);
  s.notify("textDocument/didChange",
           {{"textDocument", {{"uri", "file:///ws/shapes.py"}, {"version", 2}}},
            {"contentChanges", {{{"text", "import tensorflow as tf\ndef make():\n    return tf.zeros([2, 4])\n"}}}}});
  json d2;
  s.ch.waitFor([&](const std::vector<std::string>& out) {
    int seen = 0;
    for (const auto& b : out) {
      json m = json::parse(b);
      if (m.value("method", "") == "textDocument/publishDiagnostics" && m["params"]["uri"] == "file:///ws/main.py" && ++seen == 2)
        d2 = m["params"];
    }
    return !d2.is_null();
  });
  REQUIRE(!d2.is_null());
  CHECK(d2["diagnostics"].empty());
}

TEST_CASE("with UTF-8 negotiated, columns are bytes", "[lsp][protocol][hover]") {
  Session s;
  s.initialize({{"general", {{"positionEncodings", {"utf-8"}}}}});
  s.open("file:///u8.py", "import tensorflow as tf\ns = \"é\"; t = tf.zeros([2, 3])\n");
  json r = s.request("textDocument/hover", {{"textDocument", {{"uri", "file:///u8.py"}}}, {"position", {{"line", 1}, {"character", 10}}}});
  REQUIRE(r["result"].is_object());
  CHECK(r["result"]["contents"]["value"].get<std::string>().find("float32[2, 3]") != std::string::npos);
  CHECK(r["result"]["range"]["start"]["character"] == 10);
}

TEST_CASE("analysing a program that writes files, deletes, runs commands or opens sockets does none of it", "[lsp][protocol][robustness]") {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / ("tlens-lsp-side-effects-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  fs::path keep = dir / "keep.txt";
  std::ofstream(keep) << "precious";
  // A listening socket: the analysed program tries to connect to it.
  int listener = ::socket(AF_INET, SOCK_STREAM, 0);
  REQUIRE(listener >= 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  REQUIRE(::bind(listener, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
  REQUIRE(::listen(listener, 4) == 0);
  socklen_t len = sizeof addr;
  ::getsockname(listener, reinterpret_cast<sockaddr*>(&addr), &len);
  int port = ntohs(addr.sin_port);
  std::string d = dir.string();
  std::string program = "import os\nimport shutil\nimport socket\nimport subprocess\nimport time\n"
                        "with open('" + d + "/written.txt', 'w') as f:\n    f.write('x' * 100)\n"
                        "open('" + d + "/appended.txt', 'a').write('y')\n"
                        "os.makedirs('" + d + "/made/deep', exist_ok=True)\n"
                        "os.mkdir('" + d + "/made2')\n"
                        "os.remove('" + d + "/keep.txt')\n"
                        "shutil.rmtree('" + d + "')\n"
                        "os.system('touch " + d + "/by_system')\n"
                        "subprocess.run(['touch', '" + d + "/by_subprocess'])\n"
                        "s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)\n"
                        "s.connect(('127.0.0.1', " + std::to_string(port) + "))\n"
                        "s.sendall(b'hello')\n"
                        "time.sleep(30)\n"
                        "print('printed')\n";
  ProtocolSession s;
  s.initialize();
  auto t0 = std::chrono::steady_clock::now();
  s.open("file://" + d + "/evil.py", program);
  json diags = s.diagnostics("file://" + d + "/evil.py", 1);
  REQUIRE(!diags.is_null());
  CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(10));  // time.sleep(30) did not sleep
  std::vector<std::string> left;
  for (const auto& e : fs::recursive_directory_iterator(dir)) left.push_back(e.path().filename().string());
  CHECK(left == std::vector<std::string>{"keep.txt"});
  std::ifstream in(keep);
  std::string content((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(content == "precious");
  // Nobody connected.
  pollfd p{listener, POLLIN, 0};
  CHECK(::poll(&p, 1, 200) == 0);
  ::close(listener);
  // Nothing was printed on the channel (only protocol messages were written).
  for (const auto& b : s.ch.written()) CHECK(json::parse(b, nullptr, false).is_object());
  fs::remove_all(dir);
}

TEST_CASE("a Content-Length that does not match the body: that message fails, the next ones are answered", "[lsp][transcript][robustness]") {
  auto frame = [](const json& j) { return tlens::protocol::encodeFrame(j.dump()); };
  std::string hover = json{{"jsonrpc", "2.0"}, {"id", 5}, {"method", "shutdown"}}.dump();
  std::string in;
  in += frame({{"jsonrpc", "2.0"}, {"id", 1}, {"method", "initialize"}, {"params", {{"capabilities", json::object()}}}});
  // Too short: the decoder takes 10 bytes (not JSON: ParseError); the rest is skipped up to the
  // next header.
  in += "Content-Length: 10\r\n\r\n" + hover;
  // Too long: the body swallows the start of the next message (ParseError), then resynchronises.
  std::string two = json{{"jsonrpc", "2.0"}, {"id", 2}, {"method", "shutdown"}}.dump();
  in += "Content-Length: " + std::to_string(two.size() + 5) + "\r\n\r\n" + two;
  in += frame({{"jsonrpc", "2.0"}, {"id", 3}, {"method", "textDocument/documentSymbol"}, {"params", {{"textDocument", {{"uri", "file:///none.py"}}}}}});
  in += frame({{"jsonrpc", "2.0"}, {"id", 4}, {"method", "shutdown"}});
  in += frame({{"jsonrpc", "2.0"}, {"method", "exit"}});
  std::string out;
  auto ch = tlens::protocol::memoryChannel(in, &out);
  ServerOptions o;
  o.asyncThreads = 0;
  LspServer server(*ch, o);
  CHECK(server.run() == 0);
  tlens::protocol::FrameDecoder dec;
  dec.feed(out);
  std::vector<json> msgs;
  while (auto body = dec.next()) msgs.push_back(json::parse(*body));
  std::vector<json> ids;
  int parseErrors = 0;
  for (const json& m : msgs) {
    if (m.contains("method")) continue;  // window/logMessage for the skipped header
    if (m.contains("error") && m["error"]["code"] == -32700) ++parseErrors;
    else ids.push_back(m["id"]);
  }
  CHECK(parseErrors >= 1);
  // initialize, and the last shutdown; id 3 may have been swallowed by the too-long body.
  REQUIRE(!ids.empty());
  CHECK(ids.front() == 1);
  CHECK(ids.back() == 4);
}

TEST_CASE("a header the framing cannot read is reported to the client with window/logMessage", "[lsp][transcript][robustness]") {
  // No id can be answered (the body is skipped): LSP clients show logMessage in their output.
  auto frame = [](const json& j) { return tlens::protocol::encodeFrame(j.dump()); };
  std::string in;
  in += frame({{"jsonrpc", "2.0"}, {"id", 1}, {"method", "initialize"}, {"params", {{"capabilities", json::object()}}}});
  in += "Content-Length: 12abc\r\n\r\n{}";
  in += "Content-Length: 2\r\nContent-Length: 2\r\n\r\n{}";
  in += frame({{"jsonrpc", "2.0"}, {"id", 4}, {"method", "shutdown"}});
  in += frame({{"jsonrpc", "2.0"}, {"method", "exit"}});
  std::string out;
  auto ch = tlens::protocol::memoryChannel(in, &out);
  ServerOptions o;
  o.asyncThreads = 0;
  {
    LspServer server(*ch, o);
    CHECK(server.run() == 0);
  }
  CHECK_FALSE(ch->onError);  // restored: the channel may outlive the server
  tlens::protocol::FrameDecoder dec;
  dec.feed(out);
  std::vector<std::string> logs;
  std::vector<json> ids;
  while (auto body = dec.next()) {
    json m = json::parse(*body);
    if (m.value("method", "") == "window/logMessage" && m["params"]["type"] == 1) logs.push_back(m["params"]["message"]);
    if (m.contains("id")) ids.push_back(m["id"]);
  }
  REQUIRE(logs.size() == 2);
  CHECK(logs[0].find("bad Content-Length") != std::string::npos);
  CHECK(logs[1].find("two Content-Length") != std::string::npos);
  CHECK(ids == std::vector<json>{1, 4});
}

TEST_CASE("a message nested 200,000 deep is refused with an error and the server keeps running", "[lsp][protocol][robustness]") {
  // Before: nlohmann's recursive copy of the parsed message overflowed the stack (issue 22.4).
  Session s;
  const std::string deep = std::string(200000, '[') + std::string(200000, ']');
  s.raw(R"({"jsonrpc":"2.0","id":100,"method":"initialize","params":{"capabilities":{},"initializationOptions":)" + deep + "}}");
  json init = s.response(100);
  CHECK(init["error"]["code"] == -32600);
  CHECK(init["error"]["message"].get<std::string>().find("nested deeper") != std::string::npos);
  s.initialize();
  s.raw(R"({"jsonrpc":"2.0","method":"workspace/didChangeConfiguration","params":{"settings":)" + deep + "}}");
  s.raw(R"({"jsonrpc":"2.0","id":"deep","method":"textDocument/hover","params":)" + deep + "}");
  CHECK(s.response("deep")["error"]["code"] == -32600);
  json alive = s.request("shutdown", nullptr);
  CHECK(alive.contains("result"));
}

TEST_CASE("a document over the 16 MiB source limit gets one warning and is not analysed", "[lsp][protocol][robustness]") {
  // Before: a 60 MB document took 3.3 GB and delayed every other document (issue 22.11).
  Session s;
  s.initialize();
  std::string huge = "x = 1\n";
  huge.reserve(17u << 20);
  while (huge.size() <= (17u << 20)) huge += "# " + std::string(1000, 'y') + "\n";
  s.open("file:///huge.py", huge);
  json d = s.diagnostics("file:///huge.py", 1);
  REQUIRE(d["diagnostics"].size() == 1);
  CHECK(d["diagnostics"][0]["code"] == "document-too-large");
  CHECK(d["diagnostics"][0]["message"].get<std::string>().find("16 MiB") != std::string::npos);
  // Other documents are served as usual.
  s.open("file:///small.py", kBug);
  CHECK(s.diagnostics("file:///small.py", 1)["diagnostics"].size() == 1);
  json alive = s.request("shutdown", nullptr);
  CHECK(alive.contains("result"));
}

TEST_CASE("a diagnostic's data is published as Diagnostic.data and reads back the same", "[lsp][protocol][data]") {
  Session s;
  s.initialize();
  s.open("file:///bug.py", kBug);
  json d1 = s.diagnostics("file:///bug.py", 1);
  REQUIRE(d1["diagnostics"].size() == 1);
  const json& data = d1["diagnostics"][0]["data"];
  INFO(data.dump());
  CHECK(data["code"] == "shape-error");
  CHECK(data["opType"] == "MatMul");
  CHECK(data["conflict"] == "shape");
  REQUIRE(data["inputs"].size() == 2);
  CHECK(data["inputs"][0]["shape"] == json::array({"batch", 3}));
  CHECK(data["inputs"][1]["shape"] == json::array({4, 5}));
  CHECK(data["inputs"][0]["dtype"] == "float32");
  CHECK(data["inputs"][0]["location"]["uri"] == "file:///bug.py");
  CHECK(data["inputs"][0]["location"]["range"]["start"]["line"] == 1);
  // What a client sends back in a codeAction request parses into the same payload.
  DiagnosticPayload back = data.get<DiagnosticPayload>();
  CHECK(back.opType == "MatMul");
  REQUIRE(back.inputs.size() == 2);
  CHECK(back.inputs[1].shape.str() == "[4,5]");
  CHECK(back.inputs[0].blamed);
  CHECK(json(back) == data);
  // Symbols, unknown ranks, named shapes, ranges and fixes round-trip too.
  DiagnosticPayload p;
  p.code = "shape-error";
  p.opType = "Reshape";
  p.inputs.push_back({tlens::ShapeInfo{true, {{-1, "batch"}, {784, ""}}}, "float32", std::nullopt, true});
  p.inputs.push_back({tlens::ShapeInfo{false, {}}, "", Location{"file:///x.py", {{1, 2}, {1, 9}}}, false});
  p.shapes.push_back({"target", tlens::ShapeInfo{true, {{-1, "-1"}, {-1, ""}, {7, ""}}}});
  p.ranges.push_back(Location{"file:///y.py", {{0, 0}, {0, 4}}});
  p.fixes.push_back({"Reshape to [-1, 7]", Location{"file:///x.py", {{3, 1}, {3, 2}}}, "-1"});
  json j = p;
  DiagnosticPayload q = j.get<DiagnosticPayload>();
  CHECK(q.inputs[0].shape == p.inputs[0].shape);
  CHECK(!q.inputs[1].shape.rankKnown);
  REQUIRE(q.inputs[1].location);
  CHECK(q.inputs[1].location->range == p.inputs[1].location->range);
  REQUIRE(q.shapes.size() == 1);
  CHECK(q.shapes[0].role == "target");
  CHECK(q.shapes[0].shape == p.shapes[0].shape);
  REQUIRE(q.ranges.size() == 1);
  CHECK(q.ranges[0].uri == "file:///y.py");
  REQUIRE(q.fixes.size() == 1);
  CHECK(q.fixes[0].replacement == "-1");
  CHECK(json(q) == j);
}
