// NameSet (engine/graph): the used names of a graph. Against std::unordered_set over many names
// (growth, collisions), and the uniqueness rules Graph builds on it.
#include <catch2/catch.hpp>

#include <random>
#include <string>
#include <unordered_set>

#include "engine/graph/Graph.h"
#include "engine/graph/NameSet.h"

using namespace tlens;

TEST_CASE("a name set answers as an unordered_set of strings does", "[engine][graph]") {
  NameSet names;
  std::unordered_set<std::string> reference;
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> pick(0, 4999), len(0, 40);
  for (int i = 0; i < 40000; ++i) {
    // Names from a small pool, so many repeat; lengths up to 40, the empty name included.
    int id = pick(rng);
    std::string name = "scope_" + std::to_string(id % 37) + "/" + std::string(static_cast<size_t>(id % 41), 'x') +
                       (id % 13 == 0 ? "" : "_" + std::to_string(id));
    if (id == 0) name.clear();
    CHECK(names.insert(name) == reference.insert(name).second);
    if (i % 97 == 0) {
      std::string other = "absent_" + std::to_string(len(rng));
      CHECK(names.contains(other) == (reference.count(other) > 0));
    }
  }
  CHECK(names.size() == reference.size());
  for (const std::string& n : reference) CHECK(names.contains(n));
}

TEST_CASE("a graph's node names stay unique across scopes and suffixes", "[engine][graph]") {
  Graph g;
  CHECK(g.uniqueName("MatMul") == "MatMul");
  CHECK(g.uniqueName("MatMul") == "MatMul_1");
  CHECK(g.uniqueName("MatMul_1") == "MatMul_1_1");  // taken by the suffix above
  CHECK(g.uniqueName("MatMul") == "MatMul_2");
  CHECK(g.pushNameScope("fc") == "fc");
  g.popNameScope();
  CHECK(g.pushNameScope("fc") == "fc_1");
  g.popNameScope();
}
