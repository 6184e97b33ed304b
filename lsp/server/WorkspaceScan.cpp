#include "lsp/server/WorkspaceScan.h"

#include <algorithm>
#include <filesystem>
#include <set>

namespace tlens::lsp {

namespace fs = std::filesystem;

namespace {

bool skippedDir(const std::string& name) {
  static const std::set<std::string> skip = {"__pycache__", "node_modules", "site-packages", "venv", "env",
                                             "build", "dist", "third_party"};
  return name.empty() || name[0] == '.' || skip.count(name) || name.rfind("build-", 0) == 0;
}

}  // namespace

ScanResult scanWorkspace(const std::vector<std::string>& roots, size_t maxFiles, size_t maxEntries) {
  ScanResult out;
  std::set<std::string> seen;
  size_t entries = 0;
  for (const std::string& root : roots) {
    std::error_code ec;
    if (!fs::is_directory(root, ec)) continue;
    fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, ec), end;
    for (; !ec && it != end; it.increment(ec)) {
      if (++entries > maxEntries || out.files.size() >= maxFiles) {
        out.truncated = true;
        break;
      }
      const fs::directory_entry& e = *it;
      std::string name = e.path().filename().string();
      std::error_code tec;
      if (e.is_directory(tec)) {
        if (skippedDir(name) || e.is_symlink(tec)) it.disable_recursion_pending();
        continue;
      }
      if (e.path().extension() != ".py" || !e.is_regular_file(tec)) continue;
      std::string p = fs::absolute(e.path(), tec).lexically_normal().string();
      if (seen.insert(p).second) out.files.push_back(p);
    }
    if (out.truncated) break;
  }
  std::sort(out.files.begin(), out.files.end());
  return out;
}

}  // namespace tlens::lsp
