#include "lang/tf/TensorObj.h"

#include <cmath>
#include <cstring>
#include <optional>

#include "lang/tf/NumpyFormat.h"
#include "lang/tf/NumpyIndexing.h"
#include "lang/tf/OpApply.h"
#include "lang/tf/TfObjects.h"
#include "lang/tf/TfRuntime.h"

namespace tlens::tf {

using namespace interp;

std::string describeType(const TensorType& t) {
  if (t.dtype == DType::Invalid && !t.shape.rankKnown()) return "<unknown>";
  return t.str();
}

EagerValue TensorObj::concrete() {
  if (form != Form::Concrete) throw EngineError(ErrorCode::Internal, "not a concrete tensor");
  if (!variable) return value;
  Tensor* v = rt->exec().variable(varName);
  if (!v)
    throw EngineError(ErrorCode::FailedPrecondition,
                      "Could not find variable " + varName + ". This could mean that the variable has been deleted.");
  value.tensor = *v;
  type = TensorType(v->dtype(), Shape::fromConcrete(v->shape()));
  if (trainable && !rt->activeTapes.empty()) {
    for (Tape* tape : rt->activeTapes) tape->watch(value);
    noteVariableRead(*rt, shared_from_this());
  }
  return value;
}

Tensor TensorObj::hostValue() { return concrete().tensor.toHost(); }

std::string TensorObj::typeName() const {
  if (ndarray) {
    // numpy scalars (0-d arrays here) carry their scalar type's name: numpy.float32, numpy.int64.
    if (type.shape.rankKnown() && type.shape.rank() == 0 && type.dtype != DType::Invalid)
      return type.dtype == DType::Bool ? "bool_" : std::string(dtypeName(type.dtype));
    return "ndarray";
  }
  if (variable) return isSymbolic() ? "RefVariable" : "ResourceVariable";
  if (isSymbolic()) return "Tensor";
  return "EagerTensor";
}

// --- attributes ------------------------------------------------------------------------------

// A dim TensorFlow leaves unknown is None. In abstract mode an unknown dim without a symbol may
// also be one that only the analysis does not know (a size computed from data it did not read:
// the program's tensor has it), so there it is an unknown value, never a None that arithmetic
// would then refuse; a symbolic dim (a placeholder's None, followed through the ops) stays None.
static Value dimValue(TfRuntime& rt, const Dim& d) {
  if (d.isKnown()) return makeInt(d.size);
  if (rt.abstract() && !d.isSymbolic()) return unknown();
  return none();
}

static Value shapeTuple(const Shape& s) {
  if (!s.rankKnown()) return unknown();
  std::vector<Value> dims;
  for (const Dim& d : s.dims()) dims.push_back(d.isKnown() ? makeInt(d.size) : unknown());
  return makeTuple(std::move(dims));
}

static Value tensorShape(TfRuntime& rt, const Shape& s) {
  Interpreter& in = rt.interp();
  Value dims;
  if (s.rankKnown()) {
    std::vector<Value> ds;
    for (const Dim& d : s.dims()) ds.push_back(dimValue(rt, d));
    dims = makeList(std::move(ds));
  } else {
    dims = none();
  }
  if (!rt.tensorShapeClass) return dims;
  return in.call(rt.tensorShapeClass, {dims});
}

std::string TensorObj::deviceName() const {
  if (isSymbolic() && out.node) return out.node->device.str();
  return device.str();
}

const std::string& TensorObj::devicePlacementNote() const {
  if (isSymbolic() && out.node) return out.node->placementNote;
  return placementNote;
}

Value TensorObj::getAttr(Interpreter& in, std::string_view name) {
  if (name == "shape") return ndarray ? shapeTuple(type.shape) : tensorShape(*rt, type.shape);
  if (name == "dtype") {
    auto d = std::make_shared<DTypeObj>(type.dtype, ndarray, rt);
    if (ndarray && type.dtype == DType::String && form == Form::Concrete && (strKind == 'U' || strKind == 'S'))
      d->npName = numpyStringDTypeName(hostValue(), strKind);
    return d;
  }
  if (name == "ndim") return type.shape.rankKnown() ? makeInt(type.shape.rank()) : (rt->abstract() ? unknown() : none());
  if (name == "size" && ndarray) {
    auto n = type.shape.numElements();
    return n ? makeInt(*n) : unknown();
  }
  if (name == "name" && !ndarray) {
    if (isSymbolic()) return makeStr(out.name());
    if (variable) return makeStr(shownVariableName() + ":0");
    in.raise("AttributeError", "Tensor.name is undefined when eager execution is enabled.");
  }
  if (name == "device" && !ndarray) {
    if (isSymbolic()) return makeStr(out.node->device.fullName());
    return makeStr((form == Form::Concrete ? concrete().tensor.device() : device).fullName());
  }
  if (name == "trainable" && variable) return boolean(trainable);
  if (name == "_tlens_type") return makeStr(describeType(type));
  if (name == "_tlens_slice") return sliceOf ? sliceOf : none();
  if (name == "_tlens_form") return makeStr(form == Form::Symbolic ? "symbolic" : form == Form::Concrete ? "concrete" : "abstract");
  // Methods written in Python (tensorflow.py, numpy.py), bound to this tensor.
  auto lookup = [&](const Value& cls) -> Value {
    if (!cls) return nullptr;
    Value f = in.findAttr(cls, name);
    if (!f) return nullptr;
    if (f->kind() == Kind::Function) return boundMethod(f);
    if (f->kind() == Kind::Property) return in.call(static_cast<PropertyObj*>(f.get())->fget, {shared_from_this()});
    return f;
  };
  if (Value f = lookup(ndarray ? rt->ndarrayMethods : variable ? rt->variableMethods : rt->tensorMethods)) return f;
  return nullptr;
}

std::vector<std::string> TensorObj::attributeNames(Interpreter& in) {
  std::vector<std::string> names = {"shape", "dtype", "ndim"};
  if (!ndarray) names.insert(names.end(), {"name", "device"});
  const Value& methods = ndarray ? rt->ndarrayMethods : rt->tensorMethods;
  if (auto* c = dynamic_cast<ClassObj*>(methods.get()))
    c->dict.forEach([&](const std::string& k, const Value&) {
      if (!k.empty() && k[0] != '_') names.push_back(k);
    });
  return names;
}

bool TensorObj::setAttr(Interpreter& in, std::string_view name, const Value& v) {
  if (name == "_keras_history" || name == "_keras_mask") return true;
  return false;
}

// --- operators -------------------------------------------------------------------------------

static const char* binaryOpType(BinOp op) {
  switch (op) {
    case BinOp::Add: return "Add";
    case BinOp::Sub: return "Sub";
    case BinOp::Mul: return "Mul";
    case BinOp::TrueDiv: return "RealDiv";
    case BinOp::FloorDiv: return "FloorDiv";
    case BinOp::Mod: return "FloorMod";
    case BinOp::Pow: return "Pow";
    case BinOp::And: return "LogicalAnd";
    case BinOp::Or: return "LogicalOr";
    default: return nullptr;
  }
}

/// Whether `v` can be the other operand of an operator on a tensor. A Python str is one only for
/// a string tensor's comparisons: `"a = %s" % array` stays Python's string formatting.
static bool isTensorLike(const Value& v, bool stringsToo = false) {
  if (dynamic_cast<TensorObj*>(v.get())) return true;
  if (isUnknown(v)) return true;
  const DType d = literalDType(v, false);
  return d != DType::Invalid && (stringsToo || d != DType::String);
}

namespace {

/// A float32/float64 numpy scalar (a concrete 0-d ndarray on the host) or a Python int or float.
struct FloatScalar {
  double v;
  DType dtype;  ///< Invalid for a Python number
};

std::optional<FloatScalar> floatScalar(const Value& v) {
  if (auto* t = dynamic_cast<TensorObj*>(v.get())) {
    if (!t->ndarray || t->form != TensorObj::Form::Concrete) return std::nullopt;
    const Tensor& x = t->value.tensor;
    if (x.rank() != 0 || (x.dtype() != DType::Float32 && x.dtype() != DType::Float64) || !x.hostAccessible())
      return std::nullopt;
    return FloatScalar{x.getDouble(0), x.dtype()};
  }
  if (v->kind() == Kind::Float) return FloatScalar{*asDouble(v), DType::Invalid};
  if (v->kind() == Kind::Int) {
    auto i = asInt(v);
    if (!i || *i > (int64_t{1} << 53) || *i < -(int64_t{1} << 53)) return std::nullopt;
    return FloatScalar{static_cast<double>(*i), DType::Invalid};
  }
  return std::nullopt;
}

/// numpy scalar arithmetic and comparisons computed here, without an op: element loops over
/// float arrays run one per element. The dtype follows numpy 1.x's rules for scalars (float32
/// only when both are float32 scalars). Null when another path decides: other operand types,
/// other operators, a result that is not finite (so check-numerics and numpy's warnings see it).
Value scalarFastPath(TfRuntime& rt, const Value& a, const Value& b, const char* opType, int op, bool compare) {
  auto x = floatScalar(a), y = floatScalar(b);
  if (!x || !y || (x->dtype == DType::Invalid && y->dtype == DType::Invalid)) return nullptr;
  if (compare) {
    bool r = false;
    switch (static_cast<CmpOp>(op)) {
      case CmpOp::Lt: r = x->v < y->v; break;
      case CmpOp::Le: r = x->v <= y->v; break;
      case CmpOp::Eq: r = x->v == y->v; break;
      case CmpOp::Ne: r = x->v != y->v; break;
      case CmpOp::Gt: r = x->v > y->v; break;
      case CmpOp::Ge: r = x->v >= y->v; break;
      default: return nullptr;
    }
    return concreteTensor(rt, rt.wrap(Tensor::scalar<bool>(r)), true, opType);
  }
  double r = 0;
  switch (static_cast<BinOp>(op)) {
    case BinOp::Add: r = x->v + y->v; break;
    case BinOp::Sub: r = x->v - y->v; break;
    case BinOp::Mul: r = x->v * y->v; break;
    case BinOp::TrueDiv:
      if (y->v == 0) return nullptr;
      r = x->v / y->v;
      break;
    default: return nullptr;
  }
  bool f32 = x->dtype == DType::Float32 && y->dtype == DType::Float32;
  Tensor t = f32 ? Tensor::scalar<float>(static_cast<float>(r)) : Tensor::scalar<double>(r);
  if (!std::isfinite(t.getDouble(0))) return nullptr;
  return concreteTensor(rt, rt.wrap(std::move(t)), true, opType);
}

}  // namespace

Value TensorObj::binaryOp(Interpreter& in, BinOp op, const Value& other, bool reflected) {
  if (!isTensorLike(other)) return nullptr;
  if (ndarray && form == Form::Concrete && binaryOpType(op)) {
    Value self = shared_from_this();
    if (Value r = scalarFastPath(*rt, reflected ? other : self, reflected ? self : other, binaryOpType(op),
                                 static_cast<int>(op), false))
      return r;
  }
  if (isUnknown(other)) {
    // An unknown operand: the result is a tensor of unknown shape (dtype kept when other is a
    // Python number in practice), so later ops still type-check what they can.
    TensorType t;
    t.dtype = type.dtype;
    if (op == BinOp::TrueDiv && (isInteger(t.dtype) || t.dtype == DType::Bool)) {
      // Integers divide as floats: float64 (TensorFlow gives float32 for uint8).
      const bool small = t.dtype == DType::UInt8;
      t.dtype = small && !ndarray ? DType::Float32 : DType::Float64;
    }
    return abstractTensor(*rt, t, ndarray);
  }
  Value self = shared_from_this();
  Value a = reflected ? other : self, b = reflected ? self : other;
  OpRequest req;
  req.unifyDTypes = true;
  // ndarray <op> tf.Tensor is the tensor's reflected operator in TensorFlow (a tensor).
  auto* otherTensor = dynamic_cast<TensorObj*>(other.get());
  req.ndarray = ndarray && !(otherTensor && !otherTensor->ndarray);
  if (op == BinOp::MatMul) {
    auto ta = toTensor(*rt, a, DType::Invalid, req.ndarray), tb = toTensor(*rt, b, DType::Invalid, req.ndarray);
    int ra = ta->type.shape.rank(), rb = tb->type.shape.rank();
    req.type = (ra > 2 || rb > 2) ? "BatchMatMulV2" : "MatMul";
    req.inputs = {ta, tb};
    return applyOp1(*rt, std::move(req));
  }
  const char* type = binaryOpType(op);
  if (!type) return nullptr;
  req.type = type;
  if ((op == BinOp::And || op == BinOp::Or) && this->type.dtype != DType::Bool) return nullptr;
  if (op == BinOp::TrueDiv) {
    // Python's / on integers gives floats (TensorFlow: float64 for int32/int64 tensors, as numpy).
    auto intLike = [](const Value& v) {
      if (auto* t = dynamic_cast<TensorObj*>(v.get())) return isInteger(t->type.dtype) || t->type.dtype == DType::Bool;
      return v->kind() == Kind::Int || v->kind() == Kind::Bool;
    };
    if (intLike(a) && intLike(b)) {
      auto toFloat64 = [&](const Value& v) -> Value {
        OpRequest c;
        c.type = "Cast";
        c.inputs = {v};
        c.attrs["DstT"] = DType::Float64;
        c.ndarray = ndarray;
        return applyOp1(*rt, std::move(c));
      };
      a = toFloat64(a);
      b = toFloat64(b);
    }
  }
  req.inputs = {a, b};
  return applyOp1(*rt, std::move(req));
}

Value TensorObj::inplaceOp(Interpreter& in, BinOp op, const Value& other) {
  return binaryOp(in, op, other, false);
}

Value TensorObj::unaryOp(Interpreter& in, UnaryOp op) {
  if (op == UnaryOp::Pos) return shared_from_this();
  OpRequest req;
  req.ndarray = ndarray;
  req.inputs = {shared_from_this()};
  if (op == UnaryOp::Neg) req.type = "Neg";
  else if (type.dtype == DType::Bool) req.type = "LogicalNot";
  else return nullptr;
  return applyOp1(*rt, std::move(req));
}

Value TensorObj::compare(Interpreter& in, CmpOp op, const Value& other, bool reflected) {
  if (!isTensorLike(other, type.dtype == DType::String)) return nullptr;
  if ((op == CmpOp::Eq || op == CmpOp::Ne) && isSymbolic()) return nullptr;  // TF1: identity
  if (isUnknown(other)) return abstractTensor(*rt, TensorType(DType::Bool, Shape::unknownRank()), ndarray);
  static const char* kTypes[] = {"Less", "LessEqual", "Equal", "NotEqual", "Greater", "GreaterEqual"};
  static const char* kReflected[] = {"Greater", "GreaterEqual", "Equal", "NotEqual", "Less", "LessEqual"};
  if (ndarray && form == Form::Concrete && static_cast<int>(op) < 6) {
    // `reflected`: other <op> self was asked, computed as self <reflected op> other.
    static const CmpOp kMirror[] = {CmpOp::Gt, CmpOp::Ge, CmpOp::Eq, CmpOp::Ne, CmpOp::Lt, CmpOp::Le};
    CmpOp asked = reflected ? kMirror[static_cast<int>(op)] : op;
    if (Value r = scalarFastPath(*rt, shared_from_this(), other, (reflected ? kReflected : kTypes)[static_cast<int>(op)],
                                 static_cast<int>(asked), true))
      return r;
  }
  OpRequest req;
  req.type = (reflected ? kReflected : kTypes)[static_cast<int>(op)];
  req.inputs = {shared_from_this(), other};
  req.unifyDTypes = true;
  req.ndarray = ndarray;
  return applyOp1(*rt, std::move(req));
}

// --- subscripts ------------------------------------------------------------------------------

/// The flat offset of a[i, j, ...] when `keys` holds one Python int per dimension of a host
/// tensor; nullopt otherwise (the general paths handle it, errors included).
static std::optional<int64_t> elementOffset(const Tensor& t, const std::vector<Value>& keys) {
  if (keys.size() != static_cast<size_t>(t.rank()) || keys.empty() || t.dtype() == DType::String || !t.hostAccessible())
    return std::nullopt;
  int64_t flat = 0;
  for (size_t d = 0; d < keys.size(); ++d) {
    auto iv = asInt(keys[d]);
    if (!iv || keys[d]->kind() == interp::Kind::Bool) return std::nullopt;
    int64_t n = t.dim(static_cast<int>(d));
    int64_t i = *iv < 0 ? *iv + n : *iv;
    if (i < 0 || i >= n) return std::nullopt;
    flat = flat * n + i;
  }
  return flat;
}

Value TensorObj::getItem(Interpreter& in, const Value& key) {
  Value r = index(in, key);
  // An element of a numpy string array is a Python str (bytes for '|S' and object arrays).
  if (auto* t = dynamic_cast<TensorObj*>(r.get()); t && t->ndarray && t->form == Form::Concrete &&
                                                      t->type.dtype == DType::String && t->type.shape.rankKnown() &&
                                                      t->type.shape.rank() == 0)
    return tensorToPython(t->hostValue(), strKind);
  return r;
}

Value TensorObj::index(Interpreter& in, const Value& key) {
  std::vector<Value> keys;
  if (auto* t = as<TupleObj>(key)) keys = t->items;
  else keys = {key};
  if (ndarray && form == Form::Concrete) {
    // a[i, j]: one element, read directly (element loops over arrays run this per element).
    const Tensor& src = value.tensor;
    if (auto flat = elementOffset(src, keys)) {
      Tensor e(src.dtype(), {});
      size_t size = dtypeSize(src.dtype());
      std::memcpy(e.raw(), static_cast<const char*>(src.raw()) + static_cast<size_t>(*flat) * size, size);
      return concreteTensor(*rt, rt->wrap(std::move(e)), true, "StridedSlice");
    }
  }
  if (ndarray) {
    // numpy reads a tuple inside an index tuple as a sequence of indices: a[:, (2, 3)] is
    // a[:, [2, 3]].
    bool nested = false;
    for (const Value& k : keys) nested = nested || (keys.size() > 1 && as<TupleObj>(k) != nullptr);
    if (nested) {
      std::vector<Value> items;
      for (const Value& k : keys)
        items.push_back(as<TupleObj>(k) ? makeList(as<TupleObj>(k)->items) : k);
      return getItem(in, makeTuple(std::move(items)));
    }
    if (Value r = numpyArrayIndex(*this, in, key)) return r;
  }
  // Integer arrays select rows (numpy fancy indexing, tf.gather-like).
  if (keys.size() == 1) {
    auto* kt = dynamic_cast<TensorObj*>(keys[0].get());
    bool isList = as<ListObj>(keys[0]) != nullptr;
    if (ndarray && kt && kt->type.dtype == DType::Bool && !kt->type.shape.rankKnown())
      // A mask of unknown rank (abstract mode): it selects over as many dims as it has.
      return abstractTensor(*rt, TensorType(type.dtype, Shape::unknownRank()), true);
    if ((kt && kt->type.shape.rank() != 0) || isList) {
      OpRequest g;
      g.type = "GatherV2";
      g.inputs = {shared_from_this(), keys[0], makeInt(0)};
      g.ndarray = ndarray;
      g.literalDType = DType::Int32;
      return applyOp1(*rt, std::move(g));
    }
  }
  std::vector<Value> begin, end, strides;
  int64_t beginMask = 0, endMask = 0, ellipsisMask = 0, newAxisMask = 0, shrinkMask = 0;
  for (size_t i = 0; i < keys.size(); ++i) {
    const Value& k = keys[i];
    int64_t bit = int64_t{1} << i;
    if (isNone(k)) {
      newAxisMask |= bit;
      begin.push_back(makeInt(0)), end.push_back(makeInt(0)), strides.push_back(makeInt(1));
    } else if (k->kind() == Kind::Ellipsis) {
      ellipsisMask |= bit;
      begin.push_back(makeInt(0)), end.push_back(makeInt(0)), strides.push_back(makeInt(1));
    } else if (auto* s = as<SliceObj>(k)) {
      if (isNone(s->start)) beginMask |= bit, begin.push_back(makeInt(0));
      else begin.push_back(s->start);
      if (isNone(s->stop)) endMask |= bit, end.push_back(makeInt(0));
      else end.push_back(s->stop);
      strides.push_back(isNone(s->step) ? makeInt(1) : s->step);
    } else if (auto iv = asInt(k); iv && k->kind() != Kind::Bool) {
      shrinkMask |= bit;
      begin.push_back(makeInt(*iv));
      end.push_back(makeInt(*iv == -1 ? 0 : *iv + 1));
      if (*iv == -1) endMask |= bit;
      strides.push_back(makeInt(1));
    } else if (auto* kt = dynamic_cast<TensorObj*>(k.get()); kt && kt->type.shape.rank() == 0) {
      shrinkMask |= bit;
      begin.push_back(k);
      end.push_back(in.binaryOp(BinOp::Add, k, makeInt(1)));
      strides.push_back(makeInt(1));
    } else if (isUnknown(k)) {
      // An unknown index of a numpy array may be an index array or a mask (fancy indexing): the
      // result's rank is unknown too, unless the index is known to be an int.
      auto* u = static_cast<UnknownObj*>(k.get());
      if (ndarray && !(u->type && u->type->name == "int"))
        return abstractTensor(*rt, TensorType(type.dtype, Shape::unknownRank()), ndarray);
      // An unknown int: one dim consumed, result dims unknown.
      shrinkMask |= bit;
      begin.push_back(k), end.push_back(k), strides.push_back(makeInt(1));
    } else {
      in.raise("TypeError", "Only integers, slices (`:`), ellipsis (`...`), tf.newaxis (`None`) and scalar tf.int32/tf.int64 tensors are valid indices, got " + in.repr(k));
    }
  }
  OpRequest req;
  req.type = "StridedSlice";
  req.ndarray = ndarray;
  req.literalDType = DType::Int32;
  auto vec = [&](std::vector<Value> v) -> Value { return toTensor(*rt, makeList(std::move(v)), DType::Int32, ndarray); };
  req.inputs = {shared_from_this(), vec(begin), vec(end), vec(strides)};
  req.attrs = {{"begin_mask", beginMask},
               {"end_mask", endMask},
               {"ellipsis_mask", ellipsisMask},
               {"new_axis_mask", newAxisMask},
               {"shrink_axis_mask", shrinkMask}};
  Value sliceSpec;
  if (variable) {
    auto masks = makeDict();
    for (const auto& [k, v] : req.attrs) masks->set(in, makeStr(k), makeInt(std::get<int64_t>(v)));
    sliceSpec = makeTuple({shared_from_this(), req.inputs[1], req.inputs[2], req.inputs[3], masks});
  }
  Value r = applyOp1(*rt, std::move(req));
  if (sliceSpec)
    if (auto* t = dynamic_cast<TensorObj*>(r.get())) t->sliceOf = sliceSpec;
  return r;
}

namespace {

/// numpy's broadcast of an assigned value to the selected region: leading 1-dims of the value
/// beyond the region's rank dropped, then right-aligned dims equal or 1. Per region dim, the
/// value's stride (0 where it broadcasts), or nullopt when it does not fit.
std::optional<std::vector<int64_t>> assignStrides(ConcreteShape value, const ConcreteShape& region) {
  while (value.size() > region.size() && value.front() == 1) value.erase(value.begin());
  if (value.size() > region.size()) return std::nullopt;
  std::vector<int64_t> strides(region.size(), 0);
  int64_t stride = 1;
  for (size_t back = 0; back < value.size(); ++back) {
    const int64_t sd = value[value.size() - 1 - back], rd = region[region.size() - 1 - back];
    if (sd == rd) strides[region.size() - 1 - back] = stride;
    else if (sd != 1) return std::nullopt;
    stride *= sd;
  }
  return strides;
}

/// Abstract mode: the region `a[keys]` selects when every key is an int or a slice and the shape
/// is known, else nullopt.
std::optional<ConcreteShape> abstractRegion(Interpreter& in, const Shape& shape, const std::vector<Value>& keys) {
  if (!shape.fullyKnown() || keys.size() > static_cast<size_t>(shape.rank())) return std::nullopt;
  ConcreteShape dims = shape.concrete(), region;
  for (size_t d = 0; d < dims.size(); ++d) {
    if (d >= keys.size()) region.push_back(dims[d]);
    else if (keys[d]->kind() == interp::Kind::Int && asInt(keys[d])) continue;
    else if (auto* sl = as<SliceObj>(keys[d])) {
      auto known = [](const Value& v) { return isNone(v) || (v->kind() == interp::Kind::Int && asInt(v)); };
      if (!known(sl->start) || !known(sl->stop) || !known(sl->step)) return std::nullopt;
      region.push_back(sl->indices(in, dims[d]).count);
    } else {
      return std::nullopt;
    }
  }
  return region;
}

}  // namespace

bool TensorObj::setItem(Interpreter& in, const Value& key, const Value& v) {
  if (!ndarray) in.raise("TypeError", "'" + typeName() + "' object does not support item assignment");
  if (form != Form::Concrete) {
    // Abstract: shapes do not change, but a value that does not fit the region is numpy's error
    // (`data[i] = imgs[i]` of 784 values into a (28, 28) slot), where both shapes are known.
    if (form == Form::Abstract && rt->abstract()) {
      std::vector<Value> keys;
      if (auto* t = as<TupleObj>(key)) keys = t->items;
      else keys = {key};
      auto* tv = dynamic_cast<TensorObj*>(v.get());
      if (tv && tv->type.shape.fullyKnown())
        if (auto region = abstractRegion(in, type.shape, keys); region && !assignStrides(tv->type.shape.concrete(), *region))
          rt->reportError("could not broadcast input array from shape " + npShape(tv->type.shape.concrete()) +
                              " into shape " + npShape(*region),
                          {tv->origin}, {"the value: " + describeType(tv->type)});
    }
    return true;
  }
  std::vector<Value> keys;
  if (auto* t = as<TupleObj>(key)) keys = t->items;
  else keys = {key};
  // a[i, j] = number on a float array: one element, written in place. numpy's wrapping and
  // truncation rules for integer arrays stay with the general paths.
  if (isFloating(value.tensor.dtype()) && (v->kind() == interp::Kind::Int || v->kind() == interp::Kind::Float))
    if (auto flat = elementOffset(value.tensor, keys))
      if (auto d = asDouble(v)) {
        if (!value.tensor.uniquelyOwned()) value.tensor = value.tensor.clone();
        value.tensor.setDouble(*flat, *d);
        return true;
      }
  if (numpyArrayAssign(*this, in, key, v)) return true;
  // Concrete numpy assignment for integer and full-slice keys over the leading dims.
  Tensor& dst = value.tensor;
  // `...` stands for as many full slices as the other keys leave dims; `None` (np.newaxis) adds
  // a 1-dim to the region, which the value's broadcast below does not need.
  {
    std::vector<Value> expanded;
    size_t real = 0, ellipses = 0;
    for (const Value& k : keys) {
      if (k->kind() == interp::Kind::Ellipsis) ++ellipses;
      else if (!isNone(k)) ++real;
    }
    if (ellipses > 1) in.raise("IndexError", "an index can only have a single ellipsis ('...')");
    if (real > static_cast<size_t>(dst.rank()))
      in.raise("IndexError", "too many indices for array: array is " + std::to_string(dst.rank()) +
                                 "-dimensional, but " + std::to_string(real) + " were indexed");
    for (const Value& k : keys) {
      if (isNone(k)) continue;
      if (k->kind() == interp::Kind::Ellipsis) {
        for (size_t i = real; i < static_cast<size_t>(dst.rank()); ++i)
          expanded.push_back(std::make_shared<SliceObj>(none(), none(), none()));
      } else {
        expanded.push_back(k);
      }
    }
    keys = std::move(expanded);
  }
  if (!dst.uniquelyOwned()) dst = dst.clone();
  std::vector<std::vector<int64_t>> index;
  for (size_t d = 0; d < static_cast<size_t>(dst.rank()); ++d) {
    int64_t n = dst.dim(static_cast<int>(d));
    std::vector<int64_t> sel;
    if (d >= keys.size()) {
      for (int64_t i = 0; i < n; ++i) sel.push_back(i);
    } else if (auto iv = asInt(keys[d])) {
      int64_t i = *iv < 0 ? *iv + n : *iv;
      if (i < 0 || i >= n) in.raise("IndexError", "index " + std::to_string(*iv) + " is out of bounds for axis " + std::to_string(d) + " with size " + std::to_string(n));
      sel.push_back(i);
    } else if (auto* s = as<SliceObj>(keys[d])) {
      auto b = s->indices(in, n);
      for (int64_t k = 0, i = b.start; k < b.count; ++k, i += b.step) sel.push_back(i);
    } else {
      in.raise("NotImplementedError", "tensorlens supports ndarray assignment with integer and slice keys only");
    }
    index.push_back(std::move(sel));
  }
  std::shared_ptr<TensorObj> src = toTensor(*rt, v, dst.dtype(), true);
  Tensor s = src->hostValue();
  int64_t count = 1;
  for (auto& sel : index) count *= static_cast<int64_t>(sel.size());
  // The value broadcasts to the selected region (the slice dims; integer keys drop theirs), as
  // numpy's: m[a:b, c:d, :] = img of shape (h, w, 1) fills the three channels. Leading 1-dims of
  // the value beyond the region's rank are dropped.
  std::vector<size_t> regionDims;  // which of `index` the region keeps
  for (size_t d = 0; d < index.size(); ++d)
    if (d >= keys.size() || !asInt(keys[d])) regionDims.push_back(d);
  ConcreteShape region;
  for (size_t d : regionDims) region.push_back(static_cast<int64_t>(index[d].size()));
  auto strides = assignStrides(s.shape(), region);
  if (!strides)
    in.raise("ValueError", "could not broadcast input array from shape " + npShape(s.shape()) + " into shape " + npShape(region));
  std::vector<int64_t> srcStride(index.size(), 0);  // per index dim; 0 where the value broadcasts
  for (size_t j = 0; j < regionDims.size(); ++j) srcStride[regionDims[j]] = (*strides)[j];
  std::vector<size_t> pos(index.size(), 0);
  for (int64_t k = 0; k < count; ++k) {
    int64_t flat = 0, from = 0;
    for (size_t d = 0; d < index.size(); ++d) {
      flat = flat * dst.dim(static_cast<int>(d)) + index[d][pos[d]];
      from += static_cast<int64_t>(pos[d]) * srcStride[d];
    }
    dst.setDouble(flat, s.getDouble(from));
    for (size_t d = index.size(); d-- > 0;) {
      if (++pos[d] < index[d].size()) break;
      pos[d] = 0;
    }
  }
  type = concreteType(dst);
  return true;
}

Value TensorObj::iter(Interpreter& in) {
  if (isSymbolic() && !rt->abstract())
    in.raise("TypeError", "Tensor objects are only iterable when eager execution is enabled. To iterate over this tensor use tf.map_fn.");
  const Shape& s = type.shape;
  if (!s.rankKnown() || s.rank() == 0) {
    if (s.rank() == 0) in.raise("TypeError", "iteration over a 0-d tensor");
    return nullptr;
  }
  int64_t n = s[0].isKnown() ? s[0].size : (rt->abstract() ? 1 : 0);
  if (rt->abstract()) n = std::min<int64_t>(n, 2);
  auto self = std::static_pointer_cast<TensorObj>(shared_from_this());
  auto i = std::make_shared<int64_t>(0);
  Interpreter* ip = &in;
  return makeIterator(ndarray ? "iterator" : "tensor_iterator", [self, i, n, ip]() -> Value {
    if (*i >= n) return nullptr;
    return self->getItem(*ip, makeInt((*i)++));
  });
}

std::optional<int64_t> TensorObj::len(Interpreter& in) {
  const Shape& s = type.shape;
  if (s.rankKnown() && s.rank() == 0) in.raise("TypeError", "len() of unsized object");
  if (s.rankKnown() && s[0].isKnown()) return s[0].size;
  if (rt->abstract()) return -1;
  in.raise("TypeError", "len is not well defined for symbolic Tensors. (" + (isSymbolic() ? out.name() : std::string("tensor")) + ") Please call `x.shape` rather than `len(x)` for shape information.");
}

Truth TensorObj::truthy(Interpreter& in) {
  if (isSymbolic())
    in.raise("TypeError", "Using a `tf.Tensor` as a Python `bool` is not allowed in Graph execution. Use Eager execution or decorate this function with @tf.function.");
  if (form == Form::Abstract) {
    if (type.value && type.value->numElements() == 1 && type.value->dtype() != DType::String)
      return type.value->getDouble(0) != 0 ? Truth::True : Truth::False;
    return Truth::Unknown;
  }
  Tensor t = hostValue();
  if (t.numElements() != 1)
    in.raise("ValueError", "The truth value of an array with more than one element is ambiguous. Use a.any() or a.all()");
  if (t.dtype() == DType::String) return t.strings()[0].empty() ? Truth::False : Truth::True;
  return t.getDouble(0) != 0 ? Truth::True : Truth::False;
}

/// TensorFlow's numpy_text (python/framework/ops.py): the numpy value's str or repr, starting on
/// a line of its own when it spans several.
static std::string numpyText(TfRuntime& rt, const Tensor& t, bool isRepr, char strKind = 'O') {
  std::string s = t.rank() == 0 ? numpyScalarRepr(t, strKind)
                  : isRepr      ? numpyArrayRepr(t, rt.printOptions, strKind)
                                : numpyArrayStr(t, rt.printOptions, strKind);
  if (s.find('\n') != std::string::npos) s.insert(0, "\n");
  return s;
}

std::string TensorObj::repr(Interpreter& in) {
  std::string dt(dtypeName(type.dtype));
  if (variable) {
    std::string shape = type.shape.tfStr();
    if (isSymbolic()) return "<tf.Variable '" + out.name() + "' shape=" + shape + " dtype=" + dt + "_ref>";
    std::string s = "<tf.Variable '" + shownVariableName() + ":0' shape=" + shape + " dtype=" + dt;
    if (form == Form::Concrete)
      if (Tensor* v = rt->executes() ? rt->exec().variable(varName) : nullptr) s += ", numpy=" + numpyText(*rt, v->toHost(), true);
    return s + ">";
  }
  if (isSymbolic()) return "<tf.Tensor '" + out.name() + "' shape=" + type.shape.tfStr() + " dtype=" + dt + ">";
  if (form == Form::Abstract) return std::string(ndarray ? "<ndarray " : "<tf.Tensor ") + describeType(type) + ">";
  const Tensor t = value.tensor.toHost();
  // numpy: a 0-d ndarray here is a numpy scalar.
  if (ndarray) return t.rank() == 0 ? numpyScalarRepr(t, strKind) : numpyArrayRepr(t, rt->printOptions, strKind);
  return "<tf.Tensor: shape=" + type.shape.tfStr() + ", dtype=" + dt + ", numpy=" + numpyText(*rt, t, true) + ">";
}

std::string TensorObj::str(Interpreter& in) {
  if (isSymbolic() && !variable)
    return "Tensor(\"" + out.name() + "\", shape=" + type.shape.tfStr() + ", dtype=" + std::string(dtypeName(type.dtype)) + ")";
  if (form == Form::Concrete && !variable) {
    const Tensor t = value.tensor.toHost();
    if (ndarray) return numpyArrayStr(t, rt->printOptions, strKind);
    return "tf.Tensor(" + numpyText(*rt, t, false) + ", shape=" + type.shape.tfStr() + ", dtype=" + std::string(dtypeName(type.dtype)) + ")";
  }
  return repr(in);
}

Value TensorObj::join(Interpreter& in, const Value& other) {
  auto* o = dynamic_cast<TensorObj*>(other.get());
  if (!o) return nullptr;
  if (o == this) return shared_from_this();
  TensorType t;
  t.dtype = type.dtype == o->type.dtype ? type.dtype : DType::Invalid;
  const Shape &a = type.shape, &b = o->type.shape;
  if (a.rankKnown() && b.rankKnown() && a.rank() == b.rank()) {
    std::vector<Dim> dims;
    for (int i = 0; i < a.rank(); ++i) dims.push_back(a[static_cast<size_t>(i)] == b[static_cast<size_t>(i)] ? a[static_cast<size_t>(i)] : Dim::unknown());
    t.shape = Shape(std::move(dims));
  }
  auto r = std::make_shared<TensorObj>(*rt, Form::Abstract);
  r->type = std::move(t);
  r->ndarray = ndarray && o->ndarray;
  r->origin = origin;
  return r;
}

std::optional<int64_t> TensorObj::hash(Interpreter& in) {
  // A numpy scalar hashes as its value, so it finds dict keys: {1: 'b'}[np.argmax(p)].
  if (ndarray && type.shape.rankKnown() && type.shape.rank() == 0) {
    if (form == Form::Concrete) return in.hash(tensorToPython(hostValue()));
    if (type.value) return in.hash(tensorToPython(*type.value));
  }
  return static_cast<int64_t>(reinterpret_cast<intptr_t>(this) >> 4);
}

// --- dtypes ----------------------------------------------------------------------------------

Value DTypeObj::getAttr(Interpreter& in, std::string_view name) {
  if (name == "name") return makeStr(std::string(dtypeName(dtype)));
  if (name == "is_floating") return boolean(isFloating(dtype));
  if (name == "is_integer") return boolean(isInteger(dtype));
  if (name == "is_bool") return boolean(dtype == DType::Bool);
  if (name == "base_dtype" || name == "type") return shared_from_this();
  // tf.int32.as_numpy_dtype is numpy's int32 (callable: np.int32() is 0).
  if (name == "as_numpy_dtype") return numpy ? shared_from_this() : std::make_shared<DTypeObj>(dtype, true, rt);
  if (name == "itemsize" || name == "size") return makeInt(static_cast<int64_t>(dtypeSize(dtype)));
  if (name == "kind")
    return makeStr(dtype == DType::String ? (npName.empty() ? "O" : npName.substr(1, 1))
                   : isFloating(dtype)    ? "f"
                   : dtype == DType::Bool ? "b"
                   : dtype == DType::UInt8 ? "u"
                                           : "i");
  return nullptr;
}

Value DTypeObj::compare(Interpreter& in, CmpOp op, const Value& other, bool reflected) {
  if (op != CmpOp::Eq && op != CmpOp::Ne) return nullptr;
  bool eq = false;
  if (auto* o = dynamic_cast<DTypeObj*>(other.get())) eq = o->dtype == dtype;
  else if (const std::string* s = asString(other)) eq = parseDType(*s) == dtype;
  else return nullptr;
  return boolean(op == CmpOp::Eq ? eq : !eq);
}

std::string DTypeObj::repr(Interpreter& in) {
  if (numpy && dtype == DType::String) return "dtype('" + (npName.empty() ? std::string("O") : npName) + "')";
  if (numpy) return "dtype('" + std::string(dtypeName(dtype)) + "')";
  return "tf." + std::string(dtypeName(dtype));
}

Value DTypeObj::call(CallContext& c) {
  // np.float32(1.5): a numpy scalar.
  if (!rt) return nullptr;
  if (c.args.size() > 1) c.typeError(std::string(dtypeName(dtype)) + "() takes at most one argument");
  if (dtype == DType::String)  // np.str_('a'), np.object_(b'x'): the value itself
    return c.args.empty() ? makeStr("") : c.args[0];
  OpRequest req;
  req.type = "Cast";
  // np.float32() is 0.0, as numpy's scalar types default to zero.
  req.inputs = {toTensor(*rt, c.args.empty() ? makeInt(0) : c.args[0], DType::Invalid, true)};
  req.attrs["DstT"] = dtype;
  req.ndarray = true;
  return applyOp1(*rt, std::move(req));
}

}  // namespace tlens::tf
