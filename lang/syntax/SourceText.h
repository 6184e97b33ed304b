// SourceText: reading a program's source from disk and refusing what cannot be a program, for
// every entry point that runs or analyses a file (tlens run/check, the debugger, the language
// server's workspace scan and imports).
//  - Only regular files are read, and at most kMaxSourceBytes of them: a `*.py` symlink to
//    /dev/zero or a FIFO in a cloned repository must give an error, never a hang or unbounded
//    memory (issue 22.7).
//  - A file that does not parse does not run (CPython refuses it too): syntaxErrorReport()
//    renders the first syntax error as CPython prints it (issue 22.3). The analysis still takes
//    broken files; only running them is refused.
#pragma once

#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>

namespace tlens::lang {

class SourceFile;

/// The largest source file any entry point reads (16 MiB; real programs are far smaller).
inline constexpr size_t kMaxSourceBytes = size_t(16) << 20;

/// Why a file cannot be read as source; what() is a sentence for the user.
struct SourceReadError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// The bytes of the regular file at `path` (symlinks followed). Throws SourceReadError for a
/// missing file, a directory, a device, FIFO or socket, or a file larger than `maxBytes`. Never
/// blocks on a FIFO.
std::string readSourceFile(const std::string& path, size_t maxBytes = kMaxSourceBytes);

/// The file's bytes, or nullopt when it is not a readable regular file within `maxBytes` (the
/// workspace scan and imports skip such files).
std::optional<std::string> tryReadSourceFile(const std::string& path, size_t maxBytes = kMaxSourceBytes);

/// CPython's report of the file's first syntax error, `  File "p", line N\n    text\nSyntaxError: msg\n`;
/// empty when the file parses.
std::string syntaxErrorReport(const SourceFile& file);

}  // namespace tlens::lang
