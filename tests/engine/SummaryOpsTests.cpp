// Where (tf.where with one argument), Unique and the summary ops, in the op case table; TensorBoard's
// wire formats (Summary protos, TFRecord framing with CRC32C) against known encodings.
#include "OpTestUtil.h"
#include "engine/runtime/SummaryProto.h"

using namespace tlens;
using namespace tlens::test;

namespace {

Tensor U8(std::vector<int32_t> v) { return I32(std::move(v)).cast(DType::UInt8); }

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
    {"MergeSummary", {U8({1, 2}), U8({3})}, {}, {U8({1, 2, 3})}, 0, false, {}, 1e-4, "serialized Summaries concatenate"},
});

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
