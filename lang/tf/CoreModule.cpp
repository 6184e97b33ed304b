// `_tlens`: the native module under the embedded Python tensorflow/numpy/keras modules. Each
// function is small; the Python side gives them TensorFlow's names and signatures.
#include <unistd.h>

#include <cctype>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "engine/core/Promotion.h"
#include "engine/graph/Builder.h"
#include "engine/graph/Gradients.h"
#include "engine/graph/Loops.h"
#include "engine/graph/Optimizers.h"
#include "engine/graph/Placement.h"
#include "engine/ops/OpRegistry.h"
#include "lang/interp/Bytes.h"
#include "lang/interp/Function.h"
#include "lang/tf/CheckpointFiles.h"
#include "lang/tf/FunctionObj.h"
#include "lang/tf/NumpyFormat.h"
#include "lang/tf/OpApply.h"
#include "lang/tf/TensorTypes.h"
#include "lang/tf/TfObjects.h"

namespace tlens::tf {

using namespace interp;

namespace {

/// Whether a (nested) list holds an unknown of no known type.
bool holdsUntypedUnknown(const Value& v, int depth = 0) {
  if (!v || depth > 32) return false;
  if (auto* u = as<UnknownObj>(v)) return !u->type;
  if (v->kind() != Kind::List && v->kind() != Kind::Tuple) return false;
  for (const Value& e : *asSequence(v))
    if (holdsUntypedUnknown(e, depth + 1)) return true;
  return false;
}

DType dtypeArg(CallContext& c, const Value& v) {
  if (isNone(v)) return DType::Invalid;
  if (auto* d = dynamic_cast<DTypeObj*>(v.get())) return d->dtype;
  if (const std::string* s = asString(v)) {
    if (auto t = parseDType(*s)) return *t;
    // numpy's string and object dtypes ("object", "O", "str", "<U5", "|S3", "bytes").
    const std::string& n = *s;
    if (n == "object" || n == "O" || n == "str" || n == "bytes" || n == "unicode" || n == "string_" ||
        n == "str_" || n == "bytes_" || n == "object_" || n == "U" || n == "S" ||
        (n.size() >= 2 && (n[0] == '<' || n[0] == '|' || n[0] == '=') && (n[1] == 'U' || n[1] == 'S' || n[1] == 'O')) ||
        (n.size() >= 2 && (n[0] == 'U' || n[0] == 'S') && std::isdigit(static_cast<unsigned char>(n[1]))))
      return DType::String;
    if (*s == "float") return DType::Float64;
    if (*s == "int") return DType::Int64;
    c.typeError("data type '" + *s + "' not understood");
  }
  if (isUnknown(v)) throw NeedsKnownValue{};
  // Python's float / int / bool classes (np.zeros(3, dtype=float)).
  std::string n = c.interp.repr(v);
  if (n == "<class 'float'>") return DType::Float64;
  if (n == "<class 'int'>") return DType::Int64;
  if (n == "<class 'bool'>") return DType::Bool;
  if (n == "<class 'str'>" || n == "<class 'bytes'>" || n == "<class 'object'>") return DType::String;
  c.typeError("Cannot convert " + n + " to a dtype");
}

// A tf.train.*Optimizer's kind, learning rate (a number, or a tensor of graph g) and parameters.
OptimizerSpec optimizerSpec(CallContext& c, TfRuntime& rt, Graph& g) {
  std::string kind = c.toStr(c.arg("kind"));
  const Value& lrv = c.arg("learning_rate");
  Output lrTensor;
  double lr = 0;
  if (auto* t = dynamic_cast<TensorObj*>(lrv.get()); t && t->isSymbolic()) {
    if (t->graph != &g) c.valueError("the learning rate tensor is not in the graph of the variables it trains");
    lrTensor = t->out;
  } else {
    lr = c.toDouble(lrv);
  }
  auto param = [&](const char* k, double def) {
    auto* d = as<DictObj>(c.arg("params"));
    Value v = d ? d->getStr(k) : nullptr;
    return v && !isNone(v) ? c.toDouble(v) : def;
  };
  OptimizerSpec spec;
  if (kind == "GradientDescent") spec = OptimizerSpec::GradientDescent(lr);
  else if (kind == "Momentum") spec = OptimizerSpec::Momentum(lr, param("momentum", 0.0), param("use_nesterov", 0) != 0);
  else if (kind == "Adam") spec = OptimizerSpec::Adam(lr, param("beta1", 0.9), param("beta2", 0.999), param("epsilon", 1e-8));
  else if (kind == "RMSProp") spec = OptimizerSpec::RMSProp(lr, param("decay", 0.9), param("momentum", 0.0), param("epsilon", 1e-10));
  else if (kind == "Adagrad") spec = OptimizerSpec::Adagrad(lr, param("initial_accumulator_value", 0.1));
  else if (kind == "Adadelta") spec = OptimizerSpec::Adadelta(lr, param("rho", 0.95), param("epsilon", 1e-8));
  else c.valueError("unknown optimizer " + kind);
  spec.learning_rate_tensor = lrTensor;
  if (!c.isNone("name")) spec.name = c.toStr(c.arg("name"));
  return spec;
}

Shape shapeArg(CallContext& c, TfRuntime& rt, const Value& v, bool symbolsForNone) {
  if (isNone(v)) return Shape::unknownRank();
  if (auto i = asInt(v)) return Shape::fromConcrete({*i});
  std::vector<Value> items;
  if (auto* seq = asSequence(v)) items = *seq;
  else if (rt.tensorShapeClass && c.interp.isInstance(v, *static_cast<ClassObj*>(rt.tensorShapeClass.get()))) {
    Value dims = c.interp.getAttr(v, "_dims");
    if (isNone(dims)) return Shape::unknownRank();
    items = c.toList(dims);
  } else {
    items = c.toList(v);
  }
  std::vector<Dim> dims;
  for (size_t i = 0; i < items.size(); ++i) {
    const Value& d = items[i];
    if (isNone(d)) dims.push_back(symbolsForNone ? Dim::symbol(rt.newSymbol(i == 0 ? "batch" : "d" + std::to_string(i))) : Dim::unknown());
    else if (isUnknown(d)) dims.push_back(Dim::unknown());
    else if (auto* t = dynamic_cast<TensorObj*>(d.get()); t && t->type.value) dims.push_back(Dim::known(t->type.value->getInt(0)));
    else dims.push_back(Dim::known(c.toInt(d)));
  }
  return Shape(std::move(dims));
}

AttrValue attrValue(CallContext& c, TfRuntime& rt, std::string_view key, const Value& v) {
  if (isUnknown(v)) throw NeedsKnownValue{};
  switch (v->kind()) {
    case Kind::Bool: return static_cast<bool>(*asInt(v));
    case Kind::Int: return *asInt(v);
    case Kind::Float: return *asDouble(v);
    case Kind::Str: return *asString(v);
    default: break;
  }
  if (auto* d = dynamic_cast<DTypeObj*>(v.get())) return d->dtype;
  if (key == "shape" || key == "element_shape") return shapeArg(c, rt, v, false);
  if (auto* t = dynamic_cast<TensorObj*>(v.get())) {
    if (t->type.value && t->type.value->rank() <= 1) {
      if (t->type.value->rank() == 0) return t->type.value->getInt(0);
      return t->type.value->toInt64Vector();
    }
    if (t->form == TensorObj::Form::Concrete) {
      Tensor x = t->hostValue();
      if (x.rank() == 0) return isFloating(x.dtype()) ? AttrValue(x.getDouble(0)) : AttrValue(x.getInt(0));
      return x.toInt64Vector();
    }
    throw NeedsKnownValue{};
  }
  std::vector<Value> items = c.toList(v);
  bool allInt = true, allStr = true;
  for (const Value& e : items) {
    if (isUnknown(e)) throw NeedsKnownValue{};
    if (e->kind() != Kind::Int && e->kind() != Kind::Bool) allInt = false;
    if (e->kind() != Kind::Str) allStr = false;
  }
  if (allInt) {
    std::vector<int64_t> r;
    for (const Value& e : items) r.push_back(*asInt(e));
    return r;
  }
  if (allStr && !items.empty()) {
    std::vector<std::string> r;
    for (const Value& e : items) r.push_back(*asString(e));
    return r;
  }
  std::vector<double> r;
  for (const Value& e : items) r.push_back(c.toDouble(e));
  return r;
}

Attrs attrsArg(CallContext& c, TfRuntime& rt, const Value& v) {
  Attrs a;
  if (isNone(v)) return a;
  auto* d = as<DictObj>(v);
  if (!d) c.typeError("attrs must be a dict");
  for (const auto& e : d->entries()) {
    if (isNone(e.value)) continue;
    std::string k = c.toStr(e.key);
    a[k] = attrValue(c, rt, k, e.value);
  }
  return a;
}

Value tupleOrOne(std::vector<Value> outs) {
  if (outs.size() == 1) return outs[0];
  return makeTuple(std::move(outs));
}

// _tlens.op's body: one op applied to Python values; an op without outputs (Assert) in a graph
// is its operation, for control dependencies.
Value opCall(TfRuntime& rt, OpRequest r) {
  for (const Value& v : r.inputs)
    if (isUnknown(v)) {
      // An unknown input: the result is unknown, but keep going (no diagnostics).
      return unknown();
    }
  Graph* g = rt.buildingGraph();
  const size_t before = g ? g->size() : 0;
  const std::string type = r.type;
  std::vector<Value> outs = applyOp(rt, std::move(r));
  if (outs.empty() && g && g->size() > before && g->nodes().back().type() == type)
    return std::make_shared<OperationObj>(rt, *g, &g->nodes().back());
  return tupleOrOne(std::move(outs));
}

// --- .npy files (format 1.0, little-endian, C order) ---

const char* npyDescr(DType t) {
  switch (t) {
    case DType::Float16: return "<f2";
    case DType::Float32: return "<f4";
    case DType::Float64: return "<f8";
    case DType::Int32: return "<i4";
    case DType::Int64: return "<i8";
    case DType::UInt8: return "|u1";
    case DType::Bool: return "|b1";
    default: return nullptr;
  }
}

void writeNpy(CallContext& c, const std::string& path, const Tensor& t) {
  const char* descr = npyDescr(t.dtype());
  if (!descr) c.typeError("np.save: unsupported dtype " + std::string(dtypeName(t.dtype())));
  std::string shape = "(";
  for (int64_t d : t.shape()) shape += std::to_string(d) + ", ";
  if (t.rank() > 1) shape.resize(shape.size() - 2);
  else if (t.rank() == 1) shape.resize(shape.size() - 1);
  shape += ")";
  std::string header = "{'descr': '" + std::string(descr) + "', 'fortran_order': False, 'shape': " + shape + ", }";
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::ofstream f(path, std::ios::binary);
  if (!f) c.interp.raise("FileNotFoundError", "[Errno 2] No such file or directory: '" + path + "'");
  uint16_t len = static_cast<uint16_t>(header.size());
  f.write("\x93NUMPY\x01\x00", 8);
  char le[2] = {static_cast<char>(len & 0xff), static_cast<char>(len >> 8)};
  f.write(le, 2);
  f << header;
  f.write(static_cast<const char*>(t.raw()), static_cast<std::streamsize>(t.bytes()));
  if (!f) c.interp.raise("OSError", "np.save: could not write '" + path + "'");
}

Tensor readNpy(CallContext& c, const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) c.interp.raise("FileNotFoundError", "[Errno 2] No such file or directory: '" + path + "'");
  auto bad = [&](const std::string& why) -> void { c.valueError("np.load: '" + path + "' is not a supported .npy file (" + why + ")"); };
  char magic[8];
  if (!f.read(magic, 8) || std::string(magic, 6) != "\x93NUMPY") bad("no .npy magic");
  size_t len = 0;
  if (magic[6] == 1) {
    unsigned char l[2];
    if (!f.read(reinterpret_cast<char*>(l), 2)) bad("truncated header");
    len = l[0] | (static_cast<size_t>(l[1]) << 8);
  } else {
    unsigned char l[4];
    if (!f.read(reinterpret_cast<char*>(l), 4)) bad("truncated header");
    len = l[0] | (static_cast<size_t>(l[1]) << 8) | (static_cast<size_t>(l[2]) << 16) | (static_cast<size_t>(l[3]) << 24);
  }
  std::string header(len, '\0');
  if (!f.read(header.data(), static_cast<std::streamsize>(len))) bad("truncated header");
  auto field = [&](const std::string& key) -> std::string {
    size_t p = header.find("'" + key + "'");
    if (p == std::string::npos) bad("no " + key);
    p = header.find(':', p);
    size_t b = header.find_first_not_of(' ', p + 1);
    if (header[b] == '(') return header.substr(b + 1, header.find(')', b) - b - 1);
    if (header[b] == '\'') return header.substr(b + 1, header.find('\'', b + 1) - b - 1);
    return header.substr(b, header.find_first_of(",}", b) - b);
  };
  std::string descr = field("descr");
  if (field("fortran_order") != "False") bad("Fortran order");
  DType dt = DType::Invalid;
  for (DType t : {DType::Float16, DType::Float32, DType::Float64, DType::Int32, DType::Int64, DType::UInt8, DType::Bool})
    if (descr == npyDescr(t) || (descr.size() == 3 && descr[0] == '=' && descr.substr(1) == std::string(npyDescr(t)).substr(1))) dt = t;
  if (descr == "<u1") dt = DType::UInt8;
  if (descr == "<b1") dt = DType::Bool;
  if (dt == DType::Invalid) bad("dtype " + descr);
  ConcreteShape shape;
  std::string dims = field("shape");
  for (size_t p = 0; p < dims.size();) {
    size_t e = dims.find(',', p);
    std::string d = dims.substr(p, e == std::string::npos ? std::string::npos : e - p);
    if (d.find_first_not_of(' ') != std::string::npos) shape.push_back(std::stoll(d));
    if (e == std::string::npos) break;
    p = e + 1;
  }
  Tensor t(dt, shape);
  if (!f.read(static_cast<char*>(t.raw()), static_cast<std::streamsize>(t.bytes()))) bad("truncated data");
  return t;
}

using Fn = std::function<Value(CallContext&, TfRuntime&)>;

// A `with` scope that leaves any tf.function trace and builds in `graph` (null: runs eagerly).
Value outsideTraceScope(TfRuntime& rt, const char* kind, Graph* graph) {
  auto s = std::make_shared<ScopeObj>();
  s->kind = kind;
  TfRuntime* r = &rt;
  auto saved = std::make_shared<TraceContext*>(nullptr);
  // In a TF1 graph the ops inside wait for no enclosing control dependency (TensorFlow's
  // init_scope: a Keras optimizer's slots made inside its update's control_dependencies have
  // initializers that need no feed).
  s->onEnter = [r, saved, graph]() -> Value {
    *saved = r->trace;
    r->trace = nullptr;
    r->pushGraph(graph);
    if (graph) graph->pushControlDependencies({}, true);
    return none();
  };
  s->onExit = [r, saved, graph] {
    if (graph) graph->popControlDependencies();
    r->popGraph();
    r->trace = *saved;
  };
  return s;
}

// A numpy array as a TensorFlow tensor: a Const node while a graph is being built (an Identity of
// it for a value known only by its type, in abstract mode), an eager tensor otherwise.
std::shared_ptr<TensorObj> arrayAsTensor(TfRuntime& rt, const std::shared_ptr<TensorObj>& t) {
  if (!t->ndarray) return t;
  if (t->form == TensorObj::Form::Concrete) return constantTensor(rt, t->hostValue(), false);
  if (!rt.buildingGraph()) return abstractTensor(rt, t->type, false);
  OpRequest id;
  id.type = "Identity";
  id.inputs = {t};
  return std::static_pointer_cast<TensorObj>(applyOp1(rt, std::move(id)));
}

}  // namespace

void registerCoreModule(Interpreter& interp, const std::shared_ptr<TfRuntime>& rtp) {
  TfRuntime* rtRaw = rtp.get();
  interp.modules().add("_tlens", [rtRaw](Interpreter& in) {
    TfRuntime& rt = *rtRaw;
    auto m = makeModule("_tlens");
    auto def = [&](const char* name, const char* sig, Fn fn, bool sideEffecting = false) {
      TfRuntime* r = &rt;
      auto f = NativeFunction::make(name, sig, [r, fn](CallContext& c) { return fn(c, *r); });
      f->module = "_tlens";
      f->sideEffecting = sideEffecting;
      m->set(name, f);
    };

    def("op", "type, inputs, attrs=None, name=None, unify=False, ndarray=False, literal_dtype=None",
        [](CallContext& c, TfRuntime& rt) -> Value {
          OpRequest r;
          r.type = c.toStr(c.arg("type"));
          r.inputs = c.toList(c.arg("inputs"));
          r.attrs = attrsArg(c, rt, c.arg("attrs"));
          if (!c.isNone("name")) r.name = c.toStr(c.arg("name"));
          r.unifyDTypes = c.toBool(c.arg("unify"));
          r.ndarray = c.toBool(c.arg("ndarray"));
          r.literalDType = dtypeArg(c, c.arg("literal_dtype"));
          return opCall(rt, std::move(r));
        });

    // op_function("Add", "x, y", "add", unify=True): a native function of signature
    // `x, y, name=None` that applies one op to its tensor arguments, as
    // `def add(x, y, name=None): return _tlens.op("Add", [x, y], None, name, True)` does, without
    // running a Python frame per call (tf.add, tf.exp, tf.nn.relu: issue #16's per-op cost).
    def("op_function", "type, params, fname, unify=False", [](CallContext& c, TfRuntime& rt) -> Value {
      std::string type = c.toStr(c.arg("type")), params = c.toStr(c.arg("params"));
      const bool unify = c.toBool(c.arg("unify"));
      if (!OpRegistry::global().find(type)) c.valueError("op_function: no op '" + type + "'");
      size_t inputs = 1;
      for (char ch : params) inputs += ch == ',';
      const OpDef* op = OpRegistry::global().find(type);
      TfRuntime* r = &rt;
      auto f = NativeFunction::make(c.toStr(c.arg("fname")), params + ", name=None",
                                    [r, op, inputs, unify](CallContext& cc) -> Value {
                                      OpRequest q;
                                      q.type = op->type;
                                      q.inputs.assign(cc.bound.begin(), cc.bound.begin() + static_cast<std::ptrdiff_t>(inputs));
                                      if (!cc.isNone("name")) q.name = cc.toStr(cc.arg("name"));
                                      q.unifyDTypes = unify;
                                      return opCall(*r, std::move(q));
                                    });
      f->module = "tensorflow";
      return f;
    });

    // tf.matmul (and tf.linalg.matmul), native for the same reason as op_function: MatMul for
    // matrices, BatchMatMulV2 when an operand is a tensor or array of rank above 2 (a Python
    // list counts as a matrix), transpose_x or adjoint_x as the op's flag.
    def("matmul",
        "a, b, transpose_a=False, transpose_b=False, adjoint_a=False, adjoint_b=False, a_is_sparse=False, "
        "b_is_sparse=False, output_type=None, name=None",
        [](CallContext& c, TfRuntime& rt) -> Value {
          auto batched = [](const Value& v) {
            auto* t = dynamic_cast<TensorObj*>(v.get());
            return t && t->type.shape.rankKnown() && t->type.shape.rank() > 2;
          };
          const bool ta = c.toBool(c.arg("transpose_a")) || c.toBool(c.arg("adjoint_a"));
          const bool tb = c.toBool(c.arg("transpose_b")) || c.toBool(c.arg("adjoint_b"));
          OpRequest r;
          r.inputs = {c.arg("a"), c.arg("b")};
          if (batched(c.arg("a")) || batched(c.arg("b"))) {
            r.type = "BatchMatMulV2";
            r.attrs = Attrs{{"adj_x", ta}, {"adj_y", tb}};
          } else {
            r.type = "MatMul";
            r.attrs = Attrs{{"transpose_a", ta}, {"transpose_b", tb}};
          }
          if (!c.isNone("name")) r.name = c.toStr(c.arg("name"));
          r.unifyDTypes = true;
          return opCall(rt, std::move(r));
        });
    // It is tensorflow.matmul to the program (messages, repr), as the Python function was.
    if (auto f = std::dynamic_pointer_cast<NativeFunction>(m->get("matmul"))) f->module = "tensorflow";

    // Whether optimizers may use the CPU-only fused update kernels (_KerasAdamMoments): concrete
    // runs on a machine without GPUs, real or virtual.
    def("fused_cpu_updates", "", [](CallContext&, TfRuntime& rt) -> Value {
      return boolean(!rt.abstract() && rt.devices().gpuCount() == 0);
    });

    // tf.raw_ops is derived from the registry: an op's inputs ((name, variadic) pairs) and attr
    // names, or None for a type the registry lacks.
    def("op_signature", "type", [](CallContext& c, TfRuntime&) -> Value {
      const OpDef* op = OpRegistry::global().find(c.toStr(c.arg("type")));
      if (!op) return none();
      std::vector<Value> inputs, attrs;
      for (const InputDef& i : op->inputs) inputs.push_back(makeTuple({makeStr(i.name), boolean(i.variadic)}));
      for (const AttrDef& a : op->attrs) attrs.push_back(makeStr(a.name));
      return makeTuple({makeList(std::move(inputs)), makeList(std::move(attrs)), makeStr(op->summary)});
    });

    def("constant", "value, dtype=None, name=None, ndarray=False", [](CallContext& c, TfRuntime& rt) -> Value {
      DType dt = dtypeArg(c, c.arg("dtype"));
      bool nd = c.toBool(c.arg("ndarray"));
      const Value& v = c.arg("value");
      if (dynamic_cast<TensorObj*>(v.get())) {
        auto t = std::static_pointer_cast<TensorObj>(v);
        if (t->ndarray && !nd) {
          // tf.constant(a numpy array) is a tensor (a Const node while building a graph).
          t = arrayAsTensor(rt, t);
          if (dt == DType::Invalid || t->type.dtype == dt) return t;
          OpRequest cast;
          cast.type = "Cast";
          cast.inputs = {t};
          cast.attrs["DstT"] = dt;
          return applyOp1(rt, std::move(cast));
        }
        if (dt == DType::Invalid || t->type.dtype == dt) {
          if (nd && !t->ndarray) {
            if (t->form == TensorObj::Form::Concrete) return concreteTensor(rt, t->concrete(), true);
            if (t->form == TensorObj::Form::Abstract) return abstractTensor(rt, t->type, true);
          }
          return v;
        }
        OpRequest cast;
        cast.type = "Cast";
        cast.inputs = {v};
        cast.attrs["DstT"] = dt;
        cast.ndarray = nd;
        return applyOp1(rt, std::move(cast));
      }
      if (nd) {
        // np.array([row]) where the analysis lost `row` (a PIL image, a gym observation: unknown
        // of no known type) may be any shape: unknown, not a vector of one int (a false feed or
        // Keras shape error later). Unknowns known to be numbers keep the list's shape.
        if (rt.abstract() && holdsUntypedUnknown(v)) throw NeedsKnownValue{};
        return toTensor(rt, v, dt, true);
      }
      Graph* g = rt.buildingGraph();
      std::optional<Tensor> lit;
      try {
        lit = literalToTensor(c.interp, v, dt, false);
      } catch (const NeedsKnownValue&) {
        if (auto p = partialIntList(c.interp, v)) return toTensor(rt, v, dt, false);
        throw;
      }
      if (!lit) return toTensor(rt, v, dt, false);
      if (g && !c.isNone("name")) {
        rt.stampCreation(g);
        NodeOptions o;
        o.name = c.toStr(c.arg("name"));
        Node* n = g->addNode("Const", {}, Attrs{{"value", *lit}, {"dtype", lit->dtype()}}, o);
        return symbolicTensor(rt, *g, n->out(0));
      }
      return constantTensor(rt, std::move(*lit), false);
    });

    def("placeholder", "dtype, shape=None, name=None", [](CallContext& c, TfRuntime& rt) -> Value {
      Graph* g = rt.buildingGraph();
      if (!g) c.interp.raise("RuntimeError", "tf.placeholder() is not compatible with eager execution.");
      DType dt = dtypeArg(c, c.arg("dtype"));
      Shape s = shapeArg(c, rt, c.arg("shape"), true);
      OpRequest r;
      r.type = "Placeholder";
      r.attrs = {{"dtype", dt}, {"shape", s}};
      if (!c.isNone("name")) r.name = c.toStr(c.arg("name"));
      return applyOp1(rt, std::move(r));
    });

    // Abstract mode: an eager tensor known only by its type (tf.data's elements in the language server).
    def("abstract_tensor", "dtype, shape=None", [](CallContext& c, TfRuntime& rt) -> Value {
      if (!rt.abstract()) c.interp.raise("RuntimeError", "abstract_tensor: only in abstract mode");
      return abstractTensor(rt, TensorType(dtypeArg(c, c.arg("dtype")), shapeArg(c, rt, c.arg("shape"), true)), false);
    });

    def("variable", "initial_value, name=None, trainable=True, dtype=None, shape=None",
        [](CallContext& c, TfRuntime& rt) -> Value {
          std::string name = c.isNone("name") ? "Variable" : c.toStr(c.arg("name"));
          bool trainable = c.toBool(c.arg("trainable"));
          DType dt = dtypeArg(c, c.arg("dtype"));
          std::shared_ptr<TensorObj> init = toTensor(rt, c.arg("initial_value"));
          if (dt != DType::Invalid && init->type.dtype != dt) {
            OpRequest cast;
            cast.type = "Cast";
            cast.inputs = {init};
            cast.attrs["DstT"] = dt;
            init = std::static_pointer_cast<TensorObj>(applyOp1(rt, std::move(cast)));
          }
          Graph* g = rt.buildingGraph();
          if (g) {
            Output initOut;
            if (init->isSymbolic() && init->graph == g) {
              initOut = init->out;
            } else {
              OpRequest id;
              id.type = "Identity";
              id.inputs = {init};
              id.name = name + "/initial_value";
              initOut = std::static_pointer_cast<TensorObj>(applyOp1(rt, std::move(id)))->out;
            }
            rt.stampCreation(g);
            Output v = ops::variable(*g, initOut, name, trainable);
            auto t = symbolicTensor(rt, *g, v);
            t->variable = true;
            t->trainable = trainable;
            t->varName = v.node->name;
            return t;
          }
          // Eager: the value lives in the eager context's resources.
          std::string unique = name;
          for (int i = 1; rt.executes() && rt.exec().hasVariable(unique); ++i)
            unique = name + "_" + std::to_string(i);
          // Placed as a variable op would be: the tf.device scope, else /gpu:0 when there is one.
          rt.markDevicesInUse();
          const Placement where = rt.eagerPlacement(OpRegistry::global().get("VariableV2"));
          std::shared_ptr<TensorObj> t;
          if (rt.abstract()) {
            t = abstractTensor(rt, init->type, false);
            t->type.value.reset();
          } else {
            Tensor v = init->concrete().tensor.copyTo(rt.devices().allocator(where.device), unique.c_str());
            rt.exec().setVariable(unique, v);
            t = concreteTensor(rt, rt.wrap(v), false);
          }
          t->device = where.device;
          t->placementNote = where.note;
          t->variable = true;
          t->trainable = trainable;
          t->varName = unique;
          t->requestedName = name;
          return t;
        });

    def("session", "graph=None, interactive=False, soft_placement=False", [](CallContext& c, TfRuntime& rt) -> Value {
      Graph* g = nullptr;
      if (auto* go = dynamic_cast<GraphObj*>(c.arg("graph").get())) g = go->graph;
      if (!g) g = rt.buildingGraph();
      if (!g) g = &rt.defaultGraph();
      auto s = std::make_shared<SessionObj>(rt, *g, c.toBool(c.arg("interactive")), c.toBool(c.arg("soft_placement")));
      if (s->interactive) rt.sessionStack.push_back(s);
      return s;
    });

    def("default_session", "", [](CallContext&, TfRuntime& rt) -> Value {
      return rt.sessionStack.empty() ? none() : rt.sessionStack.back();
    });
    // TFRecord framing (the execution's engine/runtime/SummaryProto.h; concrete mode only): one
    // record as RecordWriter writes it, and a file's records as (byte offset, data) pairs, each
    // checked against its masked CRC32C.
    def("tfrecord_frame", "data", [](CallContext& c, TfRuntime& rt) -> Value {
      const std::string* data = asBytes(c.arg(0));
      if (!data) c.typeError("a bytes-like object is required, not '" + c.interp.typeName(c.arg(0)) + "'");
      if (!rt.executes()) return unknown();
      return makeBytes(rt.exec().tfRecord(*data));
    });
    def("tfrecord_records", "data", [](CallContext& c, TfRuntime& rt) -> Value {
      // (records, None), or (records before the damage, "corrupted record at 42") for the
      // caller's DataLossError.
      const std::string* data = asBytes(c.arg(0));
      if (!data) c.typeError("a bytes-like object is required, not '" + c.interp.typeName(c.arg(0)) + "'");
      if (!rt.executes()) return unknown();
      auto le = [&](size_t at, int n) {
        uint64_t v = 0;
        for (int k = n - 1; k >= 0; --k) v = (v << 8) | static_cast<unsigned char>((*data)[at + static_cast<size_t>(k)]);
        return v;
      };
      std::vector<Value> out;
      std::string error;
      size_t pos = 0;
      while (pos < data->size() && error.empty()) {
        if (data->size() - pos < 12) {
          error = "truncated record at " + std::to_string(pos);
          break;
        }
        const uint64_t len = le(pos, 8);
        if (rt.exec().tfRecordCrc(data->substr(pos, 8)) != le(pos + 8, 4)) {
          error = "corrupted record at " + std::to_string(pos);
          break;
        }
        if (data->size() - pos - 12 < len + 4) {
          error = "truncated record at " + std::to_string(pos);
          break;
        }
        std::string rec = data->substr(pos + 12, static_cast<size_t>(len));
        if (rt.exec().tfRecordCrc(rec) != le(pos + 12 + static_cast<size_t>(len), 4)) {
          error = "corrupted record at " + std::to_string(pos);
          break;
        }
        out.push_back(makeTuple({makeInt(static_cast<int64_t>(pos)), makeBytes(std::move(rec))}));
        pos += 16 + static_cast<size_t>(len);
      }
      return makeTuple({makeList(std::move(out)), error.empty() ? none() : makeStr(error)});
    });
    // The innermost Session.run in progress (for auto-feed producers that run the session again).
    def("running_session", "", [](CallContext&, TfRuntime& rt) -> Value {
      return rt.runningSessions.empty() ? none() : rt.runningSessions.back().session;
    });

    def("dtype", "name, numpy=False", [](CallContext& c, TfRuntime& rt) -> Value {
      return std::make_shared<DTypeObj>(dtypeArg(c, c.arg(0)), c.toBool(c.arg(1)), &rt);
    });

    // np.save / np.load on .npy files; side-effecting, so abstract mode never touches files.
    def("save_npy", "path, t", [](CallContext& c, TfRuntime& rt) -> Value {
      auto t = toTensor(rt, c.arg(1), DType::Invalid, true);
      if (t->form != TensorObj::Form::Concrete) throw NeedsKnownValue{};
      writeNpy(c, c.toStr(c.arg(0)), t->hostValue());
      return none();
    }, true);
    def("load_npy", "path", [](CallContext& c, TfRuntime& rt) -> Value {
      return constantTensor(rt, readNpy(c, c.toStr(c.arg(0))), true);
    }, true);

    // Raw array bytes for pickle, np.frombuffer and ndarray.tobytes: a numpy type string
    // ("<f4", "|u1", ">i8", "f8") and a C-order shape.
    def("array_from_bytes", "data, descr, shape", [](CallContext& c, TfRuntime& rt) -> Value {
      const std::string* data = asBytes(c.arg(0));
      if (!data) {
        if (isUnknown(c.arg(0))) throw NeedsKnownValue{};
        c.typeError("a bytes-like object is required, not '" + c.interp.typeName(c.arg(0)) + "'");
      }
      std::string descr = c.toStr(c.arg(1));
      char order = descr.empty() || std::string("<>|=").find(descr[0]) == std::string::npos ? '=' : descr[0];
      std::string body = order == '=' && (descr.empty() || descr[0] != '=') ? descr : descr.substr(1);
      DType dt = DType::Invalid;
      for (DType t : {DType::Float16, DType::Float32, DType::Float64, DType::Int32, DType::Int64, DType::UInt8, DType::Bool})
        if (body == std::string(npyDescr(t)).substr(1)) dt = t;
      if (dt == DType::Invalid) c.typeError("tensorlens: numpy data of type '" + descr + "' is not supported");
      ConcreteShape shape;
      int64_t count = 1;
      for (const Value& d : c.toList(c.arg(2))) {
        shape.push_back(c.toInt(d));
        count *= shape.back();
      }
      Tensor t(dt, shape);
      size_t item = dtypeSize(dt);
      if (data->size() != static_cast<size_t>(count) * item)
        c.valueError("buffer size (" + std::to_string(data->size()) + " bytes) does not match the shape and dtype (" +
                     std::to_string(static_cast<size_t>(count) * item) + " bytes)");
      std::memcpy(t.raw(), data->data(), data->size());
      if (order == '>' && item > 1) {
        auto* b = static_cast<char*>(t.raw());
        for (size_t i = 0; i < data->size(); i += item) std::reverse(b + i, b + i + item);
      }
      return constantTensor(rt, std::move(t), true);
    });
    def("array_to_bytes", "t", [](CallContext& c, TfRuntime& rt) -> Value {
      auto t = toTensor(rt, c.arg(0), DType::Invalid, true);
      if (t->form != TensorObj::Form::Concrete) throw NeedsKnownValue{};
      Tensor h = t->hostValue();
      const char* descr = npyDescr(h.dtype());
      if (!descr) c.typeError("tensorlens: arrays of dtype " + std::string(dtypeName(h.dtype())) + " cannot be written as bytes");
      std::vector<Value> dims;
      for (int64_t d : h.shape()) dims.push_back(makeInt(d));
      return makeTuple({makeBytes(std::string(static_cast<const char*>(h.raw()), h.bytes())), makeStr(descr), makeTuple(std::move(dims))});
    });

    // tf.train.Saver's files (CheckpointFiles.h); side-effecting, so abstract mode never touches them.
    def("write_checkpoint", "prefix, names, values", [](CallContext& c, TfRuntime& rt) -> Value {
      std::vector<std::pair<std::string, Tensor>> tensors;
      const std::vector<Value> names = c.toList(c.arg(1)), values = c.toList(c.arg(2));
      if (names.size() != values.size()) c.valueError("write_checkpoint: one name per value");
      for (size_t i = 0; i < names.size(); ++i) {
        auto t = toTensor(rt, values[i], DType::Invalid, true);
        if (t->form != TensorObj::Form::Concrete) throw NeedsKnownValue{};
        tensors.emplace_back(c.toStr(names[i]), t->hostValue());
      }
      try {
        writeCheckpoint(c.toStr(c.arg(0)), tensors);
      } catch (const CheckpointError& e) {
        c.valueError(e.what());
      }
      return none();
    }, true);
    def("read_checkpoint", "prefix", [](CallContext& c, TfRuntime& rt) -> Value {
      std::vector<Value> items;
      try {
        for (auto& [name, t] : readCheckpoint(c.toStr(c.arg(0))))
          items.push_back(makeList({makeStr(name), constantTensor(rt, std::move(t), true)}));
      } catch (const CheckpointError& e) {
        rt.raiseEngineError(EngineError(ErrorCode::NotFound, e.what()));
      }
      return makeList(std::move(items));
    }, true);

    // TensorBoard event files (Execution::eventRecord); side-effecting, so abstract mode
    // never writes them. events_open creates the file with its file_version event.
    def("events_open", "logdir, suffix=''", [](CallContext& c, TfRuntime& rt) -> Value {
      namespace fs = std::filesystem;
      const std::string dir = c.toStr(c.arg(0));
      std::error_code ec;
      fs::create_directories(dir, ec);
      if (ec && !fs::is_directory(dir)) c.interp.raise("OSError", "could not create the log directory '" + dir + "': " + ec.message());
      char host[256] = "localhost";
      gethostname(host, sizeof host - 1);
      const auto now = std::chrono::system_clock::now().time_since_epoch();
      const double secs = std::chrono::duration<double>(now).count();
      const std::string base = (fs::path(dir) / ("events.out.tfevents." + std::to_string(static_cast<int64_t>(secs)) + "." +
                                                 host + c.toStr(c.arg(1)))).string();
      // Several writers in one second (a FileWriter made in a training loop): base.1, base.2, ...
      std::string path = base;
      for (int i = 1; fs::exists(path); ++i) path = base + "." + std::to_string(i);
      std::ofstream f(path, std::ios::binary);
      f << rt.exec().eventRecord(secs, 0, 3, "brain.Event:2");
      if (!f) c.interp.raise("OSError", "could not write '" + path + "'");
      return makeStr(path);
    }, true);
    // Appends an Event: `payload` is a Graph (graph_def) or a serialized Summary as a uint8 array.
    def("events_write", "path, payload, step=0", [](CallContext& c, TfRuntime& rt) -> Value {
      const auto now = std::chrono::system_clock::now().time_since_epoch();
      const double secs = std::chrono::duration<double>(now).count();
      std::string ev;
      if (auto* g = dynamic_cast<GraphObj*>(c.arg(1).get())) {
        ev = rt.exec().eventRecord(secs, 0, 4, {}, g->graph);
      } else {
        auto t = toTensor(rt, c.arg(1), DType::Invalid, true);
        if (t->form != TensorObj::Form::Concrete) throw NeedsKnownValue{};
        const Tensor v = t->hostValue();
        if (v.dtype() != DType::UInt8 || v.rank() != 1)
          c.typeError("add_summary takes a serialized Summary (the result of running a summary op), not " + v.typeStr());
        ev = rt.exec().eventRecord(secs, c.toInt(c.arg(2)), 5, std::string(static_cast<const char*>(v.raw()), static_cast<size_t>(v.numElements())));
      }
      std::ofstream f(c.toStr(c.arg(0)), std::ios::binary | std::ios::app);
      f << ev;
      f.flush();
      if (!f) c.interp.raise("OSError", "could not write '" + c.toStr(c.arg(0)) + "'");
      return none();
    }, true);
    // A serialized Summary (uint8 array) of one scalar or one histogram, for eager code.
    def("summary_bytes", "kind, tag, value", [](CallContext& c, TfRuntime& rt) -> Value {
      auto t = toTensor(rt, c.arg(2), DType::Invalid, true);
      if (t->form != TensorObj::Form::Concrete) return abstractTensor(rt, TensorType(DType::UInt8, Shape({Dim::unknown()})), true);
      OpRequest r;
      r.type = c.toStr(c.arg(0)) == "histogram" ? "HistogramSummary" : "ScalarSummary";
      r.inputs = {t};
      r.attrs["tag"] = c.toStr(c.arg(1));
      r.ndarray = true;
      return applyOp1(rt, std::move(r));
    });

    // numpy's promotion of two array dtypes (np.promote_types).
    def("promote_types", "a, b", [](CallContext& c, TfRuntime& rt) -> Value {
      return std::make_shared<DTypeObj>(numpyPromote(dtypeArg(c, c.arg(0)), dtypeArg(c, c.arg(1))), true, &rt);
    });

    def("name_scope", "name, default_name=None", [](CallContext& c, TfRuntime& rt) -> Value {
      auto s = std::make_shared<ScopeObj>();
      s->kind = "name_scope";
      std::string name = c.isNone("name") ? (c.isNone("default_name") ? "" : c.toStr(c.arg("default_name"))) : c.toStr(c.arg("name"));
      Graph* g = rt.buildingGraph();
      auto entered = std::make_shared<bool>(false);
      s->onEnter = [g, name, entered]() -> Value {
        if (!g || name.empty()) return makeStr(name.empty() ? "" : name + "/");
        *entered = true;
        return makeStr(g->pushNameScope(name) + "/");
      };
      s->onExit = [g, entered] {
        if (g && *entered) g->popNameScope();
      };
      return s;
    });

    def("device", "spec", [](CallContext& c, TfRuntime& rt) -> Value {
      auto s = std::make_shared<ScopeObj>();
      s->kind = "device";
      std::string spec = c.isNone("spec") ? "" : c.toStr(c.arg("spec"));
      if (!spec.empty() && !Device::parse(spec) && spec.rfind("/job:", 0) != 0)
        c.interp.raise("ValueError", "Unknown device specification '" + spec +
                                           "' (expected '/cpu:0', '/gpu:1', '/device:GPU:0', 'GPU:0', ...)");
      Graph* g = rt.buildingGraph();
      TfRuntime* e = g ? nullptr : &rt;
      s->onEnter = [g, e, spec]() -> Value {
        if (g) g->pushDevice(spec);
        if (e) e->pushEagerDevice(spec);
        return none();
      };
      s->onExit = [g, e] {
        if (g) g->popDevice();
        if (e) e->popEagerDevice();
      };
      return s;
    });

    def("control_dependencies", "control_inputs", [](CallContext& c, TfRuntime& rt) -> Value {
      auto s = std::make_shared<ScopeObj>();
      s->kind = "control_dependencies";
      Graph* g = rt.buildingGraph();
      std::vector<Node*> deps;
      const bool clear = isNone(c.arg(0));  // control_dependencies(None): ops inside wait for nothing
      if (!clear)
        for (const Value& v : c.toList(c.arg(0))) {
          if (auto* t = dynamic_cast<TensorObj*>(v.get()); t && t->isSymbolic()) deps.push_back(t->out.node);
          if (auto* o = dynamic_cast<OperationObj*>(v.get()); o && o->node) deps.push_back(o->node);
        }
      s->onEnter = [g, deps, clear]() -> Value {
        if (g) g->pushControlDependencies(deps, clear);
        return none();
      };
      s->onExit = [g] {
        if (g) g->popControlDependencies();
      };
      return s;
    });

    // tf.cond's branches: ops made inside run only when `pred` is `branch` (Graph::pushCondBranch).
    def("cond_branch", "pred, branch", [](CallContext& c, TfRuntime& rt) -> Value {
      auto s = std::make_shared<ScopeObj>();
      s->kind = "cond_branch";
      Graph* g = rt.buildingGraph();
      auto* t = dynamic_cast<TensorObj*>(c.arg(0).get());
      if (!g || !t || !t->isSymbolic() || t->graph != g)
        c.interp.raise("ValueError", "tf.cond: pred must be a tensor of the graph being built");
      Output pred = t->out;
      const int branch = c.toBool(c.arg(1)) ? 1 : 0;
      s->onEnter = [g, pred, branch]() -> Value {
        g->pushCondBranch(pred, branch);
        return none();
      };
      s->onExit = [g] { g->popCondBranch(); };
      return s;
    });

    // tf.while_loop in a graph (engine/graph/Loops.h): the frame starts at graph_size(); the body's
    // parameters are loop_args; while_node makes the While node and returns its outputs (the
    // final loop variables, then the stacked emits).
    def("graph_size", "", [](CallContext&, TfRuntime& rt) -> Value {
      Graph* g = rt.buildingGraph();
      return makeInt(g ? static_cast<int64_t>(g->size()) : 0);
    });
    // A body parameter typed as `like` (its shape keeps its symbols; `element`: without the first
    // dim, as a sliced input's element), or as `shape` when a shape invariant relaxes it.
    // Inside a tf.function trace (replayed op by op through the eager context, which has no
    // loop frames): graph loops make the trace fall back to running the function as Python.
    def("tracing", "", [](CallContext&, TfRuntime& rt) -> Value { return boolean(rt.trace != nullptr); });
    def("loop_arg", "like, shape=None, element=False, name=None", [](CallContext& c, TfRuntime& rt) -> Value {
      Graph* g = rt.buildingGraph();
      auto* t = dynamic_cast<TensorObj*>(c.arg("like").get());
      if (!g || !t) c.interp.raise("RuntimeError", "loop_arg: a tensor, while a graph is built");
      TensorType type = t->type;
      if (!c.isNone("shape")) type.shape = shapeArg(c, rt, c.arg("shape"), false);
      if (c.toBool(c.arg("element")) && type.shape.rankKnown() && type.shape.rank() > 0)
        type.shape = Shape(std::vector<Dim>(type.shape.dims().begin() + 1, type.shape.dims().end()));
      OpRequest r;
      r.type = "LoopArg";
      r.attrs = {{"dtype", type.dtype}, {"shape", type.shape}};
      if (!c.isNone("name")) r.name = c.toStr(c.arg("name"));
      return applyOp1(rt, std::move(r));
    });
    def("while_node", "first, inits, sliced, params, cond, next, emits, name=None", [](CallContext& c, TfRuntime& rt) -> Value {
      Graph* g = rt.buildingGraph();
      if (!g) c.interp.raise("RuntimeError", "while_node: only while a graph is built");
      auto outs = [&](const char* arg) {
        std::vector<Output> v;
        for (const Value& x : c.toList(c.arg(arg))) {
          Output o = outputOf(rt, *g, x);
          if (!o) c.valueError(std::string("tf.while_loop: ") + arg + " must be tensors of the graph being built, got " + c.interp.repr(x));
          v.push_back(o);
        }
        return v;
      };
      WhileSpec s;
      s.frameFirst = static_cast<int>(c.toInt(c.arg("first")));
      s.inits = outs("inits");
      s.sliced = outs("sliced");
      for (const Output& p : outs("params")) {
        if (p.node->type() != "LoopArg") c.valueError("tf.while_loop: params must be loop_args");
        s.params.push_back(p.node);
      }
      std::vector<Output> cond = outs("cond");
      if (cond.size() != 1) c.valueError("tf.while_loop: one condition tensor expected");
      s.cond = cond[0];
      s.next = outs("next");
      s.emits = outs("emits");
      for (size_t j = 0; j < s.inits.size() && j < s.params.size(); ++j) s.varTypes.push_back(s.params[j]->outputs[0]);
      rt.stampCreation(g);
      Node* w = nullptr;
      try {
        w = addWhile(*g, s, c.isNone("name") ? std::string() : c.toStr(c.arg("name")));
      } catch (const EngineError& e) {
        c.valueError(e.what());
      }
      std::vector<Value> out;
      for (size_t k = 0; k + 1 < w->numOutputs(); ++k) out.push_back(symbolicTensor(rt, *g, w->out(static_cast<int>(k))));
      return makeList(std::move(out));
    });

    def("default_graph", "", [](CallContext&, TfRuntime& rt) -> Value {
      Graph* g = rt.buildingGraph();
      return rt.graphObject(g ? *g : rt.defaultGraph());
    });
    // A number that names the graph new ops go into (None when ops run eagerly): the Python side
    // keys its per-graph state on it (get_variable's store, collections). Graphs live as long as
    // the runtime, so a key is never reused.
    def("graph_key", "", [](CallContext&, TfRuntime& rt) -> Value {
      Graph* g = rt.buildingGraph();
      return g ? makeInt(static_cast<int64_t>(reinterpret_cast<intptr_t>(g))) : none();
    });
    def("reset_default_graph", "", [](CallContext&, TfRuntime& rt) -> Value {
      rt.resetDefaultGraph();
      return none();
    });
    def("new_graph", "", [](CallContext&, TfRuntime& rt) -> Value { return rt.graphObject(rt.newGraph()); });

    def("global_variables_initializer", "", [](CallContext&, TfRuntime& rt) -> Value {
      Graph* g = rt.buildingGraph();
      if (!g) return std::make_shared<OperationObj>(rt, rt.defaultGraph(), nullptr);
      rt.stampCreation(g);
      return std::make_shared<OperationObj>(rt, *g, g->globalVariablesInitializer());
    });

    def("variables_initializer", "var_list, name='init'", [](CallContext& c, TfRuntime& rt) -> Value {
      Graph* g = rt.buildingGraph();
      if (!g) return std::make_shared<OperationObj>(rt, rt.defaultGraph(), nullptr);
      std::vector<Node*> inits;
      for (const Value& v : c.toList(c.arg(0)))
        if (auto* t = dynamic_cast<TensorObj*>(v.get()); t && t->isSymbolic() && t->out.node->initializer)
          inits.push_back(t->out.node->initializer);
      rt.stampCreation(g);
      g->pushControlDependencies(inits);
      NodeOptions o;
      o.name = c.toStr(c.arg(1));
      Node* n = g->addNode("NoOp", {}, {}, o);
      g->popControlDependencies();
      return std::make_shared<OperationObj>(rt, *g, n);
    });

    def("variables", "trainable_only=False", [](CallContext& c, TfRuntime& rt) -> Value {
      Graph* g = rt.buildingGraph();
      std::vector<Value> out;
      if (!g) return makeList();
      bool trainableOnly = c.toBool(c.arg(0));
      for (Node* n : trainableOnly ? g->trainableVariables() : g->variables()) {
        auto t = symbolicTensor(rt, *g, n->out(0));
        t->variable = true;
        t->varName = n->name;
        out.push_back(t);
      }
      return makeList(std::move(out));
    });

    def("gradients", "ys, xs, grad_ys=None", [](CallContext& c, TfRuntime& rt) -> Value {
      std::vector<Value> ys = asSequence(c.arg(0)) ? c.toList(c.arg(0)) : std::vector<Value>{c.arg(0)};
      std::vector<Value> xs = asSequence(c.arg(1)) ? c.toList(c.arg(1)) : std::vector<Value>{c.arg(1)};
      Graph* g = nullptr;
      for (const Value& y : ys)
        if (auto* t = dynamic_cast<TensorObj*>(y.get()); t && t->isSymbolic()) g = t->graph;
      if (!g) c.interp.raise("RuntimeError", "tf.gradients is not supported when eager execution is enabled. Use tf.GradientTape instead.");
      std::vector<Output> yo, xo, gy;
      for (const Value& y : ys) yo.push_back(outputOf(rt, *g, y));
      for (const Value& x : xs) xo.push_back(outputOf(rt, *g, x));
      if (!isNone(c.arg(2)))
        for (const Value& v : c.toList(c.arg(2))) gy.push_back(outputOf(rt, *g, toTensor(rt, v)));
      rt.stampCreation(g);
      std::vector<Output> gs;
      try {
        gs = gradients(*g, yo, xo, gy);
      } catch (const EngineError& e) {
        c.interp.raise("LookupError", e.what());
      }
      std::vector<Value> out;
      for (const Output& o : gs) out.push_back(o ? Value(symbolicTensor(rt, *g, o)) : none());
      return makeList(std::move(out));
    });

    def("minimize", "kind, loss, learning_rate, params, var_list=None, name=None", [](CallContext& c, TfRuntime& rt) -> Value {
      auto loss = toTensor(rt, c.arg("loss"));
      if (!loss->isSymbolic()) c.interp.raise("RuntimeError", "optimizer.minimize() with a tensor loss needs graph mode; use a GradientTape in eager code");
      Graph& g = *loss->graph;
      OptimizerSpec spec = optimizerSpec(c, rt, g);
      std::vector<Node*> vars;
      if (!c.isNone("var_list"))
        for (const Value& v : c.toList(c.arg("var_list")))
          if (auto* t = dynamic_cast<TensorObj*>(v.get()); t && t->isSymbolic()) vars.push_back(t->out.node);
      rt.stampCreation(&g);
      Node* n = nullptr;
      try {
        n = minimize(g, loss->out, spec, vars);
      } catch (const EngineError& e) {
        c.interp.raise("ValueError", e.what());
      }
      return std::make_shared<OperationObj>(rt, g, n);
    });

    // Optimizer.apply_gradients: grads_and_vars is a list of (gradient or None, variable).
    def("apply_gradients", "kind, grads_and_vars, learning_rate, params, name=None", [](CallContext& c, TfRuntime& rt) -> Value {
      std::vector<std::pair<Node*, Output>> pairs;
      Graph* g = nullptr;
      for (const Value& gv : c.toList(c.arg("grads_and_vars"))) {
        std::vector<Value> pair = c.toList(gv);
        if (pair.size() != 2) c.valueError("apply_gradients expects (gradient, variable) pairs, got " + c.interp.repr(gv));
        auto* var = dynamic_cast<TensorObj*>(pair[1].get());
        if (!var || !var->isSymbolic() || !var->variable)
          c.interp.raise("TypeError", "apply_gradients: " + c.interp.repr(pair[1]) + " is not a graph variable");
        if (g && var->graph != g) c.valueError("apply_gradients: the variables are in different graphs");
        g = var->graph;
        Output grad;
        if (!isNone(pair[0])) {
          auto gt = toTensor(rt, pair[0]);
          if (!gt->isSymbolic() || gt->graph != g)
            c.valueError("apply_gradients: the gradient for " + var->out.node->name + " is not a tensor of its graph");
          grad = gt->out;
        }
        pairs.emplace_back(var->out.node, grad);
      }
      if (!g) c.valueError("No variables provided.");
      OptimizerSpec spec = optimizerSpec(c, rt, *g);
      rt.stampCreation(g);
      Node* n = nullptr;
      try {
        n = applyGradients(*g, pairs, spec);
      } catch (const EngineError& e) {
        c.interp.raise("ValueError", e.what());
      }
      return std::make_shared<OperationObj>(rt, *g, n);
    });

    def("function", "fn", [](CallContext& c, TfRuntime& rt) -> Value {
      return std::make_shared<FunctionObj>(rt, c.arg(0));
    });

    def("tape", "persistent=False", [](CallContext& c, TfRuntime& rt) -> Value {
      return std::make_shared<TapeObj>(rt, c.toBool(c.arg(0)));
    });

    def("register", "what, value", [](CallContext& c, TfRuntime& rt) -> Value {
      std::string what = c.toStr(c.arg(0));
      const Value& v = c.arg(1);
      if (what == "TensorShape") rt.tensorShapeClass = v;
      else if (what == "tensor_methods") rt.tensorMethods = v;
      else if (what == "ndarray_methods") rt.ndarrayMethods = v;
      else if (what == "variable_methods") rt.variableMethods = v;
      else if (what == "graph_methods") rt.graphMethods = v;
      else if (what == "errors") {
        static const char* kNames[] = {"InvalidArgumentError", "FailedPreconditionError", "ResourceExhaustedError",
                                       "OutOfRangeError", "UnimplementedError", "CancelledError", "NotFoundError", "InternalError"};
        for (size_t i = 0; i < std::size(kNames); ++i) rt.errorClass[i] = c.interp.findAttr(v, kNames[i]);
      } else c.valueError("unknown registration " + what);
      return none();
    });

    // The nodes of a graph as [name, op, [inputs], device] (Graph.as_graph_def).
    def("graph_nodes", "graph", [](CallContext& c, TfRuntime& rt) -> Value {
      auto* g = dynamic_cast<GraphObj*>(c.arg(0).get());
      if (!g) c.typeError("graph_nodes: a tf.Graph expected");
      std::vector<Value> out;
      for (const Node& n : g->graph->nodes()) {
        std::vector<Value> ins;
        for (const Output& i : n.inputs) ins.push_back(makeStr(i.index == 0 ? i.node->name : i.node->name + ":" + std::to_string(i.index)));
        for (const Node* ctl : n.controlInputs) ins.push_back(makeStr("^" + ctl->name));
        out.push_back(makeList({makeStr(n.name), makeStr(n.type()), makeList(std::move(ins)), makeStr(n.device.str())}));
      }
      return makeList(std::move(out));
    });

    def("style", "", [](CallContext&, TfRuntime& rt) -> Value {
      return makeStr(rt.style() == ApiStyle::Graph ? "graph" : "eager");
    });
    def("set_style", "style", [](CallContext& c, TfRuntime& rt) -> Value {
      rt.setStyle(c.toStr(c.arg(0)) == "graph" ? ApiStyle::Graph : ApiStyle::Eager);
      return none();
    });
    def("building_graph", "", [](CallContext&, TfRuntime& rt) -> Value { return boolean(rt.buildingGraph() != nullptr); });
    def("is_abstract", "", [](CallContext&, TfRuntime& rt) -> Value { return boolean(rt.abstract()); });
    def("functions_eagerly", "value=None", [](CallContext& c, TfRuntime& rt) -> Value {
      if (!c.isNone("value")) rt.options().functionsEagerly = c.toBool(c.arg(0));
      return boolean(rt.options().functionsEagerly);
    });
    def("log_device_placement", "on", [](CallContext& c, TfRuntime& rt) -> Value {
      rt.options().logDevicePlacement = c.toBool(c.arg(0));
      return none();
    });

    // --- devices (tf.config) ---------------------------------------------------------------
    def("devices", "kind=None", [](CallContext& c, TfRuntime& rt) -> Value {
      std::string kind = c.isNone("kind") ? "" : c.toStr(c.arg("kind"));
      for (char& ch : kind) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
      std::vector<Value> items;
      for (const DeviceInfo& d : rt.devices().devices()) {
        std::string k = d.device.kind == Device::CPU ? "CPU" : "GPU";
        if (!kind.empty() && kind != k) continue;
        items.push_back(makeTuple({makeStr(k), makeInt(d.device.index), makeStr(d.description),
                                   makeInt(static_cast<int64_t>(d.memoryLimit)), boolean(d.isVirtual)}));
      }
      return makeList(std::move(items));
    });
    def("set_virtual_gpus", "count, memory_limit=0", [](CallContext& c, TfRuntime& rt) -> Value {
      if (rt.devicesInUse())
        c.interp.raise("RuntimeError", "Virtual devices cannot be modified after being initialized");
      int64_t n = c.toInt(c.arg("count"));
      if (n < 0 || n > 64) c.interp.raise("ValueError", "a program can have 0 to 64 virtual GPUs, not " + std::to_string(n));
      bool real = false;
      for (const DeviceInfo& d : rt.devices().devices()) real = real || (d.device.kind == Device::GPU && !d.isVirtual);
      if (real)
        c.interp.raise("NotImplementedError",
                         "tensorlens cannot split a CUDA device into several logical GPUs yet; a single "
                         "LogicalDeviceConfiguration(memory_limit=...) limits its memory. To simulate several "
                         "GPUs, run with `tlens run --virtual-gpus N`.");
      rt.devices().setVirtualGpus(static_cast<int>(n), static_cast<size_t>(c.toInt(c.arg("memory_limit"))));
      return none();
    });
    def("set_gpu_memory_limit", "index, limit", [](CallContext& c, TfRuntime& rt) -> Value {
      if (rt.devicesInUse())
        c.interp.raise("RuntimeError", "Virtual devices cannot be modified after being initialized");
      const DeviceInfo* d = rt.devices().find(Device::gpu(static_cast<int>(c.toInt(c.arg("index")))));
      if (!d) c.interp.raise("ValueError", "Unrecognized device: GPU:" + std::to_string(c.toInt(c.arg("index"))));
      if (d->allocator && !rt.abstract()) d->allocator->setLimit(static_cast<size_t>(c.toInt(c.arg("limit"))));
      return none();
    });
    def("keep_gpus", "count", [](CallContext& c, TfRuntime& rt) -> Value {
      if (rt.devicesInUse())
        c.interp.raise("RuntimeError", "Visible devices cannot be modified after being initialized");
      int64_t keep = c.toInt(c.arg("count"));
      DeviceSet& ds = rt.devices();
      std::vector<DeviceInfo> gpus;
      for (const DeviceInfo& d : ds.devices())
        if (d.device.kind == Device::GPU && static_cast<int64_t>(gpus.size()) < keep) gpus.push_back(d);
      auto predicate = ds;  // keeps the kernel predicate of the machine's GPUs
      ds.clearGpus();
      for (DeviceInfo& d : gpus) ds.addGpu(d);
      if (!gpus.empty() && !gpus.front().isVirtual)
        ds.setGpuKernelPredicate([p = std::move(predicate)](std::string_view t) { return p.gpuHasKernel(t); });
      return none();
    });
    def("memory_info", "kind, index", [](CallContext& c, TfRuntime& rt) -> Value {
      std::string kind = c.toStr(c.arg("kind"));
      Device dev = kind == "GPU" ? Device::gpu(static_cast<int>(c.toInt(c.arg("index")))) : Device::cpu();
      const DeviceInfo* d = rt.devices().find(dev);
      if (!d) c.interp.raise("ValueError", "Unrecognized device: " + dev.str());
      auto r = makeDict();
      Allocator* a = d->allocator;
      r->set(c.interp, makeStr("current"), makeInt(a && !rt.abstract() ? static_cast<int64_t>(a->bytesInUse()) : 0));
      r->set(c.interp, makeStr("peak"), makeInt(a && !rt.abstract() ? static_cast<int64_t>(a->peakBytes()) : 0));
      return r;
    });
    def("reset_memory_stats", "kind, index", [](CallContext& c, TfRuntime& rt) -> Value {
      std::string kind = c.toStr(c.arg("kind"));
      Device dev = kind == "GPU" ? Device::gpu(static_cast<int>(c.toInt(c.arg("index")))) : Device::cpu();
      const DeviceInfo* d = rt.devices().find(dev);
      if (!d) c.interp.raise("ValueError", "Unrecognized device: " + dev.str());
      if (d->allocator && !rt.abstract()) d->allocator->resetPeak();
      return none();
    });
    def("soft_placement", "value=None", [](CallContext& c, TfRuntime& rt) -> Value {
      if (!c.isNone("value")) rt.options().softPlacement = c.toBool(c.arg("value"));
      return boolean(rt.options().softPlacement);
    });
    def("built_with_cuda", "", [](CallContext&, TfRuntime&) -> Value {
#ifdef TLENS_HAVE_CUDA
      return boolean(true);
#else
      return boolean(false);
#endif
    });
    def("set_seed", "seed", [](CallContext& c, TfRuntime& rt) -> Value {
      if (c.isNone("seed")) return none();
      rt.graphSeed = c.toInt(c.arg(0));
      rt.graphSeedSet = true;
      if (rt.executes()) rt.exec().reseed(rt.graphSeed);
      return none();
    });

    def("value", "t", [](CallContext& c, TfRuntime& rt) -> Value {
      auto* t = dynamic_cast<TensorObj*>(c.arg(0).get());
      if (!t) return c.arg(0);
      if (t->form == TensorObj::Form::Concrete) return tensorToPython(t->hostValue(), t->strKind);
      if (t->type.value) return tensorToPython(*t->type.value, t->strKind);
      if (t->isSymbolic() && !rt.abstract())
        c.interp.raise("NotImplementedError", "Cannot convert a symbolic tf.Tensor (" + t->out.name() + ") to a numpy array.");
      throw NeedsKnownValue{};
    });

    def("to_ndarray", "t", [](CallContext& c, TfRuntime& rt) -> Value {
      auto t = toTensor(rt, c.arg(0));
      if (t->ndarray) return t;
      if (t->form == TensorObj::Form::Concrete) {
        // A string scalar is bytes, as TensorFlow's .numpy() gives it.
        if (t->type.dtype == DType::String && t->type.shape.rankKnown() && t->type.shape.rank() == 0)
          return makeBytes(t->hostValue().strings()[0]);
        return concreteTensor(rt, t->concrete(), true);
      }
      if (t->isSymbolic() && !rt.abstract())
        c.interp.raise("NotImplementedError", "Cannot convert a symbolic tf.Tensor (" + t->out.name() + ") to a numpy array.");
      return abstractTensor(rt, t->type, true);
    });

    def("to_tensor", "t", [](CallContext& c, TfRuntime& rt) -> Value {
      return arrayAsTensor(rt, toTensor(rt, c.arg(0)));
    });

    def("set_shape", "t, shape", [](CallContext& c, TfRuntime& rt) -> Value {
      auto* t = dynamic_cast<TensorObj*>(c.arg(0).get());
      if (!t) c.typeError("set_shape needs a tensor");
      Shape s = shapeArg(c, rt, c.arg(1), false);
      if (!t->type.shape.compatible(s))
        c.valueError("Tensor's shape " + t->type.shape.tfStr() + " is not compatible with supplied shape " + s.tfStr());
      Shape merged = t->type.shape.merge(s);
      c.interp.beforeChange(c.arg(0));  // hovers before this line show the shape before it
      t->type.shape = merged;
      if (t->isSymbolic()) t->out.node->outputs[static_cast<size_t>(t->out.index)].shape = merged;
      return none();
    });

    def("type_of", "t", [](CallContext& c, TfRuntime&) -> Value {
      auto* t = dynamic_cast<TensorObj*>(c.arg(0).get());
      return t ? makeStr(describeType(t->type)) : none();
    });

    def("is_tensor", "t", [](CallContext& c, TfRuntime&) -> Value {
      auto* t = dynamic_cast<TensorObj*>(c.arg(0).get());
      return boolean(t && !t->ndarray);
    });
    def("is_operation", "t", [](CallContext& c, TfRuntime&) -> Value {
      return boolean(dynamic_cast<OperationObj*>(c.arg(0).get()) != nullptr);
    });
    def("is_ndarray", "t", [](CallContext& c, TfRuntime&) -> Value {
      auto* t = dynamic_cast<TensorObj*>(c.arg(0).get());
      return boolean(t && t->ndarray);
    });
    def("is_variable", "t", [](CallContext& c, TfRuntime&) -> Value {
      auto* t = dynamic_cast<TensorObj*>(c.arg(0).get());
      return boolean(t && t->variable);
    });
    def("is_symbolic", "t", [](CallContext& c, TfRuntime&) -> Value {
      auto* t = dynamic_cast<TensorObj*>(c.arg(0).get());
      return boolean(t && t->isSymbolic());
    });

    def("summarize", "t, max_entries=3", [](CallContext& c, TfRuntime& rt) -> Value {
      auto* t = dynamic_cast<TensorObj*>(c.arg(0).get());
      if (!t || t->form != TensorObj::Form::Concrete) throw NeedsKnownValue{};
      return makeStr(rt.exec().summarizeValue(t->hostValue(), c.toInt(c.arg(1))));
    });

    // --- Keras support ------------------------------------------------------------------------
    // TensorFlow's init_scope: Keras creates weights, optimizer slots and metric state eagerly
    // (or in the TF1 default graph), even while a tf.function is being traced or a layer is
    // applied to the symbolic tensors of a functional model.
    def("init_scope", "", [](CallContext&, TfRuntime& rt) -> Value {
      return outsideTraceScope(rt, "init_scope", rt.style() == ApiStyle::Graph ? &rt.defaultGraph() : nullptr);
    });
    // Ops run eagerly inside, whatever the program's style (tf.data's pipelines, which TensorFlow
    // runs outside the user's graph).
    def("eager_scope", "", [](CallContext&, TfRuntime& rt) -> Value {
      return outsideTraceScope(rt, "eager_scope", nullptr);
    });
    // tf.data in graphs: Session.run feeds `tensors` (placeholders) from `producer()` (TfRuntime::AutoFeed).
    def("auto_feed", "tensors, producer", [](CallContext& c, TfRuntime& rt) -> Value {
      Graph* g = rt.buildingGraph();
      if (!g) c.valueError("auto_feed: no graph is being built");
      TfRuntime::AutoFeed a;
      a.graph = g;
      for (const Value& v : c.toList(c.arg(0))) {
        auto* t = dynamic_cast<TensorObj*>(v.get());
        if (!t || !t->isSymbolic() || t->graph != g) c.valueError("auto_feed: tensors of the graph being built expected");
        a.outputs.push_back(t->out);
      }
      a.producer = c.arg(1);
      rt.autoFeeds.push_back(std::move(a));
      return none();
    });
    // Keras' training loops run their ops (batches, gradients, updates) under this scope: they are
    // not values of the user's program, so the agreement check does not record them.
    def("quiet", "", [](CallContext&, TfRuntime& rt) -> Value {
      auto s = std::make_shared<ScopeObj>();
      s->kind = "quiet";
      TfRuntime* r = &rt;
      auto saved = std::make_shared<std::vector<TensorRecord>*>(nullptr);
      s->onEnter = [r, saved]() -> Value {
        *saved = r->records;
        r->records = nullptr;
        return none();
      };
      s->onExit = [r, saved] { r->records = *saved; };
      return s;
    });
    // Abstract mode: a value of a known static type that no op produced (what Keras' predict
    // returns without running the model). Not recorded for the agreement check: no op ran.
    def("typed", "dtype, shape, ndarray=False", [](CallContext& c, TfRuntime& rt) -> Value {
      if (!rt.abstract()) c.interp.raise("RuntimeError", "_tlens.typed() is for abstract mode only");
      auto t = std::make_shared<TensorObj>(rt, TensorObj::Form::Abstract);
      t->type = TensorType(dtypeArg(c, c.arg("dtype")), shapeArg(c, rt, c.arg("shape"), false));
      t->ndarray = c.toBool(c.arg("ndarray"));
      t->origin = rt.userLocation();
      return t;
    });
    // tf.Tensor and tf.Variable: the classes isinstance() tests against (lang/tf/TensorTypes.h).
    def("tensor_type", "kind, constructor=None", [](CallContext& c, TfRuntime&) -> Value {
      std::string kind = c.toStr(c.arg("kind"));
      if (kind != "Tensor" && kind != "Variable") c.interp.raise("ValueError", "tensor_type: Tensor or Variable");
      Value ctor = c.arg("constructor");
      return std::make_shared<TensorTypeObj>(kind == "Tensor" ? TensorTypeObj::Kind::Tensor : TensorTypeObj::Kind::Variable,
                                             isNone(ctor) ? nullptr : ctor);
    });
    // Abstract mode: an error diagnostic at the user's line (Keras' own shape checks).
    def("report", "message, code='shape-error'", [](CallContext& c, TfRuntime& rt) -> Value {
      if (rt.abstract()) rt.reportError(c.toStr(c.arg(0)), {}, {}, c.toStr(c.arg(1)));
      return none();
    });
    // Whether a Python function (or bound method) takes a parameter `name` (or **kwargs): Keras
    // passes `training=`/`mask=` to a layer's call() only when it accepts them.
    def("accepts", "fn, name", [](CallContext& c, TfRuntime&) -> Value {
      Value f = c.arg(0);
      if (auto* bm = as<BoundMethodObj>(f)) f = bm->function;
      auto* fn = as<interp::FunctionObj>(f);
      if (!fn) return boolean(false);
      std::string name = c.toStr(c.arg(1));
      for (const Param& p : fn->sig.params)
        if (p.kind == ParamKind::VarKeywords || (p.name == name && p.kind != ParamKind::VarArgs && p.kind != ParamKind::PositionalOnly))
          return boolean(true);
      return boolean(false);
    });
    // The names a Python function's arguments bind in order (positional-or-keyword parameters,
    // `self` included): Keras' get_config names the positional arguments a layer was built with.
    def("param_names", "fn", [](CallContext& c, TfRuntime&) -> Value {
      Value f = c.arg(0);
      if (auto* bm = as<BoundMethodObj>(f)) f = bm->function;
      auto* fn = as<interp::FunctionObj>(f);
      std::vector<Value> names;
      if (fn)
        for (const Param& p : fn->sig.params)
          if (p.kind == ParamKind::Normal || p.kind == ParamKind::PositionalOnly) names.push_back(makeStr(p.name));
      return makeList(std::move(names));
    });
    // Abstract mode: whether a value is Unknown (Keras skips its checks on unknown values, so
    // they never produce diagnostics).
    def("is_unknown", "v", [](CallContext& c, TfRuntime&) -> Value { return boolean(isUnknown(c.arg(0))); });
    // Abstract mode: a value nothing is known about (keras.models.load_model of a file the
    // program did not save itself); never a diagnostic where it is used.
    def("unknown", "", [](CallContext& c, TfRuntime& rt) -> Value {
      if (!rt.abstract()) c.interp.raise("RuntimeError", "unknown(): only in abstract mode");
      return unknown();
    });
    // The graph a symbolic tensor belongs to (None for other tensors).
    // The type of the op that produced a graph tensor ("Sigmoid"), or None (Operation.type).
    def("op_type", "t", [](CallContext& c, TfRuntime&) -> Value {
      auto* t = dynamic_cast<TensorObj*>(c.arg(0).get());
      if (!t || !t->isSymbolic() || !t->out.node) return none();
      return makeStr(t->out.node->type());
    });

    def("graph_of", "t", [](CallContext& c, TfRuntime& rt) -> Value {
      auto* t = dynamic_cast<TensorObj*>(c.arg(0).get());
      if (!t || !t->isSymbolic()) return none();
      return rt.graphObject(*t->graph);
    });

    def("write_stdout", "text", [](CallContext& c, TfRuntime&) -> Value {
      c.interp.write(c.toStr(c.arg(0)));
      return none();
    }, true);
    def("write_stderr", "text", [](CallContext& c, TfRuntime&) -> Value {
      c.interp.write(c.toStr(c.arg(0)), true);
      return none();
    }, true);
    addNumpyFormatFunctions(*m, rt);
    return m;
  });
}

}  // namespace tlens::tf
