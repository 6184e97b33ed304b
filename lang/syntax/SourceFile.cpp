#include "lang/syntax/SourceFile.h"

#include "lang/syntax/ChildCache.h"
#include "lang/syntax/TextDiff.h"
#include "lang/syntax/TokenEdit.h"

#include <algorithm>
#include <cstring>

extern "C" const TSLanguage* tree_sitter_python();

namespace tlens::lang {

const TSLanguage* pythonLanguage() { return tree_sitter_python(); }

namespace {

TSTree* parse(const TSTree* old, const std::string& text) {
  TSParser* p = ts_parser_new();
  ts_parser_set_language(p, pythonLanguage());
  TSTree* t = ts_parser_parse_string(p, old, text.data(), static_cast<uint32_t>(text.size()));
  ts_parser_delete(p);
  return t;
}

TSPoint pointOf(const std::vector<uint32_t>& lineStarts, uint32_t byte) {
  auto it = std::upper_bound(lineStarts.begin(), lineStarts.end(), byte);
  size_t line = static_cast<size_t>(it - lineStarts.begin()) - 1;
  return TSPoint{static_cast<uint32_t>(line), byte - lineStarts[line]};
}

}  // namespace

SourceFile::SourceFile(std::string path, std::string text) : path_(std::move(path)), text_(std::move(text)) {
  indexLines();
  tree_ = parse(nullptr, text_);
  finish();
}

SourceFile::SourceFile(const SourceFile& previous, std::string text) : path_(previous.path_), text_(std::move(text)) {
  indexLines();
  const std::string& a = previous.text_;
  const std::string& b = text_;
  // The edited range: [start, oldEnd) of the old text became [start, newEnd) of the new one.
  size_t start = commonPrefix(a, b);
  size_t tail = commonSuffix(a, b, start);
  if (start == a.size() && start == b.size()) {
    tree_ = ts_tree_copy(previous.tree_);
  } else {
    TSInputEdit e;
    e.start_byte = static_cast<uint32_t>(start);
    e.old_end_byte = static_cast<uint32_t>(a.size() - tail);
    e.new_end_byte = static_cast<uint32_t>(b.size() - tail);
    e.start_point = pointOf(previous.lineStarts_, e.start_byte);
    e.old_end_point = pointOf(previous.lineStarts_, e.old_end_byte);
    e.new_end_point = pointOf(lineStarts_, e.new_end_byte);
    // An edit inside one token that keeps its kind needs no parse (TokenEdit.h).
    tree_ = editWithinToken(previous.tree_, a, b, e);
    if (!tree_) {
      TSTree* old = ts_tree_copy(previous.tree_);  // the previous file keeps its tree unchanged
      ts_tree_edit(old, &e);
      tree_ = parse(old, text_);
      ts_tree_delete(old);
    }
  }
  finish();
}

void SourceFile::indexLines() {
  // A lone '\r' ends a line, for Python (universal newlines) and for LSP positions; Tree-sitter
  // counts rows at '\n' only, so it becomes '\n' here: one byte for one, offsets unchanged.
  for (size_t i = 0; i < text_.size(); ++i)
    if (text_[i] == '\r' && (i + 1 == text_.size() || text_[i + 1] != '\n')) text_[i] = '\n';
  lineStarts_.push_back(0);
  for (uint32_t i = 0; i < text_.size(); ++i)
    if (text_[i] == '\n') lineStarts_.push_back(i + 1);
}

namespace {

bool isStatementContainer(const char* t) {
  // Where statements live: the module, blocks, compound statements and their clauses.
  std::string_view v(t);
  return v == "module" || v == "block" || v == "function_definition" || v == "class_definition" ||
         v == "decorated_definition" || (v.size() > 10 && v.substr(v.size() - 10) == "_statement") ||
         (v.size() > 7 && v.substr(v.size() - 7) == "_clause");
}

void collectBrokenAssignments(TSNode top, const std::string& text_, std::vector<SyntaxError>& errors_) {
  // `x = # FILL IN` followed by a statement: Tree-sitter's scanner emits no NEWLINE where the
  // grammar cannot take one, so it parses `x = <next line>` without an error, where CPython's
  // tokenizer ends the line and rejects the file. An assignment whose right side starts on a
  // later line than its operator, with no backslash between them, is that case (inside
  // brackets an assignment is a keyword argument or a walrus, other node types). Only statement
  // containers are walked: the cost is the number of statements, not of nodes.
  std::vector<TSNode> stack{top};
  while (!stack.empty() && errors_.size() < 100) {
    TSNode n = stack.back();
    stack.pop_back();
    const char* type = ts_node_type(n);
    if (std::strcmp(type, "expression_statement") == 0) {
      TSNode a = ts_node_named_child_count(n) > 0 ? ts_node_named_child(n, 0) : TSNode{};
      while (!ts_node_is_null(a) && (std::strcmp(ts_node_type(a), "assignment") == 0 ||
                                     std::strcmp(ts_node_type(a), "augmented_assignment") == 0)) {
        TSNode op = ts_node_child_by_field_name(a, "operator", 8);
        TSNode right = ts_node_child_by_field_name(a, "right", 5);
        if (ts_node_is_null(op)) {
          // `x = y` has no operator field: the anonymous "=" child before the right side.
          for (uint32_t i = 0; i < ts_node_child_count(a); ++i) {
            TSNode c = ts_node_child(a, i);
            if (!ts_node_is_named(c) && std::strcmp(ts_node_type(c), "=") == 0) op = c;
          }
        }
        if (ts_node_is_null(op) || ts_node_is_null(right)) break;
        TSPoint opEnd = ts_node_end_point(op), rs = ts_node_start_point(right);
        if (rs.row > opEnd.row) {
          std::string_view gap(text_.data() + ts_node_end_byte(op), ts_node_start_byte(right) - ts_node_end_byte(op));
          if (gap.find('\\') == std::string_view::npos) {
            TextPos at{static_cast<int>(opEnd.row), static_cast<int>(opEnd.column)};
            size_t eol = text_.find('\n', ts_node_end_byte(op));
            size_t lineStart = ts_node_end_byte(op) - opEnd.column;
            TextPos end{static_cast<int>(opEnd.row), static_cast<int>((eol == std::string::npos ? text_.size() : eol) - lineStart)};
            errors_.push_back({at, end, "invalid syntax"});
            break;
          }
        }
        a = right;  // a = b = c
      }
      continue;
    }
    if (!isStatementContainer(type)) continue;
    for (uint32_t i = ts_node_named_child_count(n); i-- > 0;) stack.push_back(ts_node_named_child(n, i));
  }
  std::stable_sort(errors_.begin(), errors_.end(), [](const SyntaxError& x, const SyntaxError& y) {
    return x.start.line != y.start.line ? x.start.line < y.start.line : x.start.column < y.start.column;
  });
}

}  // namespace

void SourceFile::finish() {
  children_ = std::make_unique<ChildCache>(tree_);
  collectErrors(root());
  collectBrokenAssignments(root(), text_, errors_);
}


SourceFile::~SourceFile() {
  children_.reset();  // unregisters the tree before it is freed
  if (tree_) ts_tree_delete(tree_);
}

std::string_view SourceFile::textOf(TSNode n) const {
  uint32_t b = ts_node_start_byte(n), e = ts_node_end_byte(n);
  if (b > text_.size() || e > text_.size() || e < b) return {};
  return std::string_view(text_).substr(b, e - b);
}

TextPos SourceFile::positionOf(uint32_t byte) const {
  byte = std::min<uint32_t>(byte, static_cast<uint32_t>(text_.size()));
  auto it = std::upper_bound(lineStarts_.begin(), lineStarts_.end(), byte);
  int line = static_cast<int>(it - lineStarts_.begin()) - 1;
  return TextPos{line, static_cast<int>(byte - lineStarts_[static_cast<size_t>(line)])};
}

uint32_t SourceFile::offsetOf(TextPos p) const {
  if (p.line < 0) return 0;
  if (p.line >= lineCount()) return static_cast<uint32_t>(text_.size());
  std::string_view l = lineText(p.line);
  int col = std::clamp(p.column, 0, static_cast<int>(l.size()));
  return lineStarts_[static_cast<size_t>(p.line)] + static_cast<uint32_t>(col);
}

std::string_view SourceFile::lineText(int line) const {
  if (line < 0 || line >= lineCount()) return {};
  uint32_t b = lineStarts_[static_cast<size_t>(line)];
  uint32_t e = line + 1 < lineCount() ? lineStarts_[static_cast<size_t>(line) + 1] : static_cast<uint32_t>(text_.size());
  std::string_view s = std::string_view(text_).substr(b, e - b);
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

int SourceFile::utf16Column(int line, int byteColumn) const {
  std::string_view l = lineText(line);
  int units = 0;
  for (int i = 0; i < byteColumn && i < static_cast<int>(l.size());) {
    unsigned char c = static_cast<unsigned char>(l[static_cast<size_t>(i)]);
    int len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 1;
    units += len == 4 ? 2 : 1;
    i += len;
  }
  return units;
}

int SourceFile::byteColumn(int line, int utf16Col) const {
  std::string_view l = lineText(line);
  int units = 0, i = 0;
  while (i < static_cast<int>(l.size()) && units < utf16Col) {
    unsigned char c = static_cast<unsigned char>(l[static_cast<size_t>(i)]);
    int len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 1;
    units += len == 4 ? 2 : 1;
    i += len;
  }
  return std::min(i, static_cast<int>(l.size()));
}

SourceLocation SourceFile::locationOf(TSNode n) const {
  TSPoint s = ts_node_start_point(n), e = ts_node_end_point(n);
  SourceLocation loc;
  loc.file = path_;
  loc.line = static_cast<int>(s.row) + 1;
  loc.column = static_cast<int>(s.column) + 1;
  loc.endLine = static_cast<int>(e.row) + 1;
  loc.endColumn = static_cast<int>(e.column) + 1;
  return loc;
}

TSNode SourceFile::nodeAt(uint32_t offset) const {
  return ts_node_named_descendant_for_byte_range(root(), offset, offset);
}

void SourceFile::collectErrors(TSNode top) {
  // An explicit stack, not recursion: 10,000 nested parentheses must not overflow the C++ stack.
  std::vector<TSNode> stack{top};
  while (!stack.empty() && errors_.size() < 100) {
    TSNode n = stack.back();
    stack.pop_back();
    if (!ts_node_has_error(n)) continue;
    if (ts_node_is_missing(n)) {
      TSPoint p = ts_node_start_point(n);
      TextPos at{static_cast<int>(p.row), static_cast<int>(p.column)};
      errors_.push_back({at, at, std::string("missing '") + ts_node_type(n) + "'"});
      continue;
    }
    if (std::strcmp(ts_node_type(n), "ERROR") == 0) {
      TSPoint s = ts_node_start_point(n), e = ts_node_end_point(n);
      if (e.row > s.row) {
        // A multi-line ERROR (Tree-sitter could not fit the statements around the problem into
        // the tree, at worst the whole file's): the problem is where its complete statements
        // end, as CPython says (`batch_size =` on line 53, not line 1).
        for (uint32_t i = 0; i < ts_node_child_count(n); ++i) {
          TSNode c = ts_node_child(n, i);
          if (ts_node_is_named(c) && !ts_node_has_error(c) &&
              (isStatementContainer(ts_node_type(c)) || std::strcmp(ts_node_type(c), "comment") == 0))
            continue;
          s = ts_node_start_point(c);
          e = ts_node_end_point(c);
          break;
        }
      }
      errors_.push_back({{static_cast<int>(s.row), static_cast<int>(s.column)},
                         {static_cast<int>(e.row), static_cast<int>(e.column)},
                         "invalid syntax"});
      continue;
    }
    // Children in reverse so errors come out in source order.
    for (uint32_t i = ts_node_child_count(n); i-- > 0;) stack.push_back(ts_node_child(n, i));
  }
}

}  // namespace tlens::lang
