// A PNG encoder for image summaries (tf.summary.image) and tf.image.encode_png: 8-bit
// grayscale (colour type 0), grayscale with alpha (4), RGB (2) or RGBA (6), no interlacing,
// every row with filter type 0 (None), the image data one zlib stream (zlib's default level) in
// one IDAT chunk; chunk CRCs are zlib's crc32.
#pragma once

#include <cstdint>
#include <string>

namespace tlens::png {

/// The PNG file of `height` rows of `width` pixels of `channels` (1, 2, 3 or 4) bytes each,
/// row-major and tightly packed. Throws std::runtime_error when zlib fails.
std::string encode(const uint8_t* pixels, int64_t width, int64_t height, int channels);

}  // namespace tlens::png
