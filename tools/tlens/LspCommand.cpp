// tlens lsp [--port N]: the language server over stdio, or over TCP on 127.0.0.1:N (one client
// after another; `--port 0` picks a free port and prints it on stderr).
#include <cstdio>
#include <optional>
#include <stdexcept>
#include <string>

#include "lsp/protocol/LspServer.h"
#include "protocol/Channel.h"
#include "tools/tlens/ParseNumber.h"
#include "tools/tlens/Commands.h"

namespace tlens::cli {

int lspCommand(const Args& args) {
  std::optional<int> port;
  lsp::ServerOptions opts;
  for (size_t i = 0; i < args.size(); ++i) {
    auto value = [&](const char* flag, long long lo, long long hi) {
      if (i + 1 >= args.size()) throw std::invalid_argument(std::string(flag) + " needs a value");
      return static_cast<int>(parseIntArg(flag, args[++i], lo, hi));
    };
    if (args[i] == "--port") port = value("--port", 0, 65535);
    else if (args[i] == "--debounce-ms") opts.debounceMs = value("--debounce-ms", 0, 60000);
    else if (args[i] == "--sync") opts.asyncThreads = 0;
    else if (args[i] == "--stdio") continue;
    else throw std::invalid_argument("unknown option '" + args[i] + "' (usage: tlens lsp [--port N])");
  }
  if (!port) {
    auto ch = protocol::stdioChannel();
    ch->onError = [](const std::string& e) { std::fprintf(stderr, "tlens lsp: %s\n", e.c_str()); };
    lsp::LspServer server(*ch, opts);
    return server.run();
  }
  int status = 1;
  protocol::serveTcp(
      *port,
      [&](protocol::Channel& ch) {
        lsp::LspServer server(ch, opts);
        status = server.run();
        // One client's shutdown+exit ends its connection, not the server: the next client (a
        // reloaded editor window) is served too. The server stops when it is killed.
        return true;
      },
      [](int p) { std::fprintf(stderr, "tlens lsp: listening on 127.0.0.1:%d\n", p); });
  return status;
}

}  // namespace tlens::cli
