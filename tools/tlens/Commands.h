// Subcommands of the tlens binary, one file each.
#pragma once

#include <string>
#include <vector>

namespace tlens::cli {

using Args = std::vector<std::string>;

int opsCommand(const Args& args);    ///< tlens ops: the op registry
int trainCommand(const Args& args);  ///< tlens train-mlp: the MLP workload through the graph executor

}  // namespace tlens::cli
