// Channel: framed messages between an editor and a server (LSP and DAP share it).
//
// Both protocols frame each JSON body with a header block, `Content-Length: N\r\n\r\n<N bytes>`.
// FrameDecoder is the pure codec (tested on its own: partial headers, extra headers, bytes past
// the body, bad lengths). A Channel moves whole bodies: stdio (a plain blocking reader, which
// also works when stdin is a regular file, as in transcript tests), TCP on 127.0.0.1 (Boost.Asio;
// one connection after another) and memory (tests).
//
// Only the protocol layers of lsp/ and dap/ use this; it knows nothing of JSON.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

namespace tlens::protocol {

/// A header block that cannot be parsed (missing or bad Content-Length, oversized header).
/// After it, the decoder has skipped the broken header and resynchronises on the next one.
struct FramingError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// `Content-Length: <size>\r\n\r\n<body>`
std::string encodeFrame(std::string_view body);
/// `v` in decimal into `out` (at least 20 bytes); returns the number of digits. Allocates nothing.
size_t formatDecimal(uint64_t v, char* out) noexcept;
/// The header of a frame of `bodySize` bytes into `out` (at least 40 bytes); returns its length.
/// Allocates nothing (fatal-signal handlers use it).
size_t formatFrameHeader(size_t bodySize, char* out) noexcept;
/// Writes all of [data, data + size) to `fd` (async-signal-safe); false when the peer is gone.
bool writeAllToFd(int fd, const char* data, size_t size) noexcept;
/// Takes `mu` for good from a fatal-signal handler: try_lock, retried for up to about half a
/// second while another thread finishes its write. False when the wait ran out.
bool seizeForLastWords(std::mutex& mu) noexcept;

class FrameDecoder {
 public:
  /// Appends raw bytes read from the transport.
  void feed(std::string_view bytes);
  /// The next complete body, or nullopt when more bytes are needed. Throws FramingError for a
  /// broken header (once per broken header; later calls continue after it).
  std::optional<std::string> next();
  /// next(), but a broken header goes to `onError` (when set) and decoding goes on: the transports'
  /// read() loops use this.
  std::optional<std::string> nextSkippingErrors(const std::function<void(const std::string&)>& onError);
  /// Bytes received but not yet returned as a body.
  size_t buffered() const { return buffer_.size() - pos_; }

 private:
  std::string buffer_;
  size_t pos_ = 0;
  bool resyncing_ = false;  ///< after a broken header: drop bytes up to the next header
};

class Channel {
 public:
  virtual ~Channel() = default;
  /// Blocks for the next body; nullopt when the peer closed the stream. Framing errors are
  /// reported through `onError` (when set) and skipped.
  virtual std::optional<std::string> read() = 0;
  /// Sends one body. Safe to call from several threads (writes are serialised).
  virtual void write(std::string_view body) = 0;
  /// Unblocks read() (it then returns nullopt) and stops accepting writes.
  virtual void close() = 0;
  /// Last words from a fatal-signal handler (a C extension of the embedded Python crashed): writes
  /// the `count` bodies, each framed, without allocating, after the write in progress on another
  /// thread, if any, has ended (a bounded wait). Returns false where the transport cannot (memory
  /// channels) or the wait ran out. Call it once, from such a handler only: it keeps the write
  /// lock, so nothing else is written after it.
  virtual bool writeFromSignalHandler(const std::string_view* bodies, size_t count) noexcept {
    (void)bodies;
    (void)count;
    return false;
  }
  std::function<void(const std::string&)> onError;
};

/// Reads stdin, writes stdout, or `outFd` in its place (unbuffered framing).
std::unique_ptr<Channel> stdioChannel(int outFd = 1);
/// Reads the framed bytes of `input`; writes append framed bodies to *output.
std::unique_ptr<Channel> memoryChannel(std::string input, std::string* output);
/// Two connected in-memory channels: what one writes, the other reads (whole bodies, no
/// framing). Closing either end makes both ends' reads return nullopt once drained.
std::pair<std::unique_ptr<Channel>, std::unique_ptr<Channel>> channelPair();

/// Listens on 127.0.0.1:`port` (0 picks a free port; `onListening` receives the actual port)
/// and runs `session` for each accepted connection, one after another, until `session` returns
/// false. Throws std::runtime_error when the port cannot be bound.
void serveTcp(int port, const std::function<bool(Channel&)>& session,
              const std::function<void(int port)>& onListening = {});
/// Connects to 127.0.0.1:`port` (tests, and `tlens run --listen` helpers).
std::unique_ptr<Channel> connectTcp(int port);

}  // namespace tlens::protocol
