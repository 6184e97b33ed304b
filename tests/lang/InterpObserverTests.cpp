// Observers: the statement hook the debugger blocks in (lines, depth, locals, cancellation) and
// the value hook the language server records hovers from.
#include "InterpTestSupport.h"

#include <map>

namespace {

struct Recorder : StatementObserver {
  std::vector<std::pair<int, int>> lines;  // (line, depth)
  std::map<int, std::vector<std::string>> localsAt;
  int cancelAtLine = -1;
  void beforeStatement(const StatementEvent& e) override {
    lines.emplace_back(e.line, e.depth);
    std::vector<std::string> names;
    e.locals.forEach([&](const std::string& k, const Value& v) { names.push_back(k + "=" + e.interp.repr(v)); });
    localsAt[e.line] = names;
    if (e.line == cancelAtLine) throw InterpCancelled();
  }
};

struct Hovers : ValueObserver {
  std::map<std::string, std::string> byText;  // last value seen for each expression text
  Interpreter* in = nullptr;
  void onValue(const tlens::lang::SourceFile& f, TSNode n, const Value& v) override {
    byText[std::string(f.textOf(n))] = in->repr(v);
  }
};

}  // namespace

TEST_CASE("the statement observer sees every statement with its depth and locals", "[lang][interp]") {
  Recorder rec;
  RunResult r = runPython(
      "def f(a):\n"
      "    b = a + 1\n"
      "    return b\n"
      "x = f(1)\n"
      "print(x)\n",
      Mode::Concrete, {}, [&](Interpreter& in) { in.setStatementObserver(&rec); });
  CHECK(r.out == "2\n");
  std::vector<std::pair<int, int>> expected{{1, 1}, {4, 1}, {2, 2}, {3, 2}, {5, 1}};
  CHECK(rec.lines == expected);
  CHECK(rec.localsAt[3] == std::vector<std::string>{"a=1", "b=2"});
}

TEST_CASE("an observer can cancel the program", "[lang][interp]") {
  Recorder rec;
  rec.cancelAtLine = 3;
  RunResult r = runPython("print(1)\nprint(2)\nprint(3)\nprint(4)\n", Mode::Concrete, {},
                          [&](Interpreter& in) { in.setStatementObserver(&rec); });
  CHECK(r.out == "1\n2\n");
  CHECK(r.status == Interpreter::kExitCancelled);
}

TEST_CASE("cancellation cannot be caught by Python code", "[lang][interp]") {
  Recorder rec;
  rec.cancelAtLine = 3;
  RunResult r = runPython(
      "try:\n"
      "    x = 1\n"
      "    y = 2\n"
      "except BaseException:\n"
      "    print('caught')\n"
      "finally:\n"
      "    print('finally')\n",
      Mode::Concrete, {}, [&](Interpreter& in) { in.setStatementObserver(&rec); });
  CHECK(r.out.empty());
  CHECK(r.status == Interpreter::kExitCancelled);
}

TEST_CASE("the value observer reports expressions, targets and parameters", "[lang][interp]") {
  Hovers h;
  runPython(
      "def scale(v, k=2):\n"
      "    return v * k\n"
      "for i in range(2):\n"
      "    total = scale(i)\n"
      "name, n = 'w', 3\n",
      Mode::Abstract, {}, [&](Interpreter& in) {
        h.in = &in;
        in.setValueObserver(&h);
      });
  CHECK(h.byText["total"] == "2");
  CHECK(h.byText["scale(i)"] == "2");
  CHECK(h.byText["k"] == "2");
  CHECK(h.byText["name"] == "'w'");
  CHECK(h.byText["n"] == "3");
  CHECK(h.byText["range(2)"] == "range(0, 2)");
}

TEST_CASE("native code sees the Python call stack with locations", "[lang][interp]") {
  std::vector<tlens::StackFrame> seen;
  runPython(
      "from probe import probe\n"
      "def build():\n"
      "    return probe(1)\n"
      "\n"
      "def main():\n"
      "    x = build()\n"
      "main()\n",
      Mode::Concrete, {}, [&](Interpreter& in) {
        in.modules().add("probe", [&seen](Interpreter&) {
          auto m = makeModule("probe");
          m->set("probe", NativeFunction::make("probe", "x", [&seen](CallContext& c) {
            seen = c.interp.callStack();
            return none();
          }));
          return m;
        });
      });
  REQUIRE(seen.size() == 3);
  CHECK(seen[0].function == "<module>");
  CHECK(seen[0].location.line == 7);
  CHECK(seen[1].function == "main");
  CHECK(seen[1].location.line == 6);
  CHECK(seen[1].location.column == 9);
  CHECK(seen[2].function == "build");
  CHECK(seen[2].location.line == 3);
  CHECK(seen[2].location.column == 12);
  CHECK(seen[2].location.file == "main.py");
}
