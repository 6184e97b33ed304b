// A WAV encoder for audio summaries (tf.summary.audio) and tf.audio.encode_wav: a RIFF file with
// one "fmt " chunk (PCM, 16 bits per sample) and one "data" chunk of interleaved little-endian
// samples, each float x as TensorFlow converts it: round(x * 32768) clamped to [-32768, 32767].
#pragma once

#include <cstdint>
#include <string>

namespace tlens::wav {

/// The WAV file of `frames` frames of `channels` float samples each (frame-major).
std::string encode(const float* samples, int64_t frames, int64_t channels, uint32_t sampleRate);

}  // namespace tlens::wav
