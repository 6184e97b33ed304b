// Workspace: what cross-file features see of the other files (definition and references of a
// symbol imported from another workspace module). A read-only view handed to the features by the
// server: the workspace roots, the workspace's .py files, and a loader that returns a file's
// editor text when it is open and its disk text otherwise. Module resolution mirrors the
// interpreter's (lang/interp/ExecImport.cpp): the importing file's directory, then the roots;
// `a.b` is `a/b.py` or `a/b/__init__.py`; relative imports climb from the importing file.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "lang/syntax/SourceFile.h"

namespace tlens::lsp {

struct WorkspaceView {
  std::vector<std::string> roots;
  /// Workspace .py files (discovered on disk) and open documents, by path; may overlap.
  std::vector<std::string> files;
  /// Open documents' text by path (the editor's text wins over the disk).
  std::shared_ptr<const std::map<std::string, std::shared_ptr<const std::string>>> open;

  /// The file's text (open document, else disk), or nullopt when it does not exist.
  std::optional<std::string> text(const std::string& path) const;
  bool exists(const std::string& path) const;
  /// `module` with `level` leading dots (0: absolute) imported from `fromPath` -> the file
  /// (`.py` or `__init__.py`), or nullopt (not a workspace module: tensorflow, numpy, ...).
  std::optional<std::string> resolveModule(const std::string& module, int level, const std::string& fromPath) const;
};

/// True when `text` may import the module `path` defines (`import m`, `from m import`,
/// `from .m import`, `from . import m`): a cheap textual filter before any parse.
bool mayImport(const std::string& text, const std::string& path);

}  // namespace tlens::lsp
