// Transport::lastWords: the events a client needs to end the session when the process is about
// to die of a fatal signal (a C extension of the embedded Python crashed). Runs in the signal
// handler, so it renders JSON by hand into static buffers: no allocation, no locale, no locks
// beyond the channel's bounded try-lock.
#include <cstddef>

#include "dap/protocol/Dispatcher.h"

namespace tlens::dap::proto {
namespace {

/// A fixed buffer that drops what does not fit; escaped() stops short of the end of the buffer
/// by `kReserve` bytes, kept for the closing parts, so the JSON stays valid when text is cut.
constexpr size_t kReserve = 16;  ///< room for `"}}` after escaped text

struct Writer {
  char* data;
  size_t cap;
  size_t n = 0;
  void put(char c) {
    if (n < cap) data[n++] = c;
  }
  void put(const char* s) {
    while (*s) put(*s++);
  }
  void number(long long v) {
    if (v < 0) put('-');
    char digits[24];
    const size_t d = protocol::formatDecimal(static_cast<uint64_t>(v < 0 ? -v : v), digits);
    for (size_t i = 0; i < d; ++i) put(digits[i]);
  }
  /// `s` as the inside of a JSON string; bytes outside printable ASCII become escapes or '?'
  /// (faulthandler writes ASCII; a stray byte must not make the message invalid UTF-8).
  void escaped(const char* s, size_t size) {
    static constexpr char kHex[] = "0123456789abcdef";
    for (size_t i = 0; i < size && n + 6 + kReserve <= cap; ++i) {
      unsigned char c = static_cast<unsigned char>(s[i]);
      if (c == '"' || c == '\\') {
        put('\\');
        put(static_cast<char>(c));
      } else if (c == '\n') {
        put("\\n");
      } else if (c == '\t') {
        put("\\t");
      } else if (c < 0x20) {
        put("\\u00");
        put(kHex[c >> 4]);
        put(kHex[c & 15]);
      } else {
        put(c < 0x80 ? static_cast<char>(c) : '?');
      }
    }
  }
};

}  // namespace

bool Transport::lastWords(const char* text, size_t size, int exitCode) noexcept {
  constexpr size_t kTextCap = 16000;  ///< bytes of the report; each escapes to at most 6
  static char output[kTextCap * 6 + 256], exited[128], terminated[128];
  if (size > kTextCap) size = kTextCap;
  const int seq = seq_.fetch_add(3);
  Writer o{output, sizeof output};
  o.put("{\"seq\":");
  o.number(seq);
  o.put(",\"type\":\"event\",\"event\":\"output\",\"body\":{\"category\":\"stderr\",\"output\":\"");
  o.escaped(text, size);
  o.put("\"}}");
  Writer e{exited, sizeof exited};
  e.put("{\"seq\":");
  e.number(seq + 1);
  e.put(",\"type\":\"event\",\"event\":\"exited\",\"body\":{\"exitCode\":");
  e.number(exitCode);
  e.put("}}");
  Writer t{terminated, sizeof terminated};
  t.put("{\"seq\":");
  t.number(seq + 2);
  t.put(",\"type\":\"event\",\"event\":\"terminated\",\"body\":{}}");
  const std::string_view bodies[] = {{o.data, o.n}, {e.data, e.n}, {t.data, t.n}};
  return channel_.writeFromSignalHandler(bodies, 3);
}

}  // namespace tlens::dap::proto
