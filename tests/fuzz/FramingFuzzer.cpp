// Fuzzes the Content-Length framing (protocol::FrameDecoder) that both servers read through.
// The input is a byte stream cut into chunks (the first byte picks the chunk size), so partial
// headers and bodies split anywhere are exercised. Properties checked on every input:
//  - decoding never crashes, loops or throws anything but FramingError;
//  - the decoder never holds more than it was fed;
//  - the same stream fed in one piece yields the same bodies (chunking does not matter);
//  - every decoded body, framed again with encodeFrame and decoded, comes back unchanged.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/Channel.h"

using tlens::protocol::FrameDecoder;
using tlens::protocol::FramingError;

namespace {

std::vector<std::string> decodeAll(std::string_view bytes, size_t chunk) {
  FrameDecoder d;
  std::vector<std::string> out;
  size_t fed = 0;
  for (size_t at = 0; at < bytes.size() || at == 0; at += chunk) {
    std::string_view piece = bytes.substr(at, chunk);
    d.feed(piece);
    fed += piece.size();
    for (int guard = 0; guard < 100000; ++guard) {
      try {
        auto body = d.next();
        if (!body) break;
        out.push_back(std::move(*body));
      } catch (const FramingError&) {
        // Reported once per broken header; decoding goes on after it.
      }
    }
    if (d.buffered() > fed) std::abort();
    if (bytes.empty()) break;
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  size_t chunk = 1 + data[0] % 64;
  std::string_view bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
  std::vector<std::string> chunked = decodeAll(bytes, chunk);
  std::vector<std::string> whole = decodeAll(bytes, bytes.size() + 1);
  if (chunked != whole) std::abort();
  for (const std::string& body : whole) {
    std::vector<std::string> again = decodeAll(tlens::protocol::encodeFrame(body), 7);
    if (again.size() != 1 || again[0] != body) std::abort();
  }
  return 0;
}
