// tf.summary and FileWriter write real TensorBoard event files: TFRecord framing with valid
// CRC32Cs, the file_version event first, then the graph and one event per add_summary, with the
// tags the program gave; TF2's create_file_writer + tf.summary.scalar(step=) the same. Abstract
// mode writes nothing.
#include <filesystem>
#include <fstream>
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
