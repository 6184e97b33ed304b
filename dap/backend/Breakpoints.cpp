#include "dap/backend/Breakpoints.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <string_view>

#include "lang/syntax/SourceFile.h"

namespace tlens::dap {

namespace {

bool isStatement(std::string_view type) {
  return (type.size() > 10 && type.substr(type.size() - 10) == "_statement") || type == "function_definition" ||
         type == "class_definition" || type == "decorated_definition";
}

bool isCompound(std::string_view type) {
  return type == "if_statement" || type == "for_statement" || type == "while_statement" || type == "try_statement" ||
         type == "with_statement" || type == "function_definition" || type == "class_definition" ||
         type == "decorated_definition" || type == "match_statement";
}

void walk(TSNode n, std::vector<int>& owner, std::vector<char>& start) {
  const uint32_t count = ts_node_named_child_count(n);
  for (uint32_t i = 0; i < count; ++i) {
    TSNode c = ts_node_named_child(n, i);
    std::string_view type = ts_node_type(c);
    if (isStatement(type)) {
      const int first = static_cast<int>(ts_node_start_point(c).row);
      const int last = isCompound(type) ? first : static_cast<int>(ts_node_end_point(c).row);
      if (first < static_cast<int>(start.size())) start[static_cast<size_t>(first)] = 1;
      for (int l = first; l <= last && l < static_cast<int>(owner.size()); ++l) owner[static_cast<size_t>(l)] = first + 1;
    }
    // Decorators and bodies hold statements of their own.
    walk(c, owner, start);
  }
}

}  // namespace

LineTable::LineTable(const lang::SourceFile& file) {
  const size_t n = static_cast<size_t>(file.lineCount()) + 1;
  owner_.assign(n, 0);
  start_.assign(n, 0);
  walk(file.root(), owner_, start_);
}

int LineTable::statementOf(int line) const {
  if (line < 1 || line > static_cast<int>(owner_.size())) return 0;
  return owner_[static_cast<size_t>(line - 1)];
}

bool LineTable::isStatementStart(int line) const {
  return line >= 1 && line <= static_cast<int>(start_.size()) && start_[static_cast<size_t>(line - 1)];
}

int LineTable::nextStatementLine(int line) const {
  for (int l = std::max(line, 1); l <= static_cast<int>(start_.size()); ++l)
    if (start_[static_cast<size_t>(l - 1)]) return l;
  return 0;
}

bool FunctionBreakpoint::matches(const std::string& nodeName, const std::string& opType) const {
  if (name == opType || name == nodeName) return true;
  return regex && std::regex_match(nodeName, *regex);
}

const LineBreakpoint* BreakpointTable::find(const std::string& path, int line) const {
  auto f = files.find(path);
  if (f == files.end()) return nullptr;
  auto b = f->second.byLine.find(line);
  if (b != f->second.byLine.end()) return &b->second;
  const int stmt = f->second.lines->statementOf(line);
  if (stmt == 0 || stmt == line) return nullptr;
  b = f->second.byLine.find(stmt);
  return b == f->second.byLine.end() ? nullptr : &b->second;
}

bool hitConditionPasses(const std::string& condition, int64_t hits) {
  std::string_view c = condition;
  while (!c.empty() && std::isspace(static_cast<unsigned char>(c.front()))) c.remove_prefix(1);
  std::string op;
  while (!c.empty() && std::string_view("<>=%!").find(c.front()) != std::string_view::npos) {
    op += c.front();
    c.remove_prefix(1);
  }
  int64_t n = 0;
  try {
    n = std::stoll(std::string(c));
  } catch (...) {
    return true;
  }
  if (op.empty() || op == ">=") return hits >= n;
  if (op == ">") return hits > n;
  if (op == "==" || op == "=") return hits == n;
  if (op == "<") return hits < n;
  if (op == "<=") return hits <= n;
  if (op == "%") return n > 0 && hits % n == 0;
  return true;
}

std::string canonicalPath(const std::string& path) {
  if (path.empty() || path[0] == '<') return path;
  std::error_code ec;
  auto p = std::filesystem::weakly_canonical(std::filesystem::absolute(path, ec), ec);
  return ec ? path : p.string();
}

}  // namespace tlens::dap
