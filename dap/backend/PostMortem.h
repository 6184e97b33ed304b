// PostMortem: the stop the debugger makes when a run ended with an uncaught exception, built
// from the fields of the interpreter's "uncaught-exception" diagnostic (Diagnostic::exception:
// the exception's type, message and traceback frames), never from its message text or its
// related locations' wording. Also which exception filter an exception belongs to.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "dap/backend/Debugger.h"
#include "lang/interp/Diagnostic.h"

namespace tlens::dap {

/// The exception filter an exception belongs to: "assert" (AssertionError, TensorFlow's
/// assertion ops), "shape_error" (a message about shapes, dimensions or dtypes) or "uncaught".
std::string exceptionFilter(const interp::ExceptionReport& e);

struct PostMortemStop {
  std::string filter;  ///< exceptionFilter() of the exception
  /// Innermost first: the raising line ("<raised here>"), then the callers, each named for the
  /// function its line is in. The user's files only, unless no frame is in one.
  std::vector<FrameInfo> traceback;
  ExceptionDetails exception;
  StopInfo stop;
};

/// The post-mortem stop for `d`, an "uncaught-exception" diagnostic; nullopt when it carries no
/// exception.
std::optional<PostMortemStop> postMortemStop(const interp::Diagnostic& d);

}  // namespace tlens::dap
