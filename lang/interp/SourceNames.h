// Which source files are tensorlens' own: the embedded modules are named "<tensorflow>",
// "<collections>", ...; their frames are library internals (trusted in abstract mode, left out of
// tracebacks and of the user's stack). Code run by exec()/eval()/compile() is named "<string>",
// as in CPython, and is the user's.
#pragma once

#include <string_view>

namespace tlens::interp {

/// The file name of code given to exec(), eval() and compile() as a string.
inline constexpr std::string_view kExecFileName = "<string>";

/// Whether `path` names an embedded module (not user code).
inline bool isLibraryPath(std::string_view path) {
  return path.size() > 2 && path.front() == '<' && path.back() == '>' && path != kExecFileName;
}

}  // namespace tlens::interp
