// Pure pieces of the breakpoint layer: hit conditions, line tables, function breakpoint matching.
#include <catch2/catch.hpp>

#include "dap/backend/Breakpoints.h"
#include "lang/syntax/SourceFile.h"

using namespace tlens::dap;

TEST_CASE("hit conditions follow the usual spellings", "[dap]") {
  struct Case {
    const char* cond;
    int64_t hits;
    bool stops;
  } cases[] = {
      {"", 1, true},    {"3", 2, false},  {"3", 3, true},    {"3", 4, true},   {">=3", 3, true},
      {">3", 3, false}, {">3", 4, true},  {"==3", 3, true},  {"==3", 4, false}, {"%2", 1, false},
      {"%2", 4, true},  {"<2", 1, true},  {"<2", 2, false},  {"junk", 1, true},
  };
  for (const Case& c : cases) {
    CAPTURE(c.cond, c.hits);
    CHECK(hitConditionPasses(c.cond, c.hits) == c.stops);
  }
}

TEST_CASE("line tables know where statements start and which statement covers a line", "[dap]") {
  tlens::lang::SourceFile f("t.py",
                            "import os\n"          // 1
                            "\n"                   // 2
                            "x = foo(1,\n"         // 3
                            "        2)\n"         // 4
                            "def g(a):\n"          // 5
                            "    # comment\n"      // 6
                            "    return a\n"       // 7
                            "for i in range(3):\n"  // 8
                            "    pass\n");         // 9
  LineTable t(f);
  CHECK(t.isStatementStart(1));
  CHECK_FALSE(t.isStatementStart(2));
  CHECK(t.nextStatementLine(2) == 3);
  CHECK(t.statementOf(4) == 3);  // a continuation line belongs to its statement
  CHECK(t.nextStatementLine(6) == 7);
  CHECK(t.statementOf(9) == 9);
  CHECK(t.statementOf(8) == 8);
  CHECK(t.nextStatementLine(10) == 0);
}

TEST_CASE("function breakpoints match node names, op types and name regexes", "[dap]") {
  FunctionBreakpoint byType{1, "MatMul", std::nullopt, {}, {}};
  CHECK(byType.matches("fc1/MatMul", "MatMul"));
  CHECK_FALSE(byType.matches("fc1/Relu", "Relu"));
  FunctionBreakpoint byName{2, "fc1/Relu", std::nullopt, {}, {}};
  CHECK(byName.matches("fc1/Relu", "Relu"));
  FunctionBreakpoint byRegex{3, "fc1/.*", std::regex("fc1/.*"), {}, {}};
  CHECK(byRegex.matches("fc1/BiasAdd", "BiasAdd"));
  CHECK_FALSE(byRegex.matches("fc2/BiasAdd", "BiasAdd"));
}
