// SourceFile: one Python file's text and its Tree-sitter syntax tree, with position conversions
// (byte offsets, 0-based lines, UTF-8 and UTF-16 columns) and the syntax errors Tree-sitter
// recovered from. Immutable once built: an edit makes a new SourceFile (re-parsing incrementally
// from the old tree), so analyses can hold one without locks.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <tree_sitter/api.h>

#include "engine/base/SourceLocation.h"

namespace tlens::lang {
class ChildCache;
}

namespace tlens::lang {

/// A 0-based line and a byte column within it.
struct TextPos {
  int line = 0;
  int column = 0;
  bool operator==(const TextPos& o) const { return line == o.line && column == o.column; }
};

struct SyntaxError {
  TextPos start, end;
  std::string message;  ///< "invalid syntax" or "missing ')'"
};

class SourceFile {
 public:
  /// Parses `text`. Never fails: broken code yields a tree with ERROR nodes and syntaxErrors().
  SourceFile(std::string path, std::string text);
  /// Parses `text`, a later version of `previous`'s text, incrementally: the one edited range
  /// (the bytes between their common prefix and common suffix) is re-parsed, the rest of the
  /// old tree is reused. Same result as the constructor above, in a fraction of the time.
  SourceFile(const SourceFile& previous, std::string text);
  ~SourceFile();
  SourceFile(const SourceFile&) = delete;
  SourceFile& operator=(const SourceFile&) = delete;

  const std::string& path() const { return path_; }
  const std::string& text() const { return text_; }
  TSNode root() const { return ts_tree_root_node(tree_); }
  const TSTree* tree() const { return tree_; }

  std::string_view textOf(TSNode n) const;
  TextPos positionOf(uint32_t byte) const;
  uint32_t offsetOf(TextPos p) const;  ///< clamped to the line and the file
  int lineCount() const { return static_cast<int>(lineStarts_.size()); }
  std::string_view lineText(int line) const;
  /// Column conversions for editors that count UTF-16 code units (LSP's default).
  int utf16Column(int line, int byteColumn) const;
  int byteColumn(int line, int utf16Column) const;

  /// The engine's 1-based location of a node (what graph nodes record).
  SourceLocation locationOf(TSNode n) const;
  const std::vector<SyntaxError>& syntaxErrors() const { return errors_; }
  /// The smallest named node that covers byte `offset`.
  TSNode nodeAt(uint32_t offset) const;

 private:
  void indexLines();
  void finish();
  void collectErrors(TSNode n);
  std::string path_;
  std::string text_;
  TSTree* tree_ = nullptr;
  std::unique_ptr<ChildCache> children_;  ///< children of each node, listed once (ChildCache.h)
  std::vector<uint32_t> lineStarts_;
  std::vector<SyntaxError> errors_;
};

/// The Python grammar (tree-sitter-python, fetched at configure time).
const TSLanguage* pythonLanguage();

}  // namespace tlens::lang
