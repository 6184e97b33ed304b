// tf.summary and FileWriter write real TensorBoard event files: TFRecord framing with valid
// CRC32Cs, the file_version event first, then the graph and one event per add_summary, with the
// tags the program gave; TF2's create_file_writer + tf.summary.scalar(step=) the same. Image
// summaries' PNGs are decoded here (zlib's inflate and crc32) and their pixels compared. Abstract
// mode writes nothing.
#include <zlib.h>

#include <cstring>
#include <filesystem>
#include <limits>
#include <fstream>
#include <map>
#include <sstream>

#include "TfTestSupport.h"
#include "engine/runtime/SummaryProto.h"

using namespace tlens;
using namespace tlens::tf;
using namespace tlens::tf::testing;
using interp::Mode;

namespace {


// The records of the only events file in `dir`; fails on a bad length or CRC.
std::vector<std::string> readRecords(const std::string& dir) {
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(dir)) files.push_back(e.path().string());
  REQUIRE(files.size() == 1);
  CHECK(std::filesystem::path(files[0]).filename().string().rfind("events.out.tfevents.", 0) == 0);
  std::ifstream f(files[0], std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  const std::string data = ss.str();
  auto le32 = [&](size_t at) {
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v |= static_cast<uint32_t>(static_cast<unsigned char>(data[at + static_cast<size_t>(i)])) << (8 * i);
    return v;
  };
  std::vector<std::string> records;
  size_t at = 0;
  while (at < data.size()) {
    REQUIRE(at + 12 <= data.size());
    uint64_t len = 0;
    for (int i = 0; i < 8; ++i) len |= static_cast<uint64_t>(static_cast<unsigned char>(data[at + static_cast<size_t>(i)])) << (8 * i);
    CHECK(le32(at + 8) == summary::maskedCrc(summary::crc32c(data.substr(at, 8))));
    REQUIRE(at + 16 + len <= data.size());
    const std::string rec = data.substr(at + 12, len);
    CHECK(le32(at + 12 + len) == summary::maskedCrc(summary::crc32c(rec)));
    records.push_back(rec);
    at += 16 + len;
  }
  return records;
}

// One field of a protobuf message: a varint's value or a length-delimited field's bytes.
struct Field {
  uint64_t num = 0;
  uint64_t varint = 0;
  std::string bytes;
};

uint64_t readVarint(const std::string& b, size_t& at) {
  uint64_t v = 0;
  for (int shift = 0; at < b.size(); shift += 7) {
    const auto ch = static_cast<unsigned char>(b[at++]);
    v |= static_cast<uint64_t>(ch & 0x7f) << shift;
    if (ch < 0x80) break;
  }
  return v;
}

std::vector<Field> fields(const std::string& b) {
  std::vector<Field> out;
  size_t at = 0;
  while (at < b.size()) {
    const uint64_t key = readVarint(b, at);
    Field f;
    f.num = key >> 3;
    switch (key & 7) {
      case 0: f.varint = readVarint(b, at); break;
      case 1: f.bytes = b.substr(at, 8); at += 8; break;
      case 5: f.bytes = b.substr(at, 4); at += 4; break;
      case 2: {
        const uint64_t n = readVarint(b, at);
        REQUIRE(at + n <= b.size());
        f.bytes = b.substr(at, n);
        at += n;
        break;
      }
      default: FAIL("wire type " << (key & 7));
    }
    out.push_back(std::move(f));
  }
  return out;
}

std::vector<Field> fieldsNumbered(const std::string& b, uint64_t num) {
  std::vector<Field> out;
  for (Field& f : fields(b))
    if (f.num == num) out.push_back(std::move(f));
  return out;
}

// The Summary.Values of every summary event (Event field 5), in order.
std::vector<std::string> summaryValues(const std::vector<std::string>& records) {
  std::vector<std::string> values;
  for (const std::string& rec : records)
    for (const Field& summary : fieldsNumbered(rec, 5))
      for (const Field& v : fieldsNumbered(summary.bytes, 1)) values.push_back(v.bytes);
  return values;
}

struct Png {
  uint32_t width = 0, height = 0;
  int colourType = -1;
  std::vector<int> pixels;  ///< row-major, every channel
};

uint32_t be32(const std::string& s, size_t at) {
  uint32_t v = 0;
  for (size_t i = 0; i < 4; ++i) v = (v << 8) | static_cast<unsigned char>(s[at + i]);
  return v;
}

// Decodes an 8-bit PNG of filter-type-0 rows, checking its signature and every chunk's CRC.
Png decodePng(const std::string& p) {
  REQUIRE(p.size() > 8);
  REQUIRE(p.substr(0, 8) == std::string("\x89PNG\r\n\x1a\n", 8));
  Png out;
  std::string idat;
  size_t at = 8;
  while (at + 12 <= p.size()) {
    const uint32_t len = be32(p, at);
    const std::string type = p.substr(at + 4, 4);
    REQUIRE(at + 12 + len <= p.size());
    const std::string data = p.substr(at + 8, len);
    const auto* crcOf = reinterpret_cast<const Bytef*>(p.data() + at + 4);
    CHECK(be32(p, at + 8 + len) == static_cast<uint32_t>(crc32(crc32(0L, Z_NULL, 0), crcOf, 4 + len)));
    if (type == "IHDR") {
      out.width = be32(data, 0);
      out.height = be32(data, 4);
      CHECK(data[8] == 8);  // bit depth
      out.colourType = data[9];
    } else if (type == "IDAT") {
      idat += data;
    }
    at += 12 + len;
  }
  CHECK(at == p.size());
  const std::map<int, size_t> channels = {{0, 1}, {2, 3}, {4, 2}, {6, 4}};
  REQUIRE(channels.count(out.colourType) == 1);
  const size_t row = out.width * channels.at(out.colourType);
  std::string raw((row + 1) * out.height, '\0');
  uLongf rawSize = raw.size();
  REQUIRE(uncompress(reinterpret_cast<Bytef*>(raw.data()), &rawSize, reinterpret_cast<const Bytef*>(idat.data()),
                     idat.size()) == Z_OK);
  REQUIRE(rawSize == raw.size());
  for (size_t y = 0; y < out.height; ++y) {
    CHECK(raw[y * (row + 1)] == 0);  // filter type None
    for (size_t i = 0; i < row; ++i) out.pixels.push_back(static_cast<unsigned char>(raw[y * (row + 1) + 1 + i]));
  }
  return out;
}

// A Summary.Value's tag and its field `num` (a message).
std::string tagOf(const std::string& value) { return fieldsNumbered(value, 1).at(0).bytes; }
std::string fieldOf(const std::string& msg, uint64_t num) {
  const auto fs = fieldsNumbered(msg, num);
  REQUIRE(fs.size() == 1);
  return fs[0].bytes;
}

}  // namespace

TEST_CASE("FileWriter writes the graph and the merged summaries to a TensorBoard events file", "[tf]") {
  const std::string dir = freshTempDir("events-tf1");
  TfRun r = runTf(R"(
import tensorflow as tf
w = tf.Variable(tf.ones([10]), name="weights")
loss = tf.reduce_sum(w * w)
tf.summary.scalar("loss", loss)
tf.summary.histogram("weights_hist", w)
merged = tf.summary.merge_all()
with tf.Session() as sess:
    writer = tf.summary.FileWriter(")" + dir + R"(", sess.graph)
    sess.run(tf.global_variables_initializer())
    for step in range(3):
        writer.add_summary(sess.run(merged), step)
    writer.close()
)", Mode::Concrete, ApiStyle::Graph);
  INFO(r.err);
  REQUIRE(r.status == 0);
  const std::vector<std::string> records = readRecords(dir);
  REQUIRE(records.size() == 5);  // file_version, graph, three summaries
  CHECK(records[0].find("brain.Event:2") != std::string::npos);
  CHECK(records[1].find("weights") != std::string::npos);  // a node of the graph
  for (size_t i = 2; i < 5; ++i) {
    CHECK(records[i].find("loss") != std::string::npos);
    CHECK(records[i].find("weights_hist") != std::string::npos);
  }
  // Summary{value{tag: "loss", simple_value: 10.0}} in the last event.
  const std::string scalar = summary::scalar("loss", 10.0);
  CHECK(records[4].find(scalar.substr(2)) != std::string::npos);
}

TEST_CASE("a histogram counts each value in TensorFlow's default bucket for it", "[tf]") {
  // The bucket search was rewritten (a guess from the buckets' growth, then corrected): it must
  // give what a binary search over the limits gives, at the limits themselves, at 0, for tiny,
  // huge, negative and infinite values.
  std::vector<double> pos;
  for (double v = 1e-12; v < 1e20; v *= 1.1) pos.push_back(v);
  pos.push_back(1e20);
  std::vector<double> limits;
  for (auto it = pos.rbegin(); it != pos.rend(); ++it) limits.push_back(-*it);
  limits.push_back(0.0);
  limits.insert(limits.end(), pos.begin(), pos.end());
  limits.push_back(std::numeric_limits<double>::max());

  std::vector<double> xs = {0.0, 1e-13, -1e-13, 1e-12, -1e-12, 1.0, -1.0, 0.5, 3e-7, -2.5e5, 1e19, 1e21, -1e25,
                            std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()};
  for (size_t i = 0; i < limits.size(); i += 37) {  // limits and their neighbours
    xs.push_back(limits[i]);
    xs.push_back(std::nextafter(limits[i], 0.0));
    xs.push_back(std::nextafter(limits[i], limits[i] < 0 ? -1e300 : 1e300));
  }
  for (int i = 0; i < 2000; ++i) xs.push_back(std::ldexp(1.0 + i % 13 * 0.071, i % 120 - 60) * (i % 3 ? 1 : -1));
  Tensor t(DType::Float64, ConcreteShape{static_cast<int64_t>(xs.size())});
  for (size_t i = 0; i < xs.size(); ++i) t.data<double>()[i] = xs[i];

  std::map<double, double> expected;  // limit -> count
  for (double x : xs) {
    size_t b = static_cast<size_t>(std::lower_bound(limits.begin(), limits.end(), x) - limits.begin());
    expected[limits[std::min(b, limits.size() - 1)]] += 1;
  }
  const std::string value = fieldsNumbered(summary::histogram("h", t).substr(0), 1).at(0).bytes;
  const std::string histo = fieldOf(value, 5);
  auto doubles = [](const std::string& packed) {
    std::vector<double> out(packed.size() / 8);
    std::memcpy(out.data(), packed.data(), out.size() * 8);
    return out;
  };
  const std::vector<double> outLimits = doubles(fieldOf(histo, 6)), outCounts = doubles(fieldOf(histo, 7));
  REQUIRE(outLimits.size() == outCounts.size());
  std::map<double, double> got;
  for (size_t i = 0; i < outLimits.size(); ++i)
    if (outCounts[i] > 0) got[outLimits[i]] = outCounts[i];
  CHECK(got == expected);
}

TEST_CASE("FileWriters made in a loop each get their own events file, numbered after the first", "[tf]") {
  // The cookbook's tensorboard program makes a FileWriter per training step: the names were
  // base.1.2.3..., until the file name was too long.
  const std::string dir = freshTempDir("events-loop");
  TfRun r = runTf(R"(
import tensorflow as tf
for step in range(40):
    w = tf.summary.FileWriter(")" + dir + R"(")
    w.close()
)", Mode::Concrete, ApiStyle::Graph);
  INFO(r.err);
  REQUIRE(r.status == 0);
  size_t files = 0, longest = 0, shortest = 1000;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    ++files;
    longest = std::max(longest, e.path().filename().string().size());
    shortest = std::min(shortest, e.path().filename().string().size());
  }
  CHECK(files == 40);
  CHECK(longest <= shortest + 3);  // base and base.1 ... base.39 (two seconds apart at most: base.NN)
}

TEST_CASE("TF2 summaries go to the default writer at the given step", "[tf]") {
  const std::string dir = freshTempDir("events-tf2");
  TfRun r = runTf(R"(
import tensorflow as tf
writer = tf.summary.create_file_writer(")" + dir + R"(")
with writer.as_default():
    for step in range(2):
        tf.summary.scalar("accuracy", 0.5 + step, step=step)
no_writer = tf.summary.scalar("accuracy", 1.0, step=0)
)", Mode::Concrete, ApiStyle::Eager);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("no_writer") == "False");
  const std::vector<std::string> records = readRecords(dir);
  REQUIRE(records.size() == 3);
  CHECK(records[2].find(summary::scalar("accuracy", 1.5).substr(2)) != std::string::npos);
}

TEST_CASE("abstract mode writes no events file", "[tf]") {
  const std::string dir = freshTempDir("events-abstract");
  TfRun r = runTf("import tensorflow as tf\nx = tf.constant(1.0)\ntf.summary.scalar('x', x)\n"
                  "m = tf.summary.merge_all()\nwith tf.Session() as sess:\n"
                  "    w = tf.summary.FileWriter('" + dir + "', sess.graph)\n    w.add_summary(sess.run(m), 0)\n",
                  Mode::Abstract, ApiStyle::Graph);
  CHECK(r.diagnostics() == "");
  CHECK(std::filesystem::is_empty(dir));
}

TEST_CASE("tf.summary.image in a graph writes one PNG per image, float images scaled as TensorFlow does", "[tf][summary]") {
  const std::string dir = freshTempDir("events-image");
  TfRun r = runTf(R"(
import numpy as np
import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 2, 2, 1])
tf.summary.image("input", x, 3)
rgb = tf.constant(np.arange(12).reshape(1, 2, 2, 3), dtype=tf.uint8)
tf.summary.image("rgb", rgb, max_outputs=1)
tf.summary.text("note", tf.constant("hello *tensorboard*"))
merged = tf.summary.merge_all()
images = np.array([[-2, 0, 1, 2], [0, 1, 2, 4], [np.nan, 1, 2, 4], [5, 5, 5, 5]], np.float32).reshape(4, 2, 2, 1)
with tf.Session() as sess:
    writer = tf.summary.FileWriter(")" + dir + R"(")
    writer.add_summary(sess.run(merged, {x: images}), 7)
    writer.close()
)", Mode::Concrete, ApiStyle::Graph);
  INFO(r.err);
  REQUIRE(r.status == 0);
  const std::vector<std::string> values = summaryValues(readRecords(dir));
  REQUIRE(values.size() == 5);  // three of the four images, the RGB one, the text
  const std::vector<std::string> tags = {"input/image/0", "input/image/1", "input/image/2", "rgb/image", "note"};
  for (size_t i = 0; i < tags.size(); ++i) CHECK(tagOf(values[i]) == tags[i]);
  // A negative value: v * 127 / max|v| + 128; else v * 255 / max; truncated; NaN pixels opaque red.
  const std::vector<std::vector<int>> want = {{1, 128, 191, 255}, {0, 63, 127, 255}, {255, 63, 127, 255}};
  for (size_t i = 0; i < 3; ++i) {
    const std::string image = fieldOf(values[i], 4);  // Value.image
    CHECK(fieldsNumbered(image, 1).at(0).varint == 2);  // height
    CHECK(fieldsNumbered(image, 2).at(0).varint == 2);  // width
    CHECK(fieldsNumbered(image, 3).at(0).varint == 1);  // colorspace
    const Png png = decodePng(fieldOf(image, 4));
    CHECK(png.width == 2);
    CHECK(png.height == 2);
    CHECK(png.colourType == 0);
    CHECK(png.pixels == want[i]);
  }
  const Png rgbPng = decodePng(fieldOf(fieldOf(values[3], 4), 4));
  CHECK(rgbPng.colourType == 2);
  CHECK(rgbPng.pixels == std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
  // The text plugin's string tensor: metadata plugin "text", DT_STRING, the string.
  const std::string meta = fieldOf(values[4], 9);
  CHECK(fieldOf(fieldOf(meta, 1), 1) == "text");
  const std::string tensor = fieldOf(values[4], 8);
  CHECK(fieldsNumbered(tensor, 1).at(0).varint == 7);
  CHECK(fieldOf(tensor, 8) == "hello *tensorboard*");
}

TEST_CASE("TF2 tf.summary.image scales [0, 1] floats to uint8 and writes the images plugin's string tensor", "[tf][summary]") {
  const std::string dir = freshTempDir("events-image-tf2");
  TfRun r = runTf(R"(
import numpy as np
import tensorflow as tf
writer = tf.summary.create_file_writer(")" + dir + R"(")
data = np.array([0.0, 0.5, 1.0, 1.5, -0.2, 0.25], np.float32).reshape(1, 1, 2, 3)
with writer.as_default():
    wrote = tf.summary.image("sample", data, step=3, max_outputs=2)
    tf.summary.text("log", tf.constant("step three"), step=3)
no_writer = tf.summary.image("sample", data, step=3)
)", Mode::Concrete, ApiStyle::Eager);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("wrote") == "True");
  CHECK(r.repr("no_writer") == "False");
  const std::vector<std::string> values = summaryValues(readRecords(dir));
  REQUIRE(values.size() == 2);
  CHECK(tagOf(values[0]) == "sample");
  CHECK(fieldOf(fieldOf(fieldOf(values[0], 9), 1), 1) == "images");
  const std::vector<Field> strings = fieldsNumbered(fieldOf(values[0], 8), 8);  // TensorProto.string_val
  REQUIRE(strings.size() == 3);  // width, height, one PNG
  CHECK(strings[0].bytes == "2");
  CHECK(strings[1].bytes == "1");
  const Png png = decodePng(strings[2].bytes);
  CHECK(png.colourType == 2);
  // x * 255.5, clipped to [0, 255], truncated.
  CHECK(png.pixels == std::vector<int>{0, 127, 255, 255, 0, 63});
  CHECK(tagOf(values[1]) == "log");
  CHECK(fieldOf(fieldOf(values[1], 8), 8) == "step three");
}

// The 16-bit samples of a WAV file, checking its header: PCM, `channels`, `rate`.
std::vector<int> wavSamples(const std::string& w, int channels, int rate) {
  auto le = [&](size_t at, int bytes) {
    uint32_t v = 0;
    for (int i = 0; i < bytes; ++i) v |= static_cast<uint32_t>(static_cast<unsigned char>(w[at + static_cast<size_t>(i)])) << (8 * i);
    return v;
  };
  REQUIRE(w.size() >= 44);
  CHECK(w.substr(0, 4) == "RIFF");
  CHECK(le(4, 4) == w.size() - 8);
  CHECK(w.substr(8, 8) == "WAVEfmt ");
  CHECK(le(20, 2) == 1);  // PCM
  CHECK(le(22, 2) == static_cast<uint32_t>(channels));
  CHECK(le(24, 4) == static_cast<uint32_t>(rate));
  CHECK(le(34, 2) == 16);
  CHECK(w.substr(36, 4) == "data");
  REQUIRE(le(40, 4) == w.size() - 44);
  std::vector<int> out;
  for (size_t at = 44; at + 2 <= w.size(); at += 2) out.push_back(static_cast<int16_t>(le(at, 2)));
  return out;
}

TEST_CASE("tf.summary.audio writes 16-bit WAVs, in a graph as Summary.Audio and in TF2 as the audio plugin's tensor", "[tf][summary]") {
  const std::string dir1 = freshTempDir("events-audio");
  TfRun r = runTf(R"(
import numpy as np
import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 3, 2])
tf.summary.audio("stereo", x, 8000, max_outputs=1)
tf.summary.audio("mono", tf.constant([[0.0, 0.5, -1.0, 2.0]]), 44100.0)
merged = tf.summary.merge_all()
with tf.Session() as sess:
    writer = tf.summary.FileWriter(")" + dir1 + R"(")
    writer.add_summary(sess.run(merged, {x: np.array([[[0, 0.25], [-0.25, 1], [-1, 0.5]]] * 2, np.float32)}), 1)
)", Mode::Concrete, ApiStyle::Graph);
  INFO(r.err);
  REQUIRE(r.status == 0);
  std::vector<std::string> values = summaryValues(readRecords(dir1));
  REQUIRE(values.size() == 2);
  CHECK(tagOf(values[0]) == "stereo/audio");
  CHECK(tagOf(values[1]) == "mono/audio/0");
  const std::string stereo = fieldOf(values[0], 6);  // Value.audio
  CHECK(fieldsNumbered(stereo, 2).at(0).varint == 2);  // num_channels
  CHECK(fieldsNumbered(stereo, 3).at(0).varint == 3);  // length_frames
  CHECK(fieldOf(stereo, 5) == "audio/wav");
  CHECK(wavSamples(fieldOf(stereo, 4), 2, 8000) == std::vector<int>{0, 8192, -8192, 32767, -32768, 16384});
  CHECK(wavSamples(fieldOf(fieldOf(values[1], 6), 4), 1, 44100) == std::vector<int>{0, 16384, -32768, 32767});

  const std::string dir2 = freshTempDir("events-audio-tf2");
  TfRun e = runTf(R"(
import numpy as np
import tensorflow as tf
writer = tf.summary.create_file_writer(")" + dir2 + R"(")
with writer.as_default():
    tf.summary.audio("clip", np.array([[[0.5], [-0.5]], [[1.0], [0.0]], [[0.1], [0.1]]], np.float32), 16000, step=2,
                     max_outputs=2)
)", Mode::Concrete, ApiStyle::Eager);
  INFO(e.err);
  REQUIRE(e.status == 0);
  values = summaryValues(readRecords(dir2));
  REQUIRE(values.size() == 1);
  CHECK(tagOf(values[0]) == "clip");
  const std::string plugin = fieldOf(fieldOf(values[0], 9), 1);
  CHECK(fieldOf(plugin, 1) == "audio");
  CHECK(fieldOf(plugin, 2) == std::string("\x10\x0b", 2));  // AudioPluginData.encoding = WAV
  const std::string tensor = fieldOf(values[0], 8);
  const std::vector<Field> dims = fieldsNumbered(fieldOf(tensor, 2), 2);
  REQUIRE(dims.size() == 2);  // [2, 2]: (wav, label) per clip
  CHECK(fieldsNumbered(dims[0].bytes, 1).at(0).varint == 2);
  CHECK(fieldsNumbered(dims[1].bytes, 1).at(0).varint == 2);
  const std::vector<Field> strings = fieldsNumbered(tensor, 8);
  REQUIRE(strings.size() == 4);
  CHECK(wavSamples(strings[0].bytes, 1, 16000) == std::vector<int>{16384, -16384});
  CHECK(strings[1].bytes == "");
  CHECK(wavSamples(strings[2].bytes, 1, 16000) == std::vector<int>{32767, 0});
  CHECK(strings[3].bytes == "");
}

TEST_CASE("image summaries check their tensor when the graph is built, and abstract mode encodes nothing (audio and text neither)", "[tf][summary]") {
  const std::string dir = freshTempDir("events-image-abstract");
  TfRun r = runTf("import numpy as np\nimport tensorflow as tf\nx = tf.placeholder(tf.float32, [None, 28, 28, 1])\n"
                  "s = tf.summary.image('input', x, 3)\nt = tf.summary.text('t', tf.constant('a'))\n"
                  "a = tf.summary.audio('a', tf.zeros([1, 10]), 8000)\n"
                  "m = tf.summary.merge_all()\n"
                  "with tf.Session() as sess:\n    w = tf.summary.FileWriter('" + dir + "', sess.graph)\n"
                  "    w.add_summary(sess.run(m, {x: np.zeros((2, 28, 28, 1), np.float32)}), 0)\n",
                  Mode::Abstract, ApiStyle::Graph);
  CHECK(r.diagnostics() == "");
  CHECK(r.type("s") == "uint8[?]");
  CHECK(r.type("t") == "uint8[?]");
  CHECK(r.type("a") == "uint8[?]");
  CHECK(std::filesystem::is_empty(dir));
  TfRun eager = runTf("import numpy as np\nimport tensorflow as tf\nw = tf.summary.create_file_writer('" + dir + "')\n"
                      "with w.as_default():\n    tf.summary.image('i', np.zeros((2, 4, 4, 3), np.float32), step=1)\n"
                      "    tf.summary.audio('s', np.zeros((2, 40, 1), np.float32), 8000, step=1)\n",
                      Mode::Abstract, ApiStyle::Eager);
  CHECK(eager.diagnostics() == "");
  CHECK(std::filesystem::is_empty(dir));
  TfRun bad = runTf(R"(
import tensorflow as tf
errors = []
for make in [lambda: tf.summary.image("a", tf.zeros([2, 3])), lambda: tf.summary.image("b", tf.zeros([1, 2, 2, 2])),
             lambda: tf.summary.text("c", tf.zeros([2]))]:
    try:
        make()
        errors.append(None)
    except ValueError as e:
        errors.append(str(e).split(" for ")[0])
)", Mode::Concrete, ApiStyle::Graph);
  INFO(bad.err);
  REQUIRE(bad.status == 0);
  CHECK(bad.repr("errors") == "['Tensor must be 4-D with last dim 1, 3, or 4, not [2,3]', "
                              "'Tensor must be 4-D with last dim 1, 3, or 4, not [1,2,2,2]', "
                              "'Expected tensor Fill_2:0 to have dtype string, got float32']");
}

TEST_CASE("tf.image.decode_png decodes what encode_png and other writers make, converting channels as TensorFlow", "[tf][summary]") {
  // tiny16: a 3x2 16-bit grey PNG and tiny1 a 1-bit one, both written by Pillow (expected rows from
  // Pillow's decoding: high bytes, and 1-bit grey scaled to 0/255).
  TfRun r = runTf(R"(
import numpy as np
import tensorflow as tf
tiny16 = b'\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x03\x00\x00\x00\x02\x10\x00\x00\x00\x00\xe8\x8f\xe5\x85\x00\x00\x00\x16IDATx\x9cc```~\xf1\xff?\x03#\x03\x13\xc3\x1c\x07\x00\x1b\xb4\x03\xc9\x9b\xeev\xf3\x00\x00\x00\x00IEND\xaeB`\x82'
tiny1 = b'\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x03\x00\x00\x00\x02\x01\x00\x00\x00\x00\xb5\x0f[\xb7\x00\x00\x00\x0cIDATx\x9ccX\xc0t\x00\x00\x02\xa8\x01c\x9a\xeeXt\x00\x00\x00\x00IEND\xaeB`\x82'
img = (np.arange(18) * 10).astype(np.uint8).reshape(2, 3, 3)
sess = tf.Session()
data = sess.run(tf.image.encode_png(img))
d0 = tf.image.decode_png(data)
d4 = tf.image.decode_png(data, channels=4)
same = sess.run(d0).tolist() == img.tolist()
rgba = sess.run(d4)[0, 1].tolist()
grey = sess.run(tf.image.decode_png(data, channels=1))[1, 2].tolist()
g16 = sess.run(tf.image.decode_png(tiny16))[:, :, 0].tolist()
g1 = sess.run(tf.io.decode_png(tiny1, channels=3))[:, :, 1].tolist()
try:
    sess.run(tf.image.decode_png(b"not a png"))
    err = "none"
except tf.errors.InvalidArgumentError as e:
    err = str(e).splitlines()[0]
)", Mode::Concrete, ApiStyle::Graph);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.type("d0") == "uint8[?, ?, ?]");
  CHECK(r.type("d4") == "uint8[?, ?, 4]");
  CHECK(r.repr("same") == "True");
  CHECK(r.repr("rgba") == "[30, 40, 50, 255]");
  CHECK(r.repr("grey") == "[158]");  // 0.299 * 150 + 0.587 * 160 + 0.114 * 170
  CHECK(r.repr("g16") == "[[0, 3, 255], [1, 2, 156]]");
  CHECK(r.repr("g1") == "[[255, 0, 255], [0, 255, 255]]");
  CHECK(r.repr("err") == "'Invalid PNG header, data size 9'");

  TfRun a = runTf("import tensorflow as tf\nx = tf.image.decode_png(tf.constant(['a', 'b']), channels=3)\n",
                  Mode::Abstract, ApiStyle::Graph);
  CHECK_THAT(a.diagnostics(), Catch::Contains("Shape must be rank 0 but is rank 1"));
}

TEST_CASE("the embedding projector's config is written as TensorBoard's projector_config.pbtxt", "[tf]") {
  // easy-tensorflow's embedding programs (TF1's contrib module); tensorboard's own module (TF2)
  // takes the log directory instead of a writer.
  const std::string dir = freshTempDir("projector");
  TfRun r = runTf(R"(
import tensorflow as tf
from tensorflow.contrib.tensorboard.plugins import projector
writer = tf.summary.FileWriter(")" + dir + R"(")
config = projector.ProjectorConfig()
e = config.embeddings.add()
e.tensor_name = "fc1_embedding:0"
e.metadata_path = "metadata.tsv"
e.sprite.image_path = "sprite_images.png"
e.sprite.single_image_dim.extend([28, 28])
projector.visualize_embeddings(writer, config)
text = open(")" + dir + R"(/projector_config.pbtxt").read()
c2 = projector.ProjectorConfig()
c2.embeddings.add(tensor_name="emb")
projector.visualize_embeddings(")" + dir + R"(/tf2", c2)
text2 = open(")" + dir + R"(/tf2/projector_config.pbtxt").read()
try:
    e.sprite = None
    bad = None
except AttributeError as err:
    bad = str(err)
)", Mode::Concrete, ApiStyle::Graph);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("text") ==
        "'embeddings {\\n  tensor_name: \"fc1_embedding:0\"\\n  metadata_path: \"metadata.tsv\"\\n  sprite {\\n"
        "    image_path: \"sprite_images.png\"\\n    single_image_dim: 28\\n    single_image_dim: 28\\n  }\\n}\\n'");
  CHECK(r.repr("text2") == "'embeddings {\\n  tensor_name: \"emb\"\\n}\\n'");
  CHECK(r.repr("bad") == "'Assignment not allowed to field \"sprite\" in protocol message object.'");
}

TEST_CASE("FileWriter takes TF1's deprecated GraphDef, and TF2's tf.summary.graph writes a function's graph", "[tf]") {
  const std::string dir = freshTempDir("events-graphdef");
  TfRun r = runTf(R"(
import tensorflow as tf
a = tf.constant(1.0, name="a")
b = tf.add(a, 2.0, name="b_node")
with tf.Session() as sess:
    w = tf.summary.FileWriter(")" + dir + R"(", graph_def=sess.graph_def)
    w.add_graph(tf.get_default_graph().as_graph_def())
    try:
        w.add_graph(sess.graph, graph_def=sess.graph_def)
        both = None
    except ValueError as e:
        both = str(e)
    try:
        w.add_graph("graph")
        wrong = None
    except TypeError as e:
        wrong = str(e)
names = [n.name for n in sess.graph_def.node]
)", Mode::Concrete, ApiStyle::Graph);
  INFO(r.err);
  REQUIRE(r.status == 0);
  const std::vector<std::string> records = readRecords(dir);
  REQUIRE(records.size() == 3);  // file_version and two graphs
  CHECK(records[1].find("b_node") != std::string::npos);
  CHECK(records[2].find("b_node") != std::string::npos);
  CHECK(r.repr("both") == "'Please pass only graph, or graph_def (deprecated), but not both.'");
  CHECK(r.repr("wrong") == "'The passed graph must be an instance of `Graph` or the deprecated `GraphDef`'");
  CHECK(r.repr("names").find("'b_node'") != std::string::npos);

  const std::string dir2 = freshTempDir("events-graph-v2");
  TfRun v2 = runTf(R"(
import tensorflow as tf
@tf.function
def simple_add(a, b):
    return tf.add(a, b, name="addition")
a = tf.constant(2, name="a")
no_writer = bool(tf.summary.graph(simple_add.get_concrete_function(a, a).graph).numpy())
writer = tf.summary.create_file_writer(")" + dir2 + R"(")
with writer.as_default():
    wrote = bool(tf.summary.graph(simple_add.get_concrete_function(a, a).graph).numpy())
    try:
        tf.summary.graph("g")
        bad = None
    except ValueError as e:
        bad = str(e)
)", Mode::Concrete, ApiStyle::Eager);
  INFO(v2.err);
  REQUIRE(v2.status == 0);
  CHECK(v2.repr("no_writer") == "False");
  CHECK(v2.repr("wrote") == "True");
  CHECK(v2.repr("bad") == "\"Argument 'graph_data' is not tf.Graph or tf.compat.v1.GraphDef. Received graph_data=g of type str.\"");
  const std::vector<std::string> r2 = readRecords(dir2);
  REQUIRE(r2.size() == 2);
  CHECK(r2[1].find("addition") != std::string::npos);
}
