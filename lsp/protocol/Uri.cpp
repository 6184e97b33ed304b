#include "lsp/protocol/Uri.h"

#include <cctype>
#include <cstdio>

namespace tlens::lsp {

static int hexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string uriToPath(const std::string& uri) {
  const std::string kFile = "file://";
  if (uri.compare(0, kFile.size(), kFile) != 0) return uri;
  std::string out;
  for (size_t i = kFile.size(); i < uri.size(); ++i) {
    if (uri[i] == '%' && i + 2 < uri.size() && hexValue(uri[i + 1]) >= 0 && hexValue(uri[i + 2]) >= 0) {
      out += static_cast<char>(hexValue(uri[i + 1]) * 16 + hexValue(uri[i + 2]));
      i += 2;
    } else {
      out += uri[i];
    }
  }
  return out;
}

std::string pathToUri(const std::string& path) {
  if (path.empty() || path[0] != '/') return path;  // "untitled:..." and test names stay as they are
  std::string out = "file://";
  for (unsigned char c : path) {
    if (std::isalnum(c) || c == '/' || c == '-' || c == '_' || c == '.' || c == '~') {
      out += static_cast<char>(c);
    } else {
      char buf[4];
      std::snprintf(buf, sizeof buf, "%%%02X", c);
      out += buf;
    }
  }
  return out;
}

}  // namespace tlens::lsp
