// tlens dap [--port N]: the debug adapter over stdio, or over TCP on 127.0.0.1:N (one session
// after another; N = 0 picks a free port, printed on stderr).
#include <cstdio>
#include <stdexcept>

#include "dap/session/DapSession.h"
#include "protocol/Channel.h"
#include "tools/tlens/ParseNumber.h"
#include "tools/tlens/Commands.h"

namespace tlens::cli {

int dapCommand(const Args& args) {
  int port = -1;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--port" && i + 1 < args.size()) {
      port = parsePortArg("--port", args[++i]);
    } else {
      throw std::invalid_argument("usage: tlens dap [--port N]");
    }
  }
  if (port < 0) {
    std::unique_ptr<protocol::Channel> ch = protocol::stdioChannel();
    dap::DapSession session(*ch);
    session.run();
    return 0;
  }
  protocol::serveTcp(
      port,
      [](protocol::Channel& ch) {
        dap::DapSession session(ch);
        session.run();
        return true;
      },
      [](int actual) {
        std::fprintf(stderr, "tlens dap: listening on 127.0.0.1:%d\n", actual);
        std::fflush(stderr);
      });
  return 0;
}

}  // namespace tlens::cli
