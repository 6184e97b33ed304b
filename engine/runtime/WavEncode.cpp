#include "engine/runtime/WavEncode.h"

#include <algorithm>
#include <cmath>

namespace tlens::wav {

namespace {

void le(std::string& out, uint32_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

}  // namespace

std::string encode(const float* samples, int64_t frames, int64_t channels, uint32_t sampleRate) {
  const uint32_t dataBytes = static_cast<uint32_t>(frames * channels * 2);
  std::string out;
  out.reserve(44 + dataBytes);
  out += "RIFF";
  le(out, 36 + dataBytes, 4);
  out += "WAVE";
  out += "fmt ";
  le(out, 16, 4);                                             // the format chunk's size
  le(out, 1, 2);                                              // PCM
  le(out, static_cast<uint32_t>(channels), 2);
  le(out, sampleRate, 4);
  le(out, sampleRate * static_cast<uint32_t>(channels) * 2, 4);  // bytes per second
  le(out, static_cast<uint32_t>(channels) * 2, 2);            // bytes per frame
  le(out, 16, 2);                                             // bits per sample
  out += "data";
  le(out, dataBytes, 4);
  for (int64_t i = 0; i < frames * channels; ++i) {
    const float x = std::isnan(samples[i]) ? 0.0f : samples[i];  // NaN: silence
    const float s = std::min(std::max(std::round(x * 32768.0f), -32768.0f), 32767.0f);
    le(out, static_cast<uint32_t>(static_cast<uint16_t>(static_cast<int16_t>(s))), 2);
  }
  return out;
}

}  // namespace tlens::wav
