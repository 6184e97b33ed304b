// Subcommands of the tlens binary, one file each.
#pragma once

#include <string>
#include <vector>

namespace tlens::cli {

using Args = std::vector<std::string>;

int opsCommand(const Args& args);    ///< tlens ops: the op registry

}  // namespace tlens::cli
