#include "lsp/features/Workspace.h"

#include "lang/syntax/SourceText.h"

#include <filesystem>
#include <fstream>
#include <sstream>

namespace tlens::lsp {

namespace fs = std::filesystem;

std::optional<std::string> WorkspaceView::text(const std::string& path) const {
  if (open)
    if (auto it = open->find(path); it != open->end()) return *it->second;
  // Never opened with a blocking open(): a FIFO named *.py would hang the server.
  return lang::tryReadSourceFile(path);
}

bool WorkspaceView::exists(const std::string& path) const {
  if (open && open->count(path)) return true;
  std::error_code ec;
  return fs::is_regular_file(path, ec);
}

std::optional<std::string> WorkspaceView::resolveModule(const std::string& module, int level,
                                                        const std::string& fromPath) const {
  std::vector<fs::path> dirs;
  fs::path from = fs::path(fromPath).parent_path();
  if (level > 0) {
    for (int i = 1; i < level; ++i) from = from.parent_path();
    dirs.push_back(from);
  } else {
    dirs.push_back(from);
    for (const auto& r : roots) dirs.push_back(fs::path(r));
  }
  fs::path rel;
  for (size_t a = 0; a <= module.size();) {
    size_t dot = module.find('.', a);
    if (dot == std::string::npos) dot = module.size();
    if (dot > a) rel /= module.substr(a, dot - a);
    a = dot + 1;
  }
  for (const fs::path& d : dirs) {
    if (rel.empty()) {  // `from . import x`: the package itself
      std::string init = (d / "__init__.py").lexically_normal().string();
      if (exists(init)) return init;
      continue;
    }
    std::string file = (d / rel).lexically_normal().string() + ".py";
    if (exists(file)) return file;
    std::string init = (d / rel / "__init__.py").lexically_normal().string();
    if (exists(init)) return init;
  }
  return std::nullopt;
}

bool mayImport(const std::string& text, const std::string& path) {
  fs::path p(path);
  std::string stem = p.stem().string();
  if (stem == "__init__") stem = p.parent_path().filename().string();
  if (stem.empty()) return false;
  for (size_t at = text.find(stem); at != std::string::npos; at = text.find(stem, at + 1)) {
    // The line holding this mention must be an import.
    size_t bol = text.rfind('\n', at);
    bol = bol == std::string::npos ? 0 : bol + 1;
    size_t eol = text.find('\n', at);
    std::string_view line(text.data() + bol, (eol == std::string::npos ? text.size() : eol) - bol);
    size_t first = line.find_first_not_of(" \t");
    if (first == std::string_view::npos) continue;
    line.remove_prefix(first);
    if (line.rfind("import ", 0) == 0 || line.rfind("from ", 0) == 0) return true;
  }
  return false;
}

}  // namespace tlens::lsp
