// Test helpers for the array and slicing families: the compact shape notation of OpTestUtil plus
// scalar constants ("int32=5"), constants of any shape ("int32=[1,2,3,4]@[2,2]") and shape-valued
// vectors ("shape=[b,28,28]": an int32 vector whose asShape holds those dims), and access to the
// inferred values / asShape of the outputs.
#pragma once

#include <sstream>

#include "OpTestUtil.h"

namespace tlens::test::arraytest {

struct ArrayInfer {
  bool ok = false;
  std::string error;
  std::vector<TensorType> outputs;
  std::string shapes;  ///< "[2, 4];[3]"
  /// Output i's asShape as "[b, -1]", or "none".
  std::string asShape(size_t i = 0) const {
    if (i >= outputs.size() || !outputs[i].asShape) return "none";
    return outputs[i].asShape->str();
  }
  /// Output i's value as int64s (empty when unknown).
  std::vector<int64_t> value(size_t i = 0) const {
    if (i >= outputs.size() || !outputs[i].value) return {};
    return outputs[i].value->toInt64Vector();
  }
  bool hasValue(size_t i = 0) const { return i < outputs.size() && outputs[i].value != nullptr; }
};

inline std::vector<int64_t> parseInts(std::string body) {
  for (char& ch : body)
    if (ch == '[' || ch == ']' || ch == ',') ch = ' ';
  std::istringstream is(body);
  std::vector<int64_t> vals;
  for (int64_t x; is >> x;) vals.push_back(x);
  return vals;
}

inline ArrayInfer inferArray(const std::string& op, const std::string& inputs, const Attrs& attrs = {}) {
  const OpDef& def = OpRegistry::global().get(op);
  std::map<std::string, uint32_t> names;
  std::vector<TensorType> types;
  std::string rest = inputs;
  while (true) {
    size_t semi = rest.find(';');
    std::string tok = rest.substr(0, semi);
    rest = semi == std::string::npos ? "" : rest.substr(semi + 1);
    if (tok.empty() && semi == std::string::npos && types.empty()) break;
    TensorType t;
    t.dtype = DType::Float32;
    const size_t eq = tok.find('=');
    if (eq != std::string::npos && tok.substr(0, eq) == "shape") {
      std::string body = tok.substr(eq + 1);
      for (char& ch : body)
        if (ch == '[' || ch == ']') ch = ' ';
      std::vector<Dim> dims;
      std::istringstream is(body);
      for (std::string d; std::getline(is, d, ',');) {
        d.erase(0, d.find_first_not_of(' '));
        d.erase(d.find_last_not_of(' ') + 1);
        if (d.empty()) continue;
        dims.push_back(d == "-1" ? Dim::minusOne() : parseShape("[" + d + "]", &names)[0]);
      }
      Shape s(std::move(dims));
      t.dtype = DType::Int32;
      t.shape = Shape{Dim::known(s.rank())};
      t.asShape = s;
    } else if (eq != std::string::npos) {
      t.dtype = *parseDType(tok.substr(0, eq));
      std::string body = tok.substr(eq + 1);
      ConcreteShape shape;
      const size_t at = body.find('@');
      std::vector<int64_t> vals;
      if (at != std::string::npos) {
        for (int64_t d : parseInts(body.substr(at + 1))) shape.push_back(d);
        vals = parseInts(body.substr(0, at));
      } else if (!body.empty() && body[0] == '[') {
        vals = parseInts(body);
        shape = {static_cast<int64_t>(vals.size())};
      } else {
        vals = parseInts(body);  // a scalar
      }
      Tensor v = Tensor::fromVector(vals, shape).cast(t.dtype);
      t.shape = Shape::fromConcrete(shape);
      t.value = std::make_shared<const Tensor>(v);
    } else {
      const size_t colon = tok.find(':');
      if (colon != std::string::npos) {
        t.dtype = *parseDType(tok.substr(0, colon));
        tok = tok.substr(colon + 1);
      }
      t.shape = parseShape(tok, &names);
    }
    types.push_back(std::move(t));
    if (semi == std::string::npos) break;
  }
  ShapeResult r = def.infer(types, def.withDefaults(attrs));
  ArrayInfer out;
  out.ok = r.ok();
  out.error = r.error;
  out.outputs = r.outputs;
  for (size_t i = 0; i < r.outputs.size(); ++i) out.shapes += (i ? ";" : "") + r.outputs[i].shape.str();
  return out;
}

#define ARRAY_OK(op, inputs, expected, ...)                                           \
  do {                                                                                \
    auto _r = ::tlens::test::arraytest::inferArray(op, inputs, ::tlens::Attrs{__VA_ARGS__});     \
    INFO(op << " " << inputs << " -> " << _r.shapes << " " << _r.error);              \
    CHECK(_r.ok);                                                                     \
    CHECK(::tlens::test::normalizeShapes(_r.shapes) ==                                \
          ::tlens::test::normalizeShapes(expected));                                  \
  } while (0)

#define ARRAY_ERROR(substr, op, inputs, ...)                                          \
  do {                                                                                \
    auto _r = ::tlens::test::arraytest::inferArray(op, inputs, ::tlens::Attrs{__VA_ARGS__});     \
    INFO(op << " " << inputs << " -> " << _r.shapes << " " << _r.error);              \
    CHECK_FALSE(_r.ok);                                                               \
    CHECK_THAT(_r.error, Catch::Contains(substr));                                    \
  } while (0)

/// 0, 1, 2, ... as float32 of `shape`.
inline Tensor iotaF32(ConcreteShape shape) {
  Tensor t(DType::Float32, shape);
  for (int64_t i = 0; i < t.numElements(); ++i) t.data<float>()[i] = static_cast<float>(i);
  return t;
}

/// Reference transpose by index arithmetic (independent of the kernel).
inline Tensor refTranspose(const Tensor& x, const std::vector<int64_t>& perm) {
  ConcreteShape os;
  for (int64_t p : perm) os.push_back(x.shape()[static_cast<size_t>(p)]);
  Tensor out(x.dtype(), os);
  const size_t r = perm.size();
  std::vector<int64_t> oi(r, 0);
  for (int64_t k = 0; k < out.numElements(); ++k) {
    int64_t off = 0;
    std::vector<int64_t> ii(r);
    for (size_t d = 0; d < r; ++d) ii[static_cast<size_t>(perm[d])] = oi[d];
    for (size_t d = 0; d < r; ++d) off = off * x.shape()[d] + ii[d];
    out.setDouble(k, x.getDouble(off));
    for (size_t d = r; d-- > 0;) {
      if (++oi[d] < os[d]) break;
      oi[d] = 0;
    }
  }
  return out;
}

}  // namespace tlens::test::arraytest
