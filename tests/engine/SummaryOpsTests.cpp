// Where (tf.where with one argument), Unique and the summary ops, in the op case table; TensorBoard's
// wire formats (Summary protos, TFRecord framing with CRC32C) against known encodings.
#include "OpTestUtil.h"
#include "engine/runtime/PngEncode.h"
#include "engine/runtime/SummaryProto.h"
#include "engine/runtime/WavEncode.h"

using namespace tlens;
using namespace tlens::test;

namespace {

Tensor U8(std::vector<int32_t> v, ConcreteShape shape = {}) {
  if (shape.empty()) shape = {static_cast<int64_t>(v.size())};
  return I32(std::move(v), std::move(shape)).cast(DType::UInt8);
}

// A serialized Summary as the uint8 vector the summary ops return.
Tensor bytes(const std::string& s) {
  std::vector<int32_t> v;
  for (unsigned char ch : s) v.push_back(ch);
  return U8(std::move(v));
}

const uint8_t kGray[] = {1, 255};
const uint8_t kRgb[] = {10, 20, 30, 40, 50, 60};
const std::string kStrings[] = {"a", "bc"};
const float kClip[] = {0.5f, -1.0f};

}  // namespace

static CaseRegistrar summaryCases({
    {"Where", {B({true, false, true, true}, {2, 2})}, {}, {I64({0, 0, 1, 0, 1, 1}, {3, 2})}, 0, false, {}, 1e-4,
     "row-major coordinates of the true elements"},
    {"Where", {F32({0, 2, 0})}, {}, {I64({1}, {1, 1})}, 0, false, {}, 1e-4, "non-zero numbers count as true"},
    {"Where", {B({false, false}, {2})}, {}, {I64({}, {0, 1})}, 0, false, {}, 1e-4, "nothing true: zero rows"},
    {"Unique", {I32({1, 1, 2, 4, 4, 4, 7, 8, 8})}, {}, {I32({1, 2, 4, 7, 8}), I32({0, 0, 1, 2, 2, 2, 3, 4, 4})}, 0, false,
     {}, 1e-4, "TensorFlow's documented example"},
    {"Unique", {F32({3, 1, 3})}, {{"out_idx", DType::Int64}}, {F32({3, 1}), I64({0, 1, 0}, {3})}, 0, false},
    // Summary{value{tag: "loss", simple_value: 2.5}}
    {"ScalarSummary", {F32({2.5}, {})}, {{"tag", std::string("loss")}},
     {U8({0x0a, 0x0b, 0x0a, 0x04, 'l', 'o', 's', 's', 0x15, 0x00, 0x00, 0x20, 0x40})}, 0, false},
    {"HistogramSummary", {F32({1, 2, 3})}, {{"tag", std::string("w")}}, {}, 0, false},
    // Float images are scaled per image: with a negative value, v * 127 / max|v| + 128.
    {"ImageSummary", {F32({-1, 1}, {1, 1, 2, 1})}, {{"tag", std::string("img")}, {"max_images", int64_t{1}}},
     {bytes(summary::image("img/image", 1, 2, 1, png::encode(kGray, 2, 1, 1)))}, 0, false, {}, 1e-4,
     "one image: tag/image, a 1x2 grayscale PNG of 1 and 255"},
    {"ImageSummary", {U8({10, 20, 30, 40, 50, 60}, {2, 1, 1, 3})}, {{"tag", std::string("rgb")}},
     {bytes(summary::image("rgb/image/0", 1, 1, 3, png::encode(kRgb, 1, 1, 3)) +
            summary::image("rgb/image/1", 1, 1, 3, png::encode(kRgb + 3, 1, 1, 3)))},
     0, false, {}, 1e-4, "uint8 images unchanged, tag/image/i for each"},
    {"TensorSummaryV2", {Tensor::fromStrings({"a", "bc"}, {2})}, {{"tag", std::string("t")}, {"plugin_name", std::string("text")}},
     {bytes(summary::stringTensor("t", "text", {}, {}, kStrings, {2}))}, 0, false},
    {"EncodePng", {U8({1, 255}, {1, 2, 1})}, {}, {}, 0, false},
    {"DecodePng", {Tensor::fromStrings({png::encode(kRgb, 2, 1, 3)}, {})}, {}, {U8({10, 20, 30, 40, 50, 60}, {1, 2, 3})},
     0, false, {}, 1e-4, "the pixels encode_png wrote"},
    {"DecodePng", {Tensor::fromStrings({png::encode(kGray, 2, 1, 1)}, {})}, {{"channels", int64_t{3}}},
     {U8({1, 1, 1, 255, 255, 255}, {1, 2, 3})}, 0, false, {}, 1e-4, "grey replicated into RGB"},
    {"AudioSummaryV2", {F32({0.5f, -1.0f}, {1, 2}), F32({8000}, {})}, {{"tag", std::string("snd")}},
     {bytes(summary::audio("snd/audio/0", 8000, 1, 2, wav::encode(kClip, 2, 1, 8000)))}, 0, false, {}, 1e-4,
     "[batch, frames]: one channel, tag/audio/i"},
    {"EncodeWav", {F32({0.5f, -1.0f}, {2, 1}), I32({8000}, {})}, {}, {}, 0, false},
    {"MergeSummary", {U8({1, 2}), U8({3})}, {}, {U8({1, 2, 3})}, 0, false, {}, 1e-4, "serialized Summaries concatenate"},
});

TEST_CASE("PNG files: signature, IHDR for the colour type, chunk CRCs, one IDAT of filtered rows", "[engine]") {
  const std::string p = png::encode(kRgb, 2, 1, 3);
  REQUIRE(p.size() > 8 + 25 + 12 + 12);
  CHECK(p.substr(0, 8) == std::string("\x89PNG\r\n\x1a\n", 8));
  // IHDR: length 13, width 2, height 1, depth 8, colour type 2 (RGB), deflate, filter 0, no interlace.
  CHECK(p.substr(8, 8 + 13) == std::string("\0\0\0\x0dIHDR\0\0\0\x02\0\0\0\x01\x08\x02\0\0\0", 21));
  CHECK(p.substr(p.size() - 12) == std::string("\0\0\0\0IEND\xae\x42\x60\x82", 12));  // IEND's fixed CRC
  CHECK(png::encode(kGray, 1, 2, 1)[8 + 8 + 9] == 0);  // grayscale
  CHECK(png::encode(kRgb, 1, 1, 4)[8 + 8 + 9] == 6);   // RGBA
}

TEST_CASE("WAV files: RIFF header, 16-bit PCM format chunk, samples rounded from x * 32768 and clamped", "[engine]") {
  const float samples[] = {0.0f, 0.5f, -1.0f, 2.0f, -0.25f, 1.0f};
  const std::string w = wav::encode(samples, 3, 2, 8000);
  REQUIRE(w.size() == 44 + 12);
  CHECK(w.substr(0, 12) == std::string("RIFF\x30\0\0\0WAVE", 12));
  // fmt: size 16, PCM, 2 channels, 8000 Hz, 32000 bytes/s, 4 bytes/frame, 16 bits.
  CHECK(w.substr(12, 24) == std::string("fmt \x10\0\0\0\x01\0\x02\0\x40\x1f\0\0\x00\x7d\0\0\x04\0\x10\0", 24));
  CHECK(w.substr(36, 8) == std::string("data\x0c\0\0\0", 8));
  // 0, 16384, -32768, 32767 (clamped), -8192, 32767 (clamped)
  CHECK(w.substr(44) == std::string("\0\0\x00\x40\x00\x80\xff\x7f\x00\xe0\xff\x7f", 12));
}

TEST_CASE("AudioSummaryV2 and EncodeWav check ranks, dtypes and a known rate in the shape function", "[engine][shape]") {
  CHECK_THAT(infer("AudioSummaryV2", "[2];[]").error, Catch::Contains("Tensor must be 3-D or 2-D, got: [2]"));
  CHECK_THAT(infer("AudioSummaryV2", "[1,2];[2]").error, Catch::Contains("Shape must be rank 0 but is rank 1"));
  CHECK_THAT(infer("AudioSummaryV2", "float64:[1,2];[]").error, Catch::Contains("has type float64 that does not match"));
  CHECK(infer("AudioSummaryV2", "[?,100,2];[]").ok);
  CHECK_THAT(infer("EncodeWav", "[2];int32:[]").error, Catch::Contains("Shape must be rank 2 but is rank 1"));
  CHECK_THAT(infer("EncodeWav", "[2,1];[]").error, Catch::Contains("Input 'sample_rate' of 'EncodeWav' Op has type float32"));
}

TEST_CASE("ImageSummary and EncodePng check shapes and dtypes in the shape function", "[engine][shape]") {
  CHECK_THAT(infer("ImageSummary", "[2,3]").error, Catch::Contains("Tensor must be 4-D with last dim 1, 3, or 4, not [2,3]"));
  CHECK_THAT(infer("ImageSummary", "[?,28,28,2]").error, Catch::Contains("not [?,28,28,2]"));
  CHECK(infer("ImageSummary", "[?,28,28,1]").ok);
  CHECK(infer("ImageSummary", "?").ok);
  CHECK_THAT(infer("ImageSummary", "int32:[1,2,2,1]").error, Catch::Contains("has DataType int32 not in list"));
  CHECK_THAT(infer("EncodePng", "uint8:[2,2]").error, Catch::Contains("Shape must be rank 3 but is rank 2"));
  CHECK_THAT(infer("EncodePng", "uint8:[2,2,5]").error, Catch::Contains("image must have 1, 2, 3, or 4 channels, got 5"));
  CHECK_THAT(infer("DecodePng", "int32:[]").error, Catch::Contains("has DataType int32 not in list of allowed values: string"));
  CHECK_THAT(infer("DecodePng", "string:[2]").error, Catch::Contains("Shape must be rank 0 but is rank 1"));
}

TEST_CASE("PNG decoding undoes every row filter and refuses what is not a PNG", "[engine]") {
  // A 3x4 RGB PNG whose rows use the Sub, Up, Average and Paeth filters (made with Python's zlib;
  // Pillow decodes it to the same pixels: 5, 12, ..., 250, steps of 7).
  const std::string filtered(
      "\x89\x50\x4e\x47\x0d\x0a\x1a\x0a\x00\x00\x00\x0d\x49\x48\x44\x52\x00\x00\x00\x03\x00\x00\x00\x04\x08\x02"
      "\x00\x00\x00\xc4\x4f\x12\x50\x00\x00\x00\x1d\x49\x44\x41\x54\x78\x9c\x63\x64\xe5\x11\x16\x05\x03\x26\x7b"
      "\x18\x60\x4e\x4c\xcd\xd0\x02\x03\x16\x20\x0f\x22\x0b\x00\x78\x36\x06\x49\x83\x05\xf7\x23\x00\x00\x00\x00"
      "\x49\x45\x4e\x44\xae\x42\x60\x82",
      86);
  const png::Image f = png::decode(filtered, 0);
  REQUIRE(f.pixels.size() == 36);
  for (size_t i = 0; i < 36; ++i) CHECK(int(f.pixels[i]) == 5 + 7 * int(i));
  const uint8_t px[] = {10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120};
  const std::string ok = png::encode(px, 2, 2, 3);
  const png::Image a = png::decode(ok, 0);
  CHECK(a.width == 2);
  CHECK(a.height == 2);
  CHECK(a.channels == 3);
  CHECK(std::vector<uint8_t>(px, px + 12) == a.pixels);
  const png::Image g = png::decode(ok, 1);
  REQUIRE(g.pixels.size() == 4);
  CHECK(int(g.pixels[0]) == 18);  // 0.299 * 10 + 0.587 * 20 + 0.114 * 30 = 18.2
  CHECK_THROWS_WITH(png::decode("GIF89a", 0), "Invalid PNG header, data size 6");
  std::string broken = ok;
  broken[broken.size() - 20] ^= 0x55;  // inside the zlib stream
  CHECK_THROWS_WITH(png::decode(broken, 0), Catch::Contains("Invalid PNG data"));
}

TEST_CASE("CRC32C and TFRecord framing follow TensorFlow's record format", "[engine]") {
  CHECK(summary::crc32c("123456789") == 0xE3069283u);  // the CRC-32C check value
  const std::string rec = summary::record("abc");
  REQUIRE(rec.size() == 8 + 4 + 3 + 4);
  CHECK(rec.substr(0, 8) == std::string("\x03\0\0\0\0\0\0\0", 8));
  CHECK(rec.substr(12, 3) == "abc");
  const uint32_t want = summary::maskedCrc(summary::crc32c("abc"));
  uint32_t got = 0;
  for (int i = 0; i < 4; ++i) got |= static_cast<uint32_t>(static_cast<unsigned char>(rec[15 + static_cast<size_t>(i)])) << (8 * i);
  CHECK(got == want);
}

TEST_CASE("an Event carries its wall time, step and payload field", "[engine]") {
  const std::string e = summary::event(1.0, 3, 5, "xy");
  // wall_time (field 1, fixed64) 1.0, step (field 2, varint) 3, summary (field 5, bytes) "xy"
  CHECK(e == std::string("\x09\0\0\0\0\0\0\xf0\x3f\x10\x03\x2a\x02xy", 15));
}
