// tf.Tensor and tf.Variable as the classes programs test against: `isinstance(x, tf.Tensor)`,
// `isinstance(v, tf.Variable)`, annotations. Tensors are native objects (lang/tf/TensorObj.h), so
// these are native objects too, answering isinstance as TensorFlow 2 does: graph and eager tensors
// are tf.Tensor, variables are tf.Variable and not tf.Tensor, numpy arrays are neither. Calling
// one calls its constructor (tf.Variable(1.0)); tf.Tensor cannot be called, as in TensorFlow.
#pragma once

#include "lang/interp/NativeObject.h"

namespace tlens::tf {

class TensorTypeObj : public interp::NativeObject {
 public:
  enum class Kind { Tensor, Variable };
  TensorTypeObj(Kind kind, interp::Value constructor) : kind(kind), constructor(std::move(constructor)) {}
  Kind kind;
  interp::Value constructor;  ///< a Python function, or null

  std::string typeName() const override { return "type"; }
  bool isCallable() const override { return static_cast<bool>(constructor); }
  interp::Value call(interp::CallContext& c) override;
  interp::Value getAttr(interp::Interpreter& in, std::string_view name) override;
  bool instanceCheck(interp::Interpreter& in, const interp::Value& v) override;
  std::string repr(interp::Interpreter& in) override;
};

}  // namespace tlens::tf
