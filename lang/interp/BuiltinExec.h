// exec(), eval() and compile(): Python source given as a string, parsed by the same Tree-sitter
// parser as files and run by the same evaluator (BuiltinExec.cpp).
#pragma once

namespace tlens::interp {

class Machine;

/// Defines exec, eval and compile in the builtins.
void installExecBuiltins(Machine& m);

}  // namespace tlens::interp
