// Traceback: a Python exception as plain data (its type, message and the lines it passed
// through), for the traceback an exception object keeps and for what a diagnostic or the
// debugger reports about it. Consumers read these fields, never a formatted message.
#pragma once

#include <string>
#include <vector>

namespace tlens::interp {

/// One line of a traceback.
struct TraceEntry {
  std::string file;
  int line = 0;    ///< 1-based
  int column = 0;  ///< 1-based
  std::string function;  ///< the function (or "<module>") the line is in
  std::string source;    ///< the source line, stripped
};

/// A Python exception as reports carry it (Diagnostic::exception, Interpreter::exceptionReport).
struct ExceptionReport {
  /// The class as a traceback names it: "ValueError", "mymodule.ShapeMismatch"; empty when the
  /// report carries no exception.
  std::string type;
  std::string message;  ///< str() of the exception; empty for `raise ValueError`
  std::vector<TraceEntry> traceback;  ///< outermost first: the raising line is the last
  bool empty() const { return type.empty(); }
  /// "ValueError: message", or the type alone when the message is empty (a traceback's last line).
  std::string summary() const { return message.empty() ? type : type + ": " + message; }
};

}  // namespace tlens::interp
