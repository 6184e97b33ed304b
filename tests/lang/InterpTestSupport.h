// Helpers for the interpreter tests: run a snippet in a mode and compare what it printed (and
// its diagnostics) with the expected text. Snippets are plain Python; on failure the snippet is
// printed with the mismatch.
#pragma once

#include <catch2/catch.hpp>

#include <functional>
#include <string>
#include <vector>

#include "lang/interp/Interpreter.h"

namespace tlens::interp::testing {

struct RunResult {
  int status = 0;
  std::string out;  ///< what print() / sys.stdout wrote
  std::string err;  ///< sys.stderr and tracebacks
  std::vector<Diagnostic> diagnostics;
  /// One formatted diagnostic per line ("a.py:3:5: error: message [code]").
  std::string diagnosticText() const {
    std::string s;
    for (const auto& d : diagnostics) s += format(d) + "\n";
    return s;
  }
  bool hasDiagnostic(std::string_view code) const {
    for (const auto& d : diagnostics)
      if (d.code == code) return true;
    return false;
  }
};

/// Runs `source` as main.py. `configure` adjusts options; `setup` registers modules/observers.
inline RunResult runPython(const std::string& source, Mode mode = Mode::Concrete,
                           const std::function<void(InterpOptions&)>& configure = {},
                           const std::function<void(Interpreter&)>& setup = {}, const std::string& path = "main.py") {
  RunResult r;
  InterpOptions o;
  o.mode = mode;
  o.out = [&r](std::string_view s) { r.out += s; };
  o.err = [&r](std::string_view s) { r.err += s; };
  if (configure) configure(o);
  Interpreter in(o);
  if (setup) setup(in);
  r.status = in.runSource(path, source);
  r.diagnostics = in.diagnostics();
  return r;
}

struct OutputCase {
  const char* name;
  const char* source;
  const char* expected;
};

/// Runs each snippet concretely and checks its output (and that it ran without errors).
inline void checkOutputs(std::initializer_list<OutputCase> cases) {
  for (const OutputCase& c : cases) {
    RunResult r = runPython(c.source);
    INFO("case: " << c.name << "\n--- source ---\n" << c.source << "--- stderr ---\n" << r.err
                  << "--- diagnostics ---\n" << r.diagnosticText());
    CHECK(r.out == c.expected);
    CHECK(r.status == 0);
  }
}

}  // namespace tlens::interp::testing

using namespace tlens::interp;
using namespace tlens::interp::testing;
