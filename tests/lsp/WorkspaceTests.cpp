// The workspace: imports of unopened workspace modules come from disk; unopened .py files are
// analysed in the background after `initialized` (with work-done progress when the client offers
// it); edits re-analyse importers; definition and references cross files.
#include <filesystem>
#include <fstream>

#include "tests/lsp/LspTestSupport.h"

using namespace tlens::lsp;
using namespace tlens::lsp::test;
namespace fs = std::filesystem;

namespace {

/// A temporary workspace directory, removed at the end of the test.
struct TempWorkspace {
  fs::path root;
  TempWorkspace() {
    static int n = 0;
    root = fs::temp_directory_path() / ("tlens-lsp-ws-" + std::to_string(::getpid()) + "-" + std::to_string(n++));
    fs::remove_all(root);
    fs::create_directories(root);
  }
  ~TempWorkspace() {
    std::error_code ec;
    fs::remove_all(root, ec);
  }
  std::string write(const std::string& rel, const std::string& text) {
    fs::path p = root / rel;
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << text;
    return p.string();
  }
  std::string uri(const std::string& rel) const { return "file://" + (root / rel).string(); }
  json rootUri() const { return "file://" + root.string(); }
};

/// The n-th publishDiagnostics for `uri` (0-based; waits up to 10 s), or null.
json published(ProtocolSession& s, const std::string& uri, int n = 0) {
  json found;
  s.ch.waitFor([&](const std::vector<std::string>& out) {
    int seen = 0;
    for (const auto& b : out) {
      json m = json::parse(b, nullptr, false);
      if (m.value("method", "") == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri && seen++ == n) {
        found = m["params"];
        return true;
      }
    }
    return false;
  });
  return found;
}

const char* kShapes = "import tensorflow as tf\n\ndef make():\n    return tf.zeros([2, 3])\n\nWIDTH = 3\n";
const char* kMain =
    "import tensorflow as tf\nfrom shapes import make\nimport shapes\n\ny = tf.matmul(make(), tf.zeros([4, 5]))\n"
    "w = shapes.WIDTH\n";

}  // namespace

TEST_CASE("an open document imports an unopened workspace module from disk", "[lsp][workspace]") {
  TempWorkspace ws;
  ws.write("shapes.py", kShapes);
  ProtocolSession s(1, [](ServerOptions& o) { o.workspaceAnalysis = false; });
  s.initialize(json::object(), ws.rootUri());
  s.open(ws.uri("main.py"), kMain);
  json d = s.diagnostics(ws.uri("main.py"), 1);
  REQUIRE(d["diagnostics"].size() == 1);
  CHECK(d["diagnostics"][0]["message"].get<std::string>().find("3 and 4") != std::string::npos);
  // With workspace analysis off, nothing is published for the unopened module.
  CHECK(s.allSent("window/workDoneProgress/create").empty());
  for (const json& m : s.allSent("textDocument/publishDiagnostics")) CHECK(m["params"]["uri"] == ws.uri("main.py"));
}

TEST_CASE("unopened workspace files are analysed in the background, with work-done progress", "[lsp][workspace]") {
  TempWorkspace ws;
  ws.write("shapes.py", kShapes);
  ws.write("main.py", kMain);
  ws.write("pkg/__init__.py", "");
  ws.write("pkg/ok.py", "import tensorflow as tf\nx = tf.ones([2, 2]) + tf.ones([2])\n");
  ws.write(".venv/lib/skipme.py", "import tensorflow as tf\ntf.matmul(tf.zeros([1, 2]), tf.zeros([3, 4]))\n");
  ws.write("notes.txt", "not python");
  ProtocolSession s;
  s.initialize({{"window", {{"workDoneProgress", true}}}}, ws.rootUri());
  json create = s.sent("window/workDoneProgress/create");
  REQUIRE(!create.is_null());
  std::string token = create["params"]["token"];
  // Until the client answers the create request, no progress is sent.
  CHECK(s.allSent("$/progress").empty());
  s.raw(json{{"jsonrpc", "2.0"}, {"id", create["id"]}, {"result", nullptr}}.dump());

  json main = published(s, ws.uri("main.py"));
  REQUIRE(!main.is_null());
  CHECK(!main.contains("version"));  // not an open document
  REQUIRE(main["diagnostics"].size() == 1);
  CHECK(main["diagnostics"][0]["message"].get<std::string>().find("3 and 4") != std::string::npos);
  json ok = published(s, ws.uri("pkg/ok.py"));
  REQUIRE(!ok.is_null());
  CHECK(ok["diagnostics"].empty());
  CHECK(!published(s, ws.uri("shapes.py")).is_null());

  // begin, a report per file, end; all on the created token.
  json end;
  s.ch.waitFor([&](const std::vector<std::string>& out) {
    for (const auto& b : out) {
      json m = json::parse(b, nullptr, false);
      if (m.value("method", "") == "$/progress" && m["params"]["value"]["kind"] == "end") end = m;
    }
    return !end.is_null();
  });
  REQUIRE(!end.is_null());
  std::vector<json> progress = s.allSent("$/progress");
  REQUIRE(progress.size() >= 2);
  CHECK(progress.front()["params"]["value"]["kind"] == "begin");
  CHECK(progress.front()["params"]["value"]["title"].get<std::string>().find("workspace") != std::string::npos);
  CHECK(progress.back()["params"]["value"]["kind"] == "end");
  CHECK(progress.back()["params"]["value"]["message"] == "4/4 files");  // shapes, main, pkg/__init__, pkg/ok
  for (const json& p : progress) CHECK(p["params"]["token"] == token);
  // Hidden directories (virtual environments) are not analysed.
  for (const json& m : s.allSent("textDocument/publishDiagnostics"))
    CHECK(m["params"]["uri"].get<std::string>().find(".venv") == std::string::npos);
}

TEST_CASE("no progress without the client capability, or when the client refuses the token", "[lsp][workspace]") {
  TempWorkspace ws;
  ws.write("main.py", kMain);
  ws.write("shapes.py", kShapes);
  {
    ProtocolSession s;
    s.initialize(json::object(), ws.rootUri());
    CHECK(!published(s, ws.uri("main.py")).is_null());
    CHECK(s.allSent("window/workDoneProgress/create").empty());
    CHECK(s.allSent("$/progress").empty());
  }
  {
    ProtocolSession s;
    s.initialize({{"window", {{"workDoneProgress", true}}}}, ws.rootUri());
    json create = s.sent("window/workDoneProgress/create");
    REQUIRE(!create.is_null());
    s.raw(json{{"jsonrpc", "2.0"}, {"id", create["id"]}, {"error", {{"code", -32603}, {"message", "no"}}}}.dump());
    CHECK(!published(s, ws.uri("main.py")).is_null());
    CHECK(!published(s, ws.uri("shapes.py")).is_null());
    json alive = s.request("shutdown", nullptr);
    CHECK(alive.contains("result"));
    CHECK(s.allSent("$/progress").empty());
  }
}

TEST_CASE("editing an open module re-analyses the unopened files that import it", "[lsp][workspace]") {
  TempWorkspace ws;
  ws.write("shapes.py", kShapes);
  ws.write("main.py", kMain);
  ProtocolSession s;
  s.initialize(json::object(), ws.rootUri());
  json before = published(s, ws.uri("main.py"));
  REQUIRE(before["diagnostics"].size() == 1);
  s.open(ws.uri("shapes.py"), kShapes);
  s.diagnostics(ws.uri("shapes.py"), 1);
  std::string fixed = kShapes;
  fixed.replace(fixed.find("[2, 3]"), 6, "[2, 4]");
  s.notify("textDocument/didChange",
           {{"textDocument", {{"uri", ws.uri("shapes.py")}, {"version", 2}}}, {"contentChanges", {{{"text", fixed}}}}});
  // main.py (unopened) is analysed again against the editor's shapes.py: the error is gone.
  json after;
  for (int n = 1; n < 4 && (after.is_null() || !after["diagnostics"].empty()); ++n) after = published(s, ws.uri("main.py"), n);
  REQUIRE(!after.is_null());
  CHECK(after["diagnostics"].empty());
}

TEST_CASE("closing a workspace file republishes its disk version, deleting it clears it", "[lsp][workspace]") {
  TempWorkspace ws;
  std::string path = ws.write("main.py", kMain);
  ws.write("shapes.py", kShapes);
  ProtocolSession s;
  s.initialize(json::object(), ws.rootUri());
  REQUIRE(published(s, ws.uri("main.py"))["diagnostics"].size() == 1);
  s.open(ws.uri("main.py"), "import tensorflow as tf\n");  // the editor's text has no error
  CHECK(s.diagnostics(ws.uri("main.py"), 1)["diagnostics"].empty());
  s.notify("textDocument/didClose", {{"textDocument", {{"uri", ws.uri("main.py")}}}});
  json closed = published(s, ws.uri("main.py"), 2);
  REQUIRE(!closed.is_null());
  CHECK(closed["diagnostics"].size() == 1);  // the disk still has the error
  fs::remove(path);
  s.notify("workspace/didChangeWatchedFiles", {{"changes", {{{"uri", ws.uri("main.py")}, {"type", 3}}}}});
  json deleted = published(s, ws.uri("main.py"), 3);
  REQUIRE(!deleted.is_null());
  CHECK(deleted["diagnostics"].empty());
}

TEST_CASE("definition and references across workspace files", "[lsp][workspace][xrefs]") {
  TempWorkspace ws;
  ws.write("shapes.py", kShapes);
  ws.write("main.py", kMain);
  ws.write("other.py", "from shapes import make as mk\nz = mk()\n\ndef make():\n    return 1\n");
  ws.write("pkg/__init__.py", "from .inner import helper\n");
  ws.write("pkg/inner.py", "def helper():\n    return 2\n");
  ws.write("uses_pkg.py", "from pkg import helper\nimport pkg.inner\nh = helper()\ng = pkg.inner.helper()\n");
  ProtocolSession s(1, [](ServerOptions& o) { o.workspaceAnalysis = true; });
  s.initialize(json::object(), ws.rootUri());
  s.open(ws.uri("main.py"), kMain);
  s.diagnostics(ws.uri("main.py"), 1);
  auto at = [](int line, int ch) { return json{{"line", line}, {"character", ch}}; };
  auto def = [&](const std::string& rel, int line, int ch) {
    return s.request("textDocument/definition", {{"textDocument", {{"uri", ws.uri(rel)}}}, {"position", at(line, ch)}})["result"];
  };
  // `make()` on line 4 of main.py -> `def make` in shapes.py (line 2, the name).
  json d = def("main.py", 4, 15);
  REQUIRE(d.size() == 1);
  CHECK(d[0]["uri"] == ws.uri("shapes.py"));
  CHECK(d[0]["range"]["start"] == at(2, 4));
  CHECK(d[0]["range"]["end"] == at(2, 8));
  // `shapes.WIDTH` -> `WIDTH = 3`; `shapes` in `import shapes` -> the module.
  json w = def("main.py", 5, 12);
  REQUIRE(w.size() == 1);
  CHECK(w[0]["uri"] == ws.uri("shapes.py"));
  CHECK(w[0]["range"]["start"] == at(5, 0));
  json m = def("main.py", 2, 8);
  REQUIRE(m.size() == 1);
  CHECK(m[0]["uri"] == ws.uri("shapes.py"));
  CHECK(m[0]["range"]["start"] == at(0, 0));
  // A local name stays local; tensorflow (not a workspace module) resolves to the import.
  json y = def("main.py", 4, 0);
  REQUIRE(y.size() == 1);
  CHECK(y[0]["uri"] == ws.uri("main.py"));
  json tf = def("main.py", 4, 4);
  REQUIRE(tf.size() == 1);
  CHECK(tf[0]["uri"] == ws.uri("main.py"));
  CHECK(tf[0]["range"]["start"] == at(0, 21));

  // References of shapes.make from its use in main.py: the def, main.py's import and call, and
  // in other.py the imported name, its alias and the alias's call; not other.py's own `make`.
  s.open(ws.uri("uses_pkg.py"), "from pkg import helper\nimport pkg.inner\nh = helper()\ng = pkg.inner.helper()\n");
  s.diagnostics(ws.uri("uses_pkg.py"), 1);
  json refs = s.request("textDocument/references", {{"textDocument", {{"uri", ws.uri("main.py")}}},
                                                   {"position", at(4, 15)},
                                                   {"context", {{"includeDeclaration", true}}}})["result"];
  INFO(refs.dump(1));
  std::map<std::string, int> perFile;
  for (const json& r : refs) perFile[r["uri"]]++;
  CHECK(perFile[ws.uri("shapes.py")] == 1);
  CHECK(perFile[ws.uri("main.py")] == 2);
  CHECK(perFile[ws.uri("other.py")] == 3);
  CHECK(refs.size() == 6);
  json noDecl = s.request("textDocument/references", {{"textDocument", {{"uri", ws.uri("main.py")}}},
                                                     {"position", at(4, 15)},
                                                     {"context", {{"includeDeclaration", false}}}})["result"];
  CHECK(noDecl.size() == 5);

  // A re-export through a package: `from pkg import helper` -> pkg/inner.py's def.
  json h = def("uses_pkg.py", 2, 5);
  REQUIRE(h.size() == 1);
  CHECK(h[0]["uri"] == ws.uri("pkg/inner.py"));
  CHECK(h[0]["range"]["start"] == at(0, 4));
  json h2 = def("uses_pkg.py", 3, 15);
  REQUIRE(h2.size() == 1);
  CHECK(h2[0]["uri"] == ws.uri("pkg/inner.py"));
  CHECK(h2[0]["range"]["start"] == at(0, 4));
}

TEST_CASE("a workspace file with invalid UTF-8 is analysed and what is published is valid JSON", "[lsp][workspace][robustness]") {
  TempWorkspace ws;
  ws.write("latin1.py", "import tensorflow as tf\n# caf\xe9 \xff\xfe\ns = 'na\xefve'\nWIDTH = 3\nbad = tf.matmul(tf.zeros([2, 3]), tf.zeros([4, 5]))\n");
  ProtocolSession s;
  s.initialize(json::object(), ws.rootUri());
  json d = published(s, ws.uri("latin1.py"));
  REQUIRE(!d.is_null());  // published() parses every message: all of them are valid JSON
  REQUIRE(d["diagnostics"].size() == 1);
  CHECK(d["diagnostics"][0]["range"]["start"]["line"] == 4);
  // An open document imports it; the definition in it converts columns on its text.
  s.open(ws.uri("main.py"), "from latin1 import WIDTH\nx = WIDTH\n");
  s.diagnostics(ws.uri("main.py"), 1);
  json def = s.request("textDocument/definition", {{"textDocument", {{"uri", ws.uri("main.py")}}},
                                                  {"position", {{"line", 1}, {"character", 5}}}})["result"];
  REQUIRE(def.size() == 1);
  CHECK(def[0]["uri"] == ws.uri("latin1.py"));
  CHECK(def[0]["range"]["start"] == json{{"line", 3}, {"character", 0}});
}

TEST_CASE("the background analysis yields to the open documents", "[lsp][workspace]") {
  TempWorkspace ws;
  // Big unopened files: each takes a while to analyse.
  std::string big = "import tensorflow as tf\n";
  for (int i = 0; i < 6000; ++i) big += "v" + std::to_string(i) + " = tf.zeros([2, 3]) + " + std::to_string(i) + "\n";
  for (int f = 0; f < 6; ++f) ws.write("big" + std::to_string(f) + ".py", big);
  ProtocolSession s;
  s.initialize({{"window", {{"workDoneProgress", true}}}}, ws.rootUri());
  json create = s.sent("window/workDoneProgress/create");
  REQUIRE(!create.is_null());
  s.raw(json{{"jsonrpc", "2.0"}, {"id", create["id"]}, {"result", nullptr}}.dump());
  REQUIRE(!s.sent("$/progress").is_null());  // begun
  auto t0 = std::chrono::steady_clock::now();
  s.open(ws.uri("mine.py"), "import tensorflow as tf\nx = tf.matmul(tf.zeros([2, 3]), tf.zeros([4, 5]))\n");
  json d = s.diagnostics(ws.uri("mine.py"), 1);
  double openMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  REQUIRE(d["diagnostics"].size() == 1);
  json h = s.request("textDocument/hover", {{"textDocument", {{"uri", ws.uri("mine.py")}}}, {"position", {{"line", 1}, {"character", 0}}}});
  CHECK(h["result"].is_object());
  // The open document did not wait for the six big files (each takes longer than this bound).
  int publishedBig = 0;
  for (const json& m : s.allSent("textDocument/publishDiagnostics"))
    if (m["params"]["uri"].get<std::string>().find("/big") != std::string::npos) ++publishedBig;
  INFO("open -> diagnostics took " << openMs << " ms; big files published by then: " << publishedBig);
  CHECK(publishedBig < 6);
  // The cancelled background analysis is resumed: every big file is published in the end.
  json end;
  for (int n = 0; n < 40 && end.is_null(); ++n) {
    json p = s.sent("$/progress", n);
    if (p.is_null()) break;
    if (p["params"]["value"]["kind"] == "end") end = p;
  }
  REQUIRE(!end.is_null());
  CHECK(end["params"]["value"]["message"] == "6/6 files");
}
