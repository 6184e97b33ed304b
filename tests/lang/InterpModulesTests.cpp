// Imports of workspace modules: files next to the importing file, packages, relative imports,
// workspace roots, caching, wildcard imports, import errors, and in-memory files.
#include <filesystem>
#include <fstream>
#include <map>

#include "InterpTestSupport.h"

namespace {
namespace fs = std::filesystem;

/// A temporary workspace directory with files, removed afterwards.
struct Workspace {
  fs::path root;
  Workspace() {
    root = fs::temp_directory_path() / ("tlens_ws_" + std::to_string(reinterpret_cast<uintptr_t>(this)));
    fs::remove_all(root);
    fs::create_directories(root);
  }
  ~Workspace() { fs::remove_all(root); }
  void write(const std::string& rel, const std::string& text) {
    fs::path p = root / rel;
    fs::create_directories(p.parent_path());
    std::ofstream(p) << text;
  }
  std::string path(const std::string& rel) const { return (root / rel).string(); }
};

RunResult runFile(const Workspace& ws, const std::string& rel, const std::function<void(InterpOptions&)>& configure = {}) {
  std::ifstream in(ws.path(rel));
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return runPython(text, Mode::Concrete, configure, {}, ws.path(rel));
}

}  // namespace

TEST_CASE("workspace modules and packages are imported once, relative to the importing file", "[lang][interp]") {
  Workspace ws;
  ws.write("helper.py", "print('helper loaded', __name__)\nX = 1\ndef f():\n    return 'f'\n_private = 0\n");
  ws.write("pkg/__init__.py", "INIT = True\n");
  ws.write("pkg/sibling.py", "S = 41\n");
  ws.write("pkg/sub.py", "from . import sibling\nfrom .sibling import S\nvalue = S + 1\n");
  ws.write("pkg/deep/__init__.py", "");
  ws.write("pkg/deep/leaf.py", "from ..sibling import S\nLEAF = S * 2\n");
  ws.write("main.py",
           "import helper\n"
           "import helper as again\n"
           "from helper import X, f as g\n"
           "import pkg.sub\n"
           "from pkg.sub import value\n"
           "import pkg.deep.leaf as leaf\n"
           "from pkg import sibling\n"
           "from helper import *\n"
           "print(helper.X, again is helper, X, g(), pkg.INIT, pkg.sub.value, value, leaf.LEAF, sibling.S)\n"
           "print('_private' in dir(), f())\n");
  RunResult r = runFile(ws, "main.py");
  INFO(r.err);
  CHECK(r.out == "helper loaded helper\n1 True 1 f True 42 42 82 41\nFalse f\n");
  CHECK(r.status == 0);
}

TEST_CASE("workspace roots are searched for absolute imports", "[lang][interp]") {
  Workspace ws;
  ws.write("lib/shared/util.py", "def twice(x):\n    return 2 * x\n");
  ws.write("app/main.py", "from shared.util import twice\nprint(twice(21))\n");
  RunResult r = runFile(ws, "app/main.py", [&](InterpOptions& o) { o.workspaceRoots = {ws.path("lib")}; });
  CHECK(r.out == "42\n");
}

TEST_CASE("import errors match CPython", "[lang][interp]") {
  Workspace ws;
  ws.write("helper.py", "X = 1\n");
  ws.write("broken.py", "X = 1\nraise ValueError('broken at import')\n");
  ws.write("main.py",
           "try:\n"
           "    import missing_module\n"
           "except ModuleNotFoundError as e:\n"
           "    print(e)\n"
           "try:\n"
           "    from helper import nope\n"
           "except ImportError as e:\n"
           "    print(str(e).startswith(\"cannot import name 'nope' from 'helper'\"))\n"
           "try:\n"
           "    import broken\n"
           "except ValueError as e:\n"
           "    print(e)\n"
           "import sys\n"
           "print('broken' in sys.modules)\n");
  RunResult r = runFile(ws, "main.py");
  CHECK(r.out == "No module named 'missing_module'\nTrue\nbroken at import\nFalse\n");
}

TEST_CASE("circular imports see the partially initialised module", "[lang][interp]") {
  Workspace ws;
  ws.write("a.py", "A = 1\nimport b\nA2 = b.B + 1\n");
  ws.write("b.py", "import a\nB = a.A + 10\n");
  ws.write("main.py", "import a\nprint(a.A2)\n");
  CHECK(runFile(ws, "main.py").out == "12\n");
}

TEST_CASE("the language server can supply unsaved files through loadFile", "[lang][interp]") {
  std::map<std::string, std::string> buffers{{"/virtual/model.py", "UNITS = 128\n"}};
  RunResult r = runPython("import model\nprint(model.UNITS)\n", Mode::Concrete,
                          [&](InterpOptions& o) {
                            o.loadFile = [&](const std::string& p) -> std::shared_ptr<const tlens::lang::SourceFile> {
                              auto it = buffers.find(p);
                              if (it == buffers.end()) return nullptr;
                              return std::make_shared<tlens::lang::SourceFile>(p, it->second);
                            };
                          },
                          {}, "/virtual/main.py");
  CHECK(r.out == "128\n");
}

TEST_CASE("abstract analysis of an unresolved import gives unknown values, silently", "[lang][interp][abstract]") {
  // A module neither modelled nor among the user's files is most often one of the user's Python
  // (pandas, cv2): `tlens run` imports it there, so the editor must not flag the import.
  RunResult r = runPython("import tensorflow as tf\nfrom nowhere import thing\nx = tf.constant(thing)\ny = x + 1\n",
                          Mode::Abstract);
  CHECK(r.status == 0);
  CHECK(r.diagnostics.empty());
  CHECK_FALSE(r.hasDiagnostic("unresolved-import"));
}

TEST_CASE("random.Random instances have generators of their own, reproducible by seed", "[lang][interp]") {
  RunResult r = runPython(R"(import random
a, b = random.Random(42), random.Random(42)
xs = [a.randint(1, 6) for _ in range(20)]
print(xs == [b.randint(1, 6) for _ in range(20)], all(1 <= x <= 6 for x in xs))
random.seed(1)
c = random.Random(7)
g = random.random()
random.seed(1)
print(g == random.random(), 0.0 <= c.random() < 1.0, 2.0 <= c.uniform(2, 3) <= 3.0, c.choice("xyz") in "xyz")
l = list(range(10))
c.shuffle(l)
print(sorted(l) == list(range(10)), len(set(c.sample(range(100), 5))), type(c.gauss(0.0, 1.0)).__name__)
c.seed(3)
d = random.Random(3)
print(c.random() == d.random(), c.randrange(0, 10, 5) in (0, 5))
class R(random.Random):
    pass
print(0 <= R().randint(0, 3) <= 3, isinstance(R(), random.Random))
print(len(c.choices("ab", k=4)), set(random.choices([1, 2, 3], weights=[0, 1, 0], k=5)), random.choices([7]))
)");
  CHECK(r.err == "");
  CHECK(r.out == "True True\nTrue True True True\nTrue 5 float\nTrue True\nTrue True\n4 {2} [7]\n");
}
