// Uncaught exceptions: Python-style tracebacks on the error sink, exit statuses, diagnostics at
// the raising line, SystemExit.
#include "InterpTestSupport.h"

TEST_CASE("an uncaught error prints a Python traceback and fails the run", "[lang][interp]") {
  RunResult r = runPython(
      "def inner(x):\n"
      "    return x / 0\n"
      "\n"
      "def outer():\n"
      "    return inner(1)\n"
      "print('before')\n"
      "outer()\n"
      "print('after')\n");
  CHECK(r.out == "before\n");
  CHECK(r.status == 1);
  CHECK(r.err ==
        "Traceback (most recent call last):\n"
        "  File \"main.py\", line 7, in <module>\n"
        "    outer()\n"
        "  File \"main.py\", line 5, in outer\n"
        "    return inner(1)\n"
        "  File \"main.py\", line 2, in inner\n"
        "    return x / 0\n"
        "ZeroDivisionError: division by zero\n");
  REQUIRE(r.diagnostics.size() == 1);
  const Diagnostic& d = r.diagnostics[0];
  CHECK(d.severity == Severity::Error);
  CHECK(d.code == "uncaught-exception");
  CHECK(d.message == "ZeroDivisionError: division by zero");
  CHECK(d.start.line == 1);  // 0-based: line 2
  CHECK(d.related.size() == 2);
}

TEST_CASE("tracebacks show chained exceptions like CPython", "[lang][interp]") {
  RunResult r = runPython(
      "try:\n"
      "    {}['k']\n"
      "except KeyError as e:\n"
      "    raise ValueError('bad key') from e\n");
  CHECK(r.status == 1);
  CHECK(r.err ==
        "Traceback (most recent call last):\n"
        "  File \"main.py\", line 2, in <module>\n"
        "    {}['k']\n"
        "KeyError: 'k'\n"
        "\n"
        "The above exception was the direct cause of the following exception:\n"
        "\n"
        "Traceback (most recent call last):\n"
        "  File \"main.py\", line 4, in <module>\n"
        "    raise ValueError('bad key') from e\n"
        "ValueError: bad key\n");

  RunResult ctx = runPython(
      "try:\n"
      "    1 / 0\n"
      "except ZeroDivisionError:\n"
      "    undefined\n");
  CHECK(ctx.err.find("During handling of the above exception, another exception occurred:") != std::string::npos);
  CHECK(ctx.err.find("NameError: name 'undefined' is not defined\n") != std::string::npos);
}

TEST_CASE("user exception classes print with their module", "[lang][interp]") {
  RunResult r = runPython(
      "class TrainingError(Exception):\n"
      "    pass\n"
      "raise TrainingError('diverged')\n");
  CHECK(r.err ==
        "Traceback (most recent call last):\n"
        "  File \"main.py\", line 3, in <module>\n"
        "    raise TrainingError('diverged')\n"
        "__main__.TrainingError: diverged\n");
}

TEST_CASE("sys.exit sets the exit status without a traceback", "[lang][interp]") {
  CHECK(runPython("import sys\nsys.exit(3)\n").status == 3);
  CHECK(runPython("import sys\nsys.exit()\n").status == 0);
  RunResult msg = runPython("import sys\nsys.exit('fatal: no data')\n");
  CHECK(msg.status == 1);
  CHECK(msg.err == "fatal: no data\n");
  CHECK(msg.diagnostics.empty());
  CHECK(runPython("exit(4)\n").status == 4);
}

TEST_CASE("errors inside methods and lambdas name their frames", "[lang][interp]") {
  RunResult r = runPython(
      "class Model:\n"
      "    def forward(self, xs):\n"
      "        return list(map(lambda x: x.shape, xs))\n"
      "Model().forward([1])\n");
  CHECK(r.err ==
        "Traceback (most recent call last):\n"
        "  File \"main.py\", line 4, in <module>\n"
        "    Model().forward([1])\n"
        "  File \"main.py\", line 3, in forward\n"
        "    return list(map(lambda x: x.shape, xs))\n"
        "  File \"main.py\", line 3, in <lambda>\n"
        "    return list(map(lambda x: x.shape, xs))\n"
        "AttributeError: 'int' object has no attribute 'shape'\n");
}
