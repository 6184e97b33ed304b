// The protocol adapter and the typed server, end to end over a channel double (bodies without
// framing). Robustness: malformed JSON, unknown methods, requests before initialize, hostile
// documents; the server answers and lives on.
#include <chrono>
#include <thread>

#include <nlohmann/json.hpp>

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
  for (int i = 0; i < 20000; ++i) big += "v" + std::to_string(i) + " = " + std::to_string(i) + " * 2  # padding padding padding\n";
  s.open("file:///big.py", big);
  auto t0 = std::chrono::steady_clock::now();
  CHECK(!s.diagnostics("file:///loop.py", 1).is_null());
  CHECK(!s.diagnostics("file:///parens.py", 1).is_null());
  CHECK(!s.diagnostics("file:///big.py", 1).is_null());
  CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(20));
  json h = s.request("textDocument/hover", {{"textDocument", {{"uri", "file:///parens.py"}}}, {"position", {{"line", 0}, {"character", 0}}}});
  CHECK(h.contains("result"));
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

TEST_CASE("imports between open documents follow the editor's text; an edit re-analyses importers", "[lsp][workspace]") {
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
