// textDocument/codeAction over the wire with the diagnostics the client sends back
// (context.diagnostics): fixes read each diagnostic's code and data, not its message and not the
// server's current diagnostics; a diagnostic without usable data stands for the server's own at
// the same range; malformed input is an error for that request only.
#include "tests/lsp/LspTestSupport.h"

using namespace tlens::lsp;
using namespace tlens::lsp::test;

namespace {

const char* kReshape = R"(import tensorflow as tf
a = tf.zeros([2, 3])
b = tf.reshape(a, [4, 2])
)";

const json kDoc = {{"uri", "file:///r.py"}};

json lineRange(int line) {
  return {{"start", {{"line", line}, {"character", 0}}}, {"end", {{"line", line}, {"character", 0}}}};
}

/// The codeAction response for line 2, with `diagnostics` as the context when given.
json actions(ProtocolSession& s, const json* diagnostics) {
  json p = {{"textDocument", kDoc}, {"range", lineRange(2)}};
  if (diagnostics) p["context"] = {{"diagnostics", *diagnostics}};
  return s.request("textDocument/codeAction", p);
}

/// The actions' titles and edits: what a fix does, without the diagnostics it echoes.
json fixes(const json& response) {
  json out = json::array();
  if (!response.contains("result") || !response["result"].is_array()) return nullptr;
  for (const json& a : response["result"]) out.push_back({a["title"], a["edit"]});
  return out;
}

/// The one published diagnostic of version 1 (the reshape error on line 2).
json published(ProtocolSession& s) {
  s.open("file:///r.py", kReshape);
  json d = s.diagnostics("file:///r.py", 1);
  REQUIRE(d["diagnostics"].size() == 1);
  REQUIRE(d["diagnostics"][0].contains("data"));
  return d["diagnostics"][0];
}

}  // namespace

TEST_CASE("codeAction reads the client's diagnostic data: a reworded message gives the same fixes",
          "[lsp][codeaction][data]") {
  ProtocolSession s;
  s.initialize();
  const json diag = published(s);
  const json sent = json::array({diag});
  const json expected = fixes(actions(s, &sent));
  INFO(expected.dump());
  REQUIRE(expected.is_array());
  REQUIRE(expected.size() == 1);
  CHECK(expected[0][1]["changes"]["file:///r.py"][0]["newText"] == "3");
  // The same data under another message: the same fixes.
  json reworded = diag;
  reworded["message"] = "la forme ne convient pas";
  const json sentReworded = json::array({reworded});
  CHECK(fixes(actions(s, &sentReworded)) == expected);
  // No context, or an empty one: the server's own diagnostics give the same fixes.
  CHECK(fixes(actions(s, nullptr)) == expected);
  const json none = json::array();
  CHECK(fixes(actions(s, &none)) == expected);
  // Another source's diagnostic at the same place is not ours to fix.
  json other = diag;
  other["source"] = "pyright";
  const json sentOther = json::array({other});
  CHECK(fixes(actions(s, &sentOther)).empty());
}

TEST_CASE("codeAction fixes the diagnostic the client sent even when the server no longer reports it",
          "[lsp][codeaction][data]") {
  ProtocolSession s;
  s.initialize();
  const json diag = published(s);
  // a becomes [2, 4]: [4, 2] now fits and the server publishes nothing for version 2.
  s.notify("textDocument/didChange",
           {{"textDocument", {{"uri", "file:///r.py"}, {"version", 2}}},
            {"contentChanges", {{{"range", {{"start", {{"line", 1}, {"character", 17}}}, {"end", {{"line", 1}, {"character", 18}}}}},
                                 {"text", "4"}}}}});
  REQUIRE(s.diagnostics("file:///r.py", 2)["diagnostics"].empty());
  CHECK(fixes(actions(s, nullptr)).empty());
  // The client still shows the version-1 diagnostic; its data says [2, 3] -> [4, 2].
  const json sent = json::array({diag});
  const json got = fixes(actions(s, &sent));
  INFO(got.dump());
  REQUIRE(got.is_array());
  REQUIRE(got.size() == 1);
  CHECK(got[0][1]["changes"]["file:///r.py"][0]["newText"] == "3");
  // Without its data the client's diagnostic stands for the server's, which is gone: no fix.
  json bare = diag;
  bare.erase("data");
  const json sentBare = json::array({bare});
  CHECK(fixes(actions(s, &sentBare)).empty());
}

TEST_CASE("codeAction drops malformed data and answers a malformed diagnostic with InvalidParams",
          "[lsp][codeaction][data][robustness]") {
  ProtocolSession s;
  s.initialize();
  const json diag = published(s);
  const json sent = json::array({diag});
  const json expected = fixes(actions(s, &sent));
  REQUIRE(expected.size() == 1);
  // Garbage data is dropped: the diagnostic stands for the server's at its range, whose data is good.
  for (const json& garbage : {json("garbage"), json(42), json::array({1, 2}), json{{"inputs", 5}},
                              json{{"inputs", {{{"shape", "not a shape"}}}}}, json{{"shapes", {{"target", {1.5}}}}},
                              json{{"fixes", {{{"title", 1}}}}}, json{{"opType", {"MatMul"}}}}) {
    json d = diag;
    d["data"] = garbage;
    const json bad = json::array({d});
    INFO(garbage.dump());
    CHECK(fixes(actions(s, &bad)) == expected);
  }
  // Data that parses but names a different op gives no fix: the data decides, not the message.
  json other = diag;
  other["data"]["opType"] = "MatMul";
  const json sentOther = json::array({other});
  CHECK(fixes(actions(s, &sentOther)).empty());
  // A diagnostic without a range, or a context that is not a list, fails this request only.
  json noRange = diag;
  noRange.erase("range");
  const json badList = json::array({noRange});
  json r = actions(s, &badList);
  REQUIRE(r.contains("error"));
  CHECK(r["error"]["code"] == -32602);
  const json notAList = "diagnostics";
  r = actions(s, &notAList);
  REQUIRE(r.contains("error"));
  CHECK(r["error"]["code"] == -32602);
  CHECK(fixes(actions(s, &sent)) == expected);
}
