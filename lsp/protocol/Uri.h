// file:// URIs <-> paths (percent-decoding). No JSON.
#pragma once

#include <string>

namespace tlens::lsp {

/// "file:///a/b%20c.py" -> "/a/b c.py"; other schemes are returned unchanged.
std::string uriToPath(const std::string& uri);
/// "/a/b c.py" -> "file:///a/b%20c.py"; a relative path or a name is returned unchanged.
std::string pathToUri(const std::string& path);

}  // namespace tlens::lsp
