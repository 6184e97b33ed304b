// What a stop shows: frames (a node, its creation stack, the Python stack), scopes and the
// variable tree. Tensors show one summary line and expand into slices page by page, never whole:
// a view is (tensor, fixed leading indices, a range of the next dimension), and a range longer
// than 100 splits into at most 100 sub-ranges, so every expansion touches at most 100 elements
// or rows whatever the tensor's size.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "dap/backend/DebuggerImpl.h"
#include "dap/backend/Evaluate.h"
#include "engine/runtime/Numerics.h"
#include "lang/interp/Bytes.h"
#include "lang/interp/Class.h"
#include "lang/syntax/SourceFile.h"
#include "lang/tf/TensorObj.h"
#include "lang/tf/TfRuntime.h"

namespace tlens::dap {

using interp::Value;

namespace {

constexpr int64_t kPage = 100;
constexpr size_t kMaxValueChars = 240;

std::string clip(std::string s) {
  if (s.size() > kMaxValueChars) s = s.substr(0, kMaxValueChars) + "…";
  return s;
}

/// An integer as the client asked: decimal, or hex (valueFormattingOptions `format.hex`).
std::string intText(long long v, bool hex) {
  char buf[64];
  if (!hex) std::snprintf(buf, sizeof buf, "%lld", v);
  else if (v < 0) std::snprintf(buf, sizeof buf, "-0x%llx", static_cast<unsigned long long>(-(v + 1)) + 1ull);
  else std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

std::string element(const tlens::Tensor& t, int64_t flat, bool hex = false) {
  char buf[64];
  if (t.dtype() == DType::String) return interp::bytesRepr(t.strings()[flat]);
  if (t.dtype() == DType::Bool) return t.getInt(flat) ? "True" : "False";
  if (isInteger(t.dtype())) return intText(static_cast<long long>(t.getInt(flat)), hex);
  const double v = t.getDouble(flat);
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

std::vector<int64_t> strides(const tlens::Tensor& t) {
  std::vector<int64_t> s(static_cast<size_t>(t.rank()), 1);
  for (int i = t.rank() - 2; i >= 0; --i) s[static_cast<size_t>(i)] = s[static_cast<size_t>(i) + 1] * t.dim(i + 1);
  return s;
}

std::string dimsStr(const tlens::Tensor& t, size_t from) {
  std::string s = std::string(dtypeName(t.dtype())) + "[";
  for (int i = static_cast<int>(from); i < t.rank(); ++i) s += (i > static_cast<int>(from) ? ", " : "") + std::to_string(t.dim(i));
  return s + "]";
}

}  // namespace

std::string tensorLine(const tlens::Tensor& t, const Device& d) {
  if (!t.valid()) return "<not kept: shares a variable's or an input's buffer, or past the run record's memory cap>";
  std::string s = t.typeStr() + " " + d.str();
  if (isNumeric(t.dtype()) || t.dtype() == DType::Bool) s += " " + summarize(t).line();
  return s;
}

// --- frames -------------------------------------------------------------------------------------

namespace {

FrameInfo frameAt(FrameInfo::Kind kind, std::string name, const SourceLocation& l) {
  FrameInfo f;
  f.kind = kind;
  f.name = std::move(name);
  f.path = l.file;
  f.line = l.line;
  f.column = l.column > 0 ? l.column : 1;
  f.endLine = l.endLine;
  f.endColumn = l.endColumn;
  return f;
}

void buildFrames(Debugger::Impl& s, interp::Interpreter* in) {
  if (s.framesBuilt) return;
  s.framesBuilt = true;
  s.frames.clear();
  if (s.replayLine) {
    // A Python line stepped back to: where it was, in the function it ran in.
    const Debugger::Impl::PyLine& l = s.lines[*s.replayLine];
    SourceLocation loc;
    loc.file = l.file->path();
    loc.line = l.line;
    s.frames.push_back(frameAt(FrameInfo::Kind::History, (l.function.empty() ? "<module>" : l.function) + " (stepped back)", loc));
  } else if (s.postMortem) {
    s.frames = s.traceback;
  } else {
    if (s.atNode) {
      s.frames.push_back(frameAt(FrameInfo::Kind::Node, s.nodeName + " (" + s.opType + ")", s.location));
      s.frames.back().creationIndex = static_cast<int>(s.creation.size()) - 1;
      // The creation stack, innermost first: where the graph was built.
      for (auto it = s.creation.rbegin(); it != s.creation.rend(); ++it) {
        s.frames.push_back(frameAt(FrameInfo::Kind::Creation, it->function + " [graph construction]", it->location));
        s.frames.back().creationIndex = static_cast<int>(s.creation.rend() - it) - 1;
      }
    }
    if (in) {
      const std::vector<interp::Frame*> frames = in->userFrames();
      for (auto it = frames.rbegin(); it != frames.rend(); ++it) {
        interp::Frame* f = *it;
        const interp::FrameView v = in->view(*f);
        FrameInfo fi = frameAt(FrameInfo::Kind::Python, v.name, v.location);
        fi.pyFrame = f;
        s.frames.push_back(fi);
      }
    }
  }
  for (size_t i = 0; i < s.frames.size(); ++i) s.frames[i].id = static_cast<int>(i);
}

}  // namespace

std::vector<FrameInfo> Debugger::stackTrace() {
  std::vector<FrameInfo> out;
  onProgramThread([&] {
    buildFrames(*impl_, interp_.get());
    out = impl_->frames;
  });
  return out;
}

std::vector<ScopeInfo> Debugger::scopes(int frameId) {
  std::vector<ScopeInfo> out;
  onProgramThread([&] {
    Impl& s = *impl_;
    buildFrames(s, interp_.get());
    if (frameId < 0 || frameId >= static_cast<int>(s.frames.size())) throw DebuggerError("no frame " + std::to_string(frameId));
    const FrameInfo& fi = s.frames[static_cast<size_t>(frameId)];
    auto add = [&](std::string name, VarNode n, int64_t named, bool expensive = false) {
      n.frameId = frameId;
      const int ref = s.addRef(std::move(n));
      out.push_back(ScopeInfo{std::move(name), ref, named, expensive});
    };
    if (fi.kind == FrameInfo::Kind::Node) {
      add("Node", VarNode{VarNode::Kind::NodeScope}, static_cast<int64_t>(s.inputs.size() + s.outputs.size()));
    }
    if (s.atNode || s.visible()) add("Run", VarNode{VarNode::Kind::RunScope}, static_cast<int64_t>(s.visible()));
    if (fi.kind == FrameInfo::Kind::History && s.replayLine) {
      // The names as the line started (references: what changed in place since shows as now).
      const Impl::PyLine& l = s.lines[*s.replayLine];
      const interp::Env* moduleNow = interp_ && interp_->mainModule() ? interp_->mainModule()->globals.get() : nullptr;
      if (std::shared_ptr<interp::Env> env = lineScope(l, moduleNow)) {
        VarNode n{VarNode::Kind::Locals};
        n.env = env;
        add(l.depth > 1 ? "Locals (as the line started)" : "Globals (as the line started)", n, static_cast<int64_t>(env->vars.size()));
      }
      if ((l.depth > 1 || !l.namesKept) && interp_ && interp_->mainModule()) {
        VarNode g{VarNode::Kind::Globals};
        g.env = interp_->mainModule()->globals;
        add("Globals (now)", g, static_cast<int64_t>(g.env->vars.size()));
      }
      return;
    }
    interp::Frame* py = fi.pyFrame;
    if (fi.kind == FrameInfo::Kind::Node || fi.kind == FrameInfo::Kind::Creation)
      py = interp_ ? interp_->innermostUserFrame() : nullptr;
    const Impl::FrameNames* built = fi.kind == FrameInfo::Kind::Creation ? frameBindings(s, frameId) : nullptr;
    if (built && !built->locals) built = nullptr;  // a module frame: its names are the Globals
    if (built && runtime_) {
      // A construction frame: the names its statement saw when it built the node, with this
      // run's values (the live frame's Globals follow).
      VarNode n{VarNode::Kind::Locals};
      n.env = creationScope(*runtime_, s, *built, true);
      add("Locals", n, static_cast<int64_t>(n.env->vars.size()));
    }
    if (py) {
      const interp::FrameView v = interp_->view(*py);
      if (!v.isModule && !built) {
        VarNode n{VarNode::Kind::Locals};
        n.env = v.locals;
        add("Locals", n, static_cast<int64_t>(v.locals->vars.size()));
      }
      VarNode g{VarNode::Kind::Globals};
      g.env = v.globals;
      add("Globals", g, static_cast<int64_t>(v.globals->vars.size()));
    } else if (interp_ && interp_->mainModule()) {
      VarNode g{VarNode::Kind::Globals};
      g.env = interp_->mainModule()->globals;
      add("Globals", g, static_cast<int64_t>(g.env->vars.size()));
    }
  });
  return out;
}

// --- variables ----------------------------------------------------------------------------------

namespace {

struct Lister {
  Debugger::Impl& s;
  interp::Interpreter& in;
  bool hex = false;

  VarInfo tensorVar(std::string name, const tlens::Tensor& t, const Device& d) {
    VarInfo v;
    v.name = std::move(name);
    v.value = tensorLine(t, d);
    v.type = t.valid() ? t.typeStr() : "";
    if (t.valid() && t.rank() > 0) {
      VarNode n{VarNode::Kind::Tensor};
      n.tensor = t;
      n.lo = 0;
      n.hi = t.dim(0);
      v.ref = s.addRef(std::move(n));
      v.indexed = t.dim(0);
      v.named = 1;
    }
    return v;
  }

  VarInfo pyVar(std::string name, const Value& val, std::string evaluateName) {
    VarInfo v;
    v.name = std::move(name);
    v.evaluateName = std::move(evaluateName);
    if (!val) {
      v.value = "<unbound>";
      return v;
    }
    try {
      v.type = in.typeName(val);
    } catch (...) {
    }
    if (auto* t = dynamic_cast<tf::TensorObj*>(val.get())) {
      if (t->form == tf::TensorObj::Form::Concrete) {
        try {
          EagerValue ev = t->concrete();
          VarInfo tv = tensorVar(v.name, ev.tensor, ev.tensor.device());
          if (t->variable) tv.value = "tf.Variable " + tv.value;
          tv.evaluateName = v.evaluateName;
          return tv;
        } catch (const std::exception& e) {
          v.value = std::string("<") + e.what() + ">";
          return v;
        }
      }
      if (t->isSymbolic() && t->out.node) {
        const std::string out = t->out.name();
        for (size_t i = s.visible(); i-- > 0;)
          if (const auto* it = &s.run[i]; it->name == out && it->tensor.valid()) {
            VarInfo tv = tensorVar(v.name, it->tensor, it->device);
            tv.value = out + " = " + tv.value;
            tv.evaluateName = v.evaluateName;
            return tv;
          }
        if (s.inRun && !t->variable) {
          v.value = "<" + out + " " + t->type.str() + ": not computed yet in this run>";
          return v;
        }
      }
    }
    try {
      if (auto* iv = interp::as<interp::IntObj>(val); iv && hex) v.value = intText(static_cast<long long>(iv->value), true);
      else v.value = clip(in.repr(val));
    } catch (const interp::PyError& e) {
      v.value = "<repr failed: " + in.exceptionSummary(e.exc) + ">";
    } catch (const std::exception& e) {
      v.value = std::string("<repr failed: ") + e.what() + ">";
    }
    int64_t n = 0;
    bool indexed = false;
    if (auto* l = interp::as<interp::ListObj>(val)) n = static_cast<int64_t>(l->items.size()), indexed = true;
    else if (auto* tu = interp::as<interp::TupleObj>(val)) n = static_cast<int64_t>(tu->items.size()), indexed = true;
    else if (auto* d = interp::as<interp::DictObj>(val)) n = static_cast<int64_t>(d->size());
    else if (auto* i = interp::as<interp::InstanceObj>(val)) n = static_cast<int64_t>(i->dict.size());
    if (n > 0) {
      VarNode node{VarNode::Kind::Python};
      node.value = val;
      v.ref = s.addRef(std::move(node));
      (indexed ? v.indexed : v.named) = n;
    }
    return v;
  }

  void scope(const interp::Namespace& ns, std::vector<VarInfo>& out) {
    ns.forEach([&](const std::string& name, const Value& val) {
      if (name.size() > 1 && name[0] == '_' && name[1] == '_') return;  // __name__, __builtins__, ...
      if (interp::is<interp::ModuleObj>(val) || interp::is<interp::FunctionObj>(val) ||
          interp::is<interp::ClassObj>(val))
        return;  // imports, functions and classes are noise in a variables view
      out.push_back(pyVar(name, val, name));
    });
  }

  void python(const VarNode& n, int64_t start, int64_t count, std::vector<VarInfo>& out) {
    const Value& val = n.value;
    auto slice = [&](const std::vector<Value>& items) {
      const int64_t size = static_cast<int64_t>(items.size());
      const int64_t lo = std::clamp<int64_t>(start, 0, size);
      const int64_t hi = count > 0 ? std::min(size, lo + count) : std::min(size, lo + 1000);
      for (int64_t i = lo; i < hi; ++i) out.push_back(pyVar(std::to_string(i), items[static_cast<size_t>(i)], {}));
    };
    if (auto* l = interp::as<interp::ListObj>(val)) return slice(l->items);
    if (auto* t = interp::as<interp::TupleObj>(val)) return slice(t->items);
    if (auto* d = interp::as<interp::DictObj>(val)) {
      for (const auto& e : d->entries()) {
        if (!e.key) continue;
        std::string key;
        try {
          key = in.repr(e.key);
        } catch (...) {
          key = "?";
        }
        out.push_back(pyVar(key, e.value, {}));
        if (out.size() >= 1000) break;
      }
      return;
    }
    if (auto* i = interp::as<interp::InstanceObj>(val))
      i->dict.forEach([&](const std::string& k, const Value& v) { out.push_back(pyVar(k, v, {})); });
  }

  void tensor(const VarNode& n, int64_t start, int64_t count, const std::string& filter, std::vector<VarInfo>& out) {
    const tlens::Tensor& t = n.tensor;
    const size_t d = n.prefix.size();
    const bool top = d == 0 && n.lo == 0 && n.hi == t.dim(0);
    if (top && start == 0 && filter != "indexed" && t.dtype() != DType::String) {
      TensorSummary sum = summarize(t);
      VarInfo h;
      h.name = "histogram";
      h.value = sum.sparkline() + "  [" + std::to_string(sum.min) + ", " + std::to_string(sum.max) + "]";
      out.push_back(h);
    }
    if (filter == "named") return;
    const std::vector<int64_t> st = strides(t);
    int64_t base = 0;
    for (size_t k = 0; k < d; ++k) base += n.prefix[k] * st[k];
    int64_t lo = n.lo + std::max<int64_t>(start, 0), hi = n.hi;
    if (count > 0) hi = std::min(hi, lo + count);
    const int64_t len = hi - lo;
    if (count <= 0 && len > kPage) {
      // Sub-ranges of 100^k rows, at most 100 of them.
      int64_t chunk = 1;
      while ((len + chunk - 1) / chunk > kPage) chunk *= kPage;
      for (int64_t a = lo; a < hi; a += chunk) {
        const int64_t b = std::min(hi, a + chunk);
        VarNode r{VarNode::Kind::Tensor};
        r.tensor = t;
        r.prefix = n.prefix;
        r.lo = a;
        r.hi = b;
        VarInfo v;
        v.name = "[" + std::to_string(a) + ":" + std::to_string(b) + "]";
        v.value = std::to_string(b - a) + " of " + dimsStr(t, d);
        v.ref = s.addRef(std::move(r));
        v.indexed = b - a;
        out.push_back(std::move(v));
      }
      return;
    }
    for (int64_t i = lo; i < hi; ++i) {
      VarInfo v;
      v.name = "[" + std::to_string(i) + "]";
      const int64_t flat = base + i * st[d];
      if (d + 1 == static_cast<size_t>(t.rank())) {
        v.value = element(t, flat, hex);
        v.type = std::string(dtypeName(t.dtype()));
      } else {
        VarNode r{VarNode::Kind::Tensor};
        r.tensor = t;
        r.prefix = n.prefix;
        r.prefix.push_back(i);
        r.lo = 0;
        r.hi = t.dim(static_cast<int>(d) + 1);
        // A preview of the row's first elements.
        std::string preview = dimsStr(t, d + 1) + " [";
        const int64_t rowLen = st[d];
        for (int64_t k = 0; k < std::min<int64_t>(rowLen, 6); ++k) preview += (k ? ", " : "") + element(t, flat + k, hex);
        preview += rowLen > 6 ? ", …]" : "]";
        v.value = preview;
        v.type = dimsStr(t, d + 1);
        v.ref = s.addRef(std::move(r));
        v.indexed = t.dim(static_cast<int>(d) + 1);
      }
      out.push_back(std::move(v));
    }
  }
};

}  // namespace

std::vector<VarInfo> Debugger::variables(int ref, int64_t start, int64_t count, const std::string& filter, bool hex) {
  std::vector<VarInfo> out;
  onProgramThread([&] {
    Impl& s = *impl_;
    if (ref < 1 || ref > static_cast<int>(s.refs.size())) throw DebuggerError("invalid variablesReference " + std::to_string(ref));
    const VarNode n = s.refs[static_cast<size_t>(ref - 1)];  // a copy: listing adds references
    Lister l{s, *interp_, hex};
    switch (n.kind) {
      case VarNode::Kind::NodeScope:
        for (size_t k = 0; k < s.inputs.size(); ++k) {
          const std::string name = "in " + (k < s.inputNames.size() ? s.inputNames[k] : std::to_string(k));
          if (s.inputs[k].valid()) out.push_back(l.tensorVar(name, s.inputs[k], s.inputs[k].device()));
          else
            out.push_back(VarInfo{name,
                                  s.replayStep ? "<not in the run record: a feed, a variable or let go past its memory cap>"
                                               : "<variable, read by the kernel>",
                                  "", 0, 0, 0, {}});
        }
        if (s.outputs.empty()) out.push_back(VarInfo{"out", "<not computed yet>", "", 0, 0, 0, {}});
        for (size_t k = 0; k < s.outputs.size(); ++k)
          out.push_back(l.tensorVar("out " + s.nodeName + ":" + std::to_string(k), s.outputs[k], s.device));
        break;
      case VarNode::Kind::RunScope: {
        const int64_t size = static_cast<int64_t>(s.visible());
        const int64_t lo = std::clamp<int64_t>(start, 0, size);
        const int64_t hi = count > 0 ? std::min(size, lo + count) : size;
        for (int64_t i = lo; i < hi; ++i) {
          const auto& r = s.run[static_cast<size_t>(i)];
          out.push_back(l.tensorVar(std::to_string(i) + " " + r.name + " (" + r.op + ")", r.tensor, r.device));
        }
        break;
      }
      case VarNode::Kind::Locals:
      case VarNode::Kind::Globals:
        l.scope(n.env->vars, out);
        break;
      case VarNode::Kind::Python:
        l.python(n, start, count, out);
        break;
      case VarNode::Kind::Tensor:
        l.tensor(n, start, count, filter, out);
        break;
      case VarNode::Kind::Histogram:
        break;
    }
  });
  return out;
}

VarInfo Debugger::setVariable(int ref, const std::string& name, const std::string& expression) {
  VarInfo out;
  onProgramThread([&] {
    Impl& s = *impl_;
    if (ref < 1 || ref > static_cast<int>(s.refs.size())) throw DebuggerError("invalid variablesReference " + std::to_string(ref));
    const VarNode n = s.refs[static_cast<size_t>(ref - 1)];
    buildFrames(s, interp_.get());
    interp::Frame* frame = nullptr;
    if (n.frameId >= 0 && n.frameId < static_cast<int>(s.frames.size())) frame = s.frames[static_cast<size_t>(n.frameId)].pyFrame;
    if (!frame && !s.postMortem) frame = interp_->innermostUserFrame();
    Lister l{s, *interp_};
    Value v = evaluateIn(*interp_, *runtime_, s, frame, expression, false);
    switch (n.kind) {
      case VarNode::Kind::Locals:
      case VarNode::Kind::Globals:
        if (!n.env->vars.contains(name)) throw DebuggerError("no variable '" + name + "' here");
        n.env->vars.set(name, v);
        out = l.pyVar(name, v, name);
        return;
      case VarNode::Kind::Tensor: {
        const tlens::Tensor& t = n.tensor;
        const size_t d = n.prefix.size();
        if (d + 1 != static_cast<size_t>(t.rank())) throw DebuggerError("only single elements of a tensor can be set");
        int64_t i = -1;
        if (name.size() > 2 && name.front() == '[' && name.back() == ']') i = std::stoll(name.substr(1, name.size() - 2));
        if (i < 0 || i >= t.dim(static_cast<int>(d))) throw DebuggerError("no element " + name);
        double x = 0;
        if (auto* iv = interp::as<interp::IntObj>(v)) x = static_cast<double>(iv->value);
        else if (auto* fv = interp::as<interp::FloatObj>(v)) x = fv->value;
        else if (auto* bv = interp::as<interp::BoolObj>(v)) x = bv->value ? 1 : 0;
        else throw DebuggerError("a tensor element takes a number");
        const std::vector<int64_t> st = strides(t);
        int64_t flat = i * st[d];
        for (size_t k = 0; k < d; ++k) flat += n.prefix[k] * st[k];
        // Writes the buffer in place: every holder of this tensor (a variable, the run) sees it.
        const_cast<tlens::Tensor&>(t).setDouble(flat, x);
        out.name = name;
        out.value = element(t, flat);
        out.type = std::string(dtypeName(t.dtype()));
        return;
      }
      default:
        throw DebuggerError("this variable cannot be set");
    }
  });
  return out;
}

EvalResult Debugger::evaluate(const std::string& expression, int frameId, bool hex) {
  EvalResult r;
  onProgramThread([&] {
    Impl& s = *impl_;
    if (!interp_ || !runtime_) throw DebuggerError("no program");
    buildFrames(s, interp_.get());
    interp::Frame* frame = nullptr;
    if (frameId >= 0 && frameId < static_cast<int>(s.frames.size())) frame = s.frames[static_cast<size_t>(frameId)].pyFrame;
    Value v;
    if (s.replayLine) {
      // A stepped-back line: its recorded names over the module's.
      const interp::Env* moduleNow = interp_->mainModule() ? interp_->mainModule()->globals.get() : nullptr;
      v = evaluateIn(*interp_, *runtime_, s, nullptr, expression, true, lineScope(s.lines[*s.replayLine], moduleNow));
    } else {
      if (!frame && !s.postMortem) frame = interp_->innermostUserFrame();
      v = evaluateIn(*interp_, *runtime_, s, frame, expression, true, nullptr, frameBindings(s, frameId));
    }
    Lister l{s, *interp_, hex};
    VarInfo vi = l.pyVar(expression, v, expression);
    r.value = vi.value;
    r.type = vi.type;
    r.ref = vi.ref;
    r.indexed = vi.indexed;
    r.named = vi.named;
  });
  return r;
}

}  // namespace tlens::dap
