// Abstract mode: joins, and going on after an exception.
//
// Joins: the value of a variable that may hold `a` or `b`. Equal values stay; values of one known
// type become an Unknown of that type (a hover still says "int"); tuples join element-wise;
// native objects join through NativeObject::join (tensors join shapes); anything else is Unknown.
//
// Exceptions: the analysis goes on after a statement of user code that raised (outside a try
// body), as if the statement had finished with the names it binds unknown, so hovers and
// diagnostics work below the first problem. Only what the user's code is responsible for is
// reported: an exception raised inside an embedded library module comes from an API tensorlens
// does not model or a check on values it does not know, and is no diagnostic, unless it is a
// library's shape or dtype check on known shapes (an error, as a shape function's would be).
#include <array>

#include "lang/interp/Machine.h"
#include "lang/interp/SourceNames.h"

namespace tlens::interp {

Value ObjectProtocol::unknownLike(const Value& v) {
  switch (v->kind()) {
    case Kind::Unknown: return v;
    case Kind::Native:
    case Kind::Module:
    case Kind::Function:
    case Kind::Class: return unknown();
    default: return unknownOf(typeOf(v));
  }
}

Value ObjectProtocol::join(const Value& a, const Value& b) {
  if (!a) return b;
  if (!b) return a;
  if (a.get() == b.get()) return a;
  Kind ka = a->kind(), kb = b->kind();
  if (ka == Kind::Native) {
    if (Value r = static_cast<NativeObject*>(a.get())->join(api, b)) return r;
  }
  if (kb == Kind::Native) {
    if (Value r = static_cast<NativeObject*>(b.get())->join(api, a)) return r;
  }
  if (ka == Kind::Unknown || kb == Kind::Unknown) {
    auto ta = typeOf(a), tb = typeOf(b);
    if (ta == tb && ta != types.unknown) return ka == Kind::Unknown ? a : b;
    return unknown();
  }
  if (ka != kb) {
    bool na = ka == Kind::Int || ka == Kind::Float || ka == Kind::Bool;
    bool nb = kb == Kind::Int || kb == Kind::Float || kb == Kind::Bool;
    if (na && nb) return unknownOf(ka == Kind::Float || kb == Kind::Float ? types.float_ : types.int_);
    return unknown();
  }
  switch (ka) {
    case Kind::None: return a;
    case Kind::Bool:
    case Kind::Int:
    case Kind::Float:
    case Kind::Str:
    case Kind::Range:
      return equal(a, b) == Truth::True && typeOf(a) == typeOf(b) ? a : unknownOf(typeOf(a));
    case Kind::Tuple: {
      const auto& x = static_cast<TupleObj*>(a.get())->items;
      const auto& y = static_cast<TupleObj*>(b.get())->items;
      if (x.size() != y.size()) return unknownOf(types.tuple);
      std::vector<Value> out;
      out.reserve(x.size());
      for (size_t i = 0; i < x.size(); ++i) out.push_back(join(x[i], y[i]));
      return makeTuple(std::move(out));
    }
    case Kind::Instance: {
      auto ta = typeOf(a), tb = typeOf(b);
      return ta == tb ? unknownOf(ta) : unknown();
    }
    case Kind::List:
    case Kind::Dict:
    case Kind::Set: return unknownOf(typeOf(a));
    default: return unknown();
  }
}

void Evaluator::joinInto(Namespace& into, const Namespace& other) {
  other.forEach([&](const std::string& name, const Value& v) {
    Value* cur = into.find(name);
    if (!cur) into.set(name, v);
    else if (cur->get() != v.get()) *cur = join(*cur, v);
  });
}

namespace {

/// Embedded modules are files named "<tensorflow>", "<keras.layers>", ...
bool libraryFile(const std::string& path) { return isLibraryPath(path); }

/// Messages of the shape and dtype checks TensorFlow, Keras and numpy raise as Python exceptions
/// (`set_shape`, layer input specs, broadcasting, feeds).
bool shapeMessage(std::string_view m) {
  static constexpr std::array<std::string_view, 23> kPatterns = {
      "is not compatible with supplied shape", "are incompatible", "Dimensions must be equal",
      "is incompatible with the layer", "Incompatible shapes", "could not be broadcast",
      "Cannot feed value of shape", "must have rank", "must be rank", "Cannot reshape a tensor",
      "cannot reshape array", "Tensor conversion requested dtype", "Rank mismatch: Rank of labels",
      "Shape mismatch: The shape of labels",
      // make_tensor_proto's for tensors where an int32 list is wanted (TF 0.x's concat(axis, values)).
      "got list containing Tensors of type",
      // rnn.py's static_rnn given one tensor instead of a list of time steps.
      "inputs must be a sequence",
      // numpy's dot, tf.data's from_tensor_slices/zip, get_variable's reuse, while_loop's
      // invariants, tensordot/concat's "Dimension 1 in both shapes must be equal, but are".
      "not aligned:", "are not compatible", "but specified shape", "enters the loop with shape",
      "must be equal, but are", "cannot be broadcast",
      // nn_ops' guard against TF 0.x's positional (logits, labels) order.
      "with named arguments (labels="};
  for (std::string_view p : kPatterns)
    if (m.find(p) != std::string_view::npos) return true;
  return false;
}

}  // namespace

void Accounting::blameLibrary(const Value& exc) {
  if (!abstract()) return;
  ExceptionObj* e = asException(exc);
  // Raised deeper (a user callback the library called) is the user's.
  if (e && e->traceback.size() <= self().frames.size()) libraryExceptions.emplace(exc.get(), exc);
}

bool Evaluator::recoverFrom(const Value& exc, TSNode stmt, NodeKind kind) {
  if (!approximating() || tryDepth > 0 || kind == NodeKind::RaiseStatement) return false;
  if (isInstance(exc, *types.systemExit) || isInstance(exc, *types.keyboardInterrupt) ||
      isInstance(exc, *types.stopIteration))
    return false;
  if (auto ge = exceptionClass("GeneratorExit"); ge && isInstance(exc, *ge)) return false;
  reportException(exc, stmt, file());
  unbindStatement(stmt, file());
  return true;
}

void Evaluator::reportException(const Value& exc, TSNode stmt, const lang::SourceFile& f) {
  // sys.exit() with no code or 0 is no error (`sys.exit(main())`); the analysis goes on as if it
  // returned. A failing exit code is worth a warning.
  if (isInstance(exc, *types.keyboardInterrupt)) return;
  if (isInstance(exc, *types.systemExit)) {
    ExceptionObj* se = asException(exc);
    Value code = se ? se->dict.get("code") : Value();
    auto n = code && !isNone(code) ? asInt(code) : std::optional<int64_t>(0);
    if (n && *n == 0) return;
  }
  if (auto it = deferredDiagnostics.find(exc.get()); it != deferredDiagnostics.end()) {
    // A shape error raised inside a try that no handler caught: the error it was.
    Diagnostic d = std::move(it->second.second);
    deferredDiagnostics.erase(it);
    if (reportedExceptions.emplace(d.file, d.start.line, d.start.column, d.message).second) addDiagnostic(std::move(d));
    return;
  }
  ExceptionObj* ex = asException(exc);
  bool fromLibrary = (ex && !ex->traceback.empty() && libraryFile(ex->traceback.back().file)) ||
                     libraryExceptions.count(exc.get());
  std::string summary = exceptionSummary(exc);
  Diagnostic d;
  d.file = f.path();
  if (isInstance(exc, *types.notImplementedError)) {
    // tensorlens' own "not supported" (or a user's abstract method): the analysis lost track.
    if (!fromLibrary) return;
    d.severity = Severity::Information;
    d.code = "unsupported";
    d.message = summary + "; later values it would have set are unknown";
  } else if (summary.find("<unknown>") != std::string::npos) {
    return;  // built from a value the analysis does not know
  } else if (fromLibrary) {
    std::string msg = ex ? str(exc) : summary;
    if (!shapeMessage(msg)) return;  // an API tensorlens does not model, or unknown data
    d.severity = Severity::Error;
    d.code = "shape-error";
    d.message = msg;
  } else {
    d.severity = Severity::Warning;
    d.code = "uncaught-exception";
    d.message = summary;
  }
  bool placed = false;
  if (ex)
    for (auto it = ex->traceback.rbegin(); it != ex->traceback.rend() && !placed; ++it)
      if (it->file == f.path() && it->line > 0) {
        lang::TextPos p{it->line - 1, it->column - 1};
        d.start = p;
        d.end = {p.line, static_cast<int>(f.lineText(p.line).size())};
        placed = true;
      }
  if (!placed) {
    TSPoint a = ts_node_start_point(stmt), b = ts_node_end_point(stmt);
    d.start = {static_cast<int>(a.row), static_cast<int>(a.column)};
    d.end = {static_cast<int>(b.row), static_cast<int>(b.column)};
  }
  // A function called twice, or a loop's second pass, fails at the same place again.
  if (!reportedExceptions.emplace(d.file, d.start.line, d.start.column, d.message).second) return;
  addDiagnostic(std::move(d));
}

void Evaluator::unbindStatement(TSNode stmt, const lang::SourceFile& f) {
  const Fields& F = fields();
  std::vector<std::string> names;
  // Containers the statement may have changed in place before it stopped, or would have changed
  // after: `rows.append(row)`, `table[k] = v` (a list left known but short is a false shape later).
  std::vector<std::string> receivers;
  const auto receiver = [&](TSNode obj) {
    if (!ts_node_is_null(obj) && kindOf(obj) == NodeKind::Identifier) receivers.emplace_back(text(obj));
  };
  std::vector<TSNode> stack{stmt};
  while (!stack.empty()) {
    TSNode n = stack.back();
    stack.pop_back();
    if (ts_node_is_null(n)) continue;
    switch (kindOf(n)) {
      case NodeKind::Assignment:
      case NodeKind::AugmentedAssignment: {
        TSNode left = field(n, F.left);
        targetNames(left, f, names);
        if (!ts_node_is_null(left) && kindOf(left) == NodeKind::Subscript) receiver(field(left, F.value));
        stack.push_back(field(n, F.right));
        continue;
      }
      case NodeKind::Call: {
        TSNode fn = field(n, F.function);
        if (!ts_node_is_null(fn) && kindOf(fn) == NodeKind::Attribute) receiver(field(fn, F.object));
        break;
      }
      case NodeKind::ForStatement:
        targetNames(field(n, F.left), f, names);
        break;
      case NodeKind::AsPattern:
        targetNames(field(n, F.alias), f, names);
        break;
      case NodeKind::NamedExpression:
        targetNames(field(n, F.name), f, names);
        break;
      case NodeKind::FunctionDefinition:
      case NodeKind::ClassDefinition:
        targetNames(field(n, F.name), f, names);
        continue;  // their bodies bind their own names
      case NodeKind::Lambda:
      case NodeKind::ListComprehension:
      case NodeKind::SetComprehension:
      case NodeKind::DictionaryComprehension:
      case NodeKind::GeneratorExpression:
        continue;
      default:
        break;
    }
    for (TSNode c : namedChildren(n)) stack.push_back(c);
  }
  for (const auto& name : names) bindName(name, unknown());
  // Only lists, dicts and sets: a module (np.append), an instance or a tensor keeps its binding.
  for (const auto& name : receivers) {
    Value v;
    try {
      v = lookupName(name, stmt);
    } catch (PyError&) {
      continue;
    }
    if (v && (v->kind() == Kind::List || v->kind() == Kind::Dict || v->kind() == Kind::Set))
      bindName(name, unknownOf(v->kind() == Kind::List ? types.list : v->kind() == Kind::Dict ? types.dict : types.set));
  }
}

}  // namespace tlens::interp
