// Graph-mode loops (tf.while_loop whose condition is decided by the data, dynamic_rnn over an
// unknown number of time steps), as one functional `While` node whose condition and body are
// frames of the same graph: a frame is the range of node ids created while the loop's Python
// functions ran. The body's parameters are LoopArg nodes; tensors the body uses from outside its
// frame (and variables) become extra inputs of the While node ("captures"), so pruning, placement
// and gradients see them as ordinary inputs. The Session runs the frame once per iteration with a
// nested run of its executor (engine/runtime/SessionLoops.cpp); frame nodes keep their own names,
// creation locations and devices like every other node.
//
// Besides the carried loop variables, a While node can slice inputs along their first axis (the
// body sees element i at iteration i) and stack per-iteration "emits" into outputs [iterations,
// ...]: dynamic_rnn reads its inputs and writes its outputs that way, without copies growing with
// the number of steps.
//
// Gradients: the While's gradient builds a second frame holding the body's symbolic gradient
// (gradientsInRange over the body frame) and a WhileGrad node that runs it once per iteration
// backwards, fed with the values the forward loop recorded (the forward node's "record" attr lists
// the body tensors the gradient frame reads; the forward loop keeps them per iteration while it
// runs, keyed by its handle output).
#pragma once

#include <string>
#include <vector>

#include "engine/graph/Graph.h"

namespace tlens {

/// What the Python side built for one loop.
struct WhileSpec {
  int frameFirst = 0;            ///< graph size before the loop's parameters were made
  std::vector<Output> inits;     ///< initial values of the carried variables
  std::vector<Output> sliced;    ///< inputs read one element (along axis 0) per iteration
  std::vector<Node*> params;     ///< LoopArg nodes: one per carried variable, then one per sliced input
  Output cond;                   ///< scalar bool, computed from the params
  std::vector<Output> next;      ///< the carried variables' values after one iteration
  std::vector<Output> emits;     ///< per-iteration values stacked into outputs
  std::vector<TensorType> varTypes;  ///< the carried variables' types (shape invariants)
};

/// Creates the While node (named "while" under the current scope unless `name` says otherwise).
/// Outputs: the carried variables' final values, the stacked emits ([?, ...]) and an int64 handle.
/// Throws EngineError(InvalidArgument) when the spec is inconsistent.
Node* addWhile(Graph& g, const WhileSpec& spec, const std::string& name = {});

/// A While node's frame and roles, decoded from its attributes.
struct WhileInfo {
  int numVars = 0, numSliced = 0, numEmits = 0;
  int frameFirst = 0, frameEnd = 0;
  std::vector<Node*> params;
  Output cond;
  std::vector<Output> body;    ///< next values, then emits
  std::vector<Output> record;  ///< body tensors recorded per iteration for gradients
  static WhileInfo of(Graph& g, const Node& n);
};

/// A WhileGrad node's frame and roles.
struct WhileGradInfo {
  int numVars = 0, numSliced = 0, numEmits = 0, numForwardInputs = 0;
  int frameFirst = 0, frameEnd = 0;
  Node* forward = nullptr;
  std::vector<Node*> dparams;   ///< per carried variable, then per emit: the incoming gradient (null: none)
  std::vector<Output> results;  ///< per carried variable and sliced input (null: none), then per capture
  std::vector<int> captures;    ///< forward input index of each capture gradient
  static WhileGradInfo of(Graph& g, const Node& n);
};

/// The gradient of a While node (its OpDef's GradFn).
std::vector<Output> whileGradient(GradContext& g);

/// tf.gradients restricted to the nodes with ids in [lo, hi): the walk stops at tensors made
/// outside the range (xs may be such tensors: their gradients sum the paths inside the range).
std::vector<Output> gradientsInRange(Graph& g, const std::vector<Output>& ys, const std::vector<Output>& xs,
                                     const std::vector<Output>& gradYs, int lo, int hi);

/// Attribute encoding of tensor types and outputs (shared by the op definitions and the executor).
std::vector<int64_t> encodeTypes(const std::vector<TensorType>& types);
std::vector<TensorType> decodeTypes(const std::vector<int64_t>& code);
std::vector<int64_t> encodeOutputs(const std::vector<Output>& outs);
std::vector<Output> decodeOutputs(Graph& g, const std::vector<int64_t>& code);

}  // namespace tlens
