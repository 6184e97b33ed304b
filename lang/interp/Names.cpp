// Name resolution, following Python's scoping rules: a function's locals are the names its body
// binds (Scope.cpp decides which, once per def); other names are looked up in the enclosing
// function scopes (the closure Env chain, which is what makes closures late-binding and lets
// `nonlocal` rebind), then the module globals, then the builtins. Class bodies have their own
// namespace that functions defined inside them do not see. Comprehension variables live in an
// Env of their own, searched first.
#include "lang/interp/Evaluator.h"

namespace tlens::interp {

namespace {

enum : uint8_t { kLocal = 1, kGlobal = 2, kNonlocal = 4, kKnown = 0x80 };

uint8_t scopeBits(const ScopeInfo& sc, std::string_view name) {
  return kKnown | (sc.locals.count(name) ? kLocal : 0) | (sc.globals.count(name) ? kGlobal : 0) |
         (sc.nonlocals.count(name) ? kNonlocal : 0);
}

}  // namespace

uint8_t Evaluator::nameBits(const Frame& f, TSNode id, std::string_view name) {
  const Code& c = *f.code;
  // Only identifiers of the function's own text (code run by exec() in its frame is another
  // file's).
  if (!c.file || f.file != c.file.get()) return scopeBits(c.scope, name);
  uint32_t base = ts_node_start_byte(c.node), at = ts_node_start_byte(id);
  if (c.nameBits.empty()) {
    uint32_t end = ts_node_end_byte(c.node);
    if (end <= base) return scopeBits(c.scope, name);
    c.nameBits.assign(end - base, 0);
  }
  if (at < base || at - base >= c.nameBits.size()) return scopeBits(c.scope, name);
  uint8_t& b = c.nameBits[at - base];
  if (!b) b = scopeBits(c.scope, name);
  return b;
}

Value Evaluator::lookupIdentifier(TSNode id, std::string_view name) {
  Frame& f = frame();
  if (f.type != Frame::FunctionFrame || !f.comprehensions.empty()) return lookupName(name, id);
  uint8_t bits = nameBits(f, id, name);
  // lookupName's FunctionFrame case, with the sets' answers from `bits`.
  if (bits & kLocal) {
    if (const Value* v = f.locals->vars.find(name)) return *v;
    if (abstract()) return unknown();
    raise(types.unboundLocalError,
          "cannot access local variable '" + std::string(name) + "' where it is not associated with a value");
  }
  if (!(bits & kGlobal))
    for (Env* e = f.closure.get(); e; e = e->parent.get())
      if (const Value* v = e->vars.find(name)) return *v;
  if (const Value* v = f.globals->vars.find(name)) return *v;
  if (const Value* v = builtins.find(name)) return *v;
  if (abstract()) return unknown();
  raise(types.nameError, "name '" + std::string(name) + "' is not defined");
}

void Evaluator::bindIdentifier(TSNode id, std::string_view name, const Value& v) {
  Frame& f = frame();
  if (f.type != Frame::FunctionFrame) return bindName(name, v);
  uint8_t bits = nameBits(f, id, name);
  // bindName's FunctionFrame case, with the sets' answers from `bits`.
  if (bits & kGlobal) {
    f.globals->vars.set(name, v);
    return;
  }
  if (bits & kNonlocal) {
    for (Env* e = f.closure.get(); e; e = e->parent.get())
      if (e->vars.contains(name)) {
        e->vars.set(name, v);
        return;
      }
    if (f.closure) {
      f.closure->vars.set(name, v);
      return;
    }
  }
  f.locals->vars.set(name, v);
}

Value Evaluator::lookupName(std::string_view name, TSNode at) {
  Frame& f = frame();
  for (auto it = f.comprehensions.rbegin(); it != f.comprehensions.rend(); ++it)
    if (const Value* v = (*it)->vars.find(name)) return *v;
  switch (f.type) {
    case Frame::ModuleFrame:
      break;
    case Frame::ClassFrame:
      if (const Value* v = f.locals->vars.find(name)) return *v;
      for (Env* e = f.closure.get(); e; e = e->parent.get())
        if (const Value* v = e->vars.find(name)) return *v;
      break;
    case Frame::FunctionFrame: {
      // The scope analysis decides what is local (an Env can hold a name it does not list: a
      // parameter declared global, a wildcard import), as before; the sets take string_views.
      const ScopeInfo& sc = f.code->scope;
      if (sc.locals.count(name)) {
        if (const Value* v = f.locals->vars.find(name)) return *v;
        if (abstract()) return unknown();
        raise(types.unboundLocalError,
              "cannot access local variable '" + std::string(name) + "' where it is not associated with a value");
      }
      if (!sc.globals.count(name))
        for (Env* e = f.closure.get(); e; e = e->parent.get())
          if (const Value* v = e->vars.find(name)) return *v;
      break;
    }
  }
  if (const Value* v = f.globals->vars.find(name)) return *v;
  if (const Value* v = builtins.find(name)) return *v;
  if (abstract()) return unknown();
  raise(types.nameError, "name '" + std::string(name) + "' is not defined");
}

void Evaluator::bindName(std::string_view name, const Value& v) {
  Frame& f = frame();
  switch (f.type) {
    case Frame::ModuleFrame:
    case Frame::ClassFrame:
      f.locals->vars.set(name, v);
      return;
    case Frame::FunctionFrame: {
      const ScopeInfo& sc = f.code->scope;
      std::string_view n = name;
      if (sc.globals.count(n)) {
        f.globals->vars.set(name, v);
        return;
      }
      if (sc.nonlocals.count(n)) {
        for (Env* e = f.closure.get(); e; e = e->parent.get())
          if (e->vars.contains(name)) {
            e->vars.set(name, v);
            return;
          }
        if (f.closure) {
          f.closure->vars.set(name, v);
          return;
        }
      }
      f.locals->vars.set(name, v);
      return;
    }
  }
}

void Evaluator::unbindName(std::string_view name, TSNode at) {
  Frame& f = frame();
  Env* env = f.locals.get();
  if (f.type == Frame::FunctionFrame) {
    const ScopeInfo& sc = f.code->scope;
    std::string_view n = name;
    if (sc.globals.count(n)) env = f.globals.get();
    else if (sc.nonlocals.count(n))
      for (Env* e = f.closure.get(); e; e = e->parent.get())
        if (e->vars.contains(name)) {
          env = e;
          break;
        }
  }
  if (!env->vars.erase(name) && !abstract()) {
    if (f.type == Frame::FunctionFrame && f.code->scope.locals.count(name))
      raise(types.unboundLocalError,
            "cannot access local variable '" + std::string(name) + "' where it is not associated with a value");
    raise(types.nameError, "name '" + std::string(name) + "' is not defined");
  }
}

std::shared_ptr<Env> Evaluator::closureForNewFunction() {
  Frame& f = frame();
  if (!f.comprehensions.empty()) return f.comprehensions.back();
  switch (f.type) {
    case Frame::ModuleFrame: return nullptr;
    case Frame::ClassFrame: return f.closure;
    case Frame::FunctionFrame: return f.locals;
  }
  return nullptr;
}

}  // namespace tlens::interp
