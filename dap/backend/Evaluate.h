// Evaluate: expressions of the debug console, watches, hovers, breakpoint conditions and
// logpoints, run by the interpreter in a stopped frame's scope. Program thread only.
//
// Tensor operations run eagerly, also in TF1 programs (no node is added to the user's graph):
// while evaluating, the runtime builds no graph. At a stop inside a graph run, names bound to
// graph tensors that this run has already computed evaluate to their values, so
// `tf.reduce_max(fc1) > 10` works as a condition on the node that computes fc1.
#pragma once

#include <string>

#include "dap/backend/DebuggerImpl.h"
#include "lang/interp/Value.h"

namespace tlens::interp {
class Interpreter;
struct Frame;
}  // namespace tlens::interp
namespace tlens::tf {
class TfRuntime;
}

namespace tlens::dap {

/// The innermost frame of user code (not the embedded library), or null when none.

/// Evaluates `source` in `frame`'s scope (null: the main module's globals). With
/// `allowStatements`, a statement (`x = 3`) runs and yields None. Throws DebuggerError with the
/// Python error's summary.
/// `extra`: names bound first (the console's `pt` binds the tensor it prints).
/// `bindings`: a node or construction frame's names (frameBindings), seen first, with this
/// run's values for their graph tensors and variables.
interp::Value evaluateIn(interp::Interpreter& in, tf::TfRuntime& rt, const Debugger::Impl& impl,
                         interp::Frame* frame, const std::string& source, bool allowStatements,
                         std::shared_ptr<interp::Env> extra = nullptr,
                         const Debugger::Impl::FrameNames* bindings = nullptr);

/// The names a node or construction frame (stackTrace id `frameId`) saw when its node was
/// built, or null (another kind of frame, or none were kept).
const Debugger::Impl::FrameNames* frameBindings(const Debugger::Impl& impl, int frameId);

/// A frame's recorded names (its globals, then its locals over them; only the locals with
/// `localsOnly`) with each graph tensor or graph variable that has a value in this run replaced
/// by that value (an eager tensor); others as they are.
std::shared_ptr<interp::Env> creationScope(tf::TfRuntime& rt, const Debugger::Impl& impl,
                                           const Debugger::Impl::FrameNames& names, bool localsOnly);

/// A breakpoint condition in the innermost user frame; `evaluating` is set while it runs.
bool evaluateCondition(interp::Interpreter& in, tf::TfRuntime& rt, const Debugger::Impl& impl,
                       const std::string& expr, bool& evaluating);

/// A logpoint message with each `{expr}` replaced by str() of its value (errors in place).
std::string interpolateLogMessage(interp::Interpreter& in, tf::TfRuntime& rt, const Debugger::Impl& impl,
                                  const std::string& message, bool& evaluating);

/// A line of the Python line history as a scope: its recorded names (null when none were kept);
/// at module level, names the history did not record (objects) have their values in `moduleNow`.
std::shared_ptr<interp::Env> lineScope(const Debugger::Impl::PyLine& l, const interp::Env* moduleNow);

}  // namespace tlens::dap
