// TensorBoard summaries (tf.summary.scalar / histogram / image / audio / text / merge in TF1 graphs, and
// what TF2's tf.summary.image / text / audio write eagerly). TensorFlow's ops return a serialized Summary
// as a string scalar; tensorlens' summary ops return the same bytes as a uint8 vector
// (FileWriter.add_summary takes either), and the tag is an attribute instead of a string input.
// EncodePng (tf.image.encode_png) and EncodeWav (tf.audio.encode_wav) are here because TF2's
// image and audio summaries are made of them.
#include "engine/ops/OpRegistry.h"
#include "engine/ops/ShapeFns.h"

namespace tlens {

namespace {
using namespace shapefn;

ShapeResult summaryBytes(const InferContext& c) {
  for (size_t i = 0; i < c.numInputs(); ++i)
    if (c.dtype(i) != DType::Invalid && !isNumeric(c.dtype(i)) && c.dtype(i) != DType::Bool)
      return shapeError(c, "summary of a " + std::string(dtypeName(c.dtype(i))) + " tensor", {static_cast<int>(i)});
  return ShapeResult::single(DType::UInt8, Shape({Dim::unknown()}));
}

}  // namespace

void registerSummaryOps(OpRegistry& r) {
  OpBuilder(r, "ScalarSummary").cpuOnly("serializes on the host")
      .input("values")
      .attr("tag", std::string(), "the summary's tag")
      .notDifferentiable()
      .doc("A serialized Summary holding the scalar `values` under `tag` (tf.summary.scalar).")
      .shape([](const InferContext& c) {
        const Shape& s = c.shape(0);
        if (s.rankKnown() && s.rank() != 0 && !(s.fullyKnown() && s.numElements() == 1))
          return shapeError(c, "tags and values not the same shape: [] != " + s.str() + " (tag '" + c.getString("tag") + "')", {0});
        return summaryBytes(c);
      });

  OpBuilder(r, "HistogramSummary").cpuOnly("serializes on the host")
      .input("values")
      .attr("tag", std::string(), "the summary's tag")
      .notDifferentiable()
      .doc("A serialized Summary holding a histogram of `values` under `tag` (tf.summary.histogram).")
      .shape(summaryBytes);

  OpBuilder(r, "ImageSummary").cpuOnly("serializes on the host")
      .input("tensor")
      .attr("tag", std::string(), "the summary's tag; each image's is tag/image/i (tag/image when max_images is 1)")
      .attr("max_images", int64_t{3}, "at most this many images of the batch")
      .notDifferentiable()
      .doc("A serialized Summary of the first `max_images` images of `tensor` [batch, height, width, channels] as PNGs "
           "(tf.summary.image); float images are scaled per image into [0, 255].")
      .shape([](const InferContext& c) {
        const int64_t maxImages = c.getInt("max_images", 3);
        if (maxImages < 1)
          return shapeError(c, "Value for attr 'max_images' of " + std::to_string(maxImages) + " must be at least minimum 1");
        const DType t = c.dtype(0);
        if (t != DType::Invalid && t != DType::UInt8 && t != DType::Float32 && t != DType::Float16 && t != DType::Float64)
          return shapeError(c, "Value passed to parameter 'tensor' has DataType " + std::string(dtypeName(t)) +
                                   " not in list of allowed values: uint8, float32, float16, float64", {0});
        const Shape& s = c.shape(0);
        if (s.rankKnown()) {
          const bool badDepth = s.rank() == 4 && s[3].isKnown() && s[3].size != 1 && s[3].size != 3 && s[3].size != 4;
          if (s.rank() != 4 || badDepth) {
            std::string dims;  // TensorShape::DebugString: [2,3]
            for (const Dim& d : s.dims()) dims += (dims.empty() ? "" : ",") + (d.isKnown() ? std::to_string(d.size) : "?");
            return shapeError(c, "Tensor must be 4-D with last dim 1, 3, or 4, not [" + dims + "]", {0});
          }
        }
        return ShapeResult::single(DType::UInt8, Shape({Dim::unknown()}));
      });

  OpBuilder(r, "AudioSummaryV2").cpuOnly("serializes on the host")
      .input("tensor")
      .input("sample_rate")
      .attr("tag", std::string(), "the summary's tag; each clip's is tag/audio/i (tag/audio when max_outputs is 1)")
      .attr("max_outputs", int64_t{3}, "at most this many clips of the batch")
      .hostInput(1)
      .notDifferentiable()
      .doc("A serialized Summary of the first `max_outputs` clips of `tensor` [batch, frames, channels] or [batch, "
           "frames] (samples in [-1, 1]) as 16-bit WAVs at `sample_rate` Hz (tf.summary.audio).")
      .shape([](const InferContext& c) {
        const int64_t maxOutputs = c.getInt("max_outputs", 3);
        if (maxOutputs < 1)
          return shapeError(c, "Value for attr 'max_outputs' of " + std::to_string(maxOutputs) + " must be at least minimum 1");
        if (c.dtype(0) != DType::Invalid && c.dtype(0) != DType::Float32)
          return shapeError(c, "Input 'tensor' of 'AudioSummaryV2' Op has type " + std::string(dtypeName(c.dtype(0))) +
                                   " that does not match expected type of float32.", {0});
        if (c.dtype(1) != DType::Invalid && c.dtype(1) != DType::Float32)
          return shapeError(c, "Input 'sample_rate' of 'AudioSummaryV2' Op has type " + std::string(dtypeName(c.dtype(1))) +
                                   " that does not match expected type of float32.", {1});
        const Shape& s = c.shape(0);
        if (s.rankKnown() && (s.rank() < 2 || s.rank() > 3)) {
          std::string dims;
          for (const Dim& d : s.dims()) dims += (dims.empty() ? "" : ",") + (d.isKnown() ? std::to_string(d.size) : "?");
          return shapeError(c, "Tensor must be 3-D or 2-D, got: [" + dims + "]", {0});
        }
        if (c.shape(1).rankKnown() && c.shape(1).rank() != 0)
          return shapeError(c, "Shape must be rank 0 but is rank " + std::to_string(c.shape(1).rank()), {1});
        if (const Tensor* rate = c.value(1); rate && rate->dtype() == DType::Float32 && !(*rate->data<float>() > 0))
          return shapeError(c, "sample_rate must be > 0", {1});
        return ShapeResult::single(DType::UInt8, Shape({Dim::unknown()}));
      });

  OpBuilder(r, "EncodeWav").cpuOnly("encodes on the host").strings(OpDef::Strings::Native)
      .api("tf.audio.encode_wav")
      .input("audio")
      .input("sample_rate")
      .hostInput(1)
      .notDifferentiable()
      .doc("The 16-bit PCM WAV file of float audio [frames, channels] (samples in [-1, 1]) at `sample_rate` Hz, as "
           "a string scalar.")
      .shape([](const InferContext& c) {
        if (c.dtype(0) != DType::Invalid && c.dtype(0) != DType::Float32)
          return shapeError(c, "Input 'audio' of 'EncodeWav' Op has type " + std::string(dtypeName(c.dtype(0))) +
                                   " that does not match expected type of float32.", {0});
        if (c.dtype(1) != DType::Invalid && c.dtype(1) != DType::Int32)
          return shapeError(c, "Input 'sample_rate' of 'EncodeWav' Op has type " + std::string(dtypeName(c.dtype(1))) +
                                   " that does not match expected type of int32.", {1});
        if (c.shape(0).rankKnown() && c.shape(0).rank() != 2)
          return shapeError(c, "Shape must be rank 2 but is rank " + std::to_string(c.shape(0).rank()), {0});
        if (c.shape(1).rankKnown() && c.shape(1).rank() != 0)
          return shapeError(c, "Shape must be rank 0 but is rank " + std::to_string(c.shape(1).rank()), {1});
        return ShapeResult::single(DType::String, Shape::scalar());
      });

  OpBuilder(r, "TensorSummaryV2").cpuOnly("serializes on the host").strings(OpDef::Strings::Native)
      .input("tensor")
      .attr("tag", std::string(), "the summary's tag")
      .attr("plugin_name", std::string(), "the TensorBoard plugin that shows it (SummaryMetadata.plugin_data)")
      .attr("plugin_content", std::string(), "the plugin's own serialized metadata (PluginData.content)")
      .attr("description", std::string(), "SummaryMetadata.summary_description")
      .notDifferentiable()
      .doc("A serialized Summary holding the string tensor `tensor` with its plugin's metadata (tf.summary.text; "
           "TF2's image summaries).")
      .shape([](const InferContext& c) {
        if (c.dtype(0) != DType::Invalid && c.dtype(0) != DType::String)
          return shapeError(c, "tensorlens: tensor summaries of " + std::string(dtypeName(c.dtype(0))) +
                                   " tensors are not modelled (string tensors are)", {0});
        return ShapeResult::single(DType::UInt8, Shape({Dim::unknown()}));
      });

  OpBuilder(r, "EncodePng").cpuOnly("encodes on the host").strings(OpDef::Strings::Native)
      .api("tf.image.encode_png").api("tf.io.encode_png")
      .input("image")
      .attr("compression", int64_t{-1}, "zlib's level; tensorlens always uses zlib's default")
      .notDifferentiable()
      .doc("The PNG file of a uint8 image [height, width, channels] with 1 to 4 channels, as a string scalar.")
      .shape([](const InferContext& c) {
        const DType t = c.dtype(0);
        if (t != DType::Invalid && t != DType::UInt8)
          return shapeError(c, "Value passed to parameter 'image' has DataType " + std::string(dtypeName(t)) +
                                   " not in list of allowed values: uint8", {0});
        const Shape& s = c.shape(0);
        if (s.rankKnown() && s.rank() != 3)
          return shapeError(c, "Shape must be rank 3 but is rank " + std::to_string(s.rank()), {0});
        if (s.rankKnown() && s[2].isKnown() && (s[2].size < 1 || s[2].size > 4))
          return shapeError(c, "image must have 1, 2, 3, or 4 channels, got " + std::to_string(s[2].size), {0});
        return ShapeResult::single(DType::String, Shape::scalar());
      });

  OpBuilder(r, "DecodePng").cpuOnly("decodes on the host").strings(OpDef::Strings::Native)
      .api("tf.image.decode_png").api("tf.io.decode_png")
      .input("contents")
      .attr("channels", int64_t{0}, "the image's channels (0: the file's own)")
      .attr("dtype", DType::UInt8, "the sample type (uint8)")
      .notDifferentiable()
      .doc("The uint8 image [height, width, channels] of a PNG file given as a string scalar.")
      .shape([](const InferContext& c) {
        const DType t = c.dtype(0);
        if (t != DType::Invalid && t != DType::String)
          return shapeError(c, "Value passed to parameter 'contents' has DataType " + std::string(dtypeName(t)) +
                                   " not in list of allowed values: string", {0});
        const Shape& s = c.shape(0);
        if (s.rankKnown() && s.rank() != 0)
          return shapeError(c, "Shape must be rank 0 but is rank " + std::to_string(s.rank()), {0});
        const int64_t ch = c.getInt("channels", 0);
        if (ch < 0 || ch > 4) return shapeError(c, "channels must be 0, 1, 2, 3 or 4, got " + std::to_string(ch), {});
        if (c.getDType("dtype", DType::UInt8) != DType::UInt8)
          return shapeError(c, "tensorlens: decode_png gives uint8 images (16-bit output is not modelled)", {});
        return ShapeResult::single(DType::UInt8, Shape({Dim::unknown(), Dim::unknown(), ch ? Dim::known(ch) : Dim::unknown()}));
      });

  OpBuilder(r, "MergeSummary").cpuOnly("serializes on the host")
      .inputList("inputs")
      .notDifferentiable()
      .doc("Serialized summaries merged into one (tf.summary.merge).")
      .shape([](const InferContext& c) {
        for (size_t i = 0; i < c.numInputs(); ++i)
          if (c.dtype(i) != DType::Invalid && c.dtype(i) != DType::UInt8)
            return shapeError(c, "MergeSummary takes serialized summaries, but input " + std::to_string(i) + " is " +
                                     std::string(dtypeName(c.dtype(i))), {static_cast<int>(i)});
        return ShapeResult::single(DType::UInt8, Shape({Dim::unknown()}));
      });
}

}  // namespace tlens
