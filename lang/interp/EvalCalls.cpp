// Calls: argument evaluation (*args, **kwargs, keywords), dispatch on the callee (user
// functions, native functions, bound methods, classes, callable instances, native objects),
// frames for user functions and recursion bounds. Generators are in Generators.cpp.
#include "lang/interp/Machine.h"
#include "lang/interp/SourceNames.h"
#include "lang/interp/Subclass.h"

namespace tlens::interp {

void Evaluator::evalArguments(TSNode argList, std::vector<Value>& args, KwArgs& kwargs) {
  const Fields& F = fields();
  lang::NamedChildren list = namedChildren(argList);
  for (size_t i = 0; i < list.size(); ++i) {
    TSNode a = list[i];
    NodeKind kind = kindOfSymbol(list.child(i).symbol);
    switch (kind) {
      case NodeKind::KeywordArgument: {
        auto ch = children(a);
        TSNode name = fieldIn(ch, F.name);
        if (ts_node_is_null(name) || ts_node_is_missing(name)) throw SyntaxSkip{};
        kwargs.emplace_back(std::string(text(name)), eval(fieldChild(ch, F.value)));
        break;
      }
      case NodeKind::ListSplat: {
        Value v = eval(firstNamedChild(a));
        if (isUnknown(v)) throw UnknownArguments{};
        for (Value& x : toList(v)) args.push_back(std::move(x));
        break;
      }
      case NodeKind::DictionarySplat: {
        Value v = eval(firstNamedChild(a));
        if (isUnknown(v)) throw UnknownArguments{};
        auto* d = as<DictObj>(v);
        if (!d) {
          for (const Value& k : toList(callMethod(v, "keys", {}))) {
            const std::string* ks = asString(k);
            if (!ks) typeError("keywords must be strings");
            kwargs.emplace_back(*ks, getItem(v, k));
          }
          break;
        }
        if (d->imprecise) throw UnknownArguments{};
        for (const auto& e : d->entries()) {
          const std::string* ks = asString(e.key);
          if (!ks) typeError("keywords must be strings");
          kwargs.emplace_back(*ks, e.value);
        }
        break;
      }
      case NodeKind::Error: throw SyntaxSkip{};
      default: args.push_back(eval(a, kind)); break;
    }
  }
}

Value Evaluator::evalCall(TSNode n) {
  const Fields& F = fields();
  auto ch = children(n);
  const Child* fnChild = fieldChild(ch, F.function);
  const Child* argChild = fieldChild(ch, F.arguments);
  TSNode argNode = nodeOf(argChild);
  Value fn = eval(fnChild);
  std::vector<Value> args;
  KwArgs kwargs;
  try {
    NodeKind argKind = argChild ? kindOfSymbol(argChild->symbol) : NodeKind::Other;
    if (argKind == NodeKind::GeneratorExpression) args.push_back(eval(argNode, argKind));
    else evalArguments(argNode, args, kwargs);
  } catch (UnknownArguments&) {
    // An unpacked Unknown: the number of arguments is unknown, so is the result.
    return unknown();
  }
  frame().current = n;
  // Abstract: `items.extend(<unknown>)` adds items the analysis does not know. The statement
  // fails as one needing a known value, so the user's list becomes unknown (unbindStatement)
  // instead of keeping its shorter contents (a batch built by extend in a loop stayed empty: a
  // false feed-shape error).
  if (abstract() && fn->kind() == Kind::BoundMethod && args.size() == 1 && isUnknown(args[0])) {
    auto* bm = static_cast<BoundMethodObj*>(fn.get());
    if (bm->self && bm->self->kind() == Kind::List && bm->function->kind() == Kind::NativeFunction &&
        static_cast<NativeFunction*>(bm->function.get())->name == "extend")
      throw NeedsKnownValue{};
  }
  return call(fn, std::move(args), std::move(kwargs));
}

Value ObjectProtocol::call(const Value& fn, std::vector<Value> args, KwArgs kwargs) {
  switch (fn->kind()) {
    case Kind::Function: return self().callFunction(std::static_pointer_cast<FunctionObj>(fn), std::move(args), std::move(kwargs));
    case Kind::NativeFunction: return callNative(*static_cast<NativeFunction*>(fn.get()), std::move(args), std::move(kwargs));
    case Kind::BoundMethod: {
      auto* bm = static_cast<BoundMethodObj*>(fn.get());
      args.insert(args.begin(), bm->self);
      Value f = bm->function;  // keep alive even if the method object dies
      // A native object's native method (graph.get_tensor_by_name) is library code.
      if (bm->self && bm->self->kind() == Kind::Native && f->kind() == Kind::NativeFunction)
        return libraryCall([&] { return call(f, std::move(args), std::move(kwargs)); });
      return call(f, std::move(args), std::move(kwargs));
    }
    case Kind::Class: return instantiate(std::static_pointer_cast<ClassObj>(fn), std::move(args), std::move(kwargs));
    case Kind::Instance: {
      auto* inst = static_cast<InstanceObj*>(fn.get());
      Value c = inst->cls->lookup("__call__");
      if (!c) {
        if (abstract() && inst->cls->unknownBase) return unknown();
        typeError("'" + inst->cls->name + "' object is not callable");
      }
      return call(bindMethod(c, fn, inst->cls.get()), std::move(args), std::move(kwargs));
    }
    case Kind::StaticMethod: return call(static_cast<StaticMethodObj*>(fn.get())->function, std::move(args), std::move(kwargs));
    case Kind::Native: {
      auto* nat = static_cast<NativeObject*>(fn.get());
      std::string name = nat->typeName();
      CallContext ctx(api, name, std::move(args), std::move(kwargs));
      Value r;
      try {
        r = nat->call(ctx);
      } catch (NeedsKnownValue& e) {
        return e.type ? unknownOf(e.type) : unknown();
      } catch (PyError& e) {
        blameLibrary(e.exc);
        throw;
      } catch (InterpCancelled&) {
        throw;
      } catch (BudgetExceeded&) {
        throw;
      } catch (std::bad_alloc&) {
        raise("MemoryError", "out of memory");
      } catch (std::exception& e) {
        raise(types.runtimeError, e.what());
      }
      if (!r) typeError("'" + name + "' object is not callable");
      return r;
    }
    case Kind::Unknown: return unknown();
    default: typeError("'" + typeName(fn) + "' object is not callable");
  }
}

Value ObjectProtocol::callNative(NativeFunction& f, std::vector<Value> args, KwArgs kwargs, std::shared_ptr<ClassObj> cls) {
  if (f.sideEffecting && abstract()) return unknown();
  CallContext ctx(api, f.name, std::move(args), std::move(kwargs));
  ctx.cls = std::move(cls);
  try {
    if (f.sig) {
      ctx.bound = f.sig->bind(api, f.name, ctx.args, ctx.kwargs);
      ctx.sig = &*f.sig;
    }
    Value r = f.fn(ctx);
    return r ? r : none();
  } catch (NeedsKnownValue& e) {
    return e.type ? unknownOf(e.type) : unknown();
  } catch (PyError& e) {
    // tensorflow/numpy natives and native classes' methods (np.int32(...)) are library code;
    // builtins (int("ten"), len(3)) are the interpreter's, and their errors are the user's.
    if (!f.module.empty() || (ctx.cls && !ctx.cls->module.empty() && ctx.cls->module != "builtins"))
      blameLibrary(e.exc);
    throw;
  } catch (InterpCancelled&) {
    throw;
  } catch (BudgetExceeded&) {
    throw;
  } catch (SyntaxSkip&) {
    throw;
  } catch (GeneratorClose&) {
    throw;
  } catch (UnknownArguments&) {
    throw;
  } catch (std::bad_alloc&) {
    raise("MemoryError", "out of memory");
  } catch (std::exception& e) {
    raise(types.runtimeError, e.what());
  }
}

Value Evaluator::callFunction(const std::shared_ptr<FunctionObj>& f, std::vector<Value> args, KwArgs kwargs) {
  const Code& code = *f->code;
  if (abstract()) {
    tick();
    if (callDepth >= opts.abstractRecursionDepth) return unknown();
    int same = 0;
    for (const Frame* fr : frames)
      if (fr->code == &code) ++same;
    if (same >= opts.abstractSameFunctionDepth) return unknown();
  } else if (callDepth >= opts.maxRecursionDepth) {
    raise(types.recursionError, "maximum recursion depth exceeded");
  }
  checkStack();
  // A library function called with arguments it does not take: the model of that API (or the
  // user's code, which tensorlens cannot tell apart here) is at fault, not a run's certain error.
  std::vector<Value> bound = code.file && isLibraryPath(code.file->path())
                                 ? libraryCall([&] { return f->sig.bind(api, f->qualname, std::move(args), std::move(kwargs)); })
                                 : f->sig.bind(api, f->qualname, std::move(args), std::move(kwargs));
  auto env = std::make_shared<Env>();
  env->parent = f->closure;
  track(env);
  for (size_t i = 0; i < bound.size(); ++i) env->vars.set(f->sig.params[i].name, std::move(bound[i]));
  if (code.scope.isGenerator) {
    auto g = std::make_shared<GeneratorObj>();
    g->function = f;
    g->env = env;
    track(g);
    return g;
  }
  return runFunctionBody(*f, std::move(env), nullptr);
}

Value Evaluator::runFunctionBody(FunctionObj& f, std::shared_ptr<Env> env, GeneratorState* generator) {
  const Code& code = *f.code;
  Frame fr;
  fr.type = Frame::FunctionFrame;
  fr.name = code.name;
  fr.file = code.file.get();
  fr.locals = env;
  fr.globals = f.globals;
  fr.closure = f.closure;
  fr.code = &code;
  fr.function = &f;
  fr.generator = generator;
  fr.trusted = isLibraryPath(code.file->path());
  if (!f.sig.params.empty()) fr.firstArg = env->vars.get(f.sig.params[0].name);
  FramePush push(*this, fr);
  struct Depth {
    Machine& m;
    Env* savedTarget;
    explicit Depth(Machine& mm) : m(mm), savedTarget(mm.comprehensionTarget) {
      ++m.callDepth;
      m.comprehensionTarget = nullptr;  // a call made while binding a comprehension target
    }
    ~Depth() {
      --m.callDepth;
      m.comprehensionTarget = savedTarget;
    }
  } depth(self());
  if (abstract()) executedCodes.insert(&code);
  if (valueObserver)
    for (size_t i = 0; i < code.paramNames.size() && i < f.sig.params.size(); ++i)
      if (const Value* v = env->vars.find(f.sig.params[i].name)) valueObserver->onValue(*code.file, code.paramNames[i], *v);
  Value result;
  if (code.isLambda) {
    fr.current = code.body;
    try {
      result = eval(code.body);
    } catch (SyntaxSkip&) {
      result = unknown();
    }
  } else {
    Flow fl = execBlock(code.body);
    result = fl == Flow::Return && fr.returnValue ? fr.returnValue : none();
  }
  for (const Value& r : fr.abstractReturns) result = join(result, r);
  return result;
}


Value ObjectProtocol::instantiate(const std::shared_ptr<ClassObj>& cls, std::vector<Value> args, KwArgs kwargs) {
  for (const auto& c : cls->mro) {
    if (!c->construct) continue;
    if (c != cls && c->isBuiltin && c != types.object) {
      if (c == types.str || c == types.int_ || c == types.float_)
        return instantiateValueSubclass(*this, cls, c, std::move(args), std::move(kwargs));
      typeError("tensorlens does not support subclassing the built-in type '" + c->name + "'");
    }
    CallContext ctx(api, cls->name, std::move(args), std::move(kwargs));
    ctx.cls = cls;
    try {
      Value r = c->construct(ctx);
      return r ? r : none();
    } catch (NeedsKnownValue& e) {
      return unknownOf(e.type ? e.type : cls);
    }
  }
  Value obj;
  Value newFn = cls->lookup("__new__");
  if (newFn && newFn->kind() != Kind::NativeFunction) {
    Value f = is<StaticMethodObj>(newFn) ? static_cast<StaticMethodObj*>(newFn.get())->function : newFn;
    std::vector<Value> nargs{cls};
    nargs.insert(nargs.end(), args.begin(), args.end());
    obj = call(f, std::move(nargs), kwargs);
    if (!isInstance(obj, *cls)) return obj;
  } else {
    obj = cls->isException ? std::make_shared<ExceptionObj>(cls) : std::make_shared<InstanceObj>(cls);
    track(obj);
    // BaseException.__new__ keeps the arguments even when __init__ is overridden.
    if (cls->isException) static_cast<InstanceObj*>(obj.get())->dict.set("args", makeTuple(args));
  }
  Value init = cls->lookup("__init__");
  if (init) {
    Value r = call(bindMethod(init, obj, cls.get()), std::move(args), std::move(kwargs));
    if (!isNone(r) && !isUnknown(r)) typeError("__init__() should return None, not '" + typeName(r) + "'");
  } else if (!args.empty() || !kwargs.empty()) {
    if (!(abstract() && cls->unknownBase)) typeError(cls->name + "() takes no arguments");
  }
  return obj;
}

Value ObjectProtocol::callMethod(const Value& obj, std::string_view name, std::vector<Value> args, KwArgs kwargs) {
  return call(getAttr(obj, name), std::move(args), std::move(kwargs));
}

Value ObjectProtocol::callDunder(const Value& obj, std::string_view name, std::vector<Value> args) {
  auto cls = typeOf(obj);
  Value attr = cls->lookup(name);
  if (!attr) return nullptr;
  return call(bindMethod(attr, obj, cls.get()), std::move(args), {});
}

}  // namespace tlens::interp
