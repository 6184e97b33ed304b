// GraphJson: the one place a graph becomes JSON. `tlens graph --format json` prints it and the
// debugger's `tensorlens/graph` request answers with it (plus what the running program knows:
// which nodes ran, which held NaN/Inf, where it is stopped), so the two can never differ.
//
//   {"graphs": [{"nodes": [{"name", "op", "device", "outputs": ["float32[?, 10]"], "inputs":
//    ["x:0"], "controlInputs": ["init"], "source": {file, line, column, endLine, endColumn},
//    "shapeError"?, "requestedDevice"?: "/gpu:1", "placementNote"?: "why not there",
//    "ran"?: true, "numerics"?: "nan"|"inf"}]}], "stopped"?: {"graph", "node"}}
//
// Empty graphs are left out; graph indices count the graphs written.
#pragma once

#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <nlohmann/json.hpp>

namespace tlens {
class Graph;
struct Node;
}  // namespace tlens

namespace tlens::protocol {

/// What a running program adds to its graphs (all optional).
struct GraphRunState {
  std::unordered_set<const Node*> ran;                      ///< computed in the current/last run
  std::unordered_map<const Node*, std::string> numerics;  ///< "nan" or "inf"
  const Node* stopped = nullptr;                           ///< the node the program is stopped at
};

nlohmann::json graphsToJson(const std::vector<const Graph*>& graphs, const GraphRunState* state = nullptr);

}  // namespace tlens::protocol
