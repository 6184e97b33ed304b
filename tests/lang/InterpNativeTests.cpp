// The extension points: native modules, native objects (operators, subscripts, iteration,
// context managers), native functions with Python signatures, native classes user code
// subclasses, side-effecting functions and call stacks.
#include "FakeFlow.h"

namespace {

RunResult runFake(const std::string& src, fakeflow::State& st, Mode mode = Mode::Concrete) {
  return runPython(src, mode, {}, [&st](Interpreter& in) { fakeflow::install(in, st); });
}

}  // namespace

TEST_CASE("native modules are imported from the registry, submodules included", "[lang][interp]") {
  fakeflow::State st;
  RunResult r = runFake(
      "import fakeflow as ff\n"
      "import fakeflow.layers\n"
      "from fakeflow.layers import Layer\n"
      "print(ff.zeros([2, 3]), fakeflow.layers.Layer is Layer, ff.layers.Layer is Layer)\n",
      st);
  CHECK(r.out == "Tensor(2, 3) True True\n");
  CHECK(r.status == 0);
}

TEST_CASE("native objects support attributes, operators and reflected operators", "[lang][interp]") {
  fakeflow::State st;
  RunResult r = runFake(
      "import fakeflow as ff\n"
      "a = ff.zeros([2, 3])\n"
      "b = ff.zeros([3, 4])\n"
      "print(a.shape, a @ b, ff.matmul(a, b), 2 * a, a + 1, -a, len(a), [t for t in a], type(a).__name__)\n"
      "try:\n"
      "    b @ a\n"
      "except ValueError as e:\n"
      "    print(e)\n"
      "try:\n"
      "    if a: pass\n"
      "except TypeError as e:\n"
      "    print(e)\n"
      "try:\n"
      "    a.nope\n"
      "except AttributeError as e:\n"
      "    print(e)\n",
      st);
  CHECK(r.out ==
        "(2, 3) Tensor(2, 4) Tensor(2, 4) Tensor(2, 3) Tensor(2, 3) Tensor(2, 3) 2 [Tensor(3), Tensor(3)] Tensor\n"
        "inner dimensions must be equal, but are 4 and 2\n"
        "Using a Tensor as a Python bool is not allowed\n"
        "'Tensor' object has no attribute 'nope'\n");
}

TEST_CASE("multi-dimensional subscripts reach native objects as Python values", "[lang][interp]") {
  fakeflow::State st;
  runFake(
      "import fakeflow as ff\n"
      "t = ff.zeros([4, 4, 4])\n"
      "t[1:3, ::2, None, ...]\n"
      "t[0]\n"
      "t[:, -1]\n"
      "t[1,]\n",
      st);
  CHECK(st.subscriptKeys == std::vector<std::string>{"(slice(1, 3, None), slice(None, None, 2), None, Ellipsis)", "0",
                                                     "(slice(None, None, None), -1)", "(1,)"});
}

TEST_CASE("native context managers enter and exit around the block, also on errors", "[lang][interp]") {
  fakeflow::State st;
  RunResult r = runFake(
      "import fakeflow as ff\n"
      "with ff.name_scope('outer') as scope:\n"
      "    print(scope)\n"
      "    with ff.name_scope('inner'), ff.name_scope('third'):\n"
      "        pass\n"
      "try:\n"
      "    with ff.name_scope('failing'):\n"
      "        raise KeyError('x')\n"
      "except KeyError:\n"
      "    print('propagated')\n",
      st);
  CHECK(r.out == "outer/\npropagated\n");
  CHECK(st.scopes == std::vector<std::string>{"+outer", "+inner", "+third", "-third", "-inner", "-outer", "+failing", "-failing"});
}

TEST_CASE("native functions bind Python signatures with clear TypeErrors", "[lang][interp]") {
  fakeflow::State st;
  RunResult r = runFake(
      "import fakeflow as ff\n"
      "for call in (lambda: ff.zeros(), lambda: ff.zeros([1], 'f', 'n', 4), lambda: ff.zeros([1], size=2),\n"
      "             lambda: ff.zeros('abc'), lambda: ff.zeros([1], name='x', shape=[2])):\n"
      "    try:\n"
      "        call()\n"
      "    except TypeError as e:\n"
      "        print(e)\n",
      st);
  CHECK(r.out ==
        "zeros() missing 1 required positional argument: 'shape'\n"
        "zeros() takes from 1 to 3 positional arguments but 4 were given\n"
        "zeros() got an unexpected keyword argument 'size'\n"
        "'str' object cannot be interpreted as an integer\n"
        "zeros() got multiple values for argument 'shape'\n");
}

TEST_CASE("signatures parse defaults, keyword-only parameters and varargs", "[lang][interp]") {
  Signature s = Signature::parse("x, y=None, /, *args, axis=-1, keepdims=False, name='op', **kwargs");
  REQUIRE(s.params.size() == 7);
  CHECK(s.params[0].kind == ParamKind::PositionalOnly);
  CHECK(s.params[2].kind == ParamKind::VarArgs);
  CHECK(s.params[3].kind == ParamKind::KeywordOnly);
  CHECK(*asInt(s.params[3].defaultValue) == -1);
  CHECK(*asString(s.params[5].defaultValue) == "op");
  CHECK(s.params[6].kind == ParamKind::VarKeywords);
  Interpreter in;
  auto bound = s.bind(in, "f", {makeInt(1), makeInt(2), makeInt(3)}, {{"axis", makeInt(0)}, {"extra", none()}});
  CHECK(*asInt(bound[0]) == 1);
  CHECK(in.repr(bound[2]) == "(3,)");
  CHECK(*asInt(bound[3]) == 0);
  CHECK(in.repr(bound[6]) == "{'extra': None}");
}

TEST_CASE("user classes subclass native classes", "[lang][interp]") {
  fakeflow::State st;
  RunResult r = runFake(
      "import fakeflow as ff\n"
      "from fakeflow.layers import Layer\n"
      "class Double(Layer):\n"
      "    def __init__(self, k):\n"
      "        super().__init__(name='double')\n"
      "        self.k = k\n"
      "    def call(self, x):\n"
      "        return x * self.k\n"
      "d = Double(2)\n"
      "print(d.name, d.built, d(21), d.built, isinstance(d, Layer))\n",
      st);
  CHECK(r.out == "double False 42 True True\n");
  CHECK(r.status == 0);
}

TEST_CASE("native code records the Python call stack of the call creating a value", "[lang][interp]") {
  fakeflow::State st;
  runFake(
      "import fakeflow as ff\n"
      "def layer(n):\n"
      "    return ff.zeros([n, n])\n"
      "w = layer(3)\n",
      st);
  REQUIRE(st.lastStack.size() == 2);
  CHECK(st.lastStack[0].function == "<module>");
  CHECK(st.lastStack[0].location.line == 4);
  CHECK(st.lastStack[1].function == "layer");
  CHECK(st.lastStack[1].location.line == 3);
  CHECK(st.lastStack[1].location.column == 12);
  CHECK(st.lastStack[1].location.endColumn == 28);  // 1-based, exclusive
}

TEST_CASE("side-effecting native functions run concretely but never abstractly", "[lang][interp]") {
  fakeflow::State st;
  const char* src = "import fakeflow as ff\nr = ff.save('/tmp/model')\nprint(r)\n";
  CHECK(runFake(src, st).out == "saved\n");
  CHECK(st.saves == 1);
  runFake(src, st, Mode::Abstract);
  CHECK(st.saves == 1);
}

TEST_CASE("C++ exceptions from native code become RuntimeError", "[lang][interp]") {
  RunResult r = runPython(
      "import boom\n"
      "try:\n"
      "    boom.go()\n"
      "except RuntimeError as e:\n"
      "    print('caught:', e)\n",
      Mode::Concrete, {}, [](Interpreter& in) {
        in.modules().add("boom", [](Interpreter&) {
          auto m = makeModule("boom");
          m->set("go", NativeFunction::make("go", "", [](CallContext&) -> Value { throw std::runtime_error("engine failed"); }));
          return m;
        });
      });
  CHECK(r.out == "caught: engine failed\n");
}

TEST_CASE("an embedded module's functions see their own scopes, also when its text changes", "[lang][interp]") {
  // The scope analysis of embedded modules' definitions is shared by every interpreter of the
  // process (ExecDefinitions.cpp): another text under the same name, with a definition at the
  // same place that binds a local of the same name as a global, must not get another text's
  // analysis, also when its file lands at the address of a file that is gone.
  auto run = [](const std::string& module) {
    return runPython("import scopemod\nprint(scopemod.f())\n", Mode::Concrete, {},
                     [&](Interpreter& in) { in.modules().addSource("scopemod", module); })
        .out;
  };
  const std::pair<std::string, std::string> texts[] = {
      {"x = 'global'\ndef f():\n    return x\n", "global\n"},
      {"x = 'global'\ndef f():\n    x = 'local'\n    return x\n", "local\n"},
      {"x = 'global'\ndef f():\n    for x in ['loop']:\n        pass\n    return x\n", "loop\n"},
  };
  for (int i = 0; i < 12; ++i) {
    INFO("run " << i);
    CHECK(run(texts[i % 3].first) == texts[i % 3].second);
  }
}
