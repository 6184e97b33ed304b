// applyOp: one op of the registry applied to Python values, the way the current context asks
// for (see TfRuntime.h): a graph node, an eager kernel run, or (abstract mode) only the shape
// function. Python numbers, lists and numpy arrays among the inputs become constants; a list
// holding tensors is packed (tf.stack), as TensorFlow's conversion does.
#pragma once

#include <string>
#include <vector>

#include "lang/tf/TensorObj.h"
#include "lang/tf/TfRuntime.h"

namespace tlens::tf {

struct OpRequest {
  std::string type;                 ///< op type: "MatMul"
  std::vector<interp::Value> inputs;
  Attrs attrs;
  std::string name;                 ///< the `name=` argument, empty when none
  /// Python literals among the inputs take the dtype of the tensor inputs (TF's weak scalars;
  /// numpy's NEP 50 rules for ndarrays), and ndarray inputs of different dtypes are promoted.
  bool unifyDTypes = false;
  /// Results are numpy arrays (numpy functions, operators on ndarrays).
  bool ndarray = false;
  /// Python literals (no tensor to follow) become this dtype; Invalid: TF's defaults (int32,
  /// float32) or numpy's (int64, float64) when `ndarray`.
  DType literalDType = DType::Invalid;
};

/// The op's outputs as TensorObj values. Raises Python exceptions in concrete mode (ValueError
/// for shape errors while building a graph, tf.errors.* for kernel errors); in abstract mode a
/// shape error becomes a diagnostic and the outputs have unknown shapes.
std::vector<interp::Value> applyOp(TfRuntime& rt, OpRequest req);
/// The first output.
interp::Value applyOp1(TfRuntime& rt, OpRequest req);

/// A Python value as a tensor: TensorObj values are returned as they are; numbers, (nested)
/// lists and tuples become constants of `dtype` (Invalid: inferred with TF's or numpy's
/// defaults). Raises TypeError for values that are not tensor-like.
std::shared_ptr<TensorObj> toTensor(TfRuntime& rt, const interp::Value& v, DType dtype = DType::Invalid,
                                    bool numpyDefaults = false);
/// A tensor with a known value (a constant) in the current context.
std::shared_ptr<TensorObj> constantTensor(TfRuntime& rt, Tensor value, bool ndarray);
/// A tensor of a given static type and no value (abstract mode, and placeholders' stand-ins).
/// `opType`/`index`: the op output it is (for TfRuntime::records).
std::shared_ptr<TensorObj> abstractTensor(TfRuntime& rt, TensorType type, bool ndarray,
                                          const std::string& opType = {}, int index = 0);
/// Wraps an eager value (concrete mode). `origin`: the user's location when the caller has it
/// (null: read from the Python stack).
std::shared_ptr<TensorObj> concreteTensor(TfRuntime& rt, EagerValue v, bool ndarray,
                                          const std::string& opType = {}, int index = 0,
                                          const SourceLocation* origin = nullptr);
/// Wraps a graph output.
std::shared_ptr<TensorObj> symbolicTensor(TfRuntime& rt, Graph& g, Output out);

/// A Python literal (number, nested list/tuple of numbers) as a host tensor, or nullopt when
/// `v` is not one. Unknown values inside throw NeedsKnownValue.
std::optional<Tensor> literalToTensor(interp::Interpreter& in, const interp::Value& v, DType dtype,
                                      bool numpyDefaults);
/// A host tensor as Python values: a number for a scalar, nested lists otherwise (tolist()).
/// String elements become bytes, or str when `strKind` is 'U' (a numpy str array).
interp::Value tensorToPython(const Tensor& t, char strKind = 0);
/// 'U' when `v` is a str or a (nested) list of only str (and bytes), 'S' when only bytes, else 0.
char literalStringKind(const interp::Value& v);
/// The dtype TF/numpy give a Python literal, or Invalid when `v` is not a literal.
DType literalDType(const interp::Value& v, bool numpyDefaults);

/// Abstract mode: a TensorType for a literal list that holds unknown ints (its dims become
/// unknown in `asShape`), e.g. [-1, n]. nullopt when `v` is not such a list.
/// requireInts: a list of untyped unknowns only (no known int) is not taken for ints.
std::optional<TensorType> partialIntList(interp::Interpreter& in, const interp::Value& v, bool requireInts = false);

/// numpy's check before allocating an array: MemoryError with numpy's message ("Unable to
/// allocate 7.28 TiB for an array with shape (1000000, 1000000) and data type float64") when it
/// is larger than the machine's memory (or the address-space limit).
void checkArrayAllocation(interp::Interpreter& in, const ConcreteShape& shape, DType dtype);

/// numpy's spelling of a shape in its messages: "(2,3)", "(4,)", "()" (no spaces).
std::string npShape(const ConcreteShape& s);

}  // namespace tlens::tf
