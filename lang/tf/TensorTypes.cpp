// tf.Tensor and tf.Variable: see TensorTypes.h.
#include "lang/tf/TensorTypes.h"

#include "lang/tf/TensorObj.h"

namespace tlens::tf {

using namespace interp;

Value TensorTypeObj::call(CallContext& c) {
  if (!constructor) return nullptr;
  return c.interp.call(constructor, c.args, c.kwargs);
}

Value TensorTypeObj::getAttr(Interpreter& in, std::string_view name) {
  if (name == "__name__") return makeStr(kind == Kind::Tensor ? "Tensor" : "Variable");
  if (name == "__module__")
    return makeStr(kind == Kind::Tensor ? "tensorflow.python.framework.ops" : "tensorflow.python.ops.variables");
  return nullptr;
}

bool TensorTypeObj::instanceCheck(Interpreter& in, const Value& v) {
  auto* t = dynamic_cast<TensorObj*>(v.get());
  if (!t || t->ndarray) return false;
  return kind == Kind::Variable ? t->variable : !t->variable;
}

std::string TensorTypeObj::repr(Interpreter& in) {
  return kind == Kind::Tensor ? "<class 'tensorflow.python.framework.ops.Tensor'>"
                              : "<class 'tensorflow.python.ops.variables.Variable'>";
}

}  // namespace tlens::tf
