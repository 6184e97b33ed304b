// Diagnostic: what the interpreter reports about a program (syntax errors, unsupported
// constructs, uncaught exceptions, and whatever native modules add, such as shape errors).
// Positions are 0-based lines and byte columns (lang::TextPos); protocol layers convert.
#pragma once

#include <string>
#include <vector>

#include "engine/base/DiagnosticData.h"
#include "lang/interp/Traceback.h"
#include "lang/syntax/SourceFile.h"

namespace tlens::interp {

enum class Severity : uint8_t { Error = 1, Warning = 2, Information = 3, Hint = 4 };

struct RelatedLocation {
  std::string file;
  lang::TextPos start, end;
  std::string message;
};

struct Diagnostic {
  Severity severity = Severity::Error;
  std::string file;
  lang::TextPos start, end;
  std::string message;
  std::vector<RelatedLocation> related;
  /// Optional machine-readable code: "syntax-error", "unsupported", "uncaught-exception",
  /// "budget-exceeded", ...
  std::string code;
  /// The structured payload (op type, operand shapes and dtypes, ranges, suggested fixes), filled
  /// by producers that know them; consumers read these fields, never the message text. Its
  /// `code`, when set, is the same as `code` above.
  DiagnosticData data;
  /// "uncaught-exception": the exception (type, message, traceback), so that consumers (the
  /// debugger's post-mortem stop) never parse `message` or the related locations' text.
  ExceptionReport exception;
};

/// "a.py:3:5: error: message [code]" (1-based line and column), for tests and the CLI.
std::string format(const Diagnostic& d);

}  // namespace tlens::interp
