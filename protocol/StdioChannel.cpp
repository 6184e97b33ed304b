// The stdio transport: a blocking reader over fd 0 (a pipe, a terminal or a regular file) and
// serialised writes to fd 1.
#include <poll.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <mutex>

#include "protocol/Channel.h"

namespace tlens::protocol {
namespace {

class StdioChannel : public Channel {
 public:
  explicit StdioChannel(int outFd) : outFd_(outFd) {}
  std::optional<std::string> read() override {
    char chunk[64 * 1024];
    while (true) {
      if (auto body = decoder_.nextSkippingErrors(onError)) return body;
      if (closed_ || eof_) return std::nullopt;
      // Poll with a timeout so close() from another thread unblocks the reader.
      pollfd p{0, POLLIN, 0};
      int ready = ::poll(&p, 1, 100);
      if (ready < 0 && errno != EINTR) return std::nullopt;
      if (ready <= 0) continue;
      ssize_t n = ::read(0, chunk, sizeof chunk);
      if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
      if (n <= 0) {
        eof_ = true;
        continue;  // return what is complete, then nullopt
      }
      decoder_.feed(std::string_view(chunk, size_t(n)));
    }
  }

  void write(std::string_view body) override {
    std::string frame = encodeFrame(body);
    std::lock_guard<std::mutex> lock(writeMutex_);
    if (closed_) return;
    writeAllToFd(outFd_, frame.data(), frame.size());  // false: the editor went away; reads will see EOF
  }

  void close() override { closed_ = true; }

  bool writeFromSignalHandler(const std::string_view* bodies, size_t count) noexcept override {
    if (!seizeForLastWords(writeMutex_)) return false;  // kept: the process is ending
    const int fd = outFd_;
    for (size_t i = 0; i < count; ++i) {
      char header[48];
      size_t h = formatFrameHeader(bodies[i].size(), header);
      if (!writeAllToFd(fd, header, h) || !writeAllToFd(fd, bodies[i].data(), bodies[i].size())) return false;
    }
    return true;
  }


 private:
  const int outFd_;
  FrameDecoder decoder_;
  std::mutex writeMutex_;
  std::atomic<bool> closed_{false};
  bool eof_ = false;
};

}  // namespace

std::unique_ptr<Channel> stdioChannel(int outFd) { return std::make_unique<StdioChannel>(outFd); }

}  // namespace tlens::protocol
