// SourceLocation and StackFrame: where a graph node, an eager op or a diagnostic comes from in the
// user's Python source. Part of engine/base, the dependency-free layer that the engine, the
// interpreter (lang/syntax, lang/interp) and the protocol layers share: it includes only the
// standard library, so including it never pulls in the graph, the op registry or Eigen.
#pragma once

#include <string>

namespace tlens {

struct SourceLocation {
  std::string file;
  int line = 0;     ///< 1-based; 0 when unknown
  int column = 0;   ///< 1-based
  int endLine = 0;
  int endColumn = 0;  ///< 1-based, exclusive
  bool known() const { return line > 0; }
  std::string str() const;  ///< "file.py:12:5"
};

/// One frame of the Python call stack that created a node, outermost first in Node::stack.
struct StackFrame {
  std::string function;  ///< "<module>", "multilayer_perceptron"
  SourceLocation location;
};

}  // namespace tlens
