#include "lang/syntax/SourceText.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "lang/syntax/SourceFile.h"

namespace tlens::lang {

std::string readSourceFile(const std::string& path, size_t maxBytes) {
  // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer forever. The type
  // is checked on the open descriptor, so a file swapped after a stat() cannot slip through.
  int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    if (errno == EISDIR) throw SourceReadError("'" + path + "' is a directory, not a Python file");
    throw SourceReadError("cannot open '" + path + "': " + std::strerror(errno));
  }
  struct FdCloser {
    int fd;
    ~FdCloser() { ::close(fd); }
  } closer{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0) throw SourceReadError("cannot read '" + path + "': " + std::strerror(errno));
  if (S_ISDIR(st.st_mode)) throw SourceReadError("'" + path + "' is a directory, not a Python file");
  if (!S_ISREG(st.st_mode)) throw SourceReadError("'" + path + "' is not a regular file (a device, FIFO or socket)");
  if (static_cast<unsigned long long>(st.st_size) > maxBytes)
    throw SourceReadError("'" + path + "' is " + std::to_string(st.st_size) + " bytes, over the " +
                          std::to_string(maxBytes >> 20) + " MiB limit for source files");
  std::string text;
  text.resize(static_cast<size_t>(st.st_size));
  size_t got = 0;
  while (got < text.size()) {  // a file that grows while read is cut at the size it had
    ssize_t n = ::read(fd, text.data() + got, text.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw SourceReadError("cannot read '" + path + "': " + std::strerror(errno));
    if (n == 0) break;
    got += static_cast<size_t>(n);
  }
  text.resize(got);
  return text;
}

std::optional<std::string> tryReadSourceFile(const std::string& path, size_t maxBytes) {
  try {
    return readSourceFile(path, maxBytes);
  } catch (const SourceReadError&) {
    return std::nullopt;
  }
}

std::string syntaxErrorReport(const SourceFile& file) {
  if (file.syntaxErrors().empty()) return {};
  const SyntaxError& e = file.syntaxErrors().front();
  std::string line(file.lineText(e.start.line));
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
  size_t indent = line.find_first_not_of(" \t");
  line = indent == std::string::npos ? std::string() : line.substr(indent);
  std::string out = "  File \"" + file.path() + "\", line " + std::to_string(e.start.line + 1) + "\n";
  if (!line.empty()) out += "    " + line + "\n";
  out += "SyntaxError: " + e.message + "\n";
  return out;
}

}  // namespace tlens::lang
