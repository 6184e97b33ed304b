// Abstract mode, the language server's analysis: Unknown values, both branches of unknown ifs
// with joined bindings, bounded loops and recursion, the work budget, no side effects, going on after exceptions, and
// analysis of functions nothing calls.
#include <chrono>
#include <filesystem>
#include <map>

#include "FakeFlow.h"

namespace {

/// Last value reported for each "text@line" (line 1-based).
struct Hovers : ValueObserver {
  std::map<std::string, std::string> at;
  Interpreter* in = nullptr;
  void onValue(const tlens::lang::SourceFile& f, TSNode n, const Value& v) override {
    at[std::string(f.textOf(n)) + "@" + std::to_string(ts_node_start_point(n).row + 1)] = in->repr(v);
  }
};

RunResult analyze(const std::string& src, Hovers& h, fakeflow::State* st = nullptr,
                  const std::function<void(InterpOptions&)>& configure = {}) {
  return runPython(src, Mode::Abstract, configure, [&](Interpreter& in) {
    h.in = &in;
    in.setValueObserver(&h);
    if (st) fakeflow::install(in, *st);
  });
}

}  // namespace

TEST_CASE("abstract: an unknown condition runs both branches and joins their bindings", "[lang][interp][abstract]") {
  Hovers h;
  fakeflow::State st;
  RunResult r = analyze(
      "import time\n"
      "import fakeflow as ff\n"
      "t = time.time()\n"
      "if t > 5:\n"
      "    a = 1; same = 'x'; num = 1; w = ff.zeros([2, 3])\n"
      "else:\n"
      "    a = 2; same = 'x'; num = 1.5; w = ff.zeros([2, 5])\n"
      "    only_else = 3\n"
      "result = (a, same, num, w, only_else)\n",
      h, &st);
  CHECK(r.diagnostics.empty());
  CHECK(h.at["t@3"] == "<unknown float>");
  CHECK(h.at["a@5"] == "1");  // both branches were analysed
  CHECK(h.at["a@7"] == "2");
  CHECK(h.at["result@9"] == "(<unknown int>, 'x', <unknown float>, Tensor(2, ?), 3)");
}

TEST_CASE("abstract: known conditions take one branch only", "[lang][interp][abstract]") {
  Hovers h;
  analyze(
      "debug = False\n"
      "if debug:\n"
      "    mode = 'debug'\n"
      "else:\n"
      "    mode = 'train'\n"
      "x = mode\n",
      h);
  CHECK(h.at.count("mode@3") == 0);
  CHECK(h.at["x@6"] == "'train'");
}

TEST_CASE("abstract: returns from both branches join", "[lang][interp][abstract]") {
  Hovers h;
  fakeflow::State st;
  analyze(
      "import numpy as np\n"
      "import fakeflow as ff\n"
      "def pick(flag):\n"
      "    if flag:\n"
      "        return ff.zeros([4, 8])\n"
      "    return ff.zeros([4, 16])\n"
      "def maybe_none(x):\n"
      "    if x is None:\n"
      "        return 0\n"
      "    return x * 2\n"
      "r = pick(np.random.rand() > 0.5)\n"
      "s = maybe_none(np.zeros(3))\n",
      h, &st);
  CHECK(h.at["r@11"] == "Tensor(4, ?)");
  CHECK(h.at["s@12"] == "<unknown>");
}

TEST_CASE("abstract: operations on Unknown never raise", "[lang][interp][abstract]") {
  Hovers h;
  RunResult r = analyze(
      "import numpy as np\n"
      "x = np.load('data.npy')['key'].reshape(-1, 28)[0] + 3\n"
      "for row in x:\n"
      "    y = row.sum() * 2\n"
      "with np.errstate() as s:\n"
      "    z = x(1, *s, **x)\n"
      "a, b, *c = x\n"
      "n = len(x) + int(x) + float(x)\n"
      "k = str(x) + x.name\n"
      "flag = x is None or x in [1, 2] or not x\n"
      "d = {x: 1}[x]\n",
      h);
  CHECK(r.diagnostics.empty());  // numpy is not available here: unknown, silently
  CHECK(h.at["y@4"] == "<unknown>");
  CHECK(h.at["a@7"] == "<unknown>");
  CHECK(h.at["c@7"] == "<unknown list>");
  CHECK(h.at["n@8"] == "<unknown float>");  // int + int + float is a float, whatever the values
  CHECK(h.at["flag@10"] == "<unknown bool>");
}

TEST_CASE("abstract: small known loops run exactly, others a bounded number of times", "[lang][interp][abstract]") {
  Hovers h;
  auto t0 = std::chrono::steady_clock::now();
  RunResult r = analyze(
      "xs = []\n"
      "for i in range(3):\n"
      "    xs.append(i * i)\n"
      "copy = xs\n"
      "total = 0\n"
      "for k in range(10 ** 9):\n"
      "    total += k\n"
      "after_big = total\n"
      "i = 0\n"
      "while i < 5:\n"
      "    i += 1\n"
      "exact_i = i\n"
      "n = 0\n"
      "while True:\n"
      "    n += 1\n"
      "after_forever = n\n"
      "def gen():\n"
      "    while True:\n"
      "        yield 1\n"
      "g = list(gen())\n",
      h);
  auto elapsed = std::chrono::steady_clock::now() - t0;
  CHECK(elapsed < std::chrono::seconds(2));
  CHECK(r.diagnostics.empty());
  CHECK(h.at["copy@4"] == "[0, 1, 4]");
  CHECK(h.at["after_big@8"] == "<unknown int>");
  CHECK(h.at["exact_i@12"] == "5");
  CHECK(h.at["after_forever@16"] == "<unknown int>");
}

TEST_CASE("abstract: a list a loop of unknown trip count appends to has an unknown length after it", "[lang][interp][abstract]") {
  // The body runs twice for 170 items: a list of 2 would make len() and every shape built from
  // it wrong (np.array(data) fed to a placeholder: a false feed-shape error).
  Hovers h;
  RunResult r = analyze(
      "data = []\n"
      "for i in range(0, 170):\n"
      "    data.append([i, i + 1])\n"
      "rows = data\n"
      "kept = [1, 2]\n"
      "for i in range(0, 170):\n"
      "    x = kept[0]\n"
      "same = kept\n"
      "exact = []\n"
      "for i in range(4):\n"
      "    exact.append(i)\n"
      "four = exact\n"
      "grown = []\n"
      "k = 0\n"
      "while k < 1000:\n"
      "    grown.append(k)\n"
      "    k += 1\n"
      "after_while = grown\n",
      h);
  CHECK(r.diagnostics.empty());
  CHECK(h.at["rows@4"] == "<unknown list>");
  CHECK(h.at["same@8"] == "[1, 2]");
  CHECK(h.at["four@12"] == "[0, 1, 2, 3]");
  CHECK(h.at["after_while@18"] == "<unknown list>");
}

TEST_CASE("abstract: a list extended by an unknown iterable is an unknown list, in a loop too", "[lang][interp][abstract]") {
  // The cookbook's batch generators: `while len(batch) < n: batch.extend(words[:n])` over a
  // file's words; a list left [] was a false feed-shape error.
  Hovers h;
  RunResult r = analyze(
      "import sys\n"
      "words = open(sys.argv[1]).read().split()\n"
      "b = []\n"
      "b.extend(words)\n"
      "once = b\n"
      "batch = []\n"
      "while len(batch) < 5:\n"
      "    batch.extend(words[:5])\n"
      "looped = batch\n"
      "known = [1]\n"
      "known.extend([2, 3])\n"
      "exact = known\n",
      h);
  INFO(r.diagnosticText());
  CHECK(r.diagnostics.empty());
  CHECK(h.at["once@5"] == "<unknown list>");
  CHECK(h.at["looped@9"] == "<unknown list>");
  CHECK(h.at["exact@12"] == "[1, 2, 3]");
}

TEST_CASE("abstract: a long known sequence's first item runs exactly, the rest joined", "[lang][interp][abstract]") {
  // The first batch of `for i in range(0, n, 50)` is the one a program fails on first.
  Hovers h;
  RunResult r = analyze(
      "total = 0\n"
      "for i in range(0, 1000, 50):\n"
      "    total += 100 // i\n"
      "after = total\n",
      h);
  REQUIRE(r.diagnostics.size() == 1);
  CHECK(r.diagnostics[0].code == "uncaught-exception");
  CHECK(r.diagnostics[0].message.find("ZeroDivisionError") != std::string::npos);
  CHECK(h.at["after@4"] == "<unknown>");  // the failed statement left total unknown
  RunResult fine = analyze(
      "total = 0\n"
      "for i in range(1, 1000, 50):\n"
      "    total += 100 // i\n",
      h);
  CHECK(fine.diagnostics.empty());
}

TEST_CASE("abstract: recursion is bounded", "[lang][interp][abstract]") {
  Hovers h;
  auto t0 = std::chrono::steady_clock::now();
  RunResult r = analyze(
      "def forever(n):\n"
      "    return forever(n + 1)\n"
      "def fib(n):\n"
      "    if n < 2:\n"
      "        return n\n"
      "    return fib(n - 1) + fib(n - 2)\n"
      "a = forever(0)\n"
      "b = fib(30)\n"
      "import numpy as np\n"
      "c = fib(np.int64(9))\n",
      h);
  CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(2));
  CHECK(h.at["a@7"] == "<unknown>");
  CHECK(h.at.count("b@8") == 1);
  CHECK(h.at.count("c@10") == 1);
  CHECK(!r.hasDiagnostic("uncaught-exception"));
}

TEST_CASE("abstract: no side effects: no files written, no output, no sleeping", "[lang][interp][abstract]") {
  namespace fs = std::filesystem;
  fs::path target = fs::temp_directory_path() / "tlens_abstract_must_not_exist.txt";
  fs::remove(target);
  Hovers h;
  auto t0 = std::chrono::steady_clock::now();
  RunResult r = analyze(
      "import time, os, sys\n"
      "f = open(" + std::string("'") + target.string() + "', 'w')\n"
      "f.write('data')\n"
      "f.close()\n"
      "with open('" + target.string() + "', 'w') as g:\n"
      "    g.write('more')\n"
      "os.makedirs('" + (fs::temp_directory_path() / "tlens_abstract_dir").string() + "')\n"
      "print('hello')\n"
      "sys.stdout.write('out')\n"
      "sys.stderr.write('err')\n"
      "time.sleep(30)\n",
      h);
  CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(2));
  CHECK_FALSE(fs::exists(target));
  CHECK_FALSE(fs::exists(fs::temp_directory_path() / "tlens_abstract_dir"));
  CHECK(r.out.empty());
  CHECK(r.err.empty());
  CHECK(h.at["f@2"] == "<unknown>");
}

TEST_CASE("abstract: functions nothing calls are analysed with unknown arguments", "[lang][interp][abstract]") {
  Hovers h;
  RunResult r = analyze(
      "SCALE = 3\n"
      "def helper(x, k=2, *rest, flag, **opts):\n"
      "    y = x * k\n"
      "    z = k * SCALE\n"
      "    return y\n"
      "class Model:\n"
      "    def __init__(self, units):\n"
      "        self.units = units\n"
      "    def forward(self, x):\n"
      "        width = self.units\n"
      "        inner = self.helper()\n"
      "        return x\n"
      "    def helper(self):\n"
      "        return 7\n"
      "    @staticmethod\n"
      "    def make(n):\n"
      "        m = n\n"
      "    @classmethod\n"
      "    def build(cls):\n"
      "        kind = cls\n",
      h);
  CHECK(r.diagnostics.empty());
  CHECK(h.at["x@2"] == "<unknown>");
  CHECK(h.at["y@3"] == "<unknown>");
  CHECK(h.at["z@4"] == "6");
  CHECK(h.at["width@10"] == "<unknown>");
  CHECK(h.at["inner@11"] == "7");
  CHECK(h.at["m@17"] == "<unknown>");
  CHECK(h.at["kind@20"] == "<class '__main__.Model'>");
}

TEST_CASE("abstract: except handlers are analysed even when nothing raises", "[lang][interp][abstract]") {
  Hovers h;
  analyze(
      "try:\n"
      "    value = int('12')\n"
      "except ValueError as e:\n"
      "    message = str(e)\n"
      "    value = -1\n"
      "result = value\n",
      h);
  CHECK(h.at["message@4"] == "''");
  CHECK(h.at["result@6"] == "<unknown int>");
}

TEST_CASE("abstract: errors on known values are warnings and analysis continues", "[lang][interp][abstract]") {
  Hovers h;
  RunResult r = analyze(
      "a = 1 + 'x'\n"
      "b = 2\n",
      h);
  REQUIRE(r.diagnostics.size() == 1);
  CHECK(r.diagnostics[0].severity == Severity::Warning);
  CHECK(r.diagnostics[0].message == "TypeError: unsupported operand type(s) for +: 'int' and 'str'");
  CHECK(r.diagnostics[0].start.line == 0);
  CHECK(h.at["b@2"] == "2");
  CHECK(r.status == 0);
}

TEST_CASE("abstract: a return that fails returns an unknown value, so its caller gets no second warning", "[lang][interp][abstract]") {
  Hovers h;
  RunResult r = analyze(
      "def g(x):\n"
      "    return x.nonexistent_method(), 2\n"
      "a, b = g(3)\n"
      "c = b\n",
      h);
  REQUIRE(r.diagnostics.size() == 1);
  CHECK(r.diagnostics[0].message == "AttributeError: 'int' object has no attribute 'nonexistent_method'");
  CHECK(r.diagnostics[0].start.line == 1);
  CHECK(r.status == 0);
}

TEST_CASE("abstract: a return whose value needs an unknown returns an unknown value, not None", "[lang][interp][abstract]") {
  // `return items[:n]` with n unknown: the slice cannot be taken; falling off the end would
  // return None and the caller's `for a, b in ...` or `.extend` would warn falsely.
  Hovers h;
  RunResult r = analyze(
      "import sys\n"
      "n = int(sys.argv[1])\n"
      "def top(n):\n"
      "    return [('a', 2), ('b', 1)][:n]\n"
      "count = [['RARE', -1]]\n"
      "count.extend(top(n))\n"
      "for word, c in top(n):\n"
      "    pass\n"
      "x = top(n)\n",
      h);
  INFO(r.diagnosticText());
  CHECK(r.diagnostics.empty());
  CHECK(h.at["x@9"] == "<unknown>");
}

TEST_CASE("abstract: the work budget stops the analysis and later values are unknown", "[lang][interp][abstract]") {
  // 16^5 iterations: far more steps than either limit allows. The work budget (steps) is what
  // stops an analysis; the clock is only a safety limit, and says so when it is what stopped it.
  const char* src =
      "before = 1\n"
      "n = 0\n"
      "for a in range(16):\n"
      "    for b in range(16):\n"
      "        for c in range(16):\n"
      "            for d in range(16):\n"
      "                for e in range(16):\n"
      "                    n += 1\n"
      "after = 2\n";
  for (bool byClock : {false, true}) {
    INFO((byClock ? "time limit" : "work budget"));
    InterpOptions o;
    o.mode = Mode::Abstract;
    o.workBudget = byClock ? 0 : 10000;
    o.timeBudgetMs = byClock ? 50 : 0;
    o.analyzeUncalledFunctions = false;
    Interpreter in(o);
    auto t0 = std::chrono::steady_clock::now();
    in.runSource("main.py", src);
    CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(2));
    std::string code;
    for (const auto& d : in.diagnostics()) code = d.code;
    CHECK(code == (byClock ? "time-limit" : "budget-exceeded"));
    CHECK(in.budgetExceeded());
    CHECK(in.repr(in.mainModule()->get("before")) == "1");
    CHECK(isUnknown(in.mainModule()->get("after")));
  }
}

TEST_CASE("abstract: the work budget stops at the same statement every time", "[lang][interp][abstract]") {
  auto stopLine = [] {
    InterpOptions o;
    o.mode = Mode::Abstract;
    o.workBudget = 5000;
    o.timeBudgetMs = 0;
    Interpreter in(o);
    std::string src = "def f(x):\n    return [i * x for i in range(8)]\n";
    for (int i = 0; i < 2000; ++i) src += "v" + std::to_string(i) + " = f(" + std::to_string(i) + ")\n";
    in.runSource("main.py", src);
    for (const auto& d : in.diagnostics())
      if (d.code == "budget-exceeded") return d.start.line;
    return -1;
  };
  int first = stopLine();
  CHECK(first > 2);
  CHECK(first < 2002);
  for (int i = 0; i < 3; ++i) CHECK(stopLine() == first);
}

TEST_CASE("abstract: argv-driven argparse defaults are known", "[lang][interp][abstract]") {
  Hovers h;
  analyze(
      "import argparse\n"
      "p = argparse.ArgumentParser()\n"
      "p.add_argument('--batch_size', type=int, default=100)\n"
      "p.add_argument('--lr', type=float, default=0.001)\n"
      "args = p.parse_args()\n"
      "bs = args.batch_size\n"
      "lr = args.lr\n",
      h, nullptr, [](InterpOptions& o) { o.argv = {"--lr", "0.5"}; });
  CHECK(h.at["bs@6"] == "100");
  CHECK(h.at["lr@7"] == "0.5");
}

TEST_CASE("abstract: huge values are never built and long native loops respect the budget", "[lang][interp][abstract]") {
  Hovers h;
  auto t0 = std::chrono::steady_clock::now();
  analyze(
      "s = 'a' * 10 ** 9\n"
      "l = [0] * 10 ** 9\n"
      "r = list(range(10 ** 9))\n"
      "small = [0] * 3\n"
      "t = sum(range(10 ** 12))\n",
      h);
  CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(3));
  CHECK(h.at["s@1"] == "<unknown str>");
  CHECK(h.at["l@2"] == "<unknown list>");
  CHECK(h.at["r@3"] == "<unknown list>");
  CHECK(h.at["small@4"] == "[0, 0, 0]");
}

TEST_CASE("abstract: sys.argv is unknown without a command line, argparse keeps its defaults", "[lang][interp][abstract]") {
  Hovers h;
  RunResult r = analyze(
      "import sys\n"
      "import argparse\n"
      "argv = sys.argv\n"
      "if len(sys.argv) > 1:\n"
      "    mode = 'args'\n"
      "else:\n"
      "    mode = 'none'\n"
      "p = argparse.ArgumentParser()\n"
      "p.add_argument('--batch_size', type=int, default=100)\n"
      "p.add_argument('data')\n"
      "args = p.parse_args()\n"
      "bs = args.batch_size\n"
      "data = args.data\n",
      h);
  CHECK(r.diagnostics.empty());
  CHECK(h.at["argv@3"] == "<unknown list>");
  CHECK(h.at["mode@5"] == "'args'");  // both branches analysed
  CHECK(h.at["mode@7"] == "'none'");
  CHECK(h.at["bs@12"] == "100");
  CHECK(h.at["data@13"] == "<unknown>");
}

TEST_CASE("abstract: the analysis goes on after a failed statement, whose names become unknown", "[lang][interp][abstract]") {
  Hovers h;
  RunResult r = analyze(
      "n = 3\n"
      "def f():\n"
      "    k = 1\n"
      "    k = int('ten')\n"
      "    after = k\n"
      "    return 5\n"
      "with open('x') as fh:\n"
      "    n = 'a' + 1\n"
      "    m = n\n"
      "    below = 4\n"
      "r = f()\n"
      "r2 = f()\n",
      h);
  // One warning per place, though f ran twice.
  REQUIRE(r.diagnostics.size() == 2);
  CHECK(r.diagnostics[0].code == "uncaught-exception");
  CHECK(r.diagnostics[0].message.find("TypeError") != std::string::npos);
  CHECK(r.diagnostics[1].message.find("ValueError") != std::string::npos);
  CHECK(h.at["m@9"] == "<unknown>");   // not the 3 it held before the failed statement
  CHECK(h.at["below@10"] == "4");
  CHECK(h.at["after@5"] == "<unknown>");
  CHECK(h.at["r@11"] == "5");
}

TEST_CASE("abstract: exceptions inside try bodies reach their handlers, raise under an unknown test is a dead branch",
          "[lang][interp][abstract]") {
  Hovers h;
  RunResult r = analyze(
      "import time\n"
      "try:\n"
      "    v = int('ten')\n"
      "    w = 1\n"
      "except ValueError:\n"
      "    v = 0\n"
      "def check(x):\n"
      "    if x > time.time():\n"
      "        raise ValueError('too big')\n"
      "    return x\n"
      "c = check(3)\n"
      "out = v\n",
      h);
  CHECK(r.diagnostics.empty());
  CHECK(h.at["out@12"] == "0");
  CHECK(h.at["c@11"] == "3");
}
