#include "protocol/GraphJson.h"

#include "engine/graph/Graph.h"

namespace tlens::protocol {

using nlohmann::json;

nlohmann::json graphsToJson(const std::vector<const Graph*>& graphs, const GraphRunState* state) {
  json out = json::array();
  json stopped;
  for (const Graph* g : graphs) {
    if (!g || g->size() == 0) continue;
    const int index = static_cast<int>(out.size());
    json nodes = json::array();
    for (const Node& n : g->nodes()) {
      std::vector<std::string> outs;
      for (const TensorType& t : n.outputs) outs.push_back(t.str());
      json j{{"name", n.name}, {"op", n.type()}, {"device", n.device.str()}, {"outputs", outs}};
      if (!n.requestedDevice.empty()) j["requestedDevice"] = n.requestedDevice;
      if (!n.placementNote.empty()) j["placementNote"] = n.placementNote;
      json ins = json::array();
      for (const Output& in : n.inputs) ins.push_back(in.name());
      j["inputs"] = ins;
      json ctl = json::array();
      for (const Node* c : n.controlInputs) ctl.push_back(c->name);
      j["controlInputs"] = ctl;
      if (n.location.known())
        j["source"] = {{"file", n.location.file}, {"line", n.location.line}, {"column", n.location.column},
                       {"endLine", n.location.endLine}, {"endColumn", n.location.endColumn}};
      if (!n.shapeError.empty()) j["shapeError"] = n.shapeError;
      if (state) {
        if (state->ran.count(&n)) j["ran"] = true;
        auto k = state->numerics.find(&n);
        if (k != state->numerics.end()) j["numerics"] = k->second;
        if (state->stopped == &n) stopped = json{{"graph", index}, {"node", n.name}};
      }
      nodes.push_back(std::move(j));
    }
    out.push_back(json{{"nodes", std::move(nodes)}});
  }
  json doc{{"graphs", std::move(out)}};
  if (!stopped.is_null()) doc["stopped"] = std::move(stopped);
  return doc;
}

}  // namespace tlens::protocol
