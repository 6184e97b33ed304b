#include "engine/runtime/SummaryProto.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "engine/core/Dispatch.h"
#include "engine/core/Tensor.h"
#include "engine/graph/Graph.h"

namespace tlens::summary {

namespace {

void varint(std::string& out, uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
}

void key(std::string& out, int field, int wireType) { varint(out, (static_cast<uint64_t>(field) << 3) | static_cast<uint64_t>(wireType)); }

void bytesField(std::string& out, int field, const std::string& data) {
  key(out, field, 2);
  varint(out, data.size());
  out += data;
}

void doubleField(std::string& out, int field, double v) {
  key(out, field, 1);
  char b[8];
  std::memcpy(b, &v, 8);  // little-endian hosts only (x86-64, aarch64)
  out.append(b, 8);
}

void floatField(std::string& out, int field, float v) {
  key(out, field, 5);
  char b[4];
  std::memcpy(b, &v, 4);
  out.append(b, 4);
}

void packedDoubles(std::string& out, int field, const std::vector<double>& vs) {
  std::string body;
  for (double v : vs) {
    char b[8];
    std::memcpy(b, &v, 8);
    body.append(b, 8);
  }
  bytesField(out, field, body);
}

std::string summaryWith(const std::string& value) {
  std::string s;
  bytesField(s, 1, value);  // Summary.value
  return s;
}

// TensorFlow's default histogram buckets: +-1e-12 * 1.1^k up to 1e20, and 0.
const std::vector<double>& bucketLimits() {
  static const std::vector<double> limits = [] {
    std::vector<double> pos;
    for (double v = 1e-12; v < 1e20; v *= 1.1) pos.push_back(v);
    pos.push_back(1e20);
    std::vector<double> all;
    for (auto it = pos.rbegin(); it != pos.rend(); ++it) all.push_back(-*it);
    all.push_back(0.0);
    all.insert(all.end(), pos.begin(), pos.end());
    all.push_back(std::numeric_limits<double>::max());
    return all;
  }();
  return limits;
}

// The first limit >= x (std::lower_bound's answer), found from a guess the limits' geometric
// growth gives, then corrected by a step or two: a weight histogram per training step reads every
// element, and the binary search over 1,550 limits was most of such a step.
size_t bucketOf(const std::vector<double>& limits, double x) {
  if (std::isnan(x)) return 0;  // no limit compares >= NaN as lower_bound's `<` sees it
  const size_t n = limits.size(), zero = (n - 2) / 2;  // -pos..., 0, pos..., DBL_MAX
  const double a = std::fabs(x);
  double k = (a >= 1e-12 && a <= 1e20) ? std::floor(std::log(a * 1e12) / std::log(1.1)) : (a < 1e-12 ? 0.0 : 1e9);
  const double npos = static_cast<double>(zero);
  k = std::min(k, npos - 1);
  size_t g = x > 0 ? zero + 1 + static_cast<size_t>(k) : x < 0 ? zero - 1 - static_cast<size_t>(k) : zero;
  g = std::min(g, n - 1);
  while (g > 0 && limits[g - 1] >= x) --g;
  while (g < n && limits[g] < x) ++g;
  return g;
}

}  // namespace

std::string scalar(const std::string& tag, double value) {
  std::string v;
  bytesField(v, 1, tag);                          // Value.tag
  floatField(v, 2, static_cast<float>(value));  // Value.simple_value
  return summaryWith(v);
}

std::string histogram(const std::string& tag, const Tensor& values) {
  std::vector<double> xs;
  xs.reserve(static_cast<size_t>(values.numElements()));
  dispatchNumeric(values.dtype(), [&](auto zero) {
    using T = decltype(zero);
    const T* p = values.data<T>();
    for (int64_t i = 0; i < values.numElements(); ++i) xs.push_back(static_cast<double>(p[i]));
  });
  const std::vector<double>& limits = bucketLimits();
  std::vector<double> counts(limits.size(), 0.0);
  double mn = xs.empty() ? 0 : xs[0], mx = mn, sum = 0, sq = 0;
  for (double x : xs) {
    mn = std::min(mn, x);
    mx = std::max(mx, x);
    sum += x;
    sq += x * x;
    counts[std::min(bucketOf(limits, x), counts.size() - 1)] += 1;
  }
  // Only the buckets up to the last non-empty one, as TensorFlow writes them.
  std::vector<double> outLimits, outCounts;
  size_t first = 0, last = 0;
  bool any = false;
  for (size_t i = 0; i < counts.size(); ++i)
    if (counts[i] > 0) {
      if (!any) first = i;
      last = i;
      any = true;
    }
  if (any)
    for (size_t i = first; i <= last; ++i) {
      outLimits.push_back(limits[i]);
      outCounts.push_back(counts[i]);
    }
  std::string h;
  doubleField(h, 1, mn);
  doubleField(h, 2, mx);
  doubleField(h, 3, static_cast<double>(xs.size()));
  doubleField(h, 4, sum);
  doubleField(h, 5, sq);
  packedDoubles(h, 6, outLimits);
  packedDoubles(h, 7, outCounts);
  std::string v;
  bytesField(v, 1, tag);
  bytesField(v, 5, h);  // Value.histo
  return summaryWith(v);
}

std::string image(const std::string& tag, int64_t height, int64_t width, int channels, const std::string& png) {
  std::string img;
  key(img, 1, 0);
  varint(img, static_cast<uint64_t>(height));    // Image.height
  key(img, 2, 0);
  varint(img, static_cast<uint64_t>(width));     // Image.width
  key(img, 3, 0);
  varint(img, static_cast<uint64_t>(channels));  // Image.colorspace
  bytesField(img, 4, png);                       // Image.encoded_image_string
  std::string v;
  bytesField(v, 1, tag);
  bytesField(v, 4, img);  // Value.image
  return summaryWith(v);
}

std::string audio(const std::string& tag, float sampleRate, int64_t channels, int64_t frames, const std::string& wav) {
  std::string a;
  floatField(a, 1, sampleRate);  // Audio.sample_rate
  key(a, 2, 0);
  varint(a, static_cast<uint64_t>(channels));  // Audio.num_channels
  key(a, 3, 0);
  varint(a, static_cast<uint64_t>(frames));    // Audio.length_frames
  bytesField(a, 4, wav);                       // Audio.encoded_audio_string
  bytesField(a, 5, "audio/wav");               // Audio.content_type
  std::string v;
  bytesField(v, 1, tag);
  bytesField(v, 6, a);  // Value.audio
  return summaryWith(v);
}

std::string stringTensor(const std::string& tag, const std::string& pluginName, const std::string& pluginContent,
                         const std::string& description, const std::string* strings, const std::vector<int64_t>& shape) {
  std::string plugin;
  bytesField(plugin, 1, pluginName);                          // PluginData.plugin_name
  if (!pluginContent.empty()) bytesField(plugin, 2, pluginContent);  // PluginData.content
  std::string meta;
  bytesField(meta, 1, plugin);                                // SummaryMetadata.plugin_data
  if (!description.empty()) bytesField(meta, 3, description);  // SummaryMetadata.summary_description
  std::string dims;
  int64_t n = 1;
  for (int64_t d : shape) {
    std::string dim;
    if (d != 0) {
      key(dim, 1, 0);
      varint(dim, static_cast<uint64_t>(d));  // Dim.size
    }
    bytesField(dims, 2, dim);  // TensorShapeProto.dim
    n *= d;
  }
  std::string t;
  key(t, 1, 0);
  varint(t, 7);           // TensorProto.dtype: DT_STRING
  bytesField(t, 2, dims);  // TensorProto.tensor_shape
  for (int64_t i = 0; i < n; ++i) bytesField(t, 8, strings[i]);  // TensorProto.string_val
  std::string v;
  bytesField(v, 1, tag);
  bytesField(v, 9, meta);  // Value.metadata
  bytesField(v, 8, t);     // Value.tensor
  return summaryWith(v);
}

std::string graphDef(const Graph& g) {
  std::string out;
  for (const Node& n : g.nodes()) {
    std::string nd;
    bytesField(nd, 1, n.name);
    bytesField(nd, 2, n.type());
    for (const Output& in : n.inputs) bytesField(nd, 3, in.index == 0 ? in.node->name : in.node->name + ":" + std::to_string(in.index));
    for (const Node* c : n.controlInputs) bytesField(nd, 3, "^" + c->name);
    const std::string device = n.device.str();
    if (!device.empty()) bytesField(nd, 4, device);
    bytesField(out, 1, nd);  // GraphDef.node
  }
  std::string versions;
  key(versions, 1, 0);
  varint(versions, 27);  // VersionDef.producer (TensorFlow 1.15's)
  bytesField(out, 4, versions);
  return out;
}

std::string event(double wallTime, int64_t step, int field, const std::string& payload) {
  std::string e;
  doubleField(e, 1, wallTime);
  if (step != 0) {
    key(e, 2, 0);
    varint(e, static_cast<uint64_t>(step));
  }
  bytesField(e, field, payload);
  return e;
}

uint32_t crc32c(const std::string& data) {
  static const std::array<uint32_t, 256> table = [] {
    std::array<uint32_t, 256> t{};
    for (uint32_t i = 0; i < 256; ++i) {
      uint32_t c = i;
      for (int k = 0; k < 8; ++k) c = (c & 1) ? (c >> 1) ^ 0x82F63B78u : c >> 1;
      t[i] = c;
    }
    return t;
  }();
  uint32_t crc = 0xFFFFFFFFu;
  for (unsigned char ch : data) crc = table[(crc ^ ch) & 0xff] ^ (crc >> 8);
  return crc ^ 0xFFFFFFFFu;
}

uint32_t maskedCrc(uint32_t crc) { return ((crc >> 15) | (crc << 17)) + 0xa282ead8u; }

std::string record(const std::string& data) {
  std::string len(8, '\0');
  const uint64_t n = data.size();
  for (int i = 0; i < 8; ++i) len[static_cast<size_t>(i)] = static_cast<char>((n >> (8 * i)) & 0xff);
  auto le32 = [](uint32_t v) {
    std::string s(4, '\0');
    for (int i = 0; i < 4; ++i) s[static_cast<size_t>(i)] = static_cast<char>((v >> (8 * i)) & 0xff);
    return s;
  };
  return len + le32(maskedCrc(crc32c(len))) + data + le32(maskedCrc(crc32c(data)));
}

}  // namespace tlens::summary
