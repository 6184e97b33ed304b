// Kernels of the summary ops (SummaryOps.cpp): serialized Summary protos as uint8 vectors.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "engine/core/Dispatch.h"
#include "engine/runtime/Kernel.h"
#include "engine/runtime/PngEncode.h"
#include "engine/runtime/WavEncode.h"
#include "engine/runtime/SummaryProto.h"

namespace tlens {

namespace {

void emit(KernelContext& c, const std::string& bytes) {
  Tensor& out = c.allocateOutput(0, ConcreteShape{static_cast<int64_t>(bytes.size())}, DType::UInt8);
  if (!bytes.empty()) std::memcpy(out.raw(), bytes.data(), bytes.size());
}

void scalarSummaryKernel(KernelContext& c) {
  const Tensor& v = c.input(0);
  double x = 0;
  dispatchAll(v.dtype(), [&](auto zero) { x = static_cast<double>(v.data<decltype(zero)>()[0]); });
  emit(c, summary::scalar(c.getString("tag"), x));
}

void histogramSummaryKernel(KernelContext& c) {
  const Tensor& v = c.input(0);
  if (v.dtype() == DType::Bool) {
    Tensor f = v.cast(DType::Float64);
    emit(c, summary::histogram(c.getString("tag"), f));
    return;
  }
  dispatchNumeric(v.dtype(), [&](auto zero) {
    using T = decltype(zero);
    const T* p = v.data<T>();
    for (int64_t i = 0; i < v.numElements(); ++i)
      if (!std::isfinite(static_cast<double>(p[i])))
        c.fail("Nan in summary histogram for: " + c.getString("tag"));
  });
  emit(c, summary::histogram(c.getString("tag"), v));
}

// One float image (hw pixels of `depth` values) into uint8 as TensorFlow's ImageSummary does:
// min and max over the pixels whose values are all finite; if the min is negative, v * 127 / max|v|
// + 128, else v * 255 / max (a scale of 0 when that max is under 1e-6); converted to uint8 by
// truncation; a pixel with a NaN or infinity is bad_color (opaque red).
template <typename T>
void normalizeImage(const T* v, int64_t hw, int64_t depth, uint8_t* out) {
  static const uint8_t badColor[4] = {255, 0, 0, 255};
  auto finitePixel = [&](int64_t i) {
    for (int64_t j = 0; j < depth; ++j)
      if (!std::isfinite(v[i * depth + j])) return false;
    return true;
  };
  float lo = std::numeric_limits<float>::infinity(), hi = -lo;
  for (int64_t i = 0; i < hw; ++i)
    if (finitePixel(i))
      for (int64_t j = 0; j < depth; ++j) {
        const float x = static_cast<float>(v[i * depth + j]);
        lo = std::min(lo, x);
        hi = std::max(hi, x);
      }
  const float kZero = 1e-6f;
  T scale, offset;
  if (lo < 0) {
    const float m = std::max(std::abs(lo), std::abs(hi));
    scale = static_cast<T>(m < kZero ? 0.0f : 127.0f / m);
    offset = static_cast<T>(128.0f);
  } else {
    scale = static_cast<T>(hi < kZero ? 0.0f : 255.0f / hi);
    offset = static_cast<T>(0.0f);
  }
  for (int64_t i = 0; i < hw; ++i) {
    const bool finite = finitePixel(i);
    for (int64_t j = 0; j < depth; ++j) {
      const T y = v[i * depth + j] * scale + offset;
      out[i * depth + j] = finite ? static_cast<uint8_t>(std::clamp(y, static_cast<T>(0), static_cast<T>(255))) : badColor[j];
    }
  }
}

void imageSummaryKernel(KernelContext& c) {
  const Tensor& t = c.input(0);
  const int64_t batch = t.dim(0), h = t.dim(1), w = t.dim(2), depth = t.dim(3), hw = h * w;
  const int64_t maxImages = c.getInt("max_images", 3);
  const std::string tag = c.getString("tag");
  const int64_t n = std::min(maxImages, batch);
  // float16 images are normalised in float32.
  const Tensor src = t.dtype() == DType::Float16 ? t.cast(DType::Float32) : t;
  std::vector<uint8_t> pixels(static_cast<size_t>(hw * depth));
  std::string all;
  for (int64_t i = 0; i < n; ++i) {
    const size_t at = static_cast<size_t>(i * hw * depth);
    const uint8_t* img = nullptr;
    if (src.dtype() == DType::UInt8) {
      img = src.data<uint8_t>() + at;
    } else {
      if (src.dtype() == DType::Float64)
        normalizeImage(src.data<double>() + at, hw, depth, pixels.data());
      else
        normalizeImage(src.data<float>() + at, hw, depth, pixels.data());
      img = pixels.data();
    }
    const std::string imageTag = maxImages > 1 ? tag + "/image/" + std::to_string(i) : tag + "/image";
    all += summary::image(imageTag, h, w, static_cast<int>(depth), png::encode(img, w, h, static_cast<int>(depth)));
  }
  emit(c, all);
}

void tensorSummaryKernel(KernelContext& c) {
  const Tensor& t = c.input(0);
  emit(c, summary::stringTensor(c.getString("tag"), c.getString("plugin_name"), c.getString("plugin_content"),
                                c.getString("description"),
                                t.strings(), t.shape()));
}

// WAV files are written at TensorFlow's integer rate: the float rate rounded, at least 1 Hz.
uint32_t wavRate(float rate) { return static_cast<uint32_t>(std::max(1L, std::lrint(rate))); }

void audioSummaryKernel(KernelContext& c) {
  const Tensor& t = c.input(0);
  const float rate = *c.input(1).data<float>();
  if (!(rate > 0)) c.fail("sample_rate must be > 0");
  const int64_t batch = t.dim(0), frames = t.dim(1), channels = t.rank() == 2 ? 1 : t.dim(2);
  const int64_t maxOutputs = c.getInt("max_outputs", 3);
  const std::string tag = c.getString("tag");
  std::string all;
  for (int64_t i = 0; i < std::min(maxOutputs, batch); ++i) {
    const std::string clipTag = maxOutputs > 1 ? tag + "/audio/" + std::to_string(i) : tag + "/audio";
    const float* clip = t.data<float>() + i * frames * channels;
    all += summary::audio(clipTag, rate, channels, frames, wav::encode(clip, frames, channels, wavRate(rate)));
  }
  emit(c, all);
}

void encodeWavKernel(KernelContext& c) {
  const Tensor& t = c.input(0);
  const int32_t rate = *c.input(1).data<int32_t>();
  if (rate <= 0) c.fail("sample_rate must be in (0, 2^32), got: " + std::to_string(rate));
  c.setOutput(0, Tensor::fromStrings({wav::encode(t.data<float>(), t.dim(0), t.dim(1), static_cast<uint32_t>(rate))}, {}));
}

void encodePngKernel(KernelContext& c) {
  const Tensor& t = c.input(0);
  c.setOutput(0, Tensor::fromStrings({png::encode(t.data<uint8_t>(), t.dim(1), t.dim(0), static_cast<int>(t.dim(2)))}, {}));
}

void decodePngKernel(KernelContext& c) {
  const Tensor& t = c.input(0);
  png::Image img;
  try {
    img = png::decode(t.strings()[0], static_cast<int>(c.getInt("channels", 0)));
  } catch (const std::runtime_error& e) {
    c.fail(e.what());
  }
  Tensor& out = c.allocateOutput(0, {img.height, img.width, img.channels}, DType::UInt8);
  std::copy(img.pixels.begin(), img.pixels.end(), out.data<uint8_t>());
}

void mergeSummaryKernel(KernelContext& c) {
  std::string all;
  for (size_t i = 0; i < c.numInputs(); ++i) {
    const Tensor& t = c.input(i);
    all.append(static_cast<const char*>(t.raw()), static_cast<size_t>(t.numElements()));
  }
  emit(c, all);
}

}  // namespace

void registerCpuSummaryKernels(KernelRegistry& r) {
  r.add("ScalarSummary", Device::CPU, scalarSummaryKernel);
  r.add("HistogramSummary", Device::CPU, histogramSummaryKernel);
  r.add("ImageSummary", Device::CPU, imageSummaryKernel);
  r.add("TensorSummaryV2", Device::CPU, tensorSummaryKernel);
  r.add("EncodePng", Device::CPU, encodePngKernel);
  r.add("DecodePng", Device::CPU, decodePngKernel);
  r.add("AudioSummaryV2", Device::CPU, audioSummaryKernel);
  r.add("EncodeWav", Device::CPU, encodeWavKernel);
  r.add("MergeSummary", Device::CPU, mergeSummaryKernel);
}

}  // namespace tlens
