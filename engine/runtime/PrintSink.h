// Where the Print op (TF1 tf.Print) writes: one process-wide sink, stderr by default as in
// TensorFlow. The debugger or a test can redirect it. Implemented in kernels/cpu/ControlKernels.cpp.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

namespace tlens {

class Tensor;

/// Receives one printed line, without the trailing newline.
using PrintSink = std::function<void(const std::string&)>;

/// Replaces the sink and returns the previous one; an empty function restores the default
/// (the line and a newline to stderr). Thread-safe.
PrintSink setPrintSink(PrintSink sink);

/// Sends a line to the current sink (what the Print kernel calls).
void printToSink(const std::string& line);

/// TensorFlow's Tensor::SummarizeValue (the tf.Print / tf.Assert format): at most `maxEntries`
/// elements (-1: all) separated by spaces, rows in brackets, "..." where elements were left out.
/// "[1 2][3...]..." for a 2x2 matrix with maxEntries 3.
std::string summarizeValue(const Tensor& t, int64_t maxEntries);

}  // namespace tlens
