// Errors raised by the engine API. They carry TensorFlow's error classes so that messages read
// like TensorFlow's ("InvalidArgumentError: ..."). Exceptions stay inside the engine API; callers
// at a feature or protocol boundary turn them into diagnostics or error responses.
#pragma once

#include <stdexcept>
#include <string>

namespace tlens {

enum class ErrorCode {
  InvalidArgument,
  FailedPrecondition,
  ResourceExhausted,
  OutOfRange,
  Unimplemented,
  Cancelled,
  NotFound,
  Internal,
};

/// "InvalidArgumentError", "ResourceExhaustedError", ...
const char* errorCodeName(ErrorCode c);

class EngineError : public std::runtime_error {
 public:
  EngineError(ErrorCode code, const std::string& message)
      : std::runtime_error(message), code_(code) {}
  ErrorCode code() const { return code_; }
  /// "InvalidArgumentError: <message>"
  std::string full() const { return std::string(errorCodeName(code_)) + ": " + what(); }

 private:
  ErrorCode code_;
};

[[noreturn]] inline void throwError(ErrorCode c, const std::string& msg) { throw EngineError(c, msg); }
[[noreturn]] inline void invalidArgument(const std::string& msg) {
  throw EngineError(ErrorCode::InvalidArgument, msg);
}

}  // namespace tlens
