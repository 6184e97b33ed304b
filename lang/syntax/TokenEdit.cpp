#include "lang/syntax/TokenEdit.h"

#include <cstring>

#include "lang/syntax/SourceFile.h"  // pythonLanguage()

namespace tlens::lang {

namespace {

enum class Token { Other, Identifier, Integer, Float, Comment, StringContent };

Token tokenOf(TSNode n) {
  const char* t = ts_node_type(n);
  if (!std::strcmp(t, "identifier")) return Token::Identifier;
  if (!std::strcmp(t, "integer")) return Token::Integer;
  if (!std::strcmp(t, "float")) return Token::Float;
  if (!std::strcmp(t, "comment")) return Token::Comment;
  if (!std::strcmp(t, "string_content")) return Token::StringContent;
  return Token::Other;
}

bool digit(char c) { return c >= '0' && c <= '9'; }
bool letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool nonAscii(char c) { return static_cast<unsigned char>(c) >= 0x80; }
/// A character a neighbouring name or number could continue with, or a quote (a name right
/// before a quote is a string prefix: r"...", f"...").
bool joins(char c) { return digit(c) || letter(c) || nonAscii(c) || c == '\'' || c == '"'; }

bool allDigits(std::string_view s) {
  for (char c : s)
    if (!digit(c)) return false;
  return true;
}

/// An ASCII name that is not one of the grammar's keywords (`if`, `print`, `match`, ...: those
/// are anonymous symbols of the grammar, and a name turning into one changes the parse).
bool plainName(std::string_view s) {
  if (s.empty() || !letter(s[0])) return false;
  for (char c : s)
    if (!letter(c) && !digit(c)) return false;
  return ts_language_symbol_for_name(pythonLanguage(), s.data(), static_cast<uint32_t>(s.size()), false) == 0;
}

/// digits '.' digits, at least one digit: what the float token is when only digits change.
bool plainFloat(std::string_view s) {
  size_t dot = s.find('.');
  if (dot == std::string_view::npos || s.find('.', dot + 1) != std::string_view::npos || s.size() < 2) return false;
  return allDigits(s.substr(0, dot)) && allDigits(s.substr(dot + 1));
}

/// Text a comment can lose or gain and stay one comment: anything but a line break.
bool commentText(std::string_view s) { return s.find_first_of("\r\n") == std::string_view::npos; }

/// Text string content can lose or gain and stay the same token: no quote, backslash (escapes),
/// brace (f-string fields) or line break.
bool stringText(std::string_view s) { return s.find_first_of("'\"\\{}\r\n") == std::string_view::npos; }

}  // namespace

TSTree* editWithinToken(const TSTree* oldTree, std::string_view oldText, std::string_view newText,
                        const TSInputEdit& e) {
  TSNode root = ts_tree_root_node(oldTree);
  if (ts_node_has_error(root) || ts_node_end_byte(root) > oldText.size()) return nullptr;
  uint32_t start = e.start_byte, oldEnd = e.old_end_byte, newEnd = e.new_end_byte;
  if (oldEnd < start || newEnd < start || oldEnd > oldText.size() || newEnd > newText.size()) return nullptr;
  if (e.start_point.row != e.old_end_point.row || e.start_point.row != e.new_end_point.row) return nullptr;
  // The token holding the edit: for an insertion, the one ending where it goes (it grows).
  bool insertion = oldEnd == start;
  if (insertion && start == 0) return nullptr;
  TSNode leaf = insertion ? ts_node_descendant_for_byte_range(root, start - 1, start)
                          : ts_node_descendant_for_byte_range(root, start, oldEnd);
  if (ts_node_is_null(leaf) || ts_node_child_count(leaf) != 0 || ts_node_is_missing(leaf)) return nullptr;
  uint32_t from = ts_node_start_byte(leaf), to = ts_node_end_byte(leaf);
  // Strictly inside, or replacing from its first byte (an insertion before a token is given to
  // the token before it by Tree-sitter's edit).
  if (from > start || oldEnd > to || (insertion && from == start)) return nullptr;
  Token kind = tokenOf(leaf);
  if (kind == Token::Other) return nullptr;
  int64_t delta = static_cast<int64_t>(newEnd) - static_cast<int64_t>(oldEnd);
  uint32_t newTo = static_cast<uint32_t>(static_cast<int64_t>(to) + delta);
  std::string_view oldToken = oldText.substr(from, to - from), newToken = newText.substr(from, newTo - from);
  std::string_view removed = oldText.substr(start, oldEnd - start), added = newText.substr(start, newEnd - start);
  char before = from > 0 ? oldText[from - 1] : ' ';
  char after = to < oldText.size() ? oldText[to] : ' ';
  switch (kind) {
    case Token::Identifier:
      if (!plainName(oldToken) || !plainName(newToken) || joins(before) || after == '\'' || after == '"') return nullptr;
      break;
    case Token::Integer:
      if (newToken.empty() || !allDigits(oldToken) || !allDigits(newToken) || joins(before) || joins(after) ||
          before == '.' || after == '.')
        return nullptr;
      break;
    case Token::Float:
      if (!plainFloat(oldToken) || !plainFloat(newToken) || !allDigits(removed) || !allDigits(added) || joins(before) ||
          joins(after) || before == '.' || after == '.')
        return nullptr;
      break;
    case Token::Comment:
      if (start == from || !commentText(removed) || !commentText(added)) return nullptr;  // keeps its '#'
      break;
    case Token::StringContent:
      if (newToken.empty() || !stringText(removed) || !stringText(added)) return nullptr;
      break;
    case Token::Other:
      return nullptr;
  }
  TSTree* tree = ts_tree_copy(oldTree);
  ts_tree_edit(tree, &e);
  // What the edit must have done: the token now spans [from, newTo), same kind, and the tree
  // ends where the old one did, moved by the edit.
  TSNode now = ts_node_descendant_for_byte_range(ts_tree_root_node(tree), from, from);
  bool ok = !ts_node_is_null(now) && ts_node_start_byte(now) == from && ts_node_end_byte(now) == newTo &&
            ts_node_symbol(now) == ts_node_symbol(leaf) && ts_node_child_count(now) == 0 &&
            static_cast<int64_t>(ts_node_end_byte(ts_tree_root_node(tree))) == static_cast<int64_t>(ts_node_end_byte(root)) + delta;
  if (!ok) {
    ts_tree_delete(tree);
    return nullptr;
  }
  return tree;
}

}  // namespace tlens::lang
