// The allocator's settings per subcommand. tools/tlens/MallocConf.cpp sets jemalloc's defaults for
// the language server (freed pages go back to the system within 0.3 s); the commands that run
// programs keep freed pages instead, so a training step reuses the previous step's pages rather
// than faulting them in again (big outputs: about 5 us per 4 KB page on these VMs).
#pragma once

namespace tlens::cli {

/// Called by `tlens run`, `tlens dap` and `tlens train-mlp` before they start; nothing without jemalloc.
void useComputeAllocatorSettings();

}  // namespace tlens::cli
