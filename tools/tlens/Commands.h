// Subcommands of the tlens binary, one file each.
#pragma once

#include <string>
#include <vector>

namespace tlens::cli {

using Args = std::vector<std::string>;

int opsCommand(const Args& args);    ///< tlens ops: the op registry
int trainCommand(const Args& args);  ///< tlens train-mlp: the MLP workload through the graph executor
int runCommand(const Args& args);    ///< tlens run: run a program (concrete mode)
int checkCommand(const Args& args);  ///< tlens check: abstract analysis, diagnostics
int graphCommand(const Args& args);  ///< tlens graph: the graphs a program builds
int dapCommand(const Args& args);    ///< tlens dap: the debug adapter (stdio or --port N)
int lspCommand(const Args& args);    ///< tlens lsp: the language server (stdio or --port N)

}  // namespace tlens::cli
