// tfdbg's console commands in the debug console, over the current run:
//   lt [-n REGEX] [-t OPTYPE]   the tensors computed so far, in execution order
//   pt NAME[SLICE]              print a tensor (NAME or NAME:i), optionally a numpy-style slice
//   ni [-t] NAME                node info: op, device, inputs; -t adds the creation traceback
#include <regex>
#include <sstream>

#include "dap/backend/DebuggerImpl.h"
#include "dap/backend/Evaluate.h"
#include "engine/runtime/Numerics.h"
#include "lang/interp/Class.h"
#include "lang/interp/Interpreter.h"
#include "lang/interp/Machine.h"
#include "lang/interp/Module.h"
#include <algorithm>
#include <set>
#include "lang/tf/OpApply.h"
#include "lang/tf/TfRuntime.h"

namespace tlens::dap {

namespace {

std::vector<std::string> words(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

const Debugger::Impl::RunEntry* findTensor(const Debugger::Impl& s, std::string name) {
  if (name.find(':') == std::string::npos) name += ":0";
  for (auto it = s.run.rbegin(); it != s.run.rend(); ++it)
    if (it->name == name) return &*it;
  return nullptr;
}

std::string listTensors(const Debugger::Impl& s, const std::vector<std::string>& w) {
  std::optional<std::regex> nameRe;
  std::string opType;
  for (size_t i = 1; i + 1 < w.size(); ++i) {
    if (w[i] == "-n") nameRe.emplace(w[++i]);
    else if (w[i] == "-t") opType = w[++i];
  }
  std::ostringstream os;
  int shown = 0;
  for (size_t i = 0; i < s.run.size(); ++i) {
    const auto& r = s.run[i];
    if (nameRe && !std::regex_match(r.name.substr(0, r.name.rfind(':')), *nameRe)) continue;
    if (!opType.empty() && r.op != opType) continue;
    os << "[" << i << "] " << r.name << " (" << r.op << ") " << tensorLine(r.tensor, r.device) << "\n";
    ++shown;
  }
  if (!shown) os << "no tensors" << (s.run.empty() ? " computed in this run yet" : " match") << "\n";
  return os.str();
}

std::string nodeInfo(const Debugger::Impl& s, const std::vector<std::string>& w) {
  bool traceback = false;
  std::string name;
  for (size_t i = 1; i < w.size(); ++i) {
    if (w[i] == "-t") traceback = true;
    else name = w[i];
  }
  if (name.empty()) name = s.nodeName;
  const Node* node = nullptr;
  for (auto it = s.run.rbegin(); it != s.run.rend() && !node; ++it)
    if (it->node && it->node->name == name) node = it->node;
  std::ostringstream os;
  if (node) {
    os << "Node " << node->name << " (" << node->type() << ") on " << node->device.str() << "\n";
    for (const Output& in : node->inputs) os << "  input " << in.name() << "\n";
    if (node->location.known()) os << "  created at " << node->location.str() << "\n";
    if (traceback)
      for (auto it = node->stack.rbegin(); it != node->stack.rend(); ++it)
        os << "    " << it->function << " at " << it->location.str() << "\n";
  } else if (name == s.nodeName && s.atNode) {
    os << "Node " << s.nodeName << " (" << s.opType << ") on " << s.device.str() << "\n";
    for (const std::string& in : s.inputNames) os << "  input " << in << "\n";
    if (s.location.known()) os << "  created at " << s.location.str() << "\n";
    if (traceback)
      for (auto it = s.creation.rbegin(); it != s.creation.rend(); ++it)
        os << "    " << it->function << " at " << it->location.str() << "\n";
  } else {
    os << "no node '" << name << "' has run in this run\n";
  }
  return os.str();
}

}  // namespace

std::vector<std::string> Debugger::completions(const std::string& text, int column, int frameId) {
  std::vector<std::string> out;
  onProgramThread([&] {
    const size_t end = std::min(text.size(), static_cast<size_t>(std::max(column - 1, 0)));
    size_t start = end;
    while (start > 0 && (std::isalnum(static_cast<unsigned char>(text[start - 1])) || text[start - 1] == '_' ||
                         text[start - 1] == '.'))
      --start;
    const std::string word = text.substr(start, end - start);
    const size_t dot = word.rfind('.');
    const std::string prefix = dot == std::string::npos ? word : word.substr(dot + 1);
    std::set<std::string> names;
    auto addNs = [&](const interp::Namespace& ns) {
      ns.forEach([&](const std::string& k, const interp::Value&) {
        if (k.rfind(prefix, 0) == 0) names.insert(k);
      });
    };
    interp::Frame* frame = interp_ ? innermostUserFrame(*interp_) : nullptr;
    (void)frameId;  // FIXME: complete in the selected frame, not only the innermost one
    if (dot == std::string::npos) {
      if (frame) {
        addNs(frame->locals->vars);
        addNs(frame->globals->vars);
      }
      if (interp_) addNs(interp_->machine().builtins);
      for (const char* cmd : {"lt", "pt", "ni"})
        if (std::string(cmd).rfind(prefix, 0) == 0) names.insert(cmd);
    } else {
      // Attributes of the object the dotted prefix names.
      try {
        interp::Value obj = evaluateIn(*interp_, *runtime_, *impl_, frame, word.substr(0, dot), false);
        if (auto* m = interp::as<interp::ModuleObj>(obj)) addNs(m->globals->vars);
        else if (auto* i = interp::as<interp::InstanceObj>(obj)) {
          addNs(i->dict);
          for (const auto& c : i->cls->mro) addNs(c->dict);
        } else if (auto* n = dynamic_cast<interp::NativeObject*>(obj.get())) {
          for (const std::string& a : n->attributeNames(*interp_))
            if (a.rfind(prefix, 0) == 0) names.insert(a);
        }
      } catch (const std::exception&) {
      }
    }
    for (const std::string& n : names)
      if (n.rfind("__", 0) != 0 || prefix.rfind("__", 0) == 0) out.push_back(n);
  });
  return out;
}

std::optional<std::string> Debugger::consoleCommand(const std::string& line) {
  std::vector<std::string> w = words(line);
  if (w.empty() || (w[0] != "lt" && w[0] != "pt" && w[0] != "ni")) return std::nullopt;
  std::string out;
  onProgramThread([&] {
    Impl& s = *impl_;
    if (w[0] == "lt") {
      out = listTensors(s, w);
    } else if (w[0] == "ni") {
      out = nodeInfo(s, w);
    } else {
      if (w.size() < 2) throw DebuggerError("usage: pt NAME[SLICE]");
      const std::string arg = line.substr(line.find(w[1]));
      const size_t bracket = arg.find('[');
      const std::string name = arg.substr(0, bracket);
      const Impl::RunEntry* r = findTensor(s, name);
      tlens::Tensor t;
      if (r) t = r->tensor;
      else if (s.atNode && (name == s.nodeName || name == s.nodeName + ":0") && !s.outputs.empty()) t = s.outputs[0];
      if (!t.valid()) throw DebuggerError("no tensor '" + name + "' computed in this run");
      if (bracket == std::string::npos) {
        out = t.typeStr() + "\n" + t.str(1000) + "\n";
        return;
      }
      // The slice goes through the evaluator: numpy semantics for free.
      auto& in = *interp_;
      auto value = tf::concreteTensor(*runtime_, runtime_->eager().wrap(t), false);
      auto env = std::make_shared<interp::Env>();
      env->vars.set("_pt", value);
      interp::Value v = evaluateIn(in, *runtime_, s, nullptr, "_pt" + arg.substr(bracket), false, env);
      out = in.repr(v) + "\n";
    }
  });
  return out;
}

}  // namespace tlens::dap
