#include "lang/tf/OpApply.h"
#include "lang/tf/FunctionObj.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>

#include "engine/core/Promotion.h"
#include "engine/ops/OpRegistry.h"
#include "lang/interp/Bytes.h"

namespace tlens::tf {

using namespace interp;

// --- Python literals -------------------------------------------------------------------------

namespace {

enum class LitKind { None, Bool, Int, Float };

LitKind kindOf(const Value& v) {
  switch (v->kind()) {
    case Kind::Bool: return LitKind::Bool;
    case Kind::Int: return LitKind::Int;
    case Kind::Float: return LitKind::Float;
    default: return LitKind::None;
  }
}

PyScalarKind scalarKind(LitKind k) {
  return k == LitKind::Bool ? PyScalarKind::Bool : k == LitKind::Int ? PyScalarKind::Int : PyScalarKind::Float;
}

/// The widest literal kind in a nested list, or None when something is not a literal. `unknown`
/// is set when an Unknown value was seen (abstract mode).
LitKind scanLiteral(const Value& v, bool& unknown, int depth = 0) {
  if (!v || depth > 32) return LitKind::None;
  if (isUnknown(v)) {
    unknown = true;
    return LitKind::Int;
  }
  if (auto* seq = asSequence(v)) {
    LitKind k = LitKind::Bool;
    bool any = false;
    for (const Value& e : *seq) {
      LitKind ek = scanLiteral(e, unknown, depth + 1);
      if (ek == LitKind::None) return LitKind::None;
      k = std::max(k, ek);
      any = true;
    }
    return any ? k : LitKind::Float;  // [] is float32 in TF
  }
  return kindOf(v);
}

void shapeOf(Interpreter& in, const Value& v, size_t depth, ConcreteShape& shape, bool& ragged) {
  auto* seq = asSequence(v);
  if (!seq) {
    if (depth != shape.size()) ragged = true;
    return;
  }
  if (depth == shape.size()) shape.push_back(static_cast<int64_t>(seq->size()));
  else if (depth > shape.size() || shape[depth] != static_cast<int64_t>(seq->size())) ragged = true;
  for (const Value& e : *seq) {
    shapeOf(in, e, depth + 1, shape, ragged);
    if (ragged) return;
  }
}

/// Integer leaves as int64, exactly (a double holds only 53 bits).
void flattenInts(const Value& v, std::vector<int64_t>& out) {
  if (auto* seq = asSequence(v)) {
    for (const Value& e : *seq) flattenInts(e, out);
    return;
  }
  out.push_back(v->kind() == Kind::Bool ? (*asDouble(v) != 0 ? 1 : 0) : *asInt(v));
}

void flatten(const Value& v, std::vector<double>& out) {
  if (auto* seq = asSequence(v)) {
    for (const Value& e : *seq) flatten(e, out);
    return;
  }
  out.push_back(*asDouble(v));
}

/// What the leaves of a (nested) list are as far as strings go.
struct StringScan {
  bool str = false, bytes = false, other = false;
  bool all() const { return (str || bytes) && !other; }
};

void scanStrings(const Value& v, StringScan& s, int depth = 0) {
  if (!v || depth > 32) {
    s.other = true;
    return;
  }
  if (auto* seq = asSequence(v)) {
    for (const Value& e : *seq) {
      scanStrings(e, s, depth + 1);
      if (s.other) return;
    }
    return;
  }
  if (v->kind() == Kind::Str) s.str = true;
  else if (asBytes(v)) s.bytes = true;
  else s.other = true;
}

void flattenStrings(const Value& v, std::vector<std::string>& out) {
  if (auto* seq = asSequence(v)) {
    for (const Value& e : *seq) flattenStrings(e, out);
    return;
  }
  if (const std::string* b = asBytes(v)) out.push_back(*b);
  else out.push_back(*asString(v));  // str: its UTF-8 bytes, as TensorFlow encodes it
}

}  // namespace

char literalStringKind(const Value& v) {
  StringScan s;
  scanStrings(v, s);
  if (!s.all()) return 0;
  return s.str ? 'U' : 'S';
}

DType literalDType(const Value& v, bool numpyDefaults) {
  if (literalStringKind(v)) return DType::String;
  bool unknown = false;
  LitKind k = scanLiteral(v, unknown);
  if (k == LitKind::None) return DType::Invalid;
  return numpyDefaults ? numpyDefaultDType(scalarKind(k)) : tfDefaultDType(scalarKind(k));
}

std::optional<Tensor> literalToTensor(Interpreter& in, const Value& v, DType dtype, bool numpyDefaults) {
  if (literalStringKind(v)) {
    ConcreteShape shape;
    bool ragged = false;
    shapeOf(in, v, 0, shape, ragged);
    if (ragged) in.raise("ValueError", "Can't convert non-rectangular Python sequence to Tensor.");
    if (dtype != DType::Invalid && dtype != DType::String)
      in.raise("TypeError", "Cannot convert " + in.repr(v) + " to EagerTensor of dtype " + std::string(dtypeName(dtype)));
    std::vector<std::string> flat;
    flattenStrings(v, flat);
    return Tensor::fromStrings(std::move(flat), std::move(shape));
  }
  bool unknown = false;
  LitKind k = scanLiteral(v, unknown);
  if (k == LitKind::None) return std::nullopt;
  if (unknown) throw NeedsKnownValue{};
  const bool inferred = dtype == DType::Invalid;
  if (inferred) dtype = numpyDefaults ? numpyDefaultDType(scalarKind(k)) : tfDefaultDType(scalarKind(k));
  ConcreteShape shape;
  bool ragged = false;
  shapeOf(in, v, 0, shape, ragged);
  if (ragged) in.raise("ValueError", "Can't convert non-rectangular Python sequence to Tensor.");
  if (k != LitKind::Float && isInteger(dtype)) {
    // Python ints go in exactly. TensorFlow infers int32 and falls back to int64 when a value
    // does not fit; an explicit int32 refuses it (py_seq_tensor.cc). numpy (1.24) wraps.
    std::vector<int64_t> ints;
    flattenInts(v, ints);
    const auto fits32 = [](int64_t i) { return i >= INT32_MIN && i <= INT32_MAX; };
    if (dtype == DType::Int32 && !numpyDefaults && !std::all_of(ints.begin(), ints.end(), fits32)) {
      if (inferred) dtype = DType::Int64;
      else in.raise("ValueError", "Can't convert Python sequence with out-of-range integer to int32 Tensor.");
    }
    Tensor t(dtype, shape);
    const auto fill = [&](auto* d) {
      for (size_t i = 0; i < ints.size(); ++i) d[i] = static_cast<std::remove_pointer_t<decltype(d)>>(ints[i]);  // modular
    };
    if (dtype == DType::Int64) fill(t.data<int64_t>());
    else if (dtype == DType::Int32) fill(t.data<int32_t>());
    else fill(t.data<uint8_t>());  // isInteger: int32, int64, uint8
    return t;
  }
  std::vector<double> flat;
  flatten(v, flat);
  if (isInteger(dtype) && k == LitKind::Float && !numpyDefaults)
    for (double d : flat)
      if (d != std::floor(d))
        in.raise("TypeError", "Cannot convert " + in.repr(v) + " to EagerTensor of dtype " + std::string(dtypeName(dtype)));
  Tensor t(dtype, shape);
  for (size_t i = 0; i < flat.size(); ++i) t.setDouble(static_cast<int64_t>(i), flat[i]);
  return t;
}

Value tensorToPython(const Tensor& t, char strKind) {
  auto scalar = [&](int64_t i) -> Value {
    if (t.dtype() == DType::String) return strKind == 'U' ? makeStr(t.strings()[i]) : makeBytes(t.strings()[i]);
    if (t.dtype() == DType::Bool) return boolean(t.getDouble(i) != 0);
    if (isInteger(t.dtype())) return makeInt(t.getInt(i));
    return makeFloat(t.getDouble(i));
  };
  if (t.rank() == 0) return scalar(0);
  std::function<Value(int, int64_t)> build = [&](int d, int64_t offset) -> Value {
    int64_t stride = 1;
    for (int k = d + 1; k < t.rank(); ++k) stride *= t.dim(k);
    std::vector<Value> items;
    items.reserve(static_cast<size_t>(t.dim(d)));
    for (int64_t i = 0; i < t.dim(d); ++i)
      items.push_back(d + 1 == t.rank() ? scalar(offset + i) : build(d + 1, offset + i * stride));
    return makeList(std::move(items));
  };
  return build(0, 0);
}

std::optional<TensorType> partialIntList(Interpreter& in, const Value& v, bool requireInts) {
  auto* seq = asSequence(v);
  if (!seq) return std::nullopt;
  std::vector<Dim> dims;
  bool anyUnknown = false, anyKnownInt = false;
  for (const Value& e : *seq) {
    if (isUnknown(e)) {
      // An unknown known to be something else than an int (a list a comprehension over unknown
      // values made, a float) is no dimension: [[unknown list], ...] is not a shape vector.
      if (auto* u = as<UnknownObj>(e); u && u->type && u->type->name != "int" && u->type->name != "bool")
        return std::nullopt;
      if (auto* u = as<UnknownObj>(e); u && u->type) anyKnownInt = true;
      dims.push_back(Dim::unknown());
      anyUnknown = true;
    } else if (auto i = asInt(e)) {
      anyKnownInt = true;
      dims.push_back(*i == -1 ? Dim::minusOne() : Dim::known(*i));
    } else {
      return std::nullopt;
    }
  }
  if (!anyUnknown) return std::nullopt;
  // Only unknowns, none known to be an int: a list of values the analysis lost (losses made in
  // a loop over unknown layers, then tf.reduce_sum(losses)) as often as a shape; no dtype.
  if (requireInts && !anyKnownInt) return std::nullopt;
  TensorType t(DType::Int32, Shape::fromConcrete({static_cast<int64_t>(dims.size())}));
  t.asShape = Shape(std::move(dims));
  return t;
}

// --- tensor constructors ---------------------------------------------------------------------

static void record(TfRuntime& rt, const std::shared_ptr<TensorObj>& t, const std::string& opType = {}, int index = 0) {
  if (rt.records) rt.records->push_back(TensorRecord{t->origin, opType, index, t->type, t->isSymbolic()});
}

std::shared_ptr<TensorObj> symbolicTensor(TfRuntime& rt, Graph& g, Output out) {
  auto t = std::make_shared<TensorObj>(rt, TensorObj::Form::Symbolic);
  t->graph = &g;
  t->out = out;
  t->type = out.type();
  t->origin = out.node->location;
  return t;
}

std::shared_ptr<TensorObj> concreteTensor(TfRuntime& rt, EagerValue v, bool ndarray, const std::string& opType,
                                          int index, const SourceLocation* origin) {
  auto t = std::make_shared<TensorObj>(rt, TensorObj::Form::Concrete);
  t->type = concreteType(v.tensor);
  t->value = std::move(v);
  t->ndarray = ndarray;
  t->origin = origin ? *origin : rt.userLocation();
  record(rt, t, opType, index);
  return t;
}

std::shared_ptr<TensorObj> abstractTensor(TfRuntime& rt, TensorType type, bool ndarray, const std::string& opType,
                                          int index) {
  auto t = std::make_shared<TensorObj>(rt, TensorObj::Form::Abstract);
  t->type = std::move(type);
  t->ndarray = ndarray;
  t->origin = rt.userLocation();
  record(rt, t, opType, index);
  return t;
}

static bool smallEnoughToKeep(const Tensor& t) { return t.numElements() <= 4096; }

std::shared_ptr<TensorObj> constantTensor(TfRuntime& rt, Tensor value, bool ndarray) {
  Graph* g = ndarray ? nullptr : rt.buildingGraph();
  if (g) {
    rt.stampCreation(g);
    Attrs a{{"value", value}, {"dtype", value.dtype()}};
    Node* n = g->addNode("Const", {}, std::move(a), NodeOptions{});
    auto t = symbolicTensor(rt, *g, n->out(0));
    record(rt, t, "Const", 0);
    return t;
  }
  if (!rt.abstract()) return concreteTensor(rt, rt.wrap(std::move(value)), ndarray);
  TensorType type(value.dtype(), Shape::fromConcrete(value.shape()));
  if (smallEnoughToKeep(value)) type.value = std::make_shared<const Tensor>(std::move(value));
  return abstractTensor(rt, std::move(type), ndarray);
}

std::shared_ptr<TensorObj> toTensor(TfRuntime& rt, const Value& v, DType dtype, bool numpyDefaults) {
  Interpreter& in = rt.interp();
  if (auto t = std::dynamic_pointer_cast<TensorObj>(v)) return t;
  if (isUnknown(v)) throw NeedsKnownValue{};
  if (v->kind() == interp::Kind::Range) {
    // A range is a sequence of ints: np.array(range(n)), tf.constant(range(n)),
    // np.random.choice(range(len(x)), k) convert it as they convert the list.
    const auto& r = static_cast<const RangeObj&>(*v);
    std::vector<Value> items;
    const int64_t n = r.length();
    items.reserve(static_cast<size_t>(std::max<int64_t>(n, 0)));
    for (int64_t i = 0; i < n; ++i) items.push_back(makeInt(r.at(i)));
    return toTensor(rt, makeList(std::move(items)), dtype, numpyDefaults);
  }
  if (rt.tensorShapeClass && v->kind() == interp::Kind::Instance &&
      in.isInstance(v, *static_cast<interp::ClassObj*>(rt.tensorShapeClass.get()))) {
    // A fully defined TensorShape converts to its dimensions (tf.random.normal(x.shape)), as
    // TensorFlow's registered conversion does; a partial one is its ValueError.
    Value dims = in.getAttr(v, "_dims");
    std::vector<Value> items = isNone(dims) ? std::vector<Value>{} : in.toList(dims);
    bool partial = isNone(dims);
    for (const Value& d : items) partial = partial || isNone(d);
    if (partial) in.raise("ValueError", "Cannot convert a partially known TensorShape " + in.str(v) + " to a Tensor.");
    return toTensor(rt, makeList(std::move(items)), dtype, numpyDefaults);
  }
  if (auto* seq = asSequence(v)) {
    // A list holding tensors (or, in abstract mode, unknown ints) is packed.
    bool hasTensor = false, hasUnknown = false;
    for (const Value& e : *seq) {
      if (dynamic_cast<TensorObj*>(e.get())) hasTensor = true;
      else if (isUnknown(e)) hasUnknown = true;
      else if (asSequence(e) && literalDType(e, false) == DType::Invalid) hasTensor = true;
    }
    if (hasUnknown && !hasTensor && rt.abstract()) {
      // Untyped unknowns alone are ints only where an integer dtype is asked for.
      if (auto t = partialIntList(in, v, dtype == DType::Invalid || !isInteger(dtype))) {
        // numpy's default integer is int64 (np.array([k, k])); TensorFlow's int32.
        if (dtype == DType::Int64 || (numpyDefaults && dtype == DType::Invalid)) t->dtype = DType::Int64;
        Graph* g = numpyDefaults ? nullptr : rt.buildingGraph();
        if (!g) return abstractTensor(rt, *t, numpyDefaults);
        rt.stampCreation(g);
        Node* n = g->addNode("Placeholder", {}, Attrs{{"dtype", t->dtype}, {"shape", t->shape}}, NodeOptions{});
        n->outputs[0] = *t;
        return symbolicTensor(rt, *g, n->out(0));
      }
      throw NeedsKnownValue{};
    }
    if (hasTensor) {
      OpRequest pack;
      pack.type = "Pack";
      for (const Value& e : *seq) pack.inputs.push_back(e);
      if (!numpyDefaults) {
        // TensorFlow converts a list holding numpy integer scalars (`[labels.max() + 1, 4]` with
        // uint8 labels) as it converts Python ints: int32, int64 where a value needs it
        // (tensorflow/python/lib/core/py_seq_tensor.cc). Only when every tensor is such a scalar.
        bool scalarsOnly = true;
        for (const Value& e : pack.inputs)
          if (auto* t = dynamic_cast<TensorObj*>(e.get()))
            scalarsOnly = scalarsOnly && t->ndarray && isInteger(t->type.dtype) && t->type.shape.rankKnown() &&
                          t->type.shape.rank() == 0;
        if (scalarsOnly) {
          DType want = dtype != DType::Invalid ? dtype : DType::Int32;
          for (Value& e : pack.inputs) {
            auto* t = dynamic_cast<TensorObj*>(e.get());
            if (!t || t->type.dtype == want) continue;
            if (dtype == DType::Invalid && t->form == TensorObj::Form::Concrete) {
              int64_t x = t->hostValue().getInt(0);
              if (x != static_cast<int32_t>(x)) want = DType::Int64;
            }
          }
          for (Value& e : pack.inputs) {
            auto* t = dynamic_cast<TensorObj*>(e.get());
            if (!t || t->type.dtype == want) continue;
            OpRequest cast;
            cast.type = "Cast";
            cast.inputs = {e};
            cast.attrs["DstT"] = want;
            e = applyOp1(rt, std::move(cast));
          }
          pack.literalDType = want;
        }
      }
      pack.attrs["axis"] = int64_t{0};
      pack.unifyDTypes = true;
      pack.ndarray = numpyDefaults;
      pack.literalDType = dtype;
      return std::static_pointer_cast<TensorObj>(applyOp1(rt, std::move(pack)));
    }
  }
  if (v->kind() == interp::Kind::Native && rt.foreignArray)
    if (auto t = std::dynamic_pointer_cast<TensorObj>(rt.foreignArray(v))) return t;
  std::optional<Tensor> lit = literalToTensor(in, v, dtype, numpyDefaults);
  if (!lit) {
    in.raise("TypeError", "Failed to convert object of type <class '" + in.typeName(v) + "'> to Tensor. Contents: " +
                              in.repr(v) + ". Consider casting elements to a supported type.");
  }
  const bool strings = lit->dtype() == DType::String;
  auto t = constantTensor(rt, std::move(*lit), numpyDefaults);
  if (strings && numpyDefaults) t->strKind = literalStringKind(v);
  return t;
}

// --- applyOp ---------------------------------------------------------------------------------

namespace {

/// OpDef::infer's rejection of a dtype (OpDef::Strings::Reject, checkInputDType).
bool isDTypeRejection(const std::string& msg) { return msg.rfind("Value passed to parameter '", 0) == 0; }

/// The dtype Python literals among `req.inputs` should take.
/// Whether a literal of Python ints holds one outside int32.
bool needsInt64(const Value& v, int depth = 0) {
  if (!v || depth > 32) return false;
  if (auto* seq = asSequence(v)) {
    for (const Value& e : *seq)
      if (needsInt64(e, depth + 1)) return true;
    return false;
  }
  if (v->kind() != Kind::Int) return false;
  const int64_t i = *asInt(v);
  return i < INT32_MIN || i > INT32_MAX;
}

DType targetDType(const OpRequest& req, const Value& literal) {
  bool unknown = false;
  LitKind k = scanLiteral(literal, unknown);
  if (k == LitKind::None) return req.literalDType;
  if (!req.unifyDTypes) return req.literalDType;
  DType tensorType = DType::Invalid;
  bool anyNd = false;
  for (const Value& v : req.inputs)
    if (auto* t = dynamic_cast<TensorObj*>(v.get())) {
      if (t->type.dtype == DType::Invalid) continue;
      anyNd = anyNd || t->ndarray;
      tensorType = tensorType == DType::Invalid ? t->type.dtype
                   : (req.ndarray && anyNd) ? numpyPromote(tensorType, t->type.dtype)
                                            : tensorType;
    }
  if (tensorType == DType::Invalid) return req.literalDType;
  if (req.ndarray || anyNd) {
    // numpy 1.x: with scalars only (numpy scalars are 0-d arrays here), a Python number counts as
    // its default type, int64 or float64: np.float32(1) + 1.0 is float64, np.int8(1) + 1 int64.
    // Value-based casting keeps an array's dtype (np.zeros(3, np.float32) + 1.0 is float32).
    bool scalarsOnly = literal->kind() == Kind::Int || literal->kind() == Kind::Float;
    for (const Value& v : req.inputs)
      if (auto* t = dynamic_cast<TensorObj*>(v.get()))
        scalarsOnly = scalarsOnly && t->ndarray && t->type.shape.rankKnown() && t->type.shape.rank() == 0;
    if (scalarsOnly && k != LitKind::None) return numpyPromote(tensorType, numpyDefaultDType(scalarKind(k)));
    return numpyPromoteScalar(tensorType, scalarKind(k));
  }
  if (auto d = tfWeakScalarDType(tensorType, scalarKind(k))) return *d;
  return req.literalDType;
}

/// The output shapes of a numpy op come from the shape functions on the concrete inputs (small
/// ones by value: shapes, range bounds), before the kernel allocates.
void checkNumpyAllocation(Interpreter& in, const OpDef& op, const std::vector<EagerValue>& evs, const Attrs& attrs) {
  std::vector<TensorType> types;
  types.reserve(evs.size());
  for (const EagerValue& ev : evs) {
    TensorType t(ev.tensor.dtype(), Shape::fromConcrete(ev.tensor.shape()));
    if (ev.tensor.numElements() <= 64) t.value = std::make_shared<Tensor>(ev.tensor);
    types.push_back(std::move(t));
  }
  ShapeResult r = op.infer(types, attrs);
  if (!r.ok()) return;  // the kernel reports it
  for (const TensorType& t : r.outputs)
    if (t.shape.fullyKnown() && t.dtype != DType::Invalid) checkArrayAllocation(in, t.shape.concrete(), t.dtype);
}

/// The exception numpy raises where a numpy op's shapes do not fit, from the inputs' shapes (and
/// the last input's value: a reshape's target, a concatenation's axis): numpy's type and message for broadcasting, reshape, matmul,
/// concatenate and stack; nullopt where numpy's message is not modelled (the engine's stands).
/// Shared by the run (raiseNumpyError) and the analysis (the same message as a diagnostic).
struct NumpyError {
  std::string type, message;
};
std::optional<NumpyError> numpyShapeError(const std::string& type, const std::vector<ConcreteShape>& shapes,
                                          const Tensor* last, const std::string& msg) {
  auto shape = [&](size_t i) { return i < shapes.size() ? shapes[i] : ConcreteShape{}; };
  if (type == "Reshape" && last && shapes.size() == 2) {
    ConcreteShape target;
    const Tensor& t = *last;
    int64_t size = 1;
    for (int64_t d : shape(0)) size *= d;
    for (int64_t i = 0; i < t.numElements(); ++i)
      target.push_back(t.dtype() == DType::Int32 ? t.data<int32_t>()[i] : t.data<int64_t>()[i]);
    return NumpyError{"ValueError", "cannot reshape array of size " + std::to_string(size) + " into shape " + npShape(target)};
  }
  if ((type == "MatMul" || type == "BatchMatMulV2") && shapes.size() == 2 && !shape(0).empty() && shape(1).size() >= 2) {
    const ConcreteShape a = shape(0), b = shape(1);
    return NumpyError{"ValueError", "matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature "
                                    "(n?,k),(k,m?)->(n?,m?) (size " + std::to_string(b[b.size() - 2]) + " is different from " +
                                        std::to_string(a.back()) + ")"};
  }
  if (type == "ConcatV2" && shapes.size() >= 3 && last && last->numElements() == 1) {
    // numpy's concatenate: the same rank, then every axis but the joined one equal.
    const size_t n = shapes.size() - 1;
    for (size_t i = 1; i < n; ++i)
      if (shapes[i].size() != shapes[0].size())
        return NumpyError{"ValueError", "all the input arrays must have same number of dimensions, but the array at index 0 has " +
                                            std::to_string(shapes[0].size()) + " dimension(s) and the array at index " +
                                            std::to_string(i) + " has " + std::to_string(shapes[i].size()) + " dimension(s)"};
    int64_t axis = last->dtype() == DType::Int32 ? last->data<int32_t>()[0] : last->data<int64_t>()[0];
    const int64_t rank = static_cast<int64_t>(shapes[0].size());
    if (axis < 0) axis += rank;
    for (size_t i = 1; i < n; ++i)
      for (int64_t d = 0; d < rank; ++d)
        if (d != axis && shapes[i][static_cast<size_t>(d)] != shapes[0][static_cast<size_t>(d)])
          return NumpyError{"ValueError", "all the input array dimensions except for the concatenation axis must match exactly, "
                                          "but along dimension " + std::to_string(d) + ", the array at index 0 has size " +
                                              std::to_string(shapes[0][static_cast<size_t>(d)]) + " and the array at index " +
                                              std::to_string(i) + " has size " + std::to_string(shapes[i][static_cast<size_t>(d)])};
    return std::nullopt;
  }
  if (type == "Pack" && !shapes.empty()) {
    for (const ConcreteShape& s : shapes)
      if (s != shapes[0]) return NumpyError{"ValueError", "all input arrays must have the same shape"};
    return std::nullopt;
  }
  if (shapes.size() >= 2 && (msg.find("Dimensions must be equal") != std::string::npos ||
                             msg.find("Incompatible shapes") != std::string::npos)) {
    // Element-wise ops (np.where's three operands too): numpy names every operand's shape.
    std::optional<ConcreteShape> b = shape(0);
    for (size_t i = 1; i < shapes.size() && b; ++i) b = broadcastConcrete(*b, shapes[i]);
    if (!b) {
      std::string all;
      for (const ConcreteShape& s : shapes) all += npShape(s) + " ";
      return NumpyError{"ValueError", "operands could not be broadcast together with shapes " + all};
    }
  }
  return std::nullopt;
}

/// An engine error from a numpy op as the exception numpy raises, so the program's `except
/// ValueError` / `except IndexError` fire: a bad index is an IndexError, a shape that does not
/// fit a ValueError (with numpy's message where numpyShapeError models it), an allocation a
/// MemoryError.
[[noreturn]] void raiseNumpyError(Interpreter& in, const OpDef& op, const std::vector<EagerValue>& evs, const EngineError& e) {
  const std::string msg = e.what();
  const std::string& type = op.type;
  auto shape = [&](size_t i) { return i < evs.size() ? evs[i].tensor.shape() : ConcreteShape{}; };
  if (e.code() == ErrorCode::ResourceExhausted) in.raise("MemoryError", msg);
  if (e.code() == ErrorCode::OutOfRange) in.raise("IndexError", msg);
  if (e.code() != ErrorCode::InvalidArgument) in.raise("RuntimeError", e.full());
  if (msg.find("out of bounds") != std::string::npos || type == "Gather" || type == "GatherV2" || type == "StridedSlice" ||
      type == "Slice") {
    // "slice index 5 of dimension 0 out of bounds": numpy's "index 5 is out of bounds for axis 0 with size 3".
    long long index = 0, dim = 0;
    if (std::sscanf(msg.c_str(), "slice index %lld of dimension %lld out of bounds", &index, &dim) == 2 && dim >= 0 &&
        static_cast<size_t>(dim) < shape(0).size())
      in.raise("IndexError", "index " + std::to_string(index) + " is out of bounds for axis " + std::to_string(dim) +
                                 " with size " + std::to_string(shape(0)[static_cast<size_t>(dim)]));
    in.raise("IndexError", msg);
  }
  std::vector<ConcreteShape> shapes;
  for (const EagerValue& ev : evs) shapes.push_back(ev.tensor.shape());
  const Tensor* last = evs.empty() ? nullptr : &evs.back().tensor;
  if (auto ne = numpyShapeError(type, shapes, last, msg)) in.raise(ne->type, ne->message);
  in.raise("ValueError", msg);
}

/// The analysis' message for a numpy op whose shape function failed: numpy's, when every input's
/// shape is known (and the values numpy's message needs), else the shape function's.
std::string numpyAnalysisMessage(const OpDef& op, const std::vector<TensorType>& types, const std::string& msg) {
  std::vector<ConcreteShape> shapes;
  for (const TensorType& t : types) {
    if (!t.shape.fullyKnown()) return msg;
    shapes.push_back(t.shape.concrete());
  }
  const Tensor* last = types.empty() || !types.back().value ? nullptr : types.back().value.get();
  if ((op.type == "Reshape" || op.type == "ConcatV2") && !last) return msg;
  auto ne = numpyShapeError(op.type, shapes, last, msg);
  return ne ? ne->message : msg;
}

std::string inputDescription(const TensorObj& t) {
  std::string s = describeType(t.type);
  if (t.isSymbolic()) s = "'" + t.out.name() + "' " + s;
  return s;
}

/// Abstract mode: reports a failed shape function at the user's line, the blamed inputs' origins
/// as related locations; the payload (`data`, from the shape function) gets each input's origin.
void reportShapeError(TfRuntime& rt, const std::string& error, const std::vector<int>& blame,
                      const std::vector<std::shared_ptr<TensorObj>>& ins, DiagnosticData data,
                      std::string_view raiseAs) {
  std::vector<SourceLocation> rel;
  std::vector<std::string> msgs;
  for (int b : blame)
    if (b >= 0 && static_cast<size_t>(b) < ins.size()) {
      rel.push_back(ins[static_cast<size_t>(b)]->origin);
      msgs.push_back("input " + std::to_string(b) + ": " + inputDescription(*ins[static_cast<size_t>(b)]));
    }
  for (size_t i = 0; i < data.inputs.size() && i < ins.size(); ++i) data.inputs[i].location = ins[i]->origin;
  rt.reportError(error, rel, msgs, "shape-error", std::move(data), raiseAs);
}

}  // namespace

std::vector<Value> applyOp(TfRuntime& rt, OpRequest req) {
  Interpreter& in = rt.interp();
  const OpDef* op = OpRegistry::global().find(req.type);
  if (!op) in.raise("NotImplementedError", "tensorlens has no op '" + req.type + "'");

  // Convert the inputs.
  std::vector<std::shared_ptr<TensorObj>> ins;
  ins.reserve(req.inputs.size());
  // numpy semantics only when asked for (numpy functions, operators on ndarrays): a TensorFlow
  // op given numpy arrays returns a tensor, as in TensorFlow (a graph constant while building).
  const bool ndarray = req.ndarray;
  for (const Value& v : req.inputs) {
    if (dynamic_cast<TensorObj*>(v.get())) {
      ins.push_back(std::static_pointer_cast<TensorObj>(v));
      continue;
    }
    DType want = targetDType(req, v);
    // An op's int32 for literals (shapes, axes) is TensorFlow's preferred type, not a demand: a
    // list of ints that needs 64 bits converts to int64 (tf.zeros([10**6, 10**6]) is a Fill of an
    // int64 shape in TensorFlow, then an out-of-memory error, not a conversion error).
    if (want == DType::Int32 && req.literalDType == DType::Int32 && !ndarray && needsInt64(v)) want = DType::Int64;
    ins.push_back(toTensor(rt, v, want, ndarray));
  }
  // TensorFlow casts a numpy scalar (np.sqrt(6.0), np.float64(x): 0-d ndarrays here) to the dtype
  // of the tensors it meets, as convert_to_tensor casts np.generic values; a numpy array meeting a
  // tensor in an operator is converted to the tensor's dtype too (`np_f64 * t_f32`,
  // Tensor.__rmul__), when the kinds allow it (float to float, integer to integer or float).
  if (!ndarray && req.unifyDTypes) {
    DType want = DType::Invalid;
    for (auto& t : ins)
      if (!t->ndarray && t->type.dtype != DType::Invalid) {
        want = t->type.dtype;
        break;
      }
    auto numeric = [](DType d) { return isFloating(d) || isInteger(d); };
    if (numeric(want))
      for (auto& t : ins)
        if (t->ndarray && t->type.dtype != want && numeric(t->type.dtype) &&
            ((t->type.shape.rankKnown() && t->type.shape.rank() == 0) ||
             (isFloating(want) ? numeric(t->type.dtype) : isInteger(t->type.dtype)))) {
          OpRequest cast;
          cast.type = "Cast";
          cast.inputs = {t};
          cast.attrs["DstT"] = want;
          t = std::static_pointer_cast<TensorObj>(applyOp1(rt, std::move(cast)));
        }
  }
  // numpy promotes arrays of different dtypes.
  if (ndarray && req.unifyDTypes) {
    DType common = DType::Invalid;
    for (auto& t : ins)
      if (t->type.dtype != DType::Invalid)
        common = common == DType::Invalid ? t->type.dtype : numpyPromote(common, t->type.dtype);
    if (common != DType::Invalid)
      for (auto& t : ins)
        if (t->type.dtype != DType::Invalid && t->type.dtype != common) {
          OpRequest cast;
          cast.type = "Cast";
          cast.inputs = {t};
          cast.attrs["DstT"] = common;
          cast.ndarray = true;
          t = std::static_pointer_cast<TensorObj>(applyOp1(rt, std::move(cast)));
        }
  }

  // Where: a graph when one is being built or an input is symbolic.
  Graph* g = ndarray ? nullptr : rt.buildingGraph();
  for (auto& t : ins)
    if (t->isSymbolic()) {
      if (ndarray)
        in.raise("NotImplementedError", "Cannot convert a symbolic Tensor (" + t->out.name() +
                                            ") to a numpy array. This error may indicate that you're trying to pass a Tensor to a NumPy call, which is not supported.");
      if (!g) g = t->graph;
    }
  // The inputs' graph names, for shape-error messages (graphs and abstract mode only).
  auto namesOf = [&ins] {
    std::vector<std::string> names;
    names.reserve(ins.size());
    for (auto& t : ins) names.push_back(t->isSymbolic() ? t->out.name() : std::string());
    return names;
  };

  std::vector<Value> results;
  if (g) {
    std::vector<Output> outs;
    outs.reserve(ins.size());
    for (auto& t : ins) {
      if (t->isSymbolic()) {
        if (t->graph != g)
          in.raise("ValueError", "Tensor(\"" + t->out.name() + "\") must be from the same graph as the other inputs of " + req.type + ".");
        outs.push_back(t->out);
      } else if (t->form == TensorObj::Form::Concrete && t->variable && rt.trace && rt.trace->graph == g) {
        // A tf.function captures eager variables by reference (FunctionObj.h).
        auto it = rt.trace->variables.find(t->varName);
        if (it == rt.trace->variables.end()) {
          rt.stampCreation(g);
          Tensor v = t->concrete().tensor;
          NodeOptions o;
          o.name = t->varName;
          Node* n = g->addNode("VariableV2", {}, Attrs{{"dtype", v.dtype()}, {"shape", Shape::fromConcrete(v.shape())}}, o);
          (*rt.trace->captures)[n] = t;
          it = rt.trace->variables.emplace(t->varName, n->out(0)).first;
        }
        outs.push_back(it->second);
      } else if (t->form == TensorObj::Form::Concrete) {
        rt.stampCreation(g);
        Tensor v = t->hostValue();  // a Const holds its value on the host
        Node* n = g->addNode("Const", {}, Attrs{{"value", v}, {"dtype", v.dtype()}}, NodeOptions{});
        outs.push_back(n->out(0));
      } else {
        rt.stampCreation(g);
        DType dt = t->type.dtype == DType::Invalid ? DType::Float32 : t->type.dtype;
        Node* n = g->addNode("Placeholder", {}, Attrs{{"dtype", dt}, {"shape", t->type.shape}}, NodeOptions{});
        n->outputs[0] = t->type;
        outs.push_back(n->out(0));
      }
    }
    rt.stampCreation(g);
    NodeOptions opts;
    opts.name = req.name;
    std::vector<TensorType> types;
    if (rt.abstract()) {
      opts.tolerateShapeErrors = true;
      for (const Output& o : outs) types.push_back(o.type());
    }
    Node* n = nullptr;
    try {
      n = g->addNode(req.type, std::move(outs), req.attrs, opts);
    } catch (const EngineError& e) {
      // A dtype the op does not take (a string into a math op) is op_def_library's TypeError.
      in.raise(isDTypeRejection(e.what()) ? "TypeError" : "ValueError", e.what());
    }
    if (rt.abstract() && !n->shapeError.empty()) {
      // Infer again under the node's final name, for the message and the blamed inputs.
      std::vector<std::string> inputNames = namesOf();
      ShapeResult r = op->infer(types, req.attrs, n->name, &inputNames);
      const std::string& message = r.ok() ? n->shapeError : r.error;
      // op_def_library's: a dtype the op does not take, or inputs of different dtypes, a TypeError.
      const bool dtypeError = isDTypeRejection(message) || message.find("is not in the list of allowed values") != std::string::npos ||
                              message.find("that does not match type") != std::string::npos;
      reportShapeError(rt, message, r.blame, ins, std::move(r.data), dtypeError ? "TypeError" : "ValueError");
    }
    rt.markDevicesInUse();
    for (size_t i = 0; i < n->numOutputs(); ++i) {
      auto t = symbolicTensor(rt, *g, n->out(static_cast<int>(i)));
      record(rt, t, n->type(), static_cast<int>(i));
      results.push_back(t);
    }
    return results;
  }

  // Eager: where the op runs (numpy stays on the host), by the same rules as graph nodes.
  rt.markDevicesInUse();
  std::vector<std::string> varNames;
  if (!op->refInputs.empty())
    for (auto& t : ins) varNames.push_back(t->variable ? t->varName : std::string());
  if (ndarray) rt.pushEagerDevice("/cpu:0");
  struct PopDevice {
    TfRuntime& rt;
    bool on;
    ~PopDevice() { if (on) rt.popEagerDevice(); }
  } popDevice{rt, ndarray};
  bool strings = false;
  for (auto& t : ins) strings = strings || t->type.dtype == DType::String;
  const Placement where = ndarray ? Placement{} : rt.eagerPlacement(*op, varNames, strings);
  if (where.softPlaced && !rt.options().softPlacement && !rt.abstract())
    rt.raiseEngineError(EngineError(ErrorCode::InvalidArgument,
        "Cannot assign a device for operation " + op->type + ": " + where.note +
            ". Soft device placement is off (tf.config.set_soft_device_placement(False)). [Op:" + op->type + "]"));
  if (rt.options().logDevicePlacement && !rt.abstract() && !ndarray)
    in.write("Executing op " + op->type + " in device " + where.device.fullName() +
                 (where.note.empty() ? "" : "  [" + where.note + "]") + "\n", true);

  if (!rt.abstract()) {
    std::vector<EagerValue> evs;
    evs.reserve(ins.size());
    for (size_t i = 0; i < ins.size(); ++i) evs.push_back(ins[i]->concrete());
    Execution& exec = rt.exec();
    // The Python stack is read once per op, and only as far as needed: the whole stack when a
    // hook, check-numerics or a tape reads the creation context, else only the user's location
    // (the outputs' origin).
    SourceLocation origin;
    if (exec.readsCreation()) {
      rt.stampCreation(nullptr);
      origin = rt.eagerCreation().location;
    } else {
      origin = rt.userLocation();
    }
    if (ndarray) checkNumpyAllocation(in, *op, evs, req.attrs);
    std::vector<EagerValue> outs;
    try {
      outs = exec.execute(*op, evs, req.attrs, varNames, rt.eagerDeviceScope(), rt.eagerCreation());
    } catch (const EngineError& e) {
      if (ndarray) raiseNumpyError(in, *op, evs, e);
      if (isDTypeRejection(e.what())) {
        // Eager TensorFlow finds no kernel for the dtype (strings are the only one rejected).
        rt.raiseEngineError(EngineError(ErrorCode::NotFound, "Could not find device for node: {{node " + op->type + "}} = " +
                                                                 op->type + "[T=DT_STRING]\n" + e.what() + " [Op:" + op->type + "]"));
      }
      rt.raiseEngineError(e);
    }
    char strKind = 0;  // numpy string arrays keep their kind through indexing, reshapes...
    if (ndarray)
      for (auto& t : ins)
        if (t->strKind) strKind = t->strKind;
    for (size_t i = 0; i < outs.size(); ++i) {
      auto t = concreteTensor(rt, std::move(outs[i]), ndarray, op->type, static_cast<int>(i), &origin);
      t->device = exec.lastPlacement().device;
      t->placementNote = exec.lastPlacement().note;
      if (t->type.dtype == DType::String) t->strKind = strKind;
      results.push_back(t);
    }
    return results;
  }

  // Abstract and eager: the shape function only.
  std::vector<TensorType> types;
  for (auto& t : ins) types.push_back(t->type);
  std::vector<std::string> inputNames = namesOf();
  ShapeResult r = op->infer(types, req.attrs, req.name.empty() ? op->type : req.name, &inputNames);
  if (!r.ok()) {
    reportShapeError(rt, ndarray ? numpyAnalysisMessage(*op, types, r.error) : r.error, r.blame, ins, std::move(r.data),
                     ndarray ? "ValueError" : "InvalidArgumentError");  // what numpy and eager TensorFlow raise
    // Outputs of unknown type, so nothing downstream is reported; ops whose output count
    // depends on the failed inference give an Unknown.
    if (op->type == "Split" || op->type == "SplitV" || op->type == "Unpack") return {unknown()};
    return {abstractTensor(rt, TensorType{}, ndarray)};
  }
  for (size_t i = 0; i < r.outputs.size(); ++i) {
    auto t = abstractTensor(rt, std::move(r.outputs[i]), ndarray, op->type, static_cast<int>(i));
    t->device = where.device;
    t->placementNote = where.note;
    results.push_back(t);
  }
  return results;
}

Value applyOp1(TfRuntime& rt, OpRequest req) {
  std::vector<Value> r = applyOp(rt, std::move(req));
  return r.empty() ? none() : r.front();
}

void checkArrayAllocation(Interpreter& in, const ConcreteShape& shape, DType dtype) {
  static const double limit = [] {
    double l = static_cast<double>(sysconf(_SC_PHYS_PAGES)) * static_cast<double>(sysconf(_SC_PAGESIZE));
    rlimit rl{};
    if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) l = std::min(l, static_cast<double>(rl.rlim_cur));
    return l;
  }();
  double bytes = static_cast<double>(dtypeSize(dtype));
  std::string dims;
  for (size_t i = 0; i < shape.size(); ++i) {
    bytes *= static_cast<double>(shape[i]);
    dims += (i ? ", " : "") + std::to_string(shape[i]);
  }
  if (bytes <= limit) return;
  if (shape.size() == 1) dims += ",";
  static const char* kUnits[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double v = bytes;
  size_t u = 0;
  while (v >= 1024 && u + 1 < std::size(kUnits)) {
    v /= 1024;
    ++u;
  }
  char size[32];
  std::snprintf(size, sizeof size, "%.3g %s", v, kUnits[u]);
  in.raise("MemoryError", std::string("Unable to allocate ") + size + " for an array with shape (" + dims +
                              ") and data type " + std::string(dtypeName(dtype)));
}

std::string npShape(const ConcreteShape& s) {
  std::string out = "(";
  for (size_t i = 0; i < s.size(); ++i) out += (i ? "," : "") + std::to_string(s[i]);
  return out + (s.size() == 1 ? ",)" : ")");
}

}  // namespace tlens::tf
