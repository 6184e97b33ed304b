// PyError: a Python exception travelling through C++ frames. The interpreter throws it for
// `raise` and for errors detected natively; `try/except` catches it. Interpreter aborts that
// Python code must not catch (cancellation, an exhausted time budget) use other C++ types.
#pragma once

#include <exception>
#include <string>

#include "lang/interp/Value.h"

namespace tlens::interp {

class PyError : public std::exception {
 public:
  /// `exc` is an ExceptionObj (an instance of BaseException or a subclass).
  explicit PyError(Value exc, std::string summary = {}) : exc(std::move(exc)), summary_(std::move(summary)) {}
  const char* what() const noexcept override { return summary_.empty() ? "Python exception" : summary_.c_str(); }
  Value exc;

 private:
  std::string summary_;  ///< "ValueError: message" when known
};

/// Thrown when abstract analysis runs out of its work budget (or, `wallClock`, hits the
/// wall-clock safety limit); unwinds to the module level.
class BudgetExceeded : public std::exception {
 public:
  explicit BudgetExceeded(bool wallClock = false) : wallClock(wallClock) {}
  const char* what() const noexcept override {
    return wallClock ? "analysis time limit exceeded" : "analysis work budget exceeded";
  }
  bool wallClock;
};

}  // namespace tlens::interp
