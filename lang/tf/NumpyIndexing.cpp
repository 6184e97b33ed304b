// numpy's advanced indexing with one array key (see NumpyIndexing.h). Selections are computed on
// the host from the key's values and applied with the registry's Reshape/GatherV2, so the result
// is an ordinary ndarray; in abstract mode only its type is computed.
#include "lang/tf/NumpyIndexing.h"

#include <utility>

#include "engine/runtime/OpRunner.h"
#include "lang/tf/OpApply.h"
#include "lang/tf/TfRuntime.h"

namespace tlens::tf {

using namespace interp;

namespace {

/// The key as a tensor when it is an array key: a tensor of rank >= 1 or a list (of ints or bools).
std::shared_ptr<TensorObj> arrayKey(TfRuntime& rt, const Value& key) {
  if (auto t = std::dynamic_pointer_cast<TensorObj>(key)) {
    if (!t->type.shape.rankKnown() || t->type.shape.rank() == 0) return nullptr;
    if (t->type.dtype != DType::Bool && !isInteger(t->type.dtype)) return nullptr;
    return t;
  }
  if (!as<ListObj>(key)) return nullptr;
  try {
    auto t = toTensor(rt, key, DType::Invalid, true);
    return t->type.dtype == DType::Bool || isInteger(t->type.dtype) ? t : nullptr;
  } catch (const NeedsKnownValue&) {
    return nullptr;
  }
}

/// The key's values when they are known (concrete, or a small abstract constant).
std::optional<Tensor> keyValues(const TensorObj& k) {
  if (k.form == TensorObj::Form::Concrete) return const_cast<TensorObj&>(k).hostValue();
  if (k.type.value) return *k.type.value;
  return std::nullopt;
}

/// Flat row numbers a key selects over the first `lead` dims of `shape`: a mask's true positions
/// (its shape must be those dims), or integer indices into dim 0 (negative ones count from the end).
std::vector<int64_t> selectedRows(Interpreter& in, const Tensor& key, const ConcreteShape& shape) {
  std::vector<int64_t> rows;
  if (key.dtype() == DType::Bool) {
    for (int d = 0; d < key.rank(); ++d)
      if (static_cast<size_t>(d) >= shape.size() || key.dim(d) != shape[static_cast<size_t>(d)])
        in.raise("IndexError", "boolean index did not match indexed array along dimension " + std::to_string(d) +
                                   "; dimension is " + (static_cast<size_t>(d) < shape.size() ? std::to_string(shape[static_cast<size_t>(d)]) : std::string("0")) +
                                   " but corresponding boolean dimension is " + std::to_string(key.dim(d)));
    for (int64_t i = 0; i < key.numElements(); ++i)
      if (key.getDouble(i) != 0) rows.push_back(i);
    return rows;
  }
  if (shape.empty()) in.raise("IndexError", "too many indices for array: array is 0-dimensional, but 1 were indexed");
  int64_t n = shape[0];
  for (int64_t i = 0; i < key.numElements(); ++i) {
    int64_t v = key.getInt(i);
    if (v < -n || v >= n)
      in.raise("IndexError", "index " + std::to_string(v) + " is out of bounds for axis 0 with size " + std::to_string(n));
    rows.push_back(v < 0 ? v + n : v);
  }
  return rows;
}

Value apply(TfRuntime& rt, const char* type, std::vector<Value> inputs) {
  OpRequest r;
  r.type = type;
  r.inputs = std::move(inputs);
  r.ndarray = true;
  r.literalDType = DType::Int64;
  return applyOp1(rt, std::move(r));
}

}  // namespace

Value numpyArrayIndex(TensorObj& self, Interpreter& in, const Value& key) {
  TfRuntime& rt = *self.rt;
  auto k = arrayKey(rt, key);
  if (!k) return nullptr;
  Value selfV = self.shared_from_this();
  const Shape& s = self.type.shape;
  bool mask = k->type.dtype == DType::Bool;
  int lead = mask ? k->type.shape.rank() : 1;
  std::optional<Tensor> kv = keyValues(*k);
  if (!kv || !s.rankKnown() || !s.fullyKnown()) {
    if (!mask) {
      // Unknown index values: GatherV2 types the result (any integer dtype as int64).
      Value idx = k;
      if (k->type.dtype != DType::Int32 && k->type.dtype != DType::Int64) {
        OpRequest c;
        c.type = "Cast";
        c.inputs = {k};
        c.attrs["DstT"] = DType::Int64;
        c.ndarray = true;
        idx = applyOp1(rt, std::move(c));
      }
      return apply(rt, "GatherV2", {selfV, idx, makeInt(0)});
    }
    std::vector<Dim> dims = {Dim::unknown()};
    if (s.rankKnown())
      for (int d = lead; d < s.rank(); ++d) dims.push_back(s[static_cast<size_t>(d)]);
    TensorType t(self.type.dtype, s.rankKnown() ? Shape(std::move(dims)) : Shape::unknownRank());
    return abstractTensor(rt, std::move(t), true, "GatherV2");
  }
  ConcreteShape shape;
  for (const Dim& d : s.dims()) shape.push_back(d.size);
  std::vector<int64_t> rows = selectedRows(in, *kv, shape);
  Value src = selfV;
  ConcreteShape outShape;
  if (mask) {
    // Rows of the array flattened over the mask's dims.
    std::vector<Value> flat = {makeInt(-1)};
    for (size_t d = static_cast<size_t>(lead); d < shape.size(); ++d) flat.push_back(makeInt(shape[d]));
    src = apply(rt, "Reshape", {selfV, makeList(std::move(flat))});
    outShape = {static_cast<int64_t>(rows.size())};
  } else {
    outShape = kv->shape();
  }
  // The index constant is ours, not a value of the program: the agreement check does not see it.
  std::vector<TensorRecord>* records = std::exchange(rt.records, nullptr);
  Value idx = constantTensor(rt, Tensor::fromVector(rows, outShape), true);
  rt.records = records;
  return apply(rt, "GatherV2", {src, idx, makeInt(0)});
}

bool numpyArrayAssign(TensorObj& self, Interpreter& in, const Value& key, const Value& v) {
  TfRuntime& rt = *self.rt;
  auto k = arrayKey(rt, key);
  if (!k) return false;
  std::optional<Tensor> kv = keyValues(*k);
  if (!kv) return false;
  Tensor& dst = self.value.tensor;
  if (!dst.uniquelyOwned() || !dst.hostAccessible()) dst = dst.toHost().clone();
  std::vector<int64_t> rows = selectedRows(in, *kv, dst.shape());
  int lead = kv->dtype() == DType::Bool ? kv->rank() : 1;
  int64_t inner = 1;
  for (int d = lead; d < dst.rank(); ++d) inner *= dst.dim(d);
  int64_t count = static_cast<int64_t>(rows.size()) * inner;
  Tensor src = toTensor(rt, v, dst.dtype(), true)->hostValue();
  int64_t n = src.numElements();
  if (n != 1 && n != count && n != inner) {
    if (kv->dtype() == DType::Bool)
      in.raise("ValueError", "NumPy boolean array indexing assignment cannot assign " + std::to_string(n) +
                                 " input values to the " + std::to_string(count) + " output values where the mask is true");
    in.raise("ValueError", "shape mismatch: value array of shape " + concreteTfStr(src.shape()) +
                               " could not be broadcast to indexing result of " + std::to_string(count) + " elements");
  }
  int64_t e = 0;
  for (int64_t r : rows)
    for (int64_t j = 0; j < inner; ++j, ++e)
      dst.setDouble(r * inner + j, src.getDouble(n == 1 ? 0 : n == count ? e : j));
  self.type = concreteType(dst);
  return true;
}

}  // namespace tlens::tf
