// TensorBoard's file formats, written without a protobuf library: the Summary, HistogramProto,
// Event and GraphDef messages (only the fields TensorBoard reads for scalars, histograms and the
// graph view) in protobuf's wire format, and the TFRecord framing of event files (length and
// data, each followed by its masked CRC32C).
#pragma once

#include <cstdint>
#include <string>

namespace tlens {

class Graph;
class Tensor;

namespace summary {

/// A serialized Summary with one simple_value.
std::string scalar(const std::string& tag, double value);
/// A serialized Summary with one histogram of `values` (any numeric tensor), in TensorFlow's
/// default buckets (+-1e-12 * 1.1^k).
std::string histogram(const std::string& tag, const Tensor& values);
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
