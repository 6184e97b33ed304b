// exec(), eval() and compile(). The source is parsed into a SourceFile named "<string>" (or
// compile()'s file name), kept alive by the Machine (functions defined in it refer to its tree),
// and run in a frame of its own:
//
//   - no namespaces given: the caller's. At module level the exec'd code reads and binds the
//     module's globals; inside a function it reads the function's locals and closure and binds
//     into a copy of its locals (CPython's locals() snapshot: the function never sees them).
//   - a globals dict (and optionally a distinct locals mapping): the code runs in namespaces
//     made from the dicts, which receive its bindings afterwards (also when it raises). Functions
//     defined inside keep that namespace as their globals; a later change to the dict is not
//     seen by them (a copy, not a live view).
//
// Syntax errors are SyntaxError before anything runs, with CPython's "(<string>, line N)".
// Abstract mode runs nothing: eval()'s result is unknown, exec() binds nothing (names it would
// define are unknown, as any undefined name there), and the code is never parsed.
#include "lang/interp/BuiltinExec.h"

#include <cstdio>

#include "lang/interp/Bytes.h"
#include "lang/interp/Machine.h"
#include "lang/interp/NativeObject.h"
#include "lang/interp/SourceNames.h"

namespace tlens::interp {
namespace {

/// What compile() returns: a parsed source and how it is to be run.
class CodeObject : public NativeObject {
 public:
  CodeObject(std::shared_ptr<const lang::SourceFile> f, bool expr) : file(std::move(f)), expression(expr) {}
  std::string typeName() const override { return "code"; }
  std::string repr(Interpreter&) override {
    char buf[32];
    std::snprintf(buf, sizeof buf, "0x%012llx", static_cast<unsigned long long>(reinterpret_cast<uintptr_t>(this)));
    return "<code object <module> at " + std::string(buf) + ", file \"" + file->path() + "\", line 1>";
  }
  Value getAttr(Interpreter&, std::string_view name) override {
    if (name == "co_filename") return makeStr(file->path());
    if (name == "co_name") return makeStr("<module>");
    return nullptr;
  }
  bool isCallable() const override { return false; }

  std::shared_ptr<const lang::SourceFile> file;
  bool expression;  ///< compiled in 'eval' mode
};

/// The single expression of an 'eval' source, or a null node when it is not one expression.
TSNode soleExpression(const lang::SourceFile& f) {
  TSNode found{};
  int statements = 0;
  for (TSNode s : namedChildren(f.root())) {
    if (kindOf(s) == NodeKind::Comment) continue;
    ++statements;
    if (kindOf(s) != NodeKind::ExpressionStatement) return TSNode{};
    auto parts = namedChildren(s);
    if (parts.size() != 1) return TSNode{};
    found = parts[0];
  }
  return statements == 1 ? found : TSNode{};
}

/// The first `return` or `yield` outside any function of exec'd code, which CPython's compiler
/// refuses ("'return' outside function"), or a null node.
TSNode outsideFunction(TSNode n, int depth = 0) {
  std::string_view type = ts_node_type(n);
  if (type == "function_definition" || type == "lambda" || depth > 200) return TSNode{};
  if (type == "return_statement" || type == "yield") return n;
  uint32_t count = ts_node_named_child_count(n);
  for (uint32_t i = 0; i < count; ++i) {
    TSNode r = outsideFunction(ts_node_named_child(n, i), depth + 1);
    if (!ts_node_is_null(r)) return r;
  }
  return TSNode{};
}

[[noreturn]] void syntaxError(Machine& m, const std::string& msg, const std::string& file, int line) {
  Value exc = m.makeException(m.builtins.get("SyntaxError") ? asShared<ClassObj>(m.builtins.get("SyntaxError")) : m.types.exception,
                              {makeStr(msg + " (" + file + ", line " + std::to_string(line) + ")")});
  if (auto* inst = as<InstanceObj>(exc)) {
    inst->dict.set("msg", makeStr(msg));
    inst->dict.set("filename", makeStr(file));
    inst->dict.set("lineno", makeInt(line));
  }
  m.raiseValue(exc);
}

/// Parses `source` (str, bytes or a code object) for exec/eval; `expression` is the mode asked.
std::shared_ptr<CodeObject> compileSource(Machine& m, const Value& source, const std::string& fileName,
                                          bool expression, const char* fn) {
  if (source->kind() == Kind::Native && dynamic_cast<CodeObject*>(source.get()))
    return std::static_pointer_cast<CodeObject>(source);
  std::string text;
  if (const std::string* s = asString(source)) text = *s;
  else if (const std::string* b = asBytes(source)) text = *b;
  else m.typeError(std::string(fn) + "() arg 1 must be a string, bytes or code object");
  if (expression) {
    size_t i = text.find_first_not_of(" \t");  // eval() strips leading spaces and tabs
    text = i == std::string::npos ? "" : text.substr(i);
  }
  m.reserveSize(static_cast<double>(text.size()), m.types.str);
  auto f = m.keepFile(std::make_shared<lang::SourceFile>(fileName, text));
  if (!f->syntaxErrors().empty()) {
    const auto& e = f->syntaxErrors().front();
    syntaxError(m, e.message, fileName, e.start.line + 1);
  }
  if (TSNode bad = outsideFunction(f->root()); !ts_node_is_null(bad))
    syntaxError(m, std::string("'") + (std::string_view(ts_node_type(bad)) == "yield" ? "yield" : "return") + "' outside function",
                fileName, static_cast<int>(ts_node_start_point(bad).row) + 1);
  if (expression && ts_node_is_null(soleExpression(*f))) {
    int line = 1;
    for (TSNode s : namedChildren(f->root()))
      if (kindOf(s) != NodeKind::Comment && kindOf(s) != NodeKind::ExpressionStatement) {
        line = static_cast<int>(ts_node_start_point(s).row) + 1;
        break;
      }
    syntaxError(m, "invalid syntax", fileName, line);
  }
  return std::make_shared<CodeObject>(f, expression);
}

Value runCode(Machine& m, const CodeObject& code, const Value& globals, const Value& locals, const char* fn) {
  auto* g = isNone(globals) ? nullptr : as<DictObj>(globals);
  if (!isNone(globals) && !g) m.typeError(std::string(fn) + "() globals must be a dict, not " + m.typeName(globals));
  auto* l = isNone(locals) ? nullptr : as<DictObj>(locals);
  if (!isNone(locals) && !l) m.typeError("locals must be a mapping");

  Frame fr;
  std::shared_ptr<Env> genv, lenv;
  auto fill = [](const std::shared_ptr<Env>& env, DictObj* d) {
    track(env);
    for (const auto& e : d->entries())
      if (const std::string* k = asString(e.key)) env->vars.set(*k, e.value);
  };
  if (g) {
    genv = std::make_shared<Env>();
    fill(genv, g);
    fr.type = Frame::ModuleFrame;
    fr.name = "<module>";
    fr.globals = fr.locals = genv;
    if (l && l != g) {
      lenv = std::make_shared<Env>();
      fill(lenv, l);
      fr.type = Frame::ClassFrame;  // separate locals: looked up first, as a class body's
      fr.locals = lenv;
    }
  } else {
    const Frame& caller = m.frame();
    fr.type = caller.type;
    fr.globals = caller.globals;
    fr.locals = caller.locals;
    fr.closure = caller.closure;
    fr.comprehensions = caller.comprehensions;
    fr.trusted = caller.trusted;
    if (caller.type == Frame::FunctionFrame || l) {
      lenv = std::make_shared<Env>();
      track(lenv);
      if (l) fill(lenv, l);
      else caller.locals->vars.forEach([&](const std::string& k, const Value& v) { lenv->vars.set(k, v); });
      fr.type = Frame::ClassFrame;
      fr.locals = lenv;
    }
  }
  fr.name = "<module>";  // as CPython names exec'd code's frame
  fr.file = code.file.get();
  auto writeBack = [&m](const std::shared_ptr<Env>& env, DictObj* d) {
    if (!env || !d) return;
    std::vector<std::string> gone;
    for (const auto& e : d->entries())
      if (const std::string* k = asString(e.key); k && !env->vars.find(*k)) gone.push_back(*k);
    for (const auto& k : gone) d->erase(m.api, makeStr(k));
    env->vars.forEach([&](const std::string& k, const Value& v) { d->setStr(k, v); });
  };
  struct WriteBack {
    std::function<void()> f;
    ~WriteBack() { f(); }
  } done{[&] {
    writeBack(genv, g);
    writeBack(lenv, l);
  }};
  FramePush push(m, fr);
  if (code.expression) {
    TSNode e = soleExpression(*code.file);
    fr.current = e;
    Value r = m.eval(e);
    return fn[1] == 'v' ? r : none();  // exec() of an 'eval' code object returns None
  }
  for (TSNode s : namedChildren(code.file->root())) {
    fr.current = s;
    m.exec(s);  // a top-level return/yield was refused when compiling
  }
  return none();
}

}  // namespace

void installExecBuiltins(Imports& layer) {
  // Called while the machine is built (from installBuiltinFunctions): the closures reach the
  // whole machine (eval, exec) only when called, once it is complete.
  Imports* lp = &layer;
  auto machine = [lp]() -> Machine& { return static_cast<Machine&>(*lp); };
  auto run = [machine](const char* fn, bool expression) {
    return [machine, fn, expression](CallContext& c) -> Value {
      Machine& m = machine();
      if (m.abstract()) return unknown();  // never runs: its effects are unknown
      auto code = compileSource(m, c.arg(0), std::string(kExecFileName), expression, fn);
      return runCode(m, *code, c.arg(1), c.arg(2), fn);
    };
  };
  defineNative(layer.builtins, "eval", "source, globals=None, locals=None, /", run("eval", true));
  defineNative(layer.builtins, "exec", "source, globals=None, locals=None, /, *, closure=None", run("exec", false));
  defineNative(layer.builtins, "compile", "source, filename, mode, flags=0, dont_inherit=False, optimize=-1, *, _feature_version=-1",
               [machine](CallContext& c) -> Value {
                 Machine& m = machine();
                 std::string mode = c.toStr(c.arg(2));
                 if (mode != "exec" && mode != "eval" && mode != "single")
                   m.valueError("compile() mode must be 'exec', 'eval' or 'single'");
                 std::string name = c.toStr(c.arg(1));
                 if (m.abstract()) return unknown();
                 return compileSource(m, c.arg(0), name, mode == "eval", "compile");
               });
}

}  // namespace tlens::interp
