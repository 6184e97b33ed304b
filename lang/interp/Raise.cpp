// Raising Python exceptions from C++ and printing tracebacks. An exception records the call
// stack when it is first raised (outermost first, each frame at the expression it was running);
// re-raising keeps it. `raise ... from` sets __cause__; raising while an `except` block handles
// another exception sets __context__; tracebacks print both chains as CPython does.
#include "lang/interp/Machine.h"
#include "lang/interp/SourceNames.h"

namespace tlens::interp {

std::shared_ptr<ClassObj> Builtins::exceptionClass(std::string_view name) const {
  auto it = exceptionClasses.find(std::string(name));
  return it == exceptionClasses.end() ? nullptr : it->second;
}

Value ObjectProtocol::makeException(const std::shared_ptr<ClassObj>& cls, std::vector<Value> args) {
  auto e = std::make_shared<ExceptionObj>(cls);
  track(e);
  if (cls->isSubclassOf(types.systemExit.get())) e->dict.set("code", args.empty() ? none() : args[0]);
  if (cls->isSubclassOf(types.stopIteration.get())) e->dict.set("value", args.empty() ? none() : args[0]);
  e->dict.set("args", makeTuple(std::move(args)));
  return e;
}

void ObjectProtocol::raise(const std::shared_ptr<ClassObj>& cls, const std::string& msg) {
  raiseValue(makeException(cls, {makeStr(msg)}));
}

void ObjectProtocol::raise(std::string_view clsName, const std::string& msg) {
  auto cls = exceptionClass(clsName);
  raise(cls ? cls : types.runtimeError, msg);
}

void ObjectProtocol::notSupported(std::string_view what, const Value& v) {
  typeError(std::string(what) + ": '" + typeName(v) + "'");
}

std::vector<TraceEntry> ObjectProtocol::captureTraceback() const {
  std::vector<TraceEntry> out;
  for (const Frame* f : frames) {
    if (!f->file) continue;
    TraceEntry t;
    t.file = f->file->path();
    t.function = f->name;
    if (!ts_node_is_null(f->current)) {
      TSPoint p = ts_node_start_point(f->current);
      t.line = static_cast<int>(p.row) + 1;
      t.column = static_cast<int>(p.column) + 1;
      std::string_view line = f->file->lineText(static_cast<int>(p.row));
      size_t b = line.find_first_not_of(" \t");
      size_t e = line.find_last_not_of(" \t\r");
      if (b != std::string_view::npos) t.source = std::string(line.substr(b, e - b + 1));
    }
    out.push_back(std::move(t));
  }
  return out;
}

void ObjectProtocol::raiseValue(const Value& excOrClass, const Value& cause, bool hasCause) {
  Value exc = excOrClass;
  if (auto cls = asShared<ClassObj>(exc)) {
    if (!cls->isException) typeError("exceptions must derive from BaseException");
    exc = instantiate(cls, {}, {});
  }
  ExceptionObj* e = asException(exc);
  if (!e) typeError("exceptions must derive from BaseException");
  if (hasCause) {
    e->suppressContext = true;
    if (!cause || isNone(cause)) {
      e->cause.reset();
    } else {
      Value c = cause;
      if (auto ccls = asShared<ClassObj>(c)) {
        if (!ccls->isException) typeError("exception causes must derive from BaseException");
        c = instantiate(ccls, {}, {});
      }
      if (!asException(c)) typeError("exception causes must derive from BaseException");
      e->cause = c;
    }
  }
  if (!e->context) {
    for (auto it = frames.rbegin(); it != frames.rend(); ++it)
      if ((*it)->handling) {
        if ((*it)->handling.get() != exc.get()) e->context = (*it)->handling;
        break;
      }
  }
  if (e->traceback.empty()) {
    e->traceback = captureTraceback();
    if (statementObserver) statementObserver->onRaise(exc, self().tryDepth > 0);
  }
  throw PyError(exc);
}

namespace {

/// The class as a traceback names it: builtins by their name, others with their module.
std::string tracebackName(const ClassObj& cls) {
  return cls.module == "builtins" || cls.module.empty() ? cls.qualname : cls.module + "." + cls.qualname;
}

}  // namespace

std::string ObjectProtocol::exceptionMessage(const Value& exc) {
  try {
    return str(exc);
  } catch (PyError&) {
    return "<exception str() failed>";
  }
}

std::string ObjectProtocol::exceptionSummary(const Value& exc) {
  std::string name = tracebackName(*typeOf(exc));
  std::string msg = exceptionMessage(exc);
  return msg.empty() ? name : name + ": " + msg;
}

ExceptionReport ObjectProtocol::exceptionReport(const Value& exc) {
  ExceptionReport r;
  r.type = tracebackName(*typeOf(exc));
  r.message = exceptionMessage(exc);
  if (ExceptionObj* e = asException(exc)) r.traceback = e->traceback;
  return r;
}

std::string ObjectProtocol::formatTraceback(const Value& exc) {
  std::string out;
  std::vector<const Object*> seen;
  std::function<void(const Value&)> emit = [&](const Value& v) {
    ExceptionObj* e = asException(v);
    if (!e) return;
    if (std::find(seen.begin(), seen.end(), v.get()) != seen.end() || seen.size() > 20) return;
    seen.push_back(v.get());
    if (e->cause) {
      emit(e->cause);
      out += "\nThe above exception was the direct cause of the following exception:\n\n";
    } else if (e->context && !e->suppressContext) {
      emit(e->context);
      out += "\nDuring handling of the above exception, another exception occurred:\n\n";
    }
    if (!e->traceback.empty()) {
      out += "Traceback (most recent call last):\n";
      // Frames of modules embedded in tlens (files named "<tensorflow>") are library internals:
      // the traceback goes through the user's lines only, unless it has no others.
      auto library = [](const TraceEntry& t) { return isLibraryPath(t.file); };
      bool anyUser = std::any_of(e->traceback.begin(), e->traceback.end(), [&](const TraceEntry& t) { return !library(t); });
      for (const TraceEntry& t : e->traceback) {
        if (anyUser && library(t)) continue;
        out += "  File \"" + t.file + "\", line " + std::to_string(t.line) + ", in " + t.function + "\n";
        // CPython shows no line of exec()'d source (it has no file to read it from).
        if (!t.source.empty() && t.file != kExecFileName) out += "    " + t.source + "\n";
      }
    }
    out += exceptionSummary(v) + "\n";
  };
  emit(exc);
  return out;
}

bool ObjectProtocol::exceptionMatches(const Value& exc, const Value& clsOrTuple) {
  if (auto* t = as<TupleObj>(clsOrTuple)) {
    for (const Value& c : t->items)
      if (exceptionMatches(exc, c)) return true;
    return false;
  }
  if (isUnknown(clsOrTuple)) return abstract();
  auto* c = as<ClassObj>(clsOrTuple);
  if (!c || !c->isException) typeError("catching classes that do not inherit from BaseException is not allowed");
  return isInstance(exc, *c);
}

}  // namespace tlens::interp
