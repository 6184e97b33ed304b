// A miniature TensorFlow-like native module for the interpreter tests: tensors with shapes
// (operators, reflected operators, @, subscripts, joins), a name_scope context manager, a
// subclassable Layer class and a side-effecting function. It shows how the real tensorflow
// module plugs into the extension points.
#pragma once

#include "InterpTestSupport.h"

namespace fakeflow {

struct State {
  std::vector<std::string> scopes;        ///< name scopes entered, in order ("+a", "-a")
  std::vector<std::string> subscriptKeys;  ///< repr of each key a tensor was indexed with
  int saves = 0;                           ///< calls of the side-effecting save()
  std::vector<tlens::StackFrame> lastStack;
};

class Tensor : public NativeObject {
 public:
  explicit Tensor(std::vector<int64_t> shape) : shape(std::move(shape)) {}
  std::vector<int64_t> shape;  ///< -1: unknown dim

  std::string typeName() const override { return "Tensor"; }
  std::string typeModule() const override { return "fakeflow"; }
  std::string repr(Interpreter&) override {
    std::string s = "Tensor(";
    for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + (shape[i] < 0 ? std::string("?") : std::to_string(shape[i]));
    return s + ")";
  }
  Value getAttr(Interpreter& in, std::string_view name) override {
    if (name == "shape") {
      std::vector<Value> dims;
      for (int64_t d : shape) dims.push_back(d < 0 ? none() : makeInt(d));
      return makeTuple(std::move(dims));
    }
    if (name == "ndim") return makeInt(static_cast<int64_t>(shape.size()));
    return nullptr;
  }
  Value binaryOp(Interpreter& in, BinOp op, const Value& other, bool reflected) override {
    if (op == BinOp::MatMul) {
      auto* o = dynamic_cast<Tensor*>(other.get());
      if (!o) return nullptr;
      const Tensor& a = reflected ? *o : *this;
      const Tensor& b = reflected ? *this : *o;
      if (a.shape.size() != 2 || b.shape.size() != 2) in.raise("ValueError", "matmul needs matrices");
      if (a.shape[1] >= 0 && b.shape[0] >= 0 && a.shape[1] != b.shape[0])
        in.raise("ValueError", "inner dimensions must be equal, but are " + std::to_string(a.shape[1]) + " and " +
                                   std::to_string(b.shape[0]));
      return std::make_shared<Tensor>(std::vector<int64_t>{a.shape[0], b.shape[1]});
    }
    if (asDouble(other) || isUnknown(other)) return std::make_shared<Tensor>(shape);  // broadcast a scalar
    if (auto* o = dynamic_cast<Tensor*>(other.get())) return std::make_shared<Tensor>(o->shape.size() > shape.size() ? o->shape : shape);
    return nullptr;
  }
  Value unaryOp(Interpreter&, UnaryOp) override { return std::make_shared<Tensor>(shape); }
  Value getItem(Interpreter& in, const Value& key) override;
  std::optional<int64_t> len(Interpreter&) override {
    if (shape.empty()) return std::nullopt;
    return shape[0];
  }
  Value iter(Interpreter&) override {
    std::vector<Value> rows;
    for (int64_t i = 0; i < (shape.empty() ? 0 : shape[0]); ++i)
      rows.push_back(std::make_shared<Tensor>(std::vector<int64_t>(shape.begin() + 1, shape.end())));
    return makeList(std::move(rows));
  }
  Truth truthy(Interpreter& in) override {
    in.raise("TypeError", "Using a Tensor as a Python bool is not allowed");
  }
  Value join(Interpreter&, const Value& other) override {
    auto* o = dynamic_cast<Tensor*>(other.get());
    if (!o || o->shape.size() != shape.size()) return nullptr;
    std::vector<int64_t> s(shape.size());
    for (size_t i = 0; i < s.size(); ++i) s[i] = shape[i] == o->shape[i] ? shape[i] : -1;
    return std::make_shared<Tensor>(s);
  }

  State* state = nullptr;
};

class NameScope : public NativeObject {
 public:
  NameScope(State& s, std::string n) : state_(s), name_(std::move(n)) {}
  std::string typeName() const override { return "name_scope"; }
  Value enter(Interpreter&) override {
    state_.scopes.push_back("+" + name_);
    return makeStr(name_ + "/");
  }
  bool exit(Interpreter&, const Value& exc) override {
    state_.scopes.push_back("-" + name_);
    return false;
  }

 private:
  State& state_;
  std::string name_;
};

inline Value Tensor::getItem(Interpreter& in, const Value& key) {
  if (state) state->subscriptKeys.push_back(in.repr(key));
  return std::make_shared<Tensor>(std::vector<int64_t>{-1});
}

inline std::vector<int64_t> toShape(CallContext& c, const Value& v) {
  std::vector<int64_t> s;
  for (const Value& d : c.toList(v)) s.push_back(isNone(d) ? -1 : c.toInt(d));
  return s;
}

/// Registers "fakeflow" and "fakeflow.layers".
inline void install(Interpreter& in, State& st) {
  in.modules().add("fakeflow", [&st](Interpreter&) {
    auto m = makeModule("fakeflow");
    m->set("zeros", NativeFunction::make("zeros", "shape, dtype=None, name=None", [&st](CallContext& c) -> Value {
      auto t = std::make_shared<Tensor>(toShape(c, c.arg("shape")));
      t->state = &st;
      st.lastStack = c.interp.callStack();
      return t;
    }));
    m->set("placeholder", NativeFunction::make("placeholder", "dtype, shape=None, name=None", [&st](CallContext& c) -> Value {
      auto t = std::make_shared<Tensor>(toShape(c, c.arg("shape")));
      t->state = &st;
      return t;
    }));
    m->set("matmul", NativeFunction::make("matmul", "a, b, name=None", [](CallContext& c) -> Value {
      return c.interp.binaryOp(BinOp::MatMul, c.arg("a"), c.arg("b"));
    }));
    m->set("name_scope", NativeFunction::make("name_scope", "name", [&st](CallContext& c) -> Value {
      return std::make_shared<NameScope>(st, c.toStr(c.arg(0)));
    }));
    auto save = NativeFunction::make("save", "path", [&st](CallContext&) -> Value {
      ++st.saves;
      return makeStr("saved");
    });
    save->sideEffecting = true;
    m->set("save", save);
    return m;
  });
  in.modules().add("fakeflow.layers", [](Interpreter& interp) {
    auto m = makeModule("fakeflow.layers");
    // A native base class user code subclasses, like tf.keras.layers.Layer.
    auto layer = makeClass("Layer", {interp.builtinClass("object")}, "fakeflow.layers");
    layer->dict.set("__init__", NativeFunction::make("__init__", "self, name=None", [](CallContext& c) -> Value {
      c.interp.setAttr(c.arg(0), "name", c.isNone("name") ? makeStr("layer") : c.arg("name"));
      c.interp.setAttr(c.arg(0), "built", boolean(false));
      return none();
    }));
    layer->dict.set("__call__", NativeFunction::make("__call__", "self, inputs", [](CallContext& c) -> Value {
      c.interp.setAttr(c.arg(0), "built", boolean(true));
      return c.interp.call(c.interp.getAttr(c.arg(0), "call"), {c.arg(1)});
    }));
    m->set("Layer", layer);
    return m;
  });
}

}  // namespace fakeflow
