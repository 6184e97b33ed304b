// exec(), eval() and compile(): Python source given as a string, parsed by the same Tree-sitter
// parser as files and run by the same evaluator (BuiltinExec.cpp).
#pragma once

namespace tlens::interp {

class Imports;

/// Defines exec, eval and compile in the builtins.
void installExecBuiltins(Imports& layer);

}  // namespace tlens::interp
