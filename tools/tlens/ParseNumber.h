// Strict parsing of the numbers on the command line: the whole argument must be a decimal
// integer within the range, or the command is refused. std::stoi took "12abc" as 12, and a port
// of -3 or 70000 was wrapped or cut to some other port (issue 22.9).
#pragma once

#include <charconv>
#include <stdexcept>
#include <string>

namespace tlens::cli {

/// `text` as an integer in [lo, hi]; throws std::invalid_argument naming `flag` otherwise.
inline long long parseIntArg(const std::string& flag, const std::string& text, long long lo, long long hi) {
  long long v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || v < lo || v > hi)
    throw std::invalid_argument(flag + " must be an integer in " + std::to_string(lo) + ".." + std::to_string(hi) +
                                ", not '" + text + "'");
  return v;
}

/// A TCP port for --port/--listen (0: any free port).
inline int parsePortArg(const std::string& flag, const std::string& text) {
  return static_cast<int>(parseIntArg(flag, text, 0, 65535));
}

}  // namespace tlens::cli
