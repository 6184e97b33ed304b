// tfdbg's console commands in the debug console, over the current run:
//   lt [-n REGEX] [-t OPTYPE]   the tensors computed so far, in execution order
//   pt NAME[SLICE]              print a tensor (NAME or NAME:i), optionally a numpy-style slice
//   ni [-t] NAME                node info: op, device, inputs; -t adds the creation traceback
//   li [-r] [-d DEPTH] NAME     the node's inputs; -r: recursively, as a tree (depth 20 unless -d)
//   lo [-r] [-d DEPTH] NAME     the node's recipients (consumers); -r: recursively
#include <regex>
#include <sstream>

#include "dap/backend/DebuggerImpl.h"
#include "dap/backend/Evaluate.h"
#include "engine/runtime/Numerics.h"
#include "lang/interp/Class.h"
#include "lang/interp/Interpreter.h"
#include "lang/interp/Module.h"
#include <algorithm>
#include <functional>
#include <set>
#include <unordered_map>
#include <unordered_set>
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
  for (size_t i = s.visible(); i-- > 0;)
    if (s.run[i].name == name) return &s.run[i];
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
  for (size_t i = 0; i < s.visible(); ++i) {
    const auto& r = s.run[i];
    if (nameRe && !std::regex_match(r.name.substr(0, r.name.rfind(':')), *nameRe)) continue;
    if (!opType.empty() && r.op != opType) continue;
    os << "[" << i << "] " << r.name << " (" << r.op << ") " << tensorLine(r.tensor, r.device) << "\n";
    ++shown;
  }
  if (!shown) os << "no tensors" << (s.visible() == 0 ? " computed in this run yet" : " match") << "\n";
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
  for (size_t i = s.visible(); i-- > 0 && !node;)
    if (s.run[i].node && s.run[i].node->name == name) node = s.run[i].node;
  std::ostringstream os;
  if (node) {
    os << "Node " << node->name << " (" << node->type() << ") on " << node->device.str() << "\n";
    if (!node->placementNote.empty()) os << "  placement: " << node->placementNote << "\n";
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

/// The graph node named `name`: one that ran in this run first, then any graph (newest first).
const Node* findNode(const Debugger::Impl& s, tf::TfRuntime* rt, const std::string& name) {
  if (s.node && s.node->name == name) return s.node;
  for (size_t i = s.visible(); i-- > 0;)
    if (s.run[i].node && s.run[i].node->name == name) return s.run[i].node;
  if (rt)
    for (auto it = rt->graphs().rbegin(); it != rt->graphs().rend(); ++it)
      if (const Node* n = (*it)->find(name)) return n;
  return nullptr;
}

/// tfdbg's `li` / `lo`: the inputs (or recipients) tree of a node, control edges marked.
std::string nodeTree(const Debugger::Impl& s, tf::TfRuntime* rt, const std::vector<std::string>& w, bool inputs) {
  bool recursive = false;
  int depth = 20;
  std::string name;
  for (size_t i = 1; i < w.size(); ++i) {
    if (w[i] == "-r") recursive = true;
    else if (w[i] == "-d" && i + 1 < w.size()) {
      try {
        depth = std::stoi(w[++i]);
      } catch (...) {
        throw DebuggerError("-d takes a number");
      }
      if (depth < 1) throw DebuggerError("-d takes a depth of at least 1");
    } else name = w[i];
  }
  if (name.empty()) name = s.nodeName;
  if (name.empty()) throw DebuggerError(std::string("usage: ") + (inputs ? "li" : "lo") + " [-r] [-d DEPTH] NODE");
  if (const size_t colon = name.rfind(':'); colon != std::string::npos) name = name.substr(0, colon);
  const Node* root = findNode(s, rt, name);
  if (!root) return "no node '" + name + "' in the graphs built so far\n";
  if (!recursive) depth = 1;
  // Recipients: one pass over the root's graph builds the reverse edges.
  std::unordered_map<const Node*, std::vector<std::pair<const Node*, bool>>> consumers;
  if (!inputs && rt)
    for (const auto& g : rt->graphs()) {
      bool mine = false;
      for (const Node& n : g->nodes()) mine = mine || &n == root;
      if (!mine) continue;
      for (const Node& n : g->nodes()) {
        for (const Output& in : n.inputs) {
          auto& v = consumers[in.node];
          if (v.empty() || v.back().first != &n) v.emplace_back(&n, false);
        }
        for (const Node* c : n.controlInputs) consumers[c].emplace_back(&n, true);
      }
    }
  std::unordered_set<const Node*> ran;
  for (size_t i = 0; i < s.visible(); ++i)
    if (s.run[i].node) ran.insert(s.run[i].node);
  std::ostringstream os;
  os << (inputs ? "Inputs to" : "Recipients of") << " node \"" << root->name << "\" (" << root->type()
     << (recursive ? ", depth limit " + std::to_string(depth) : "") << "):\n";
  int lines = 0;
  constexpr int kMaxLines = 500;
  std::function<void(const Node*, int, const std::string&)> walk = [&](const Node* n, int level, const std::string& indent) {
    std::vector<std::pair<const Node*, bool>> next;
    if (inputs) {
      for (const Output& in : n->inputs) next.emplace_back(in.node, false);
      for (const Node* c : n->controlInputs) next.emplace_back(c, true);
    } else if (auto it = consumers.find(n); it != consumers.end()) {
      next = it->second;
    }
    for (const auto& [child, control] : next) {
      if (++lines > kMaxLines) return;
      os << indent << "|- (" << level << ") " << (control ? "(Ctrl) " : "") << child->name << " (" << child->type() << ")"
         << (ran.count(child) ? "  [ran]" : "") << "\n";
      if (level < depth) walk(child, level + 1, indent + "|  ");
    }
  };
  walk(root, 1, "  ");
  if (lines > kMaxLines) os << "  … more than " << kMaxLines << " lines; use -d to limit the depth\n";
  else if (lines == 0) os << "  (none)\n";
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
    interp::Frame* frame = interp_ ? interp_->innermostUserFrame() : nullptr;
    (void)frameId;  // FIXME: complete in the selected frame, not only the innermost one
    if (dot == std::string::npos) {
      if (frame) {
        const interp::FrameView v = interp_->view(*frame);
        addNs(v.locals->vars);
        if (v.globals != v.locals) addNs(v.globals->vars);
      }
      if (interp_) addNs(interp_->builtinNames());
      for (const char* cmd : {"lt", "pt", "ni", "li", "lo"})
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
  if (w.empty() || (w[0] != "lt" && w[0] != "pt" && w[0] != "ni" && w[0] != "li" && w[0] != "lo")) return std::nullopt;
  // `lo + 1`, `li = 3`: Python, not a command.
  if (w.size() > 1 && std::string("=+*/%<>!&|^(.,[)").find(w[1][0]) != std::string::npos) return std::nullopt;
  std::string out;
  onProgramThread([&] {
    Impl& s = *impl_;
    if (w[0] == "lt") {
      out = listTensors(s, w);
    } else if (w[0] == "ni") {
      out = nodeInfo(s, w);
    } else if (w[0] == "li" || w[0] == "lo") {
      out = nodeTree(s, runtime_.get(), w, w[0] == "li");
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
      auto value = tf::concreteTensor(*runtime_, runtime_->wrap(t), false);
      auto env = std::make_shared<interp::Env>();
      env->vars.set("_pt", value);
      interp::Value v = evaluateIn(in, *runtime_, s, nullptr, "_pt" + arg.substr(bracket), false, env);
      out = in.repr(v) + "\n";
    }
  });
  return out;
}

}  // namespace tlens::dap
