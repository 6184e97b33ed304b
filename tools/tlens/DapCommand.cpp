// tlens dap [--port N]: the debug adapter over stdio, or over TCP on 127.0.0.1:N (one session
// after another; N = 0 picks a free port, printed on stderr).
#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "dap/session/DapSession.h"
#include "protocol/Channel.h"
#include "tools/tlens/ParseNumber.h"
#include "tools/tlens/Allocator.h"
#include "tools/tlens/Commands.h"

extern char** environ;

namespace tlens::cli {

namespace {

/// The process's environment and working directory. A launch's `env` and `cwd` change the whole
/// process (the program runs inside it), so in server mode they are put back after each session:
/// one session's settings must not leak into the next (issue 22.6).
struct ProcessState {
  std::vector<std::string> env;
  std::filesystem::path cwd;

  static ProcessState save() {
    ProcessState s;
    for (char** e = environ; e && *e; ++e) s.env.emplace_back(*e);
    std::error_code ec;
    s.cwd = std::filesystem::current_path(ec);
    return s;
  }
  void restore() const {
    ::clearenv();
    for (const std::string& kv : env) {
      size_t eq = kv.find('=');
      if (eq == std::string::npos) continue;
      ::setenv(kv.substr(0, eq).c_str(), kv.c_str() + eq + 1, 1);
    }
    std::error_code ec;
    if (!cwd.empty()) std::filesystem::current_path(cwd, ec);
  }
};

}  // namespace

int dapCommand(const Args& args) {
  useComputeAllocatorSettings();
  int port = -1;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--port" && i + 1 < args.size()) {
      port = parsePortArg("--port", args[++i]);
    } else {
      throw std::invalid_argument("usage: tlens dap [--port N]");
    }
  }
  if (port < 0) {
    // The protocol keeps the real stdout to itself; fd 1 becomes a pipe, so what C code of the
    // embedded Python or a child process writes there reaches the client as output events
    // instead of corrupting the frames.
    const int protocolFd = ::fcntl(1, F_DUPFD_CLOEXEC, 3);
    int pipeFds[2] = {-1, -1};
    const bool capture = protocolFd >= 0 && ::pipe2(pipeFds, O_CLOEXEC) == 0 && ::dup2(pipeFds[1], 1) == 1;
    if (pipeFds[1] >= 0) ::close(pipeFds[1]);
    std::unique_ptr<protocol::Channel> ch = protocol::stdioChannel(capture ? protocolFd : 1);
    dap::DapSession session(*ch);
    if (capture) session.forwardOutputFrom(pipeFds[0]);
    session.run();
    return 0;
  }
  protocol::serveTcp(
      port,
      [](protocol::Channel& ch) {
        const ProcessState before = ProcessState::save();
        {
          dap::DapSession session(ch);
          session.run();
        }  // the program's thread has ended: nothing reads the environment any more
        before.restore();
        return true;
      },
      [](int actual) {
        std::fprintf(stderr, "tlens dap: listening on 127.0.0.1:%d\n", actual);
        std::fflush(stderr);
      });
  return 0;
}

}  // namespace tlens::cli
