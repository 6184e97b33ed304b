// Interpreter::runPrefix / resume: the language server analyses a new version of a document by
// continuing an interpreter that ran the unchanged top-level statements of an earlier version.
// The continued run must report exactly what a full run of the new version reports.
#include <map>

#include "InterpTestSupport.h"
#include "lang/syntax/SourceFile.h"

using namespace tlens;
using namespace tlens::interp;
using namespace tlens::interp::testing;

namespace {

struct Seen : ValueObserver {
  Interpreter* in = nullptr;
  std::map<std::string, std::string> at;  ///< "line:col" -> repr, last observation
  void onValue(const lang::SourceFile& f, TSNode n, const Value& v) override {
    TSPoint p = ts_node_start_point(n);
    at[std::to_string(p.row + 1) + ":" + std::to_string(p.column + 1) + " " + std::string(f.textOf(n))] =
        v->kind() == Kind::Function || v->kind() == Kind::Module ? in->typeName(v) : in->repr(v);
  }
};

struct Outcome {
  int status = 0;
  std::string diagnostics;
  std::map<std::string, std::string> globals;
  std::map<std::string, std::string> values;
};

Outcome outcome(Interpreter& in, int status, Seen& seen) {
  Outcome o;
  o.status = status;
  for (const auto& d : in.diagnostics()) o.diagnostics += format(d) + "\n";
  in.mainModule()->globals->vars.forEach([&](const std::string& name, const Value& v) {
    // Functions and modules: their type only (their reprs hold addresses).
    if (name.rfind("__", 0) != 0) o.globals[name] = v->kind() == Kind::Function || v->kind() == Kind::Module ? in.typeName(v) : in.repr(v);
  });
  o.values = seen.at;
  return o;
}

InterpOptions abstractOptions() {
  InterpOptions o;
  o.mode = Mode::Abstract;
  return o;
}

Outcome fullRun(const std::string& text) {
  Interpreter in(abstractOptions());
  Seen seen;
  seen.in = &in;
  in.setValueObserver(&seen);
  int status = in.run(std::make_shared<lang::SourceFile>("main.py", text));
  return outcome(in, status, seen);
}

Outcome continued(const std::string& before, size_t count, const std::string& after) {
  Interpreter in(abstractOptions());
  Seen seen;
  seen.in = &in;
  in.setValueObserver(&seen);
  auto first = std::make_shared<lang::SourceFile>("main.py", before);
  int s = in.runPrefix(first, count);
  REQUIRE(s == 0);
  CHECK_FALSE(in.budgetExceeded());
  auto second = std::make_shared<lang::SourceFile>(*first, after);
  int status = in.resume(second, count);
  return outcome(in, status, seen);
}

void checkSame(const Outcome& cont, const Outcome& full) {
  CHECK(cont.status == full.status);
  CHECK(cont.diagnostics == full.diagnostics);
  CHECK(cont.globals == full.globals);
  CHECK(cont.values == full.values);
}

const char* kBefore =
    "import math\n"
    "def double(x):\n"
    "    return x * 2\n"
    "def never_called():\n"
    "    return 1 + 'one'\n"
    "a = double(3)\n"
    "b = [1, 2]\n"
    "c = b + 1\n"
    "d = a + 1\n"
    "e = double(d)\n";

}  // namespace

TEST_CASE("resume: a run continued after an edit reports what a full run reports", "[lang][interp][resume]") {
  // The edit is in statement 8 (`d = ...`); statements 0-5 (import, two defs, a, b) are the prefix.
  std::string after = kBefore;
  after.replace(after.find("d = a + 1"), 9, "d = a + 'x'  # now a TypeError");
  Outcome full = fullRun(after);
  checkSame(continued(kBefore, 5, after), full);
  // What the test compares is not empty: the prefix's TypeError in a function nothing calls,
  // the suffix's two TypeErrors, and values seen in both parts.
  CHECK(full.diagnostics.find("main.py:5:") != std::string::npos);
  CHECK(full.diagnostics.find("main.py:8:") != std::string::npos);
  CHECK(full.diagnostics.find("main.py:9:") != std::string::npos);
  CHECK(full.globals.at("a") == "6");
  CHECK(full.values.count("3:12 x * 2") == 1);
}

TEST_CASE("resume: text added and removed after the prefix, syntax errors of the new version", "[lang][interp][resume]") {
  for (std::string after : {std::string(kBefore) + "f = double(e) + c\n",
                            std::string("import math\ndef double(x):\n    return x * 2\ndef never_called():\n"
                                        "    return 1 + 'one'\na = double(3)\nb = [1, 2]\nz = (a +\n"),
                            std::string(kBefore).substr(0, std::string(kBefore).find("c = b + 1"))}) {
    CAPTURE(after);
    checkSame(continued(kBefore, 5, after), fullRun(after));
  }
}

TEST_CASE("resume: a prefix that ran out of time says so", "[lang][interp][resume]") {
  InterpOptions o = abstractOptions();
  o.timeBudgetMs = 1;
  Interpreter in(o);
  std::string text;
  for (int i = 0; i < 200000; ++i) text += "x" + std::to_string(i % 50) + " = [k * 2 for k in range(8)]\n";
  auto f = std::make_shared<lang::SourceFile>("main.py", text);
  in.runPrefix(f, 150000);
  CHECK(in.budgetExceeded());  // the language server does not continue such a prefix
  Interpreter fresh(abstractOptions());
  fresh.runPrefix(std::make_shared<lang::SourceFile>("main.py", "a = 1\nb = 2\n"), 1);
  CHECK_FALSE(fresh.budgetExceeded());
  CHECK(fresh.mainModule()->globals->vars.get("a"));
  CHECK_FALSE(fresh.mainModule()->globals->vars.get("b"));
}
