// TensorBoard's file formats, written without a protobuf library: the Summary, HistogramProto,
// Event and GraphDef messages (only the fields TensorBoard reads for scalars, histograms, images,
// audio, string tensors (text, TF2 images and audio) and the graph view) in protobuf's wire
// format, and the TFRecord framing of event files (length and data, each followed by its masked
// CRC32C).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tlens {

class Graph;
class Tensor;

namespace summary {

/// A serialized Summary with one simple_value.
std::string scalar(const std::string& tag, double value);
/// A serialized Summary with one histogram of `values` (any numeric tensor), in TensorFlow's
/// default buckets (+-1e-12 * 1.1^k).
std::string histogram(const std::string& tag, const Tensor& values);
/// A serialized Summary with one image value (Summary.Image: height, width, colorspace = the
/// number of channels, the encoded PNG), as TensorFlow's ImageSummary writes each image.
std::string image(const std::string& tag, int64_t height, int64_t width, int channels, const std::string& png);
/// A serialized Summary with one audio value (Summary.Audio: sample rate, channels, frames, the
/// encoded WAV, content type audio/wav), as TensorFlow's AudioSummaryV2 writes each clip.
std::string audio(const std::string& tag, float sampleRate, int64_t channels, int64_t frames, const std::string& wav);
/// A serialized Summary with one tensor value of a string tensor (`strings`, row-major, of
/// `shape`) and its SummaryMetadata (the plugin's name and content, the description), as
/// TensorFlow's TensorSummaryV2 and TF2's tf.summary.write do.
std::string stringTensor(const std::string& tag, const std::string& pluginName, const std::string& pluginContent,
                         const std::string& description, const std::string* strings, const std::vector<int64_t>& shape);
/// A serialized GraphDef: every node's name, op, inputs ("^name" for control inputs) and device.
std::string graphDef(const Graph& g);

/// A serialized Event. `field` is 3 (file_version), 4 (graph_def) or 5 (summary); step 0 is omitted.
std::string event(double wallTime, int64_t step, int field, const std::string& payload);
/// One TFRecord: the record framed as TensorFlow's RecordWriter writes it.
std::string record(const std::string& data);
/// CRC32C (Castagnoli), and TFRecord's masking of it.
uint32_t crc32c(const std::string& data);
uint32_t maskedCrc(uint32_t crc);

}  // namespace summary
}  // namespace tlens
