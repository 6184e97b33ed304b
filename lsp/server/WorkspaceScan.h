// WorkspaceScan: the workspace's Python files, found on disk for background analysis and for
// references across files. Bounded: at most `maxFiles` files and `maxEntries` directory entries
// visited; hidden directories, virtual environments, caches, node_modules and build outputs
// are skipped.
#pragma once

#include <string>
#include <vector>

namespace tlens::lsp {

struct ScanResult {
  std::vector<std::string> files;  ///< sorted, absolute, lexically normal
  bool truncated = false;          ///< a bound was hit
};

ScanResult scanWorkspace(const std::vector<std::string>& roots, size_t maxFiles = 500, size_t maxEntries = 50000);

}  // namespace tlens::lsp
