// Definitions: `def`, `lambda`, `class`, decorators. A function's static part (Code: its node,
// scope analysis, parameter nodes) is made once per definition node; each execution of the
// `def` makes a new FunctionObj with freshly evaluated defaults and the current closure.
#include <mutex>
#include <unordered_map>

#include "lang/interp/Evaluator.h"
#include "lang/interp/SourceNames.h"

namespace tlens::interp {

namespace {

/// The scope analysis of a definition in an embedded module, shared by every interpreter of the
/// process: those files are parsed once per process (ExecImport.cpp) and immutable, and each
/// analysis of a TF file defines the same few thousand library functions and methods again
/// (5-10% of a language-server analysis went to analysing their scopes anew). By file address,
/// with a weak reference that tells whether that file is still the one analysed.
ScopeInfo libraryScope(TSNode def, const std::shared_ptr<const lang::SourceFile>& file) {
  struct PerFile {
    std::weak_ptr<const lang::SourceFile> file;
    std::unordered_map<uint32_t, ScopeInfo> scopes;
  };
  static std::mutex mutex;
  static auto* cache = new std::unordered_map<const lang::SourceFile*, PerFile>();  // outlives static destructors
  const uint32_t at = ts_node_start_byte(def);
  {
    std::lock_guard<std::mutex> lock(mutex);
    PerFile& pf = (*cache)[file.get()];
    if (pf.file.lock() != file) {
      pf.file = file;
      pf.scopes.clear();
    }
    if (auto it = pf.scopes.find(at); it != pf.scopes.end()) return it->second;
  }
  ScopeInfo s = analyzeScope(def, *file);
  std::lock_guard<std::mutex> lock(mutex);
  if (cache->size() > 256)  // files that are gone (a registry that embeds another text)
    std::erase_if(*cache, [&](const auto& e) { return e.first != file.get() && e.second.file.expired(); });
  PerFile& pf = (*cache)[file.get()];
  if (pf.file.lock() == file) pf.scopes.emplace(at, s);
  return s;
}

}  // namespace

std::shared_ptr<const lang::SourceFile> Evaluator::currentFileRef() {
  const lang::SourceFile* f = frames.back()->file;
  for (const auto& x : files)
    if (x.get() == f) return x;
  return nullptr;
}

std::shared_ptr<Code> Evaluator::codeFor(TSNode def, bool isLambda) {
  auto key = std::make_pair(&file(), ts_node_start_byte(def));
  auto it = codes.find(key);
  if (it != codes.end()) return it->second;
  auto code = std::make_shared<Code>();
  const Fields& F = fields();
  code->file = currentFileRef();
  code->node = def;
  auto ch = children(def);
  code->body = fieldIn(ch, F.body);
  code->isLambda = isLambda;
  code->name = isLambda ? "<lambda>" : std::string(text(fieldIn(ch, F.name)));
  code->scope = code->file && isLibraryPath(code->file->path()) ? libraryScope(def, code->file) : analyzeScope(def, file());
  codes.emplace(key, code);
  return code;
}

Signature Evaluator::buildSignature(TSNode params, Code& code, bool recordNames) {
  const Fields& F = fields();
  Signature sig;
  bool kwOnly = false;
  auto add = [&](TSNode id, ParamKind kind, Value dflt) {
    Param p;
    p.name = std::string(text(id));
    p.kind = kind;
    p.defaultValue = std::move(dflt);
    sig.params.push_back(std::move(p));
    if (recordNames) code.paramNames.push_back(id);
  };
  for (TSNode p : namedChildren(params)) {
    switch (kindOf(p)) {
      case NodeKind::Identifier: add(p, kwOnly ? ParamKind::KeywordOnly : ParamKind::Normal, nullptr); break;
      case NodeKind::DefaultParameter:
      case NodeKind::TypedDefaultParameter: {
        TSNode name = field(p, F.name);
        if (kindOf(name) != NodeKind::Identifier) {
          unsupported(p, "tuple parameters");
          break;
        }
        add(name, kwOnly ? ParamKind::KeywordOnly : ParamKind::Normal, eval(field(p, F.value)));
        break;
      }
      case NodeKind::TypedParameter: {
        TSNode inner = firstNamedChild(p);
        NodeKind k = kindOf(inner);
        if (k == NodeKind::Identifier) add(inner, kwOnly ? ParamKind::KeywordOnly : ParamKind::Normal, nullptr);
        else if (k == NodeKind::ListSplatPattern) {
          add(firstNamedChild(inner), ParamKind::VarArgs, nullptr);
          kwOnly = true;
        } else if (k == NodeKind::DictionarySplatPattern) {
          add(firstNamedChild(inner), ParamKind::VarKeywords, nullptr);
        }
        break;
      }
      case NodeKind::ListSplatPattern:
        add(firstNamedChild(p), ParamKind::VarArgs, nullptr);
        kwOnly = true;
        break;
      case NodeKind::DictionarySplatPattern: add(firstNamedChild(p), ParamKind::VarKeywords, nullptr); break;
      case NodeKind::KeywordSeparator: kwOnly = true; break;
      case NodeKind::PositionalSeparator:
        for (Param& q : sig.params)
          if (q.kind == ParamKind::Normal) q.kind = ParamKind::PositionalOnly;
        break;
      case NodeKind::Error: throw SyntaxSkip{};
      default: unsupported(p, "this parameter form"); break;
    }
  }
  return sig;
}

std::shared_ptr<FunctionObj> Evaluator::makeFunction(TSNode def, bool isLambda) {
  const Fields& F = fields();
  auto code = codeFor(def, isLambda);
  bool firstTime = code->paramNames.empty();
  auto fn = std::make_shared<FunctionObj>();
  fn->sig = buildSignature(field(def, F.parameters), *code, firstTime);
  fn->code = code;
  fn->closure = closureForNewFunction();
  fn->globals = frame().globals;
  fn->name = code->name;
  Frame& f = frame();
  // A class frame named "<module>" is exec()'d code with locals of its own (BuiltinExec.cpp).
  if (f.type == Frame::ClassFrame && f.name != "<module>") fn->qualname = f.name + "." + fn->name;
  else if (f.type == Frame::FunctionFrame) fn->qualname = (f.function ? f.function->qualname : f.name) + ".<locals>." + fn->name;
  else fn->qualname = fn->name;
  if (const std::string* mod = asString(f.globals->vars.get("__name__"))) fn->module = *mod;
  track(fn);
  if (abstract() && !isLambda) definedFunctions.push_back(fn);
  return fn;
}

void Evaluator::execFunctionDef(TSNode n, const std::vector<Value>& decorators) {
  const Fields& F = fields();
  TSNode nameNode = field(n, F.name);
  if (ts_node_is_null(nameNode) || ts_node_is_missing(nameNode)) throw SyntaxSkip{};
  if (ts_node_child_count(n) > 0 && std::string_view(ts_node_type(ts_node_child(n, 0))) == "async") {
    unsupported(n, "async def");
    assignName(text(nameNode), nameNode, unknown());
    return;
  }
  auto fn = makeFunction(n, false);
  // Docstring.
  auto body = namedChildren(field(n, F.body));
  if (!body.empty() && kindOf(body[0]) == NodeKind::ExpressionStatement) {
    TSNode e = firstNamedChild(body[0]);
    if (kindOf(e) == NodeKind::String) fn->attrs.set("__doc__", evalString(e));
  }
  Value v = fn;
  for (auto it = decorators.rbegin(); it != decorators.rend(); ++it) {
    frame().current = n;
    v = call(*it, {v}, {});
  }
  assignName(text(nameNode), nameNode, v);
}

Value Evaluator::evalLambda(TSNode n) { return makeFunction(n, true); }

void Evaluator::execDecorated(TSNode n) {
  const Fields& F = fields();
  std::vector<Value> decorators;
  for (TSNode c : namedChildren(n))
    if (kindOf(c) == NodeKind::Decorator) decorators.push_back(eval(firstNamedChild(c)));
  TSNode def = field(n, F.definition);
  if (kindOf(def) == NodeKind::FunctionDefinition) execFunctionDef(def, decorators);
  else if (kindOf(def) == NodeKind::ClassDefinition) execClassDef(def, decorators);
  else throw SyntaxSkip{};
}

void Evaluator::execClassDef(TSNode n, const std::vector<Value>& decorators) {
  const Fields& F = fields();
  TSNode nameNode = field(n, F.name);
  if (ts_node_is_null(nameNode) || ts_node_is_missing(nameNode)) throw SyntaxSkip{};
  std::string name(text(nameNode));
  std::vector<std::shared_ptr<ClassObj>> bases;
  std::shared_ptr<ClassObj> abcMeta;
  bool unknownBase = false;
  TSNode supers = field(n, F.superclasses);
  if (!ts_node_is_null(supers)) {
    for (TSNode a : namedChildren(supers)) {
      if (kindOf(a) == NodeKind::KeywordArgument) {
        // metaclass=ABCMeta, the one metaclass modelled: its methods (register, the abc module's
        // subclass check) become class methods of the class, below.
        auto meta = asShared<ClassObj>(eval(field(a, fields().value)));
        if (!(meta && meta->name == "ABCMeta" && text(field(a, fields().name)) == "metaclass"))
          unsupported(a, "class keyword arguments (metaclasses)");
        abcMeta = meta;
        continue;
      }
      Value b = eval(a);
      if (auto c = asShared<ClassObj>(b)) {
        bases.push_back(c);
      } else if (isUnknown(b) || b->kind() == Kind::Native) {
        unknownBase = true;
      } else {
        typeError("bases must be types");
      }
    }
  }
  if (bases.empty()) bases.push_back(types.object);
  for (const auto& b : bases)
    if (b->unknownBase) unknownBase = true;
  auto cls = std::make_shared<ClassObj>();
  cls->name = name;
  cls->module = "__main__";
  if (const std::string* mod = asString(frame().globals->vars.get("__name__"))) cls->module = *mod;
  Frame& outer = frame();
  cls->qualname = outer.type == Frame::ClassFrame && outer.name != "<module>" ? outer.name + "." + name
                  : outer.type == Frame::FunctionFrame ? (outer.function ? outer.function->qualname : outer.name) + ".<locals>." + name
                                                       : name;
  cls->bases = bases;
  cls->unknownBase = unknownBase;
  track(cls);
  if (!cls->computeMro()) typeError("Cannot create a consistent method resolution order (MRO) for bases");

  auto ns = std::make_shared<Env>();
  track(ns);
  ns->vars.set("__module__", makeStr(cls->module));
  ns->vars.set("__qualname__", makeStr(cls->qualname));
  {
    Frame fr;
    fr.type = Frame::ClassFrame;
    fr.name = name;
    fr.file = outer.file;
    fr.locals = ns;
    fr.globals = outer.globals;
    fr.closure = closureForNewFunction();
    fr.trusted = outer.trusted;
    FramePush push(*this, fr);
    auto body = namedChildren(field(n, F.body));
    if (!body.empty() && kindOf(body[0]) == NodeKind::ExpressionStatement) {
      TSNode e = firstNamedChild(body[0]);
      if (kindOf(e) == NodeKind::String) ns->vars.set("__doc__", evalString(e));
    }
    execBlock(field(n, F.body));
  }
  ns->vars.forEach([&](const std::string& k, const Value& v) {
    cls->dict.set(k, v);
    auto own = [&](const Value& f) {
      if (auto* fn = as<FunctionObj>(f)) fn->ownerClass = cls;
    };
    own(v);
    if (auto* sm = as<StaticMethodObj>(v)) own(sm->function);
    if (auto* cm = as<ClassMethodObj>(v)) own(cm->function);
    if (auto* p = as<PropertyObj>(v)) {
      own(p->fget);
      own(p->fset);
    }
  });
  // What a class finds on its metaclass when its MRO lacks it: ABCMeta's methods, bound to it.
  if (abcMeta)
    abcMeta->dict.forEach([&](const std::string& k, const Value& v) {
      if (v->kind() == Kind::Function && !cls->lookup(k)) cls->dict.set(k, std::make_shared<ClassMethodObj>(v));
    });
  // PEP 487: the nearest base that defines __init_subclass__ (an implicit classmethod) hears of
  // the new class (enum.Enum turns its members into instances there).
  for (size_t i = 1; i < cls->mro.size(); ++i)
    if (const Value* hook = cls->mro[i]->dict.find("__init_subclass__")) {
      Value fn = *hook;
      if (auto* cm = as<ClassMethodObj>(fn)) fn = cm->function;
      if (fn->kind() == Kind::Function) call(fn, {cls}, {});
      break;
    }
  Value v = cls;
  for (auto it = decorators.rbegin(); it != decorators.rend(); ++it) v = call(*it, {v}, {});
  assignName(name, nameNode, v);
}

}  // namespace tlens::interp
