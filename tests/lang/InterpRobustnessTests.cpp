// Bad input never crashes the interpreter: syntax errors, absurd nesting, huge files, infinite
// loops in abstract mode, unsupported constructs, and a pile of erroneous snippets. Reference
// cycles are broken when the interpreter goes away.
#include <chrono>

#include "InterpTestSupport.h"

TEST_CASE("syntax errors are reported and the valid statements still run", "[lang][interp]") {
  RunResult r = runPython(
      "print('first')\n"
      "x = (1 +\n"
      "print('second')\n"
      "def broken(:\n"
      "    pass\n"
      "print('third')\n");
  CHECK(r.hasDiagnostic("syntax-error"));
  CHECK(r.out.find("first\n") != std::string::npos);
  CHECK(r.out.find("third\n") != std::string::npos);
  for (const auto& d : r.diagnostics)
    if (d.code == "syntax-error") CHECK(d.severity == Severity::Error);
}

TEST_CASE("10,000 nested parentheses do not overflow the stack", "[lang][interp]") {
  std::string deep = "x = " + std::string(10000, '(') + "1" + std::string(10000, ')') + "\nprint(x)\n";
  CHECK(runPython(deep).out == "1\n");
  CHECK(runPython(deep, Mode::Abstract).status == 0);
  std::string unbalanced = "x = " + std::string(10000, '(') + "1" + std::string(9990, ')') + "\nprint(2)\n";
  RunResult r = runPython(unbalanced);
  CHECK(r.hasDiagnostic("syntax-error"));
}

TEST_CASE("absurdly deep expressions raise RecursionError instead of crashing", "[lang][interp]") {
  std::string chain = "z = 1" + std::string() ;
  for (int i = 0; i < 200000; ++i) chain += " + 1";
  chain += "\nprint('after')\n";
  RunResult c = runPython(chain);
  CHECK(c.err.find("RecursionError") != std::string::npos);
  CHECK(c.status == 1);
  RunResult a = runPython(chain, Mode::Abstract);
  CHECK(a.status == 0);
  CHECK(a.hasDiagnostic("uncaught-exception"));
  std::string lists = "y = " + std::string(50000, '[') + std::string(50000, ']') + "\nprint(len(y))\n";
  RunResult l = runPython(lists);
  CHECK((l.out == "1\n" || l.err.find("RecursionError") != std::string::npos));
}

TEST_CASE("a 1 MB file runs", "[lang][interp]") {
  std::string big;
  for (int i = 0; big.size() < (1u << 20); ++i) big += "v" + std::to_string(i) + " = " + std::to_string(i) + " * 2 + len('abc')\n";
  big += "print('done')\n";
  CHECK(runPython(big).out == "done\n");
  RunResult a = runPython(big, Mode::Abstract, [](InterpOptions& o) { o.timeBudgetMs = 5000; });
  CHECK(a.status == 0);
}

TEST_CASE("while True: pass ends in abstract mode", "[lang][interp][abstract]") {
  auto t0 = std::chrono::steady_clock::now();
  RunResult r = runPython("while True:\n    pass\nx = 1\n", Mode::Abstract);
  CHECK(r.status == 0);
  CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::milliseconds(500));
}

TEST_CASE("unsupported constructs are reported once and execution goes on", "[lang][interp]") {
  RunResult r = runPython(
      "async def fetch():\n"
      "    await thing\n"
      "z = 3j\n"
      "for i in range(3):\n"
      "    w = 2j\n"
      "match z:\n"
      "    case _:\n"
      "        pass\n"
      "print('still running')\n");
  CHECK(r.out == "still running\n");
  int info = 0;
  for (const auto& d : r.diagnostics) {
    CHECK(d.severity == Severity::Information);
    CHECK(d.code == "unsupported");
    ++info;
  }
  CHECK(info == 4);  // async def, 3j, 2j (once, not per iteration), match
}

TEST_CASE("erroneous snippets raise Python errors, never crash", "[lang][interp]") {
  const char* snippets[] = {
      "x = [1, 2, 3]\nx[10 ** 18]\n",
      "'%s %s' % (1,)\n",
      "'{'.format()\n",
      "a = []\na.append(a)\nprint(a, repr(a))\nd = {}\nd['d'] = d\nprint(d)\n",
      "d = {}\nd[[1]] = 1\n",
      "sorted([1, 'a'])\n",
      "class A(A): pass\n",
      "class B(1): pass\n",
      "def f(*, a): pass\nf(1)\n",
      "raise 5\n",
      "del undefined\n",
      "return 5\n",
      "break\n",
      "nonlocal x\n",
      "x = lambda: (yield)\nx()\n",
      "[*5]\n",
      "{**5}\n",
      "print(**{1: 2})\n",
      "print('a' * -1, [0] * -5)\n",
      "[0] * (10 ** 10)\n",
      "list(range(10 ** 10))\n",
      "int('9' * 30)\n",
      "2 ** 100\n",
      "print(1e308 * 10, float('nan') == float('nan'))\n",
      "x = 1\nx.y = 2\n",
      "'abc'[::0]\n",
      "super()\n",
      "object.__new__(5)\n",
      "type(1, 2)\n",
      "isinstance(1, 2)\n",
      "getattr(1)\n",
      "next(1)\n",
      "print(sep=1)\n",
      "import .\n",
      "from . import nothing_here\n",
      "x = (1, 2\n",
      "\x01\x02\xff\xfe garbage \x00 bytes\n",
      "class C:\n    def __eq__(self, o): return True\n{C(): 1}\n",
      "class L:\n    def __len__(self): return -1\nlen(L())\n",
      "class R:\n    def __repr__(self): return 5\nrepr(R())\n",
      "class I:\n    def __iter__(self): return 5\nlist(I())\n",
      "def g():\n    yield from g()\nlist(g())\n",
      "def h():\n    while True:\n        yield 1\nfor x in h():\n    break\n",
      "import sys\nsys.setrecursionlimit(10 ** 9)\ndef r(n): return r(n + 1)\nr(0)\n",
      "min()\n",
      "u'\\N{BULLET}' + b'x'\n",
      "f'{'\n",
      "x: = 1\n",
      "@\ndef f(): pass\n",
      "d = {}\nclass K:\n    def __hash__(self): return 1\n    def __eq__(self, o):\n        d.clear()\n        return False\n"
      "d[K()] = 1\nd[K()] = 2\nprint(K() in d, len(d))\n",
      "l = []\nclass E:\n    def __eq__(self, o):\n        l.clear()\n        return False\n"
      "l.extend([E(), E(), E()])\nprint(E() in l, l.count(E()), [1, E()] == [1, E()])\n",
      "class R:\n    def __repr__(self):\n        xs.clear()\n        return 'r'\nxs = [R(), R(), R()]\nprint(xs)\n",
  };
  for (const char* s : snippets) {
    INFO(s);
    RunResult c = runPython(s);
    CHECK(c.status != Interpreter::kExitInternal);
    RunResult a = runPython(s, Mode::Abstract);
    CHECK(a.status != Interpreter::kExitInternal);
  }
}

TEST_CASE("reference cycles are broken when the interpreter is destroyed", "[lang][interp]") {
  std::weak_ptr<Object> list, instance, fn;
  {
    Interpreter in;
    in.runSource("main.py",
                 "a = []\n"
                 "a.append(a)\n"
                 "class Node:\n"
                 "    def __init__(self):\n"
                 "        self.me = self\n"
                 "n = Node()\n"
                 "def f():\n"
                 "    return f\n");
    list = in.mainModule()->get("a");
    instance = in.mainModule()->get("n");
    fn = in.mainModule()->get("f");
    CHECK_FALSE(list.expired());
  }
  CHECK(list.expired());
  CHECK(instance.expired());
  CHECK(fn.expired());
}

TEST_CASE("suspended generators are unwound when the interpreter goes away", "[lang][interp]") {
  std::weak_ptr<Object> gen;
  {
    Interpreter in;
    in.runSource("main.py",
                 "def forever():\n"
                 "    data = [1, 2, 3]\n"
                 "    while True:\n"
                 "        yield data\n"
                 "g = forever()\n"
                 "next(g)\n"
                 "others = [forever() for _ in range(200)]\n"
                 "for o in others:\n"
                 "    next(o)\n");
    gen = in.mainModule()->get("g");
    CHECK_FALSE(gen.expired());
  }
  CHECK(gen.expired());
}

TEST_CASE("a traceback through a generator shows the consumer and the generator", "[lang][interp]") {
  RunResult r = runPython(
      "def items():\n"
      "    yield 1\n"
      "    raise KeyError('gone')\n"
      "for x in items():\n"
      "    pass\n");
  CHECK(r.err ==
        "Traceback (most recent call last):\n"
        "  File \"main.py\", line 4, in <module>\n"
        "    for x in items():\n"
        "  File \"main.py\", line 3, in items\n"
        "    raise KeyError('gone')\n"
        "KeyError: 'gone'\n");
}
