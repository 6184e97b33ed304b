// lang/syntax/ChildCache: the memoised child lists agree with Tree-sitter's own walk, and stay so
// when several threads list the same tree at once (the language server's analysis and its
// pauser share one parse); run under ThreadSanitizer by `dev.sh tsan`.
#include <catch2/catch.hpp>

#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "lang/syntax/ChildCache.h"
#include "lang/syntax/SourceFile.h"

using namespace tlens;
using namespace tlens::lang;

namespace {

std::string program(int blocks) {
  std::string s;
  for (int i = 0; i < blocks; ++i) {
    std::string n = std::to_string(i);
    s += "def f" + n + "(a, b=2):\n    # a comment\n    return [a * b, {'k': a}]\n";
    s += "x" + n + " = f" + n + "(" + n + ") if " + n + " else None\n";
  }
  return s;
}

/// Every node of the tree, in pre-order.
std::vector<TSNode> allNodes(TSNode root) {
  std::vector<TSNode> out;
  std::function<void(TSNode)> walk = [&](TSNode n) {
    out.push_back(n);
    for (uint32_t i = 0; i < ts_node_child_count(n); ++i) walk(ts_node_child(n, i));
  };
  walk(root);
  return out;
}

/// What Tree-sitter says the cache must hold for `n`: the children that are not extras (comments;
/// an ERROR node stays, extra or not), and the named ones among them.
void checkAgainstTreeSitter(TSNode n, const NodeChildren& got) {
  std::vector<TSNode> all, named;
  for (uint32_t i = 0; i < ts_node_child_count(n); ++i) {
    TSNode c = ts_node_child(n, i);
    if (ts_node_is_extra(c) && ts_node_symbol(c) != static_cast<TSSymbol>(-1)) continue;
    all.push_back(c);
    if (ts_node_is_named(c)) named.push_back(c);
  }
  REQUIRE(got.all.size() == all.size());
  REQUIRE(got.named.size() == named.size());
  for (size_t i = 0; i < all.size(); ++i) CHECK(ts_node_eq(got.all[i].node, all[i]));
  for (size_t i = 0; i < named.size(); ++i) CHECK(ts_node_eq(got.named[i], named[i]));
}

}  // namespace

TEST_CASE("child lists agree with the tree and are listed once", "[lang][syntax]") {
  SourceFile f("a.py", program(40));
  for (TSNode n : allNodes(f.root())) {
    const NodeChildren& first = ChildCache::lookup(n);
    checkAgainstTreeSitter(n, first);
    CHECK(&ChildCache::lookup(n) == &first);  // memoised: the same list again
  }
  // Fields: `def`'s name and body.
  TSNode def = ChildCache::lookup(f.root()).named[0];
  bool name = false;
  for (const NodeChild& c : ChildCache::lookup(def).all)
    if (c.fieldId == ts_language_field_id_for_name(ts_tree_language(def.tree), "name", 4))
      name = ts_node_start_byte(c.node) == 4;
  CHECK(name);
}

TEST_CASE("threads listing one tree at once get the same lists", "[lang][syntax]") {
  SourceFile f("b.py", program(300));  // thousands of nodes: the table grows while threads list
  std::vector<TSNode> nodes = allNodes(f.root());
  std::vector<std::vector<const NodeChildren*>> seen(4, std::vector<const NodeChildren*>(nodes.size()));
  std::vector<std::thread> threads;
  for (size_t t = 0; t < seen.size(); ++t)
    threads.emplace_back([&, t] {
      // Two threads walk forwards and two backwards, so they meet in the middle.
      for (size_t k = 0; k < nodes.size(); ++k) {
        size_t i = t % 2 ? nodes.size() - 1 - k : k;
        seen[t][i] = &ChildCache::lookup(nodes[i]);
      }
    });
  for (auto& th : threads) th.join();
  for (size_t i = 0; i < nodes.size(); ++i) {
    checkAgainstTreeSitter(nodes[i], *seen[0][i]);
    for (size_t t = 1; t < seen.size(); ++t) {
      // Two threads may list a node at once (both lists are right); later lookups all agree.
      CHECK(seen[t][i]->all.size() == seen[0][i]->all.size());
      CHECK(&ChildCache::lookup(nodes[i]) == &ChildCache::lookup(nodes[i]));
    }
  }
}

TEST_CASE("a null node has no children", "[lang][syntax]") {
  TSNode null{};
  CHECK(ChildCache::lookup(null).all.empty());
  CHECK(ChildCache::lookup(null).named.empty());
}
