// DapSession::forwardOutputFrom: bytes written to the process's fd 1 by anything but the
// protocol (C code in the embedded Python, child processes) become `output` events.
#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <cerrno>

#include "dap/session/DapSession.h"

namespace tlens::dap {
namespace {

/// How many bytes at the end of `s` start a UTF-8 sequence that is not complete yet.
size_t incompleteUtf8Tail(const std::string& s) {
  size_t i = s.size(), back = 0;
  while (i > 0 && back < 4) {
    unsigned char c = static_cast<unsigned char>(s[i - 1]);
    ++back;
    --i;
    if ((c & 0xC0) == 0x80) continue;  // a continuation byte: look further back
    size_t need = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
    return need > back ? back : 0;
  }
  return 0;
}

}  // namespace

void DapSession::forwardOutputFrom(int fd) {
  forwardFd_ = fd;
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
  forwarder_ = std::thread([this] {
    while (!forwardStop_) {
      pollfd p{forwardFd_, POLLIN, 0};
      if (::poll(&p, 1, 100) > 0) drainForwarded();
    }
    drainForwarded();
  });
}

void DapSession::drainForwarded() {
  if (forwardFd_ < 0) return;
  std::lock_guard<std::mutex> lk(forwardMu_);
  std::string text = std::move(forwardPartial_);
  forwardPartial_.clear();
  char chunk[16384];
  while (true) {
    ssize_t n = ::read(forwardFd_, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    text.append(chunk, static_cast<size_t>(n));
    if (text.size() > (1u << 20)) break;  // a flood: send this much, read on next time
  }
  size_t keep = incompleteUtf8Tail(text);
  forwardPartial_ = text.substr(text.size() - keep);
  text.resize(text.size() - keep);
  if (!text.empty()) transport_.event("output", proto::OutputEvent{"stdout", text});
}

}  // namespace tlens::dap
