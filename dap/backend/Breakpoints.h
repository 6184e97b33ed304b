// Breakpoints: what the editor asked for, resolved against the program's statements. An
// immutable BreakpointTable is built on the DAP thread and swapped in whole; the program thread
// reads its snapshot without locking (hit counts live on the program thread).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <regex>
#include <string>
#include <unordered_map>
#include <vector>

namespace tlens::lang {
class SourceFile;
}

namespace tlens::dap {

struct LineBreakpointSpec {
  int line = 0;
  std::string condition, hitCondition, logMessage;
};

struct FunctionBreakpointSpec {
  std::string name;  ///< a node name, a name regex ("fc1/.*") or an op type ("MatMul")
  std::string condition, hitCondition;
};

struct BreakpointResult {
  int id = 0;
  bool verified = false;
  int line = 0;  ///< line breakpoints: where it was placed (moved to the next statement)
  std::string message;
};

struct LineBreakpoint {
  int id = 0;
  int line = 0;  ///< the statement's first line
  std::string condition, hitCondition, logMessage;
};

struct FunctionBreakpoint {
  int id = 0;
  std::string name;
  std::optional<std::regex> regex;  ///< when the name is not a plain identifier path
  std::string condition, hitCondition;
  bool matches(const std::string& nodeName, const std::string& opType) const;
};

/// Where statements start, from the file's syntax tree.
class LineTable {
 public:
  explicit LineTable(const lang::SourceFile& file);
  /// The first line of the statement covering `line` (1-based), or 0.
  int statementOf(int line) const;
  /// The first statement line at or after `line`, or 0.
  int nextStatementLine(int line) const;
  bool isStatementStart(int line) const;

 private:
  std::vector<int> owner_;   ///< index line-1: first line of the innermost simple statement covering it
  std::vector<char> start_;  ///< index line-1: a statement starts here
};

struct FileBreakpoints {
  std::shared_ptr<const LineTable> lines;
  std::unordered_map<int, LineBreakpoint> byLine;  ///< by statement start line
};

struct BreakpointTable {
  std::unordered_map<std::string, FileBreakpoints> files;  ///< by canonical path
  std::vector<FunctionBreakpoint> functions;
  bool empty() const { return files.empty() && functions.empty(); }
  /// The breakpoint for code at (path, line): the statement starting there or covering it.
  const LineBreakpoint* find(const std::string& path, int line) const;
};

/// True when hit number `hits` (1-based) passes a hit condition: "5" or ">=5" (from the 5th),
/// ">5", "==5", "%5" (every 5th). An empty or unparsable condition always passes.
bool hitConditionPasses(const std::string& condition, int64_t hits);

/// The canonical form of a path (absolute, normalised) used for matching.
std::string canonicalPath(const std::string& path);

}  // namespace tlens::dap
