// The Session's private parts shared by its executor (Session.cpp) and its loops
// (SessionLoops.cpp): a plan of nodes to run, and the loops' frame plans and recorded iterations.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "engine/runtime/Session.h"

namespace tlens {

struct Session::Plan {
  int base = 0;                         ///< the first node id a value may come from (a frame's first)
  std::vector<Node*> order;             ///< nodes to run, ascending id
  std::vector<int32_t> uses;            ///< per node id - base: consumers in this plan (+1 if fetched)
  std::vector<std::vector<std::string>> varNames;  ///< per plan entry: names for ref inputs
  std::vector<const Node*> constOrder;
};

struct Session::LoopState {
  /// Frame plans by (loop node id, which frame: 0 condition, 1 body, 2 gradient); rebuilt when
  /// the graph grew (a gradient may add to what a loop records).
  std::map<std::tuple<int, int>, std::pair<size_t, std::unique_ptr<Plan>>> plans;
  /// The values a forward loop recorded, one map per iteration, by the handle it output; dropped
  /// at the end of each run.
  std::map<int64_t, std::vector<FedValues>> traces;
  int64_t nextTrace = 1;
};

}  // namespace tlens
