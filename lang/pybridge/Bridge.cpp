// libtlens_pybridge.so: the embedded CPython (pybind11's embedding API). The only code in
// tensorlens that links libpython; tlens loads it with dlopen() on the first import of a module it
// does not model (Host.cpp), and it uses the interpreter's symbols from the executable.
//
// Threads and the GIL: CPython starts on the first importing thread, which then releases the GIL;
// every entry from the interpreter takes it (py::gil_scoped_acquire), and a callback into the
// program releases it while the program's code runs, so the debugger can inspect proxies while
// the program is stopped inside `df.apply(f)`.
#include <pybind11/embed.h>
#include <pybind11/numpy.h>

#include <csignal>
#include <cstring>
#include <filesystem>
#include <sys/mman.h>
#include <unistd.h>

#include "lang/interp/Bytes.h"
#include "lang/interp/ForeignFrame.h"
#include "lang/pybridge/PyBridge.h"
#include "lang/tf/OpApply.h"
#include "lang/tf/TensorObj.h"
#include "lang/tf/TfRuntime.h"

namespace py = pybind11;
using namespace tlens::interp;

namespace tlens::pybridge {

namespace {

// Python half of the bridge: output sinks, figures, call labels, traceback text.
const char* kHelper = R"PY(
import sys, os, traceback

class Sink:
    def __init__(self, write, err):
        self._write, self._err = write, err
    def write(self, s):
        self._write(str(s), self._err)
        return len(s)
    def flush(self):
        pass
    def isatty(self):
        return False
    encoding = 'utf-8'
    errors = 'strict'

prefix = None
count = 0
patched = False

def set_prefix(p):
    global prefix, count
    if p != prefix:
        prefix, count = p, 0

def save_figures():
    global count
    plt = sys.modules.get('matplotlib.pyplot')
    if plt is None or prefix is None:
        return
    for num in plt.get_fignums():
        count += 1
        path = '%s_figure%d.png' % (prefix, count)
        plt.figure(num).savefig(path)
        sys.stderr.write('tlens: wrote figure %s\n' % path)
    plt.close('all')

def show(*args, **kwargs):
    save_figures()

def waitforbuttonpress(*args, **kwargs):
    # No window to press in: the figures are written, as show() does, and the wait ends at once
    # (a timeout's answer). matplotlib's Agg backend would wait forever.
    save_figures()
    return None

def ginput(*args, **kwargs):
    save_figures()
    return []

def after_import():
    global patched
    if not patched and 'matplotlib.pyplot' in sys.modules:
        plt = sys.modules['matplotlib.pyplot']
        plt.show = show
        plt.waitforbuttonpress = waitforbuttonpress
        plt.ginput = ginput
        patched = True

def label(f):
    self = getattr(f, '__self__', None)
    mod = getattr(f, '__module__', None)
    if not isinstance(mod, str):
        mod = type(self).__module__ if self is not None else type(f).__module__
    qual = getattr(f, '__qualname__', None)
    if not isinstance(qual, str):
        qual = type(f).__qualname__
    return '%s %s [python]' % ((mod or '?').split('.')[0], qual)

def format_tb(tb):
    return ''.join(traceback.format_tb(tb)) if tb is not None else ''

def key_error_text(e):
    return str(e.args[0]) if len(e.args) == 1 else str(e)

class Wrapped:
    """A program object (an instance of the program's class) seen from CPython."""
    def __init__(self, getattr_fn, call_fn, text):
        object.__setattr__(self, '_tlens_get', getattr_fn)
        object.__setattr__(self, '_tlens_call', call_fn)
        object.__setattr__(self, '_tlens_text', text)
    def __getattr__(self, name):
        return self._tlens_get(name)
    def __call__(self, *a, **k):
        return self._tlens_call(*a, **k)
    def __repr__(self):
        return self._tlens_text
)PY";

struct Global {
  py::object helper;
  py::object numpy;  // once imported
  py::object ndarray, generic;
  py::object ops[13], cmps[6], unary[3];
  py::object opContains, builtins;
  std::string pythonName;  // "Python 3.11.2 (/usr/bin/python3)"
};
Global* G = nullptr;
std::atomic<Interpreter*> current{nullptr};

/// A callback's C++ exception (a Python exception of the program, a cancellation) waiting to be
/// rethrown when the CPython call that ran the callback returns.
thread_local std::exception_ptr pendingError;

/// A library call in progress on this thread: the frame that shows it in the debugger's stack.
struct ForeignCall {
  ForeignCallFrame* frame;
  PyObject* callable;
};
thread_local std::vector<ForeignCall> foreignCalls;

Value fromPy(Interpreter& in, tf::TfRuntime* rt, py::handle h);
py::object toPy(Interpreter& in, tf::TfRuntime* rt, const Value& v);

[[noreturn]] void raisePython(Interpreter& in, py::error_already_set& e) {
  if (pendingError) {
    std::exception_ptr p = pendingError;
    pendingError = nullptr;
    std::rethrow_exception(p);
  }
  std::string cls = "RuntimeError";
  std::string typeName = "Exception", msg, tb;
  try {
    py::object type = e.type();
    typeName = py::str(type.attr("__name__"));
    for (py::handle t : type.attr("__mro__")) {
      if (std::string(py::str(t.attr("__module__"))) != "builtins") continue;
      std::string n = py::str(t.attr("__name__"));
      if (in.builtinClass(n)) {
        cls = n;
        break;
      }
    }
    if (cls == "KeyError") {
      // KeyError's str() is the key's repr; the program's KeyError(key) shows it once (no
      // traceback text: it would become part of the key).
      in.raise(cls, py::str(G->helper.attr("key_error_text")(e.value())));
    }
    msg = py::str(e.value());
    tb = py::str(G->helper.attr("format_tb")(e.trace()));
  } catch (py::error_already_set&) {
    msg = e.what();
  }
  std::string text = (typeName != cls ? typeName + ": " : "") + msg;
  if (!tb.empty()) text += "\nCPython traceback (most recent call last):\n" + tb;
  if (!text.empty() && text.back() == '\n') text.pop_back();
  in.raise(cls, text);
}

/// Runs `f` under the GIL, turning CPython errors into the program's exceptions.
template <class F>
auto guarded(Interpreter& in, F&& f) -> decltype(f()) {
  py::gil_scoped_acquire gil;
  current = &in;
  try {
    return f();
  } catch (py::error_already_set& e) {
    raisePython(in, e);
  }
}

/// A CPython object, released under the GIL.
struct PyRef {
  py::object o;
  explicit PyRef(py::object x) : o(std::move(x)) {}
  ~PyRef() {
    py::gil_scoped_acquire gil;
    o = py::object();
  }
};

class PyProxy : public NativeObject {
 public:
  PyProxy(py::object o, tf::TfRuntime* rt) : obj(std::move(o)), rt(rt) {}
  ~PyProxy() override {
    py::gil_scoped_acquire gil;
    obj = py::object();
  }
  py::object obj;
  tf::TfRuntime* rt;

  std::string typeName() const override {
    py::gil_scoped_acquire gil;
    return py::str(py::type::handle_of(obj).attr("__name__"));
  }
  std::string typeModule() const override {
    py::gil_scoped_acquire gil;
    return py::str(py::type::handle_of(obj).attr("__module__"));
  }
  Value getAttr(Interpreter& in, std::string_view name) override {
    return guarded(in, [&]() -> Value {
      PyObject* r = PyObject_GetAttrString(obj.ptr(), std::string(name).c_str());
      if (!r) {
        if (PyErr_ExceptionMatches(PyExc_AttributeError)) {
          PyErr_Clear();
          return nullptr;
        }
        throw py::error_already_set();
      }
      return fromPy(in, rt, py::reinterpret_steal<py::object>(r));
    });
  }
  bool setAttr(Interpreter& in, std::string_view name, const Value& v) override {
    return guarded(in, [&] {
      py::setattr(obj, std::string(name).c_str(), toPy(in, rt, v));
      return true;
    });
  }
  std::vector<std::string> attributeNames(Interpreter& in) override {
    return guarded(in, [&] {
      std::vector<std::string> names;
      for (py::handle h : py::reinterpret_steal<py::object>(PyObject_Dir(obj.ptr()))) names.push_back(py::str(h));
      return names;
    });
  }
  bool isCallable() const override {
    py::gil_scoped_acquire gil;
    return PyCallable_Check(obj.ptr());
  }
  Value call(CallContext& ctx) override {
    Interpreter& in = ctx.interp;
    return guarded(in, [&]() -> Value {
      if (!PyCallable_Check(obj.ptr())) return nullptr;
      py::tuple args(ctx.args.size());
      for (size_t i = 0; i < ctx.args.size(); ++i) args[i] = toPy(in, rt, ctx.args[i]);
      py::dict kwargs;
      for (const auto& [k, v] : ctx.kwargs) kwargs[py::str(k)] = toPy(in, rt, v);
      // The library call is one frame of the program's stack while it runs (named when a
      // callback needs it): a copy of the caller's frame, so it shows at the calling line.
      ForeignCallFrame frame(in);
      if (frame.active()) foreignCalls.push_back({&frame, obj.ptr()});
      struct Pop {
        bool pushed;
        ~Pop() {
          if (pushed) foreignCalls.pop_back();
        }
      } pop{frame.active()};
      PyObject* r = PyObject_Call(obj.ptr(), args.ptr(), kwargs.ptr());
      if (!r) throw py::error_already_set();
      pendingError = nullptr;  // a callback's error the library handled itself
      G->helper.attr("after_import")();
      return fromPy(in, rt, py::reinterpret_steal<py::object>(r));
    });
  }
  Value binaryOp(Interpreter& in, BinOp op, const Value& other, bool reflected) override {
    return guarded(in, [&] {
      py::object o = toPy(in, rt, other);
      const py::object& f = G->ops[static_cast<int>(op)];
      return fromPy(in, rt, reflected ? f(o, obj) : f(obj, o));
    });
  }
  Value unaryOp(Interpreter& in, UnaryOp op) override {
    return guarded(in, [&] { return fromPy(in, rt, G->unary[static_cast<int>(op)](obj)); });
  }
  Value compare(Interpreter& in, CmpOp op, const Value& other, bool reflected) override {
    return guarded(in, [&] {
      py::object o = toPy(in, rt, other);
      static const int swapped[] = {4, 5, 2, 3, 0, 1};  // a < b  <=>  b > a
      int i = static_cast<int>(op);
      return fromPy(in, rt, reflected ? G->cmps[swapped[i]](obj, o) : G->cmps[i](obj, o));
    });
  }
  std::optional<Truth> contains(Interpreter& in, const Value& item) override {
    return guarded(in, [&]() -> std::optional<Truth> {
      int r = PySequence_Contains(obj.ptr(), toPy(in, rt, item).ptr());
      if (r < 0) throw py::error_already_set();
      return r ? Truth::True : Truth::False;
    });
  }
  Value getItem(Interpreter& in, const Value& key) override {
    return guarded(in, [&] { return fromPy(in, rt, obj[toPy(in, rt, key)]); });
  }
  bool setItem(Interpreter& in, const Value& key, const Value& v) override {
    return guarded(in, [&] {
      obj[toPy(in, rt, key)] = toPy(in, rt, v);
      return true;
    });
  }
  bool delItem(Interpreter& in, const Value& key) override {
    return guarded(in, [&] {
      if (PyObject_DelItem(obj.ptr(), toPy(in, rt, key).ptr()) < 0) throw py::error_already_set();
      return true;
    });
  }
  Value iter(Interpreter& in) override {
    auto it = guarded(in, [&] {
      PyObject* i = PyObject_GetIter(obj.ptr());
      if (!i) throw py::error_already_set();
      return std::make_shared<PyRef>(py::reinterpret_steal<py::object>(i));
    });
    return makeIterator(typeName() + "_iterator", [it, inp = &in, rt = rt]() -> Value {
      return guarded(*inp, [&]() -> Value {
        PyObject* n = PyIter_Next(it->o.ptr());
        if (!n) {
          if (PyErr_Occurred()) throw py::error_already_set();
          return nullptr;
        }
        return fromPy(*inp, rt, py::reinterpret_steal<py::object>(n));
      });
    });
  }
  std::optional<int64_t> len(Interpreter& in) override {
    return guarded(in, [&]() -> std::optional<int64_t> {
      Py_ssize_t n = PyObject_Length(obj.ptr());
      if (n < 0) {
        if (PyErr_ExceptionMatches(PyExc_TypeError)) {
          PyErr_Clear();
          return std::nullopt;
        }
        throw py::error_already_set();
      }
      return n;
    });
  }
  Truth truthy(Interpreter& in) override {
    return guarded(in, [&] {
      int r = PyObject_IsTrue(obj.ptr());
      if (r < 0) throw py::error_already_set();
      return r ? Truth::True : Truth::False;
    });
  }
  std::string repr(Interpreter& in) override {
    return guarded(in, [&] { return std::string(py::repr(obj)); });
  }
  std::string str(Interpreter& in) override {
    return guarded(in, [&] { return std::string(py::str(obj)); });
  }
  Value enter(Interpreter& in) override {
    return guarded(in, [&]() -> Value {
      if (!py::hasattr(obj, "__enter__")) return nullptr;
      return fromPy(in, rt, obj.attr("__enter__")());
    });
  }
  bool exit(Interpreter& in, const Value& exc) override {
    return guarded(in, [&] {
      py::object t = py::none(), v = py::none();
      if (exc) {
        std::string n = in.typeName(exc);
        t = py::hasattr(G->builtins, n.c_str()) ? G->builtins.attr(n.c_str()) : G->builtins.attr("RuntimeError");
        v = t(in.str(exc));
      }
      return py::bool_(obj.attr("__exit__")(t, v, py::none())).cast<bool>();
    });
  }
  std::optional<int64_t> hash(Interpreter& in) override {
    return guarded(in, [&]() -> std::optional<int64_t> {
      Py_hash_t h = PyObject_Hash(obj.ptr());
      if (h == -1 && PyErr_Occurred()) {
        if (PyErr_ExceptionMatches(PyExc_TypeError)) {
          PyErr_Clear();
          return std::nullopt;
        }
        throw py::error_already_set();
      }
      return static_cast<int64_t>(h);
    });
  }
  bool instanceCheck(Interpreter& in, const Value& v) override {
    return guarded(in, [&] {
      if (!PyType_Check(obj.ptr())) return false;
      py::object o;
      try {
        o = toPy(in, rt, v);
      } catch (...) {
        return false;
      }
      int r = PyObject_IsInstance(o.ptr(), obj.ptr());
      if (r < 0) throw py::error_already_set();
      return r == 1;
    });
  }
};

// --- conversions ------------------------------------------------------------------------------

std::optional<DType> dtypeOf(const py::dtype& d) {
  char k = d.kind();
  size_t s = static_cast<size_t>(d.itemsize());
  if (k == 'f') return s == 2 ? DType::Float16 : s == 4 ? DType::Float32 : s == 8 ? std::optional(DType::Float64) : std::nullopt;
  if (k == 'i') return s == 4 ? DType::Int32 : s == 8 ? std::optional(DType::Int64) : std::nullopt;
  if (k == 'u' && s == 1) return DType::UInt8;
  if (k == 'b') return DType::Bool;
  return std::nullopt;
}

void ensureNumpy() {
  if (G->numpy) return;
  G->numpy = py::module_::import("numpy");
  G->ndarray = G->numpy.attr("ndarray");
  G->generic = G->numpy.attr("generic");
}

/// A numpy array as a tensorlens ndarray: one copy into the engine's allocator (its buffers are
/// the engine's own). Integer widths the engine lacks become int64; other dtypes stay proxies.
Value arrayToTensor(Interpreter& in, tf::TfRuntime* rt, py::handle h) {
  py::array a = py::reinterpret_borrow<py::array>(h);
  std::optional<DType> dt = dtypeOf(a.dtype());
  if (!dt) {
    char k = a.dtype().kind();
    if (k != 'i' && k != 'u') return nullptr;
    a = a.attr("astype")("int64");
    dt = DType::Int64;
  }
  a = py::array::ensure(a, py::array::c_style);
  if (!a) throw py::error_already_set();
  ConcreteShape shape(a.shape(), a.shape() + a.ndim());
  Tensor t(*dt, shape);
  if (a.nbytes() > 0) std::memcpy(t.raw(), a.data(), static_cast<size_t>(a.nbytes()));
  return tf::constantTensor(*rt, std::move(t), true);
}

/// A tensorlens tensor as a numpy array sharing its buffer (no copy; the array keeps the buffer).
py::object tensorToArray(Interpreter& in, tf::TensorObj& t) {
  if (t.form != tf::TensorObj::Form::Concrete)
    in.raise("TypeError", "a symbolic tensor has no value to pass to Python; run it in a session first");
  ensureNumpy();
  Tensor host = t.hostValue();
  std::vector<py::ssize_t> shape(host.shape().begin(), host.shape().end());
  py::dtype dt(std::string(dtypeName(host.dtype())));
  if (host.numElements() == 0 || !host.raw()) return py::array(dt, shape);
  auto* keep = new std::shared_ptr<Buffer>(host.buffer());
  py::capsule owner(keep, [](void* p) { delete static_cast<std::shared_ptr<Buffer>*>(p); });
  return py::array(dt, shape, {}, host.raw(), owner);
}

py::object makeCallback(Interpreter& in, tf::TfRuntime* rt, const Value& fn) {
  std::string name = "<tensorlens function>";
  if (Value n = in.findAttr(fn, "__name__"))
    if (const std::string* s = asString(n)) name = *s;
  return py::cpp_function(
      [inp = &in, rt, fn](py::args args, py::kwargs kwargs) -> py::object {
        Interpreter& in = *inp;
        std::vector<Value> a;
        KwArgs k;
        for (py::handle h : args) a.push_back(fromPy(in, rt, h));
        for (auto kv : kwargs) k.emplace_back(std::string(py::str(kv.first)), fromPy(in, rt, kv.second));
        // The library frame that called back gets its name now (cheap calls never pay for it).
        if (!foreignCalls.empty() && !foreignCalls.back().frame->named())
          foreignCalls.back().frame->setName(py::str(G->helper.attr("label")(py::handle(foreignCalls.back().callable))));
        Value r;
        std::string excType, excText;
        try {
          py::gil_scoped_release release;
          r = in.call(fn, std::move(a), std::move(k));
        } catch (const PyError& e) {
          pendingError = std::current_exception();
          excType = in.typeName(e.exc);
          excText = in.str(e.exc);
        } catch (...) {
          pendingError = std::current_exception();
          excType = "KeyboardInterrupt";  // cancellation: not an Exception libraries catch
          excText = "the program was stopped";
        }
        current = &in;
        if (!excType.empty()) {
          py::object t = py::hasattr(G->builtins, excType.c_str()) ? G->builtins.attr(excType.c_str()) : G->builtins.attr("RuntimeError");
          if (!PyExceptionClass_Check(t.ptr())) t = G->builtins.attr("RuntimeError");
          PyErr_SetString(t.ptr(), excText.c_str());
          throw py::error_already_set();
        }
        return toPy(in, rt, r);
      },
      py::name(name.c_str()));
}

py::object toPy(Interpreter& in, tf::TfRuntime* rt, const Value& v) {
  switch (v->kind()) {
    case Kind::None: return py::none();
    case Kind::Bool: return py::bool_(static_cast<BoolObj*>(v.get())->value);
    case Kind::Int: return py::int_(*asInt(v));
    case Kind::Float: return py::float_(*asDouble(v));
    case Kind::Str: return py::str(*asString(v));
    case Kind::List: {
      const auto& items = *asSequence(v);
      py::list l(items.size());
      for (size_t i = 0; i < items.size(); ++i) l[i] = toPy(in, rt, items[i]);
      return l;
    }
    case Kind::Tuple: {
      const auto& items = *asSequence(v);
      py::tuple t(items.size());
      for (size_t i = 0; i < items.size(); ++i) t[i] = toPy(in, rt, items[i]);
      return t;
    }
    case Kind::Dict: {
      py::dict d;
      for (const auto& e : static_cast<DictObj*>(v.get())->entries())
        if (e.key) d[toPy(in, rt, e.key)] = toPy(in, rt, e.value);
      return d;
    }
    case Kind::Set: {
      py::set s;
      for (const Value& x : in.toList(v)) s.add(toPy(in, rt, x));
      return s;
    }
    case Kind::Range:
    case Kind::Iterator:
    case Kind::Generator: {  // consumed into a list
      py::list l;
      for (const Value& x : in.toList(v)) l.append(toPy(in, rt, x));
      return l;
    }
    case Kind::Slice: {
      auto* s = static_cast<SliceObj*>(v.get());
      return G->builtins.attr("slice")(toPy(in, rt, s->start), toPy(in, rt, s->stop), toPy(in, rt, s->step));
    }
    case Kind::Ellipsis: return py::ellipsis();
    case Kind::Module: {
      auto* m = static_cast<ModuleObj*>(v.get());
      if (m->foreign) return toPy(in, rt, m->foreign);
      break;
    }
    case Kind::Native: {
      if (auto* p = dynamic_cast<PyProxy*>(v.get())) return p->obj;
      if (auto* b = dynamic_cast<BytesObj*>(v.get())) {
        // Copied, as the other plain values: bytes to bytes, bytearray to bytearray.
        if (b->isMutable)
          return py::reinterpret_steal<py::object>(PyByteArray_FromStringAndSize(b->data.data(), static_cast<Py_ssize_t>(b->data.size())));
        return py::bytes(b->data);
      }
      if (auto* t = dynamic_cast<tf::TensorObj*>(v.get())) {
        py::object a = tensorToArray(in, *t);
        // numpy scalars are 0-d arrays here (np.float32(1), an element of an array): CPython
        // gets numpy's scalar (hashable: a dict key, a set item, sklearn's label), not a 0-d array.
        if (t->ndarray && t->type.shape.rankKnown() && t->type.shape.rank() == 0)
          return a[py::tuple()];
        return a;
      }
      if (auto* d = dynamic_cast<tf::DTypeObj*>(v.get())) {
        ensureNumpy();
        return G->numpy.attr("dtype")(std::string(dtypeName(d->dtype)));
      }
      if (static_cast<NativeObject*>(v.get())->isCallable()) return makeCallback(in, rt, v);
      break;
    }
    case Kind::Function:
    case Kind::NativeFunction:
    case Kind::BoundMethod:
    case Kind::Class:
      return makeCallback(in, rt, v);
    case Kind::Instance: {
      auto getter = py::cpp_function([inp = &in, rt, v](const std::string& name) -> py::object {
        Value a;
        try {
          py::gil_scoped_release release;
          a = inp->findAttr(v, name);
        } catch (...) {
          pendingError = std::current_exception();
          PyErr_SetString(PyExc_RuntimeError, "error reading a program attribute");
          throw py::error_already_set();
        }
        if (!a) throw py::attribute_error(name);
        return toPy(*inp, rt, a);
      });
      return G->helper.attr("Wrapped")(getter, makeCallback(in, rt, v), in.repr(v));
    }
    default: break;
  }
  in.raise("TypeError", "a '" + in.typeName(v) + "' cannot be passed to Python");
}

Value fromPy(Interpreter& in, tf::TfRuntime* rt, py::handle h) {
  PyObject* p = h.ptr();
  if (p == Py_None) return none();
  if (PyBool_Check(p)) return boolean(p == Py_True);
  if (PyLong_CheckExact(p)) {
    int overflow = 0;
    long long x = PyLong_AsLongLongAndOverflow(p, &overflow);
    if (overflow) return makeFloat(PyLong_AsDouble(p));
    return makeInt(x);
  }
  if (PyFloat_CheckExact(p)) return makeFloat(PyFloat_AS_DOUBLE(p));
  if (PyUnicode_CheckExact(p)) return makeStr(py::reinterpret_borrow<py::str>(h).cast<std::string>());
  // bytes (and the memoryviews file writers are handed: matplotlib's savefig into a BytesIO of
  // the program) are copied into the program's bytes.
  if (PyBytes_CheckExact(p)) return makeBytes(std::string(PyBytes_AS_STRING(p), static_cast<size_t>(PyBytes_GET_SIZE(p))));
  if (PyMemoryView_Check(p)) {
    py::bytes data = py::reinterpret_borrow<py::object>(h).attr("tobytes")();
    return makeBytes(std::string(data));
  }
  if (PyList_CheckExact(p)) {
    std::vector<Value> items;
    for (py::handle x : py::reinterpret_borrow<py::list>(h)) items.push_back(fromPy(in, rt, x));
    return makeList(std::move(items));
  }
  if (PyTuple_CheckExact(p)) {
    std::vector<Value> items;
    for (py::handle x : py::reinterpret_borrow<py::tuple>(h)) items.push_back(fromPy(in, rt, x));
    return makeTuple(std::move(items));
  }
  if (PyDict_CheckExact(p)) {
    auto d = makeDict();
    for (auto kv : py::reinterpret_borrow<py::dict>(h)) d->set(in, fromPy(in, rt, kv.first), fromPy(in, rt, kv.second));
    return d;
  }
  if (!G->numpy && PyDict_GetItemString(PySys_GetObject("modules"), "numpy")) ensureNumpy();
  if (G->numpy) {
    if (PyObject_IsInstance(p, G->ndarray.ptr()) == 1 && rt) {
      if (Value t = arrayToTensor(in, rt, h)) return t;
    } else if (PyObject_IsInstance(p, G->generic.ptr()) == 1) {
      py::object item = py::reinterpret_borrow<py::object>(h).attr("item")();
      if (!PyObject_IsInstance(item.ptr(), G->generic.ptr())) return fromPy(in, rt, item);
    }
  }
  return std::make_shared<PyProxy>(py::reinterpret_borrow<py::object>(h), rt);
}

// A crash in a C extension: faulthandler (enabled on crashFd, a memory file) has written the
// Python stack and re-raised the signal to this handler, which shows the stack and a message on
// stderr, gives both to the host's hook (the debugger's last events), and dies of the signal.
int crashFd = -1;
const std::atomic<FatalSignalHook>* crashHookSlot = nullptr;
char crashReport[16384];

void onCrash(int sig) {
  static constexpr char kMsg[] =
      "\ntlens: the program crashed inside a C extension of the embedded Python (fatal signal); "
      "the run ends here\n";
  size_t n = 0;
  if (crashFd >= 0 && lseek(crashFd, 0, SEEK_SET) == 0) {
    while (n < sizeof crashReport - sizeof kMsg) {
      ssize_t r = read(crashFd, crashReport + n, sizeof crashReport - sizeof kMsg - n);
      if (r <= 0) break;
      n += static_cast<size_t>(r);
    }
  }
  std::memcpy(crashReport + n, kMsg, sizeof kMsg - 1);
  n += sizeof kMsg - 1;
  for (size_t done = 0; done < n;) {
    ssize_t w = write(2, crashReport + done, n - done);
    if (w <= 0) break;
    done += static_cast<size_t>(w);
  }
  if (crashHookSlot)
    if (FatalSignalHook hook = crashHookSlot->load()) hook(sig, crashReport, n);
  signal(sig, SIG_DFL);
  raise(sig);
}

class BridgeImpl : public Bridge {
 public:
  void setFatalSignalHookSlot(const std::atomic<FatalSignalHook>* slot) override { crashHookSlot = slot; }

  std::string builtVersion() const override { return std::to_string(PY_MAJOR_VERSION) + "." + std::to_string(PY_MINOR_VERSION); }

  std::string start(const PythonEnv& env) override {
    try {
      PyConfig config;
      PyConfig_InitPythonConfig(&config);
      config.install_signal_handlers = 0;
      config.parse_argv = 0;
      PyConfig_SetBytesString(&config, &config.program_name, env.executable.c_str());
      PyConfig_SetBytesString(&config, &config.executable, env.executable.c_str());
      config.module_search_paths_set = 1;
      for (const std::string& p : env.path) {
        wchar_t* w = Py_DecodeLocale(p.c_str(), nullptr);
        if (!w) continue;
        PyWideStringList_Append(&config.module_search_paths, w);
        PyMem_RawFree(w);
      }
      // No display: matplotlib draws with Agg; show() writes PNG files (helper.show).
      setenv("MPLBACKEND", "Agg", 1);
      py::initialize_interpreter(&config, 0, nullptr, false);
      G = new Global;
      G->builtins = py::module_::import("builtins");
      py::module_ helper = py::module_::import("types").attr("ModuleType")("_tlens_bridge");
      py::exec(kHelper, helper.attr("__dict__"));
      G->helper = helper;
      py::module_::import("sys").attr("modules")["_tlens_bridge"] = helper;
      auto writer = py::cpp_function([](const std::string& s, bool err) {
        Interpreter* in = current.load();
        if (in) {
          py::gil_scoped_release release;
          in->write(s, err);
        } else {
          ssize_t n = write(2, s.data(), s.size());
          (void)n;
        }
      });
      py::module_ sys = py::module_::import("sys");
      sys.attr("stdout") = helper.attr("Sink")(writer, false);
      sys.attr("stderr") = helper.attr("Sink")(writer, true);
      py::list argv;
      argv.append("");
      sys.attr("argv") = argv;
      py::module_ op = py::module_::import("operator");
      const char* bin[] = {"add", "sub", "mul", "matmul", "truediv", "floordiv", "mod", "pow", "lshift", "rshift", "and_", "or_", "xor"};
      for (int i = 0; i < 13; ++i) G->ops[i] = op.attr(bin[i]);
      const char* cmp[] = {"lt", "le", "eq", "ne", "gt", "ge"};
      for (int i = 0; i < 6; ++i) G->cmps[i] = op.attr(cmp[i]);
      const char* un[] = {"neg", "pos", "invert"};
      for (int i = 0; i < 3; ++i) G->unary[i] = op.attr(un[i]);
      G->pythonName = "Python " + env.fullVersion + " (" + env.executable + ")";
      // A C extension that crashes: say so on stderr (faulthandler adds the Python stack).
      signal(SIGSEGV, onCrash);
      signal(SIGBUS, onCrash);
      signal(SIGFPE, onCrash);
      signal(SIGILL, onCrash);
      // faulthandler writes the Python stack into a memory file that onCrash shows and hands on.
      crashFd = memfd_create("tlens-crash-report", MFD_CLOEXEC);
      if (crashFd >= 0) py::module_::import("faulthandler").attr("enable")(crashFd);
      else py::module_::import("faulthandler").attr("enable")(sys.attr("__stderr__"));
    } catch (const std::exception& e) {
      return e.what();
    }
    PyEval_SaveThread();  // every entry takes the GIL from here on
    return "";
  }

  std::shared_ptr<ModuleObj> import(Interpreter& in, tf::TfRuntime& rt, const std::string& name,
                                    const BridgeOptions& o) override {
    return guarded(in, [&]() -> std::shared_ptr<ModuleObj> {
      std::filesystem::path prog(o.programPath);
      G->helper.attr("set_prefix")((prog.parent_path() / prog.stem()).string());
      py::object mod;
      try {
        mod = py::module_::import(name.c_str());
      } catch (py::error_already_set& e) {
        if (e.matches(PyExc_ModuleNotFoundError)) {
          std::string missing = py::str(e.value().attr("name"));
          in.raise("ModuleNotFoundError", "No module named '" + (missing == "None" ? name : missing) +
                                              "' (tensorlens does not model it, and " + G->pythonName +
                                              " has no such module; --python selects another Python)");
        }
        throw;
      }
      G->helper.attr("after_import")();
      if (!rt.foreignArray) {
        // Op inputs and np.asarray(x) of a CPython object numpy understands (a DataFrame, a PIL
        // image): the array numpy makes of it.
        rt.foreignArray = [inp = &in, rtp = &rt](const Value& v) -> Value {
          auto* p = dynamic_cast<PyProxy*>(v.get());
          if (!p) return nullptr;
          return guarded(*inp, [&]() -> Value {
            ensureNumpy();
            py::object a = G->numpy.attr("asarray")(p->obj);
            return arrayToTensor(*inp, rtp, a);
          });
        };
      }
      auto m = makeModule(name);
      m->foreign = std::make_shared<PyProxy>(mod, &rt);
      if (py::hasattr(mod, "__file__") && !mod.attr("__file__").is_none()) m->file = py::str(mod.attr("__file__"));
      return m;
    });
  }

  void finish(Interpreter& in, const BridgeOptions& o) override {
    try {
      guarded(in, [&] {
        G->helper.attr("save_figures")();
        return 0;
      });
    } catch (const PyError& e) {
      in.write("tlens: could not write the open figures: " + in.str(e.exc) + "\n", true);
    }
    current = nullptr;
  }
};

}  // namespace

}  // namespace tlens::pybridge

extern "C" __attribute__((visibility("default"))) tlens::pybridge::Bridge* tlens_pybridge_create() {
  static tlens::pybridge::BridgeImpl bridge;
  return &bridge;
}
