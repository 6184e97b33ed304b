// Content-Length framing: encodeFrame and the FrameDecoder.
#include <algorithm>
#include <cctype>
#include <charconv>
#include <cerrno>
#include <ctime>

#include <unistd.h>

#include "protocol/Channel.h"

namespace tlens::protocol {
namespace {

constexpr size_t kMaxHeaderBytes = 8 * 1024;
constexpr size_t kMaxBodyBytes = size_t(512) << 20;  // 512 MiB: far above any real message
constexpr std::string_view kHeaderEnd = "\r\n\r\n";
constexpr std::string_view kLengthField = "content-length";

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

bool equalsIgnoreCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == y;
         });
}

/// The body length announced by a header block (without its final blank line).
size_t parseContentLength(std::string_view block) {
  std::optional<size_t> length;
  while (!block.empty()) {
    size_t eol = block.find("\r\n");
    std::string_view line = block.substr(0, eol);
    block = eol == std::string_view::npos ? std::string_view() : block.substr(eol + 2);
    size_t colon = line.find(':');
    if (colon == std::string_view::npos)
      throw FramingError("malformed header line '" + std::string(line.substr(0, 80)) + "'");
    if (!equalsIgnoreCase(trim(line.substr(0, colon)), kLengthField)) continue;  // Content-Type
    std::string_view value = trim(line.substr(colon + 1));
    size_t n = 0;
    auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
    if (ec != std::errc() || end != value.data() + value.size())
      throw FramingError("bad Content-Length '" + std::string(value.substr(0, 40)) + "'");
    if (n > kMaxBodyBytes)
      throw FramingError("Content-Length " + std::to_string(n) + " exceeds the " +
                         std::to_string(kMaxBodyBytes >> 20) + " MiB limit");
    // Two lengths are ambiguous (which one frames the body?): the block is refused, and with
    // it the body that follows, rather than guessing and waiting for bytes that never come.
    if (length) throw FramingError("header block with two Content-Length fields");
    length = n;
  }
  if (!length) throw FramingError("header block without Content-Length");
  return *length;
}

/// How many Content-Length fields a header block holds.
size_t countFields(std::string_view block) {
  size_t n = 0;
  for (size_t i = 0; i + kLengthField.size() <= block.size(); ++i)
    if (equalsIgnoreCase(block.substr(i, kLengthField.size()), kLengthField)) ++n;
  return n;
}

/// The next "Content-Length" (any case) at or after `from`.
size_t findHeaderStart(std::string_view s, size_t from) {
  for (size_t i = from; i + kLengthField.size() <= s.size(); ++i)
    if (equalsIgnoreCase(s.substr(i, kLengthField.size()), kLengthField)) return i;
  return std::string_view::npos;
}

}  // namespace

size_t formatDecimal(uint64_t v, char* out) noexcept {
  char digits[24];
  size_t d = 0;
  do {
    digits[d++] = static_cast<char>('0' + v % 10);
    v /= 10;
  } while (v > 0);
  for (size_t i = 0; i < d; ++i) out[i] = digits[d - 1 - i];
  return d;
}

size_t formatFrameHeader(size_t bodySize, char* out) noexcept {
  static constexpr char kPrefix[] = "Content-Length: ";
  size_t n = 0;
  for (const char* p = kPrefix; *p; ++p) out[n++] = *p;
  n += formatDecimal(bodySize, out + n);
  for (const char* p = "\r\n\r\n"; *p; ++p) out[n++] = *p;
  return n;
}

bool writeAllToFd(int fd, const char* data, size_t size) noexcept {
  while (size > 0) {
    ssize_t n = ::write(fd, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

bool seizeForLastWords(std::mutex& mu) noexcept {
  // try_lock is one compare-and-swap in glibc; a blocking lock() could wait for ever on a
  // thread stopped inside its write.
  for (int i = 0; i < 500; ++i) {
    if (mu.try_lock()) return true;
    timespec ms{0, 1000000};
    ::nanosleep(&ms, nullptr);
  }
  return false;
}

std::string encodeFrame(std::string_view body) {
  std::string out = "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n";
  out.append(body);
  return out;
}

void FrameDecoder::feed(std::string_view bytes) {
  if (pos_ > 0 && pos_ * 2 > buffer_.size()) {  // compact once half the buffer is consumed
    buffer_.erase(0, pos_);
    pos_ = 0;
  }
  buffer_.append(bytes);
}

std::optional<std::string> FrameDecoder::next() {
  std::string_view pending(buffer_.data() + pos_, buffer_.size() - pos_);
  if (resyncing_) {
    // The bytes after a broken header (its body, say) are not reported again.
    size_t start = findHeaderStart(pending, 0);
    if (start == std::string_view::npos) {
      pos_ += pending.size() - std::min(pending.size(), kLengthField.size() - 1);
      return std::nullopt;
    }
    pos_ += start;
    pending.remove_prefix(start);
    resyncing_ = false;
  }
  size_t end = pending.find(kHeaderEnd);
  // A header that ends past the limit is as broken as one that has not ended by it: the same
  // bytes give the same frames however they are cut into reads (found by the framing fuzzer).
  if (end != std::string_view::npos && end > kMaxHeaderBytes) end = std::string_view::npos;
  if (end == std::string_view::npos) {
    if (pending.size() <= kMaxHeaderBytes) return std::nullopt;
    // No header ends within the limit: drop up to the next plausible header start.
    pos_ += 1;
    resyncing_ = true;
    throw FramingError("header block longer than " + std::to_string(kMaxHeaderBytes) + " bytes");
  }
  size_t length;
  try {
    length = parseContentLength(pending.substr(0, end));
  } catch (const FramingError&) {
    // Resynchronise on the next header: whatever lies before it (the broken header, and a body
    // that may follow it) is dropped.
    pos_ += 1;  // a later header may even start inside this block
    // ... but not the second length field of this very block.
    if (countFields(pending.substr(0, end)) > 1) pos_ += end + kHeaderEnd.size() - 1;
    resyncing_ = true;
    throw;
  }
  size_t bodyStart = end + kHeaderEnd.size();
  if (pending.size() - bodyStart < length) return std::nullopt;
  std::string body(pending.substr(bodyStart, length));
  pos_ += bodyStart + length;
  if (pos_ == buffer_.size()) {
    buffer_.clear();
    pos_ = 0;
  }
  return body;
}

std::optional<std::string> FrameDecoder::nextSkippingErrors(
    const std::function<void(const std::string&)>& onError) {
  while (true) {
    try {
      return next();
    } catch (const FramingError& e) {
      if (onError) onError(e.what());
    }
  }
}

}  // namespace tlens::protocol
