// Fuzzes the language server's analysis: the input is a document's text, analysed abstractly
// (analyze(), as on didOpen) and then read by every feature at positions derived from the input.
// Whatever the text (broken syntax, invalid UTF-8, deep nesting, endless loops), analyze() must
// return a snapshot within its budget and no feature may crash. The same text also goes through
// the protocol adapter as a JSON-RPC message body (malformed JSON is the common case there).
#include <cstdint>
#include <string>

#include "lsp/analysis/Analyzer.h"
#include "lsp/features/Features.h"
#include "lsp/protocol/LspServer.h"

using namespace tlens;
using namespace tlens::lsp;

namespace {

class NullChannel : public protocol::Channel {
 public:
  std::optional<std::string> read() override { return std::nullopt; }
  void write(std::string_view) override {}
  void close() override {}
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  AnalysisInput in;
  in.uri = "file:///fuzz.py";
  in.path = "/fuzz.py";
  in.text = text;
  in.timeBudgetMs = 200;
  auto snap = analyze(in);
  if (!snap) __builtin_trap();  // only a cancelled analysis returns null, and nothing cancels this one
  const Snapshot& s = *snap;
  (void)diagnostics(s);
  (void)documentSymbols(s);
  int lines = s.file->lineCount();
  TextRange all{{0, 0}, {lines, 0}};
  (void)inlayHints(s, all);
  (void)codeActions(s, all);
  WorkspaceView ws;  // no roots: imports resolve next to /fuzz.py only
  for (size_t i = 0; i < 8 && i < size; ++i) {
    int line = lines > 0 ? data[i] % lines : 0;
    int col = (i + 1 < size ? data[i + 1] : 0) % 80;
    lang::TextPos p{line, col};
    (void)hover(s, p);
    (void)completion(s, p);
    (void)signatureHelp(s, p);
    (void)definition(s, p);
    (void)references(s, p, true);
    (void)definition(s, p, ws);
    (void)references(s, p, false, ws);
  }
  // The adapter: the bytes as one message body, before and after initialize.
  NullChannel ch;
  ServerOptions o;
  o.asyncThreads = 0;
  o.timeBudgetMs = 200;
  o.workspaceAnalysis = false;
  LspServer server(ch, o);
  server.handle(text);
  server.handle(R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{}})");
  server.handle(text);
  return 0;
}
