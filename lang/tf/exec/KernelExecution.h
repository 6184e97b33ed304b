// KernelExecution: the Execution of lang/tf/Execution.h over the engine's runtime (EagerContext,
// Session, GradientTape, the kernels). `tlens_tf_exec` is the only part of lang/tf that links
// tlens_runtime; whoever runs programs concretely passes kernelExecution() as
// TfOptions::execution. The language server never links it (docs/layering.md).
#pragma once

#include "lang/tf/TfRuntime.h"

namespace tlens {
class EagerContext;
}

namespace tlens::tf {

/// The backend: the machine's devices (machineDevices) and one KernelExecution per concrete run.
const ExecutionBackend& kernelExecution();

/// The eager context of a concrete run (for the debugger's evaluations); throws EngineError in
/// abstract mode.
EagerContext& eagerContext(TfRuntime& rt);

}  // namespace tlens::tf
