#include "engine/runtime/PngEncode.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
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

namespace tlens::png {

namespace {

uint32_t rd32(const std::string& s, size_t at) {
  return (static_cast<uint32_t>(static_cast<uint8_t>(s[at])) << 24) |
         (static_cast<uint32_t>(static_cast<uint8_t>(s[at + 1])) << 16) |
         (static_cast<uint32_t>(static_cast<uint8_t>(s[at + 2])) << 8) | static_cast<uint32_t>(static_cast<uint8_t>(s[at + 3]));
}

int paeth(int a, int b, int c) {
  const int p = a + b - c, pa = std::abs(p - a), pb = std::abs(p - b), pc = std::abs(p - c);
  if (pa <= pb && pa <= pc) return a;
  return pb <= pc ? b : c;
}

}  // namespace

Image decode(const std::string& file, int channels) {
  const std::string badHeader = "Invalid PNG header, data size " + std::to_string(file.size());
  const std::string badData = "Invalid PNG data, size " + std::to_string(file.size());
  static const char kSig[] = "\x89PNG\r\n\x1a\n";
  if (file.size() < 8 + 25 || file.compare(0, 8, kSig, 8) != 0) throw std::runtime_error(badHeader);
  if (channels < 0 || channels > 4) throw std::runtime_error("channels must be 0, 1, 2, 3 or 4, got " + std::to_string(channels));
  uint32_t width = 0, height = 0;
  int depth = 0, colour = -1, interlace = 0;
  std::string idat, palette, trns;
  bool sawHeader = false, sawEnd = false;
  for (size_t at = 8; at + 12 <= file.size() && !sawEnd;) {
    const uint32_t len = rd32(file, at);
    if (len > file.size() - at - 12) throw std::runtime_error(sawHeader ? badData : badHeader);
    const std::string type = file.substr(at + 4, 4);
    const size_t data = at + 8;
    if (type == "IHDR") {
      if (len < 13) throw std::runtime_error(badHeader);
      width = rd32(file, data);
      height = rd32(file, data + 4);
      depth = static_cast<uint8_t>(file[data + 8]);
      colour = static_cast<uint8_t>(file[data + 9]);
      interlace = static_cast<uint8_t>(file[data + 12]);
      sawHeader = true;
    } else if (type == "PLTE") {
      palette = file.substr(data, len);
    } else if (type == "tRNS") {
      trns = file.substr(data, len);
    } else if (type == "IDAT") {
      idat.append(file, data, len);
    } else if (type == "IEND") {
      sawEnd = true;
    }
    at = data + len + 4;
  }
  const int samples = colour == 0 ? 1 : colour == 2 ? 3 : colour == 3 ? 1 : colour == 4 ? 2 : colour == 6 ? 4 : 0;
  const bool depthOk = depth == 8 || depth == 16 || ((colour == 0 || colour == 3) && (depth == 1 || depth == 2 || depth == 4));
  if (!sawHeader || samples == 0 || !depthOk || width == 0 || height == 0 || (colour == 3 && palette.size() < 3))
    throw std::runtime_error(badHeader);
  if (interlace != 0) throw std::runtime_error("tensorlens: interlaced (Adam7) PNGs are not decoded");
  if (static_cast<uint64_t>(width) * height > (uint64_t{1} << 30)) throw std::runtime_error(badHeader);
  const size_t rowBytes = (static_cast<size_t>(width) * samples * depth + 7) / 8;
  const size_t bpp = std::max<size_t>(1, static_cast<size_t>(samples) * depth / 8);
  std::vector<uint8_t> raw((rowBytes + 1) * height);
  uLongf rawSize = raw.size();
  if (uncompress(raw.data(), &rawSize, reinterpret_cast<const Bytef*>(idat.data()), static_cast<uLong>(idat.size())) != Z_OK ||
      rawSize != raw.size())
    throw std::runtime_error(badData);
  // Undo the row filters in place (each row: a filter byte, then rowBytes bytes).
  std::vector<uint8_t> rows(rowBytes * height);
  for (size_t y = 0; y < height; ++y) {
    const uint8_t filter = raw[y * (rowBytes + 1)];
    const uint8_t* in = &raw[y * (rowBytes + 1) + 1];
    uint8_t* out = &rows[y * rowBytes];
    const uint8_t* up = y ? &rows[(y - 1) * rowBytes] : nullptr;
    for (size_t i = 0; i < rowBytes; ++i) {
      const int a = i >= bpp ? out[i - bpp] : 0, b = up ? up[i] : 0, c = (up && i >= bpp) ? up[i - bpp] : 0;
      int v = in[i];
      switch (filter) {
        case 0: break;
        case 1: v += a; break;
        case 2: v += b; break;
        case 3: v += (a + b) / 2; break;
        case 4: v += paeth(a, b, c); break;
        default: throw std::runtime_error(badData);
      }
      out[i] = static_cast<uint8_t>(v);
    }
  }
  // The file's pixels as 8-bit samples: grey, grey+alpha, RGB or RGBA.
  const bool paletteAlpha = colour == 3 && !trns.empty();
  const int native = colour == 3 ? (paletteAlpha ? 4 : 3) : samples;
  std::vector<uint8_t> px(static_cast<size_t>(width) * height * native);
  for (size_t y = 0; y < height; ++y) {
    const uint8_t* row = &rows[y * rowBytes];
    for (size_t x = 0; x < width; ++x) {
      uint8_t* o = &px[(y * width + x) * native];
      if (depth < 8) {
        const size_t bit = x * depth;
        const int v = (row[bit / 8] >> (8 - depth - bit % 8)) & ((1 << depth) - 1);
        if (colour == 0) {
          o[0] = static_cast<uint8_t>(v * 255 / ((1 << depth) - 1));
          continue;
        }
        const size_t e = static_cast<size_t>(v);
        if (e * 3 + 2 >= palette.size()) throw std::runtime_error(badData);
        for (int k = 0; k < 3; ++k) o[k] = static_cast<uint8_t>(palette[e * 3 + k]);
        if (paletteAlpha) o[3] = e < trns.size() ? static_cast<uint8_t>(trns[e]) : 255;
        continue;
      }
      if (colour == 3) {
        const size_t e = row[x];
        if (e * 3 + 2 >= palette.size()) throw std::runtime_error(badData);
        for (int k = 0; k < 3; ++k) o[k] = static_cast<uint8_t>(palette[e * 3 + k]);
        if (paletteAlpha) o[3] = e < trns.size() ? static_cast<uint8_t>(trns[e]) : 255;
        continue;
      }
      for (int k = 0; k < samples; ++k) o[k] = depth == 16 ? row[(x * samples + k) * 2] : row[x * samples + k];
    }
  }
  Image img;
  img.width = width;
  img.height = height;
  img.channels = channels == 0 ? native : channels;
  if (img.channels == native) {
    img.pixels = std::move(px);
    return img;
  }
  // Channel conversion: grey <-> colour, alpha added (255) or dropped.
  const bool srcColour = native >= 3, srcAlpha = native == 2 || native == 4;
  const bool dstColour = img.channels >= 3, dstAlpha = img.channels == 2 || img.channels == 4;
  img.pixels.resize(static_cast<size_t>(width) * height * img.channels);
  for (size_t i = 0; i < static_cast<size_t>(width) * height; ++i) {
    const uint8_t* s = &px[i * native];
    uint8_t* d = &img.pixels[i * img.channels];
    uint8_t rgb[3];
    if (srcColour) {
      for (int k = 0; k < 3; ++k) rgb[k] = s[k];
    } else {
      rgb[0] = rgb[1] = rgb[2] = s[0];
    }
    const uint8_t alpha = srcAlpha ? s[native - 1] : 255;
    if (dstColour) {
      for (int k = 0; k < 3; ++k) d[k] = rgb[k];
    } else {
      d[0] = srcColour ? static_cast<uint8_t>(std::lround(0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2])) : rgb[0];
    }
    if (dstAlpha) d[img.channels - 1] = alpha;
  }
  return img;
}

}  // namespace tlens::png
