// numpy's advanced indexing (see NumpyIndexing.h). A single array key is applied with the
// registry's Reshape/GatherV2 on indices computed on the host; a tuple key with arrays in it is
// resolved to the flat offsets of its elements and copied on the host (ndarrays always run
// eagerly). Abstract mode computes only the result's type, from shapes and any known values.
#include "lang/tf/NumpyIndexing.h"

#include <cstring>
#include <utility>

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
  Value list = key;
  if (auto* r = as<RangeObj>(key)) {
    std::vector<Value> items;
    for (int64_t i = 0, n = r->length(); i < n; ++i) items.push_back(makeInt(r->at(i)));
    if (items.empty()) return constantTensor(rt, Tensor(DType::Int64, {0}), true);
    list = makeList(std::move(items));
  } else if (!as<ListObj>(key)) {
    return nullptr;
  }
  try {
    auto t = toTensor(rt, list, DType::Invalid, true);
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

/// A tuple key with at least one array in it (a[np.arange(n), labels], a[:, idx], a[mask, 0]),
/// resolved against an array's shape: numpy's advanced indexing. The arrays (ints count as 0-d
/// ones, a boolean array as the integer arrays of its true positions) broadcast to one shape that
/// replaces their dims, in place when they are adjacent, in front otherwise.
struct TuplePlan {
  Shape outShape;
  // Concrete only: the flat offsets into the array of each result element, in result order.
  std::vector<int64_t> offsets;
  bool concrete = false;
};

struct Part {
  const SliceObj* slice = nullptr;  // a slice, else an index array
  std::optional<Tensor> values;     // int64 values, when known
  Shape shape;                      // the index array's shape
};

/// numpy's spelling of a shape: "(2,)", "(3, ?)".
std::string pyShape(const Shape& s) {
  std::string r = "(";
  for (size_t i = 0; i < s.dims().size(); ++i) {
    const Dim& d = s.dims()[i];
    r += (i ? ", " : "") + (d.isKnown() ? std::to_string(d.size) : std::string("?"));
  }
  return r + (s.dims().size() == 1 ? ",)" : ")");
}

Shape broadcastShapes(Interpreter& in, const std::vector<const Part*>& arrays) {
  int rank = 0;
  for (const Part* p : arrays) {
    if (!p->shape.rankKnown()) return Shape::unknownRank();
    rank = std::max(rank, p->shape.rank());
  }
  std::vector<Dim> dims(static_cast<size_t>(rank), Dim::known(1));
  for (const Part* p : arrays) {
    int off = rank - p->shape.rank();
    for (int j = 0; j < p->shape.rank(); ++j) {
      Dim& d = dims[static_cast<size_t>(off + j)];
      const Dim& e = p->shape[static_cast<size_t>(j)];
      if (e.isKnown() && e.size == 1) continue;
      if (d.isKnown() && d.size == 1) d = e;
      else if (d.isKnown() && e.isKnown() && d.size != e.size) {
        std::string shapes;
        for (const Part* q : arrays) shapes += pyShape(q->shape) + " ";  // numpy's trailing space too
        in.raise("IndexError", "shape mismatch: indexing arrays could not be broadcast together with shapes " + shapes);
      } else if (!e.isKnown()) d = Dim::unknown();
    }
  }
  return Shape(std::move(dims));
}

std::optional<TuplePlan> planTuple(TfRuntime& rt, Interpreter& in, const Shape& shape, const std::vector<Value>& keys) {
  if (!shape.rankKnown()) return std::nullopt;
  std::vector<Part> parts;
  bool anyArray = false;
  int ellipsisAt = -1;
  for (const Value& k : keys) {
    if (k->kind() == Kind::Ellipsis) {
      if (ellipsisAt >= 0) in.raise("IndexError", "an index can only have a single ellipsis ('...')");
      ellipsisAt = static_cast<int>(parts.size());
      continue;
    }
    Part p;
    if (auto* sl = as<SliceObj>(k)) {
      p.slice = sl;
      parts.push_back(std::move(p));
      continue;
    }
    if (isUnknown(k)) {  // abstract mode: an index or index array of unknown shape
      p.shape = Shape::unknownRank();
      parts.push_back(std::move(p));
      continue;
    }
    if (k->kind() == Kind::Int) {
      p.values = Tensor::scalar<int64_t>(*asInt(k));
      p.shape = Shape::scalar();
      parts.push_back(std::move(p));
      continue;
    }
    auto t = std::dynamic_pointer_cast<TensorObj>(k);
    if (t && t->type.shape.rankKnown() && t->type.shape.rank() == 0 && isInteger(t->type.dtype)) {
      if (auto v = keyValues(*t)) p.values = v->cast(DType::Int64);
      p.shape = Shape::scalar();
      parts.push_back(std::move(p));
      continue;
    }
    auto a = arrayKey(rt, k);
    if (!a) return std::nullopt;  // None, floats, ...: the basic path decides
    anyArray = true;
    std::optional<Tensor> v = keyValues(*a);
    if (a->type.dtype == DType::Bool) {
      // A k-d mask: the k integer arrays of its true positions (np.nonzero).
      int k = a->type.shape.rank();
      std::vector<std::vector<int64_t>> pos(static_cast<size_t>(k));
      if (v) {
        for (int64_t i = 0; i < v->numElements(); ++i) {
          if (v->getDouble(i) == 0) continue;
          for (int64_t d = k - 1, rem = i; d >= 0; --d) {
            pos[static_cast<size_t>(d)].push_back(rem % v->dim(static_cast<int>(d)));
            rem /= v->dim(static_cast<int>(d));
          }
        }
      }
      for (int d = 0; d < k; ++d) {
        Part q;
        if (v) {
          int64_t count = static_cast<int64_t>(pos[static_cast<size_t>(d)].size());
          q.values = count ? Tensor::fromVector(pos[static_cast<size_t>(d)]) : Tensor(DType::Int64, {0});
          q.shape = Shape::fromConcrete({count});
        } else {
          q.shape = Shape({Dim::unknown()});
        }
        parts.push_back(std::move(q));
      }
      continue;
    }
    if (v) p.values = v->cast(DType::Int64);
    p.shape = a->type.shape;
    parts.push_back(std::move(p));
  }
  if (!anyArray) return std::nullopt;
  int rank = shape.rank();
  if (static_cast<int>(parts.size()) > rank)
    in.raise("IndexError", "too many indices for array: array is " + std::to_string(rank) + "-dimensional, but " +
                               std::to_string(parts.size()) + " were indexed");
  // Ellipsis and the missing trailing dims are full slices.
  static const auto kAll = std::make_shared<SliceObj>(none(), none(), none());
  size_t fill = static_cast<size_t>(rank) - parts.size();
  std::vector<Part> full;
  for (size_t i = 0; i <= parts.size(); ++i) {
    if (static_cast<int>(i) == (ellipsisAt < 0 ? static_cast<int>(parts.size()) : ellipsisAt))
      for (size_t f = 0; f < fill; ++f) {
        Part q;
        q.slice = kAll.get();
        full.push_back(std::move(q));
      }
    if (i < parts.size()) full.push_back(std::move(parts[i]));
  }
  std::vector<const Part*> arrays;
  std::vector<int> arrayDims;
  for (int d = 0; d < rank; ++d)
    if (!full[static_cast<size_t>(d)].slice) arrays.push_back(&full[static_cast<size_t>(d)]), arrayDims.push_back(d);
  Shape b = broadcastShapes(in, arrays);
  if (!b.rankKnown()) return TuplePlan{Shape::unknownRank(), {}, false};
  bool adjacent = arrayDims.back() - arrayDims.front() + 1 == static_cast<int>(arrayDims.size());
  // Result dims: slices' counts, with the broadcast shape where the arrays were (or in front).
  std::vector<Dim> out;
  std::vector<SliceObj::Bounds> bounds(static_cast<size_t>(rank));
  std::vector<int> sliceDims;
  bool known = shape.fullyKnown();
  auto pushB = [&] { out.insert(out.end(), b.dims().begin(), b.dims().end()); };
  if (!adjacent) pushB();
  for (int d = 0; d < rank; ++d) {
    const Part& p = full[static_cast<size_t>(d)];
    if (!p.slice) {
      if (adjacent && d == arrayDims.front()) pushB();
      continue;
    }
    sliceDims.push_back(d);
    const Dim& n = shape[static_cast<size_t>(d)];
    if (n.isKnown()) {
      bounds[static_cast<size_t>(d)] = p.slice->indices(in, n.size);
      out.push_back(Dim::known(bounds[static_cast<size_t>(d)].count));
    } else {
      out.push_back(isNone(p.slice->start) && isNone(p.slice->stop) && isNone(p.slice->step) ? n : Dim::unknown());
    }
  }
  TuplePlan plan;
  plan.outShape = Shape(std::move(out));
  for (const Part* p : arrays) known = known && p->values.has_value();
  if (!known || !b.fullyKnown()) return plan;
  // Concrete offsets: walk the result in order.
  ConcreteShape dims;
  for (const Dim& d : shape.dims()) dims.push_back(d.size);
  std::vector<int64_t> stride(static_cast<size_t>(rank), 1);
  for (int d = rank - 2; d >= 0; --d) stride[static_cast<size_t>(d)] = stride[static_cast<size_t>(d + 1)] * dims[static_cast<size_t>(d + 1)];
  ConcreteShape bdims;
  for (const Dim& d : b.dims()) bdims.push_back(d.size);
  int64_t bcount = 1;
  for (int64_t d : bdims) bcount *= d;
  // For each broadcast position, the offset contributed by the index arrays.
  std::vector<int64_t> bOffset(static_cast<size_t>(bcount), 0);
  for (size_t a = 0; a < arrays.size(); ++a) {
    const Tensor& v = *arrays[a]->values;
    int d = arrayDims[a];
    int64_t n = dims[static_cast<size_t>(d)];
    int off = static_cast<int>(bdims.size()) - v.rank();
    for (int64_t i = 0; i < bcount; ++i) {
      int64_t rem = i, src = 0, vstride = 1;
      for (int j = static_cast<int>(bdims.size()) - 1; j >= 0; --j) {
        int64_t coord = rem % bdims[static_cast<size_t>(j)];
        rem /= bdims[static_cast<size_t>(j)];
        int vj = j - off;
        if (vj < 0) continue;
        int64_t vd = v.dim(vj);
        if (vd != 1) src += coord * vstride;
        vstride *= vd;
      }
      int64_t x = v.getInt(src);
      if (x < -n || x >= n)
        in.raise("IndexError", "index " + std::to_string(x) + " is out of bounds for axis " + std::to_string(d) +
                                   " with size " + std::to_string(n));
      bOffset[static_cast<size_t>(i)] += (x < 0 ? x + n : x) * stride[static_cast<size_t>(d)];
    }
  }
  // Result order: (slices before, B, slices after) when adjacent, (B, slices) otherwise.
  std::vector<int> before, after;
  for (int d : sliceDims) (adjacent && d > arrayDims.front() ? after : before).push_back(d);
  if (!adjacent) after = before, before.clear();
  auto sliceOffsets = [&](const std::vector<int>& ds) {
    std::vector<int64_t> offs = {0};
    for (int d : ds) {
      const SliceObj::Bounds& bd = bounds[static_cast<size_t>(d)];
      std::vector<int64_t> next;
      for (int64_t o : offs)
        for (int64_t k = 0, i = bd.start; k < bd.count; ++k, i += bd.step) next.push_back(o + i * stride[static_cast<size_t>(d)]);
      offs = std::move(next);
    }
    return offs;
  };
  std::vector<int64_t> pre = sliceOffsets(before), post = sliceOffsets(after);
  plan.offsets.reserve(pre.size() * static_cast<size_t>(bcount) * post.size());
  for (int64_t o1 : pre)
    for (int64_t ob : bOffset)
      for (int64_t o2 : post) plan.offsets.push_back(o1 + ob + o2);
  plan.concrete = true;
  return plan;
}

Value tupleIndex(TensorObj& self, Interpreter& in, const std::vector<Value>& keys) {
  TfRuntime& rt = *self.rt;
  auto plan = planTuple(rt, in, self.type.shape, keys);
  if (!plan) return nullptr;
  if (!plan->concrete || self.form != TensorObj::Form::Concrete)
    return abstractTensor(rt, TensorType(self.type.dtype, plan->outShape), true, "numpy.index");
  Tensor src = self.hostValue();
  ConcreteShape outDims;
  for (const Dim& d : plan->outShape.dims()) outDims.push_back(d.size);
  Tensor out(src.dtype(), outDims);
  size_t item = dtypeSize(src.dtype());
  auto* from = static_cast<const unsigned char*>(src.raw());
  auto* to = static_cast<unsigned char*>(out.raw());
  for (size_t i = 0; i < plan->offsets.size(); ++i)
    std::memcpy(to + i * item, from + static_cast<size_t>(plan->offsets[i]) * item, item);
  return concreteTensor(rt, rt.wrap(std::move(out)), true, "numpy.index");
}

}  // namespace

Value numpyArrayIndex(TensorObj& self, Interpreter& in, const Value& key) {
  TfRuntime& rt = *self.rt;
  if (auto* t = as<TupleObj>(key)) return tupleIndex(self, in, t->items);
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
  if (auto* t = as<TupleObj>(key)) {
    auto plan = planTuple(rt, in, self.type.shape, t->items);
    if (!plan) return false;
    if (!plan->concrete) in.raise("NotImplementedError", "tensorlens: this index needs the index arrays' values");
    Tensor& dst = self.value.tensor;
    if (!dst.uniquelyOwned() || !dst.hostAccessible()) dst = dst.toHost().clone();
    Tensor src = toTensor(rt, v, dst.dtype(), true)->hostValue();
    int64_t n = src.numElements(), count = static_cast<int64_t>(plan->offsets.size());
    if (n != 1 && (n == 0 || count % n != 0))
      in.raise("ValueError", "shape mismatch: value array of shape " + concreteTfStr(src.shape()) +
                                 " could not be broadcast to indexing result of shape " + pyShape(plan->outShape));
    for (int64_t e = 0; e < count; ++e) dst.setDouble(plan->offsets[static_cast<size_t>(e)], src.getDouble(e % n));
    self.type = concreteType(dst);
    return true;
  }
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
