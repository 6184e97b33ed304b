// A PNG encoder for image summaries (tf.summary.image) and tf.image.encode_png: 8-bit
// grayscale (colour type 0), grayscale with alpha (4), RGB (2) or RGBA (6), no interlacing,
// every row with filter type 0 (None), the image data one zlib stream (zlib's default level) in
// one IDAT chunk; chunk CRCs are zlib's crc32.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tlens::png {

/// The PNG file of `height` rows of `width` pixels of `channels` (1, 2, 3 or 4) bytes each,
/// row-major and tightly packed. Throws std::runtime_error when zlib fails.
std::string encode(const uint8_t* pixels, int64_t width, int64_t height, int channels);

}  // namespace tlens::png

namespace tlens::png {

/// A decoded image: `height` rows of `width` pixels of `channels` bytes, packed row-major.
struct Image {
  int64_t width = 0, height = 0;
  int channels = 0;
  std::vector<uint8_t> pixels;
};

/// Decodes a PNG file (tf.image.decode_png): every colour type, bit depths 1 to 16 (16-bit
/// samples keep their high byte, low-bit grey is scaled to 0-255, palettes expand to RGB, or RGBA
/// with a tRNS chunk). `channels` 0 keeps the file's channels, else 1 to 4 (grey from RGB is
/// 0.299 R + 0.587 G + 0.114 B; a missing alpha is 255). Throws std::runtime_error with
/// TensorFlow's messages ("Invalid PNG header, data size N", "Invalid PNG data, size N"), and
/// for interlaced files, which tensorlens does not decode.
Image decode(const std::string& file, int channels);

}  // namespace tlens::png
