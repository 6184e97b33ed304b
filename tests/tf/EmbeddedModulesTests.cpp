// The embedded Python half of the tensorflow/numpy/keras modules (lang/tf/python/*.py) must parse
// without a single ERROR or MISSING node: Tree-sitter recovers from a broken statement and the
// interpreter then runs what it recovered, so a broken line would otherwise fail silently.
// Tree-sitter accepts some code CPython rejects (a `with` body not indented: it once made
// Optimizer.minimize(global_step=...) train nothing), so CPython's own parser checks the same
// files too ("tf: every embedded Python module parses with CPython", tests/CMakeLists.txt).
#include <catch2/catch.hpp>

#include <string>

#include "lang/syntax/SourceFile.h"
#include "lang/tf/EmbeddedPython.h"

using namespace tlens;

TEST_CASE("every embedded Python module parses without a syntax error", "[tf]") {
  const auto& modules = tf::embeddedModules();
  REQUIRE(modules.size() > 40);
  for (const tf::EmbeddedModule& m : modules) {
    lang::SourceFile file(std::string(m.name) + ".py", m.source);
    std::string errors;
    for (const lang::SyntaxError& e : file.syntaxErrors())
      errors += std::to_string(e.start.line + 1) + ":" + std::to_string(e.start.column + 1) + ": " + e.message + "\n";
    INFO(m.name);
    CHECK(errors == "");
  }
}
