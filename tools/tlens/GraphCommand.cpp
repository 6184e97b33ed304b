// tlens graph [--format dot|json] [--abstract] prog.py [args...]: the graphs a program builds,
// with each node's op, device, output types and source location. By default the program runs
// (concrete mode) so the graph is exactly what runs; --abstract builds it without running
// anything.
#include <cstdio>
#include <stdexcept>

#include "protocol/GraphJson.h"

#include "tools/tlens/Commands.h"
#include "tools/tlens/ProgramRunner.h"

namespace tlens::cli {

namespace {

std::string dotEscape(const std::string& s) {
  std::string r;
  for (char c : s) {
    if (c == '"' || c == '\\') r += '\\';
    r += c;
  }
  return r;
}

}  // namespace

int graphCommand(const Args& args) {
  SplitArgs s = splitProgramArgs(args);
  std::string format = "dot";
  bool abstract = false;
  tf::TfOptions tfo;
  for (size_t i = 0; i < s.flags.size(); ++i) {
    if (s.flags[i] == "--format" && i + 1 < s.flags.size()) format = s.flags[++i];
    else if (s.flags[i] == "--abstract") abstract = true;
    else if (parseDeviceFlag(s.flags[i], [&]() -> std::string {
               if (i + 1 >= s.flags.size()) throw std::invalid_argument(s.flags[i] + " needs a value");
               return s.flags[++i];
             }, tfo)) {
    }
    else throw std::invalid_argument("unknown option " + s.flags[i]);
  }
  if (s.program.empty() || (format != "dot" && format != "json")) {
    std::fprintf(stderr, "usage: tlens graph [--format dot|json] [--abstract] prog.py [args...]\n");
    return 2;
  }
  ProgramOptions o;
  o.tf = tfo;
  o.path = s.program;
  o.argv = s.programArgs;
  o.mode = abstract ? interp::Mode::Abstract : interp::Mode::Concrete;
  o.out = [](std::string_view) {};
  o.timeBudgetMs = 0;
  LoadedProgram p = loadProgram(o);
  int rc = p.interp->run(p.file);

  std::vector<const Graph*> graphs;
  std::string dot = "digraph tensorlens {\n  rankdir=TB;\n  node [shape=box, fontname=\"monospace\"];\n";
  int gi = 0;
  for (const auto& g : p.runtime->graphs()) {
    graphs.push_back(g.get());
    if (g->size() == 0) continue;
    dot += "  subgraph cluster_" + std::to_string(gi) + " {\n    label=\"graph " + std::to_string(gi) + "\";\n";
    for (const Node& n : g->nodes()) {
      std::string id = "g" + std::to_string(gi) + "n" + std::to_string(n.id);
      std::string label = dotEscape(n.name) + "\\n" + n.type() + " " + n.device.str();
      for (const TensorType& t : n.outputs) label += "\\n" + dotEscape(t.str());
      if (n.location.known()) label += "\\n" + dotEscape(n.location.str());
      dot += "    " + id + " [label=\"" + label + "\"];\n";
      for (const Output& in : n.inputs)
        dot += "    g" + std::to_string(gi) + "n" + std::to_string(in.node->id) + " -> " + id + ";\n";
      for (const Node* c : n.controlInputs)
        dot += "    g" + std::to_string(gi) + "n" + std::to_string(c->id) + " -> " + id + " [style=dashed];\n";
    }
    dot += "  }\n";
    ++gi;
  }
  dot += "}\n";
  if (format == "json") std::printf("%s\n", protocol::graphsToJson(graphs).dump(2).c_str());
  else std::printf("%s", dot.c_str());
  return rc;
}

}  // namespace tlens::cli
