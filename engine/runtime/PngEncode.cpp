#include "engine/runtime/PngEncode.h"

#include <stdexcept>
#include <vector>

#include <zlib.h>

namespace tlens::png {

namespace {

void be32(std::string& out, uint32_t v) {
  for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<char>((v >> shift) & 0xff));
}

// A chunk: length, type, data, and the CRC-32 of type and data.
void chunk(std::string& out, const char* type, const std::string& data) {
  be32(out, static_cast<uint32_t>(data.size()));
  const size_t typeAt = out.size();
  out.append(type, 4);
  out += data;
  const auto* p = reinterpret_cast<const Bytef*>(out.data() + typeAt);
  be32(out, static_cast<uint32_t>(crc32(crc32(0L, Z_NULL, 0), p, static_cast<uInt>(4 + data.size()))));
}

}  // namespace

std::string encode(const uint8_t* pixels, int64_t width, int64_t height, int channels) {
  static const int colourType[] = {0, 0, 4, 2, 6};
  if (channels < 1 || channels > 4) throw std::runtime_error("PNG encoding: " + std::to_string(channels) + " channels");
  const size_t rowBytes = static_cast<size_t>(width) * static_cast<size_t>(channels);
  // The filtered image: each row is its filter type (0) then its bytes.
  std::vector<uint8_t> raw;
  raw.reserve((rowBytes + 1) * static_cast<size_t>(height));
  for (int64_t y = 0; y < height; ++y) {
    raw.push_back(0);
    raw.insert(raw.end(), pixels + static_cast<size_t>(y) * rowBytes, pixels + static_cast<size_t>(y + 1) * rowBytes);
  }
  uLongf packedSize = compressBound(static_cast<uLong>(raw.size()));
  std::string packed(packedSize, '\0');
  if (compress2(reinterpret_cast<Bytef*>(packed.data()), &packedSize, raw.data(), static_cast<uLong>(raw.size()),
                Z_DEFAULT_COMPRESSION) != Z_OK)
    throw std::runtime_error("PNG encoding failed");
  packed.resize(packedSize);

  std::string out("\x89PNG\r\n\x1a\n", 8);
  std::string header;
  be32(header, static_cast<uint32_t>(width));
  be32(header, static_cast<uint32_t>(height));
  header.push_back(8);                                   // bit depth
  header.push_back(static_cast<char>(colourType[channels]));
  header.push_back(0);                                   // compression: deflate
  header.push_back(0);                                   // filter method 0
  header.push_back(0);                                   // no interlacing
  chunk(out, "IHDR", header);
  chunk(out, "IDAT", packed);
  chunk(out, "IEND", {});
  return out;
}

}  // namespace tlens::png
