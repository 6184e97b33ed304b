// The Python bridge (lang/pybridge): programs that import modules tensorlens does not model
// (pandas, scikit-learn, matplotlib) run with them taken from a real Python, through the real
// `tlens` binary and through the debugger. Needs Debian's python3-pandas, python3-sklearn and
// python3-matplotlib (dev.sh's TEST_PKGS) and a tensorlens built with the bridge; the tests that
// need them skip, saying why, when they are missing.
#include <sys/wait.h>
#include <dlfcn.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include <catch2/catch.hpp>

#include "tests/dap/DapTestSupport.h"

namespace fs = std::filesystem;
using namespace tlens::dap::testing;

namespace {

// Debian's Python, with the test packages; tests pass it explicitly (python3 on PATH may be
// another Python without them).
const char* kPython = "/usr/bin/python3";

struct Outcome {
  int status = -1;
  std::string output;  ///< stdout and stderr together
};

Outcome sh(const std::string& cmd) {
  Outcome o;
  FILE* p = ::popen(("(" + cmd + ") 2>&1 </dev/null").c_str(), "r");
  REQUIRE(p);
  char buf[4096];
  while (size_t n = std::fread(buf, 1, sizeof buf, p)) o.output.append(buf, n);
  int st = ::pclose(p);
  o.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
  return o;
}

fs::path scratch(const std::string& name) {
  fs::path dir = fs::temp_directory_path() / "tlens_pybridge_tests" / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

fs::path writeProgram(const fs::path& dir, const std::string& name, const std::string& text) {
  fs::path p = dir / name;
  std::ofstream(p) << text;
  return p;
}

Outcome runProgram(const fs::path& program, const std::string& python = kPython) {
  return sh("timeout 120 " TLENS_BINARY " run --python '" + python + "' '" + program.string() + "'");
}

bool bridgeBuilt() { return fs::exists(fs::path(TLENS_BINARY).parent_path() / "libtlens_pybridge.so"); }

/// Whether Debian's Python has `modules` (e.g. "pandas, sklearn").
bool havePython(const std::string& modules) {
  return sh(std::string(kPython) + " -c 'import " + modules + "'").status == 0;
}

#define REQUIRE_BRIDGE(modules)                                                                   \
  if (!bridgeBuilt()) {                                                                           \
    WARN("skipped: tensorlens was built without the Python bridge (python3-dev, pybind11-dev)");  \
    return;                                                                                       \
  }                                                                                               \
  if (!havePython(modules)) {                                                                     \
    WARN("skipped: " << kPython << " lacks " << modules << " (dev.sh's TEST_PKGS)");              \
    return;                                                                                       \
  }

}  // namespace

TEST_CASE("pybridge: pandas and scikit-learn values cross as proxies, lists and ndarrays", "[dap][pybridge]") {
  REQUIRE_BRIDGE("pandas, sklearn, numpy");
  fs::path dir = scratch("values");
  fs::path prog = writeProgram(dir, "values.py", R"(
import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split
df = pd.DataFrame({"a": [1.0, 2.0, 3.0, 4.0], "b": [10, 20, 30, 40]})
print("shape", df.shape, len(df))
def double(x):
    return x * 2
print("apply", df["a"].apply(double).tolist())
X = df.values
print("values", type(X).__name__, X.shape, X.dtype, X.sum())
tr, te = train_test_split(np.arange(10), test_size=0.3, random_state=0)
print("split", tr.shape, te.shape, sorted(list(tr) + list(te)) == list(range(10)))
print("ops", (df["a"] + 1).sum(), 1 + df["a"].max(), (df["b"] > 15).sum())
print("columns", [c for c in df.columns], "a" in df)
with pd.option_context("display.max_rows", 5):
    print("ctx", pd.get_option("display.max_rows"))
try:
    df.loc["nope"]
except KeyError as e:
    print("KeyError caught", e)
print(repr(df.iloc[0]["b"]))
)");
  Outcome o = runProgram(prog);
  INFO(o.output);
  CHECK(o.status == 0);
  CHECK(o.output.find("shape (4, 2) 4") != std::string::npos);
  CHECK(o.output.find("apply [2.0, 4.0, 6.0, 8.0]") != std::string::npos);
  CHECK(o.output.find("values ndarray (4, 2) float64 110.0") != std::string::npos);
  CHECK(o.output.find("split (7,) (3,) True") != std::string::npos);
  CHECK(o.output.find("ops 14.0 5.0 3") != std::string::npos);
  CHECK(o.output.find("columns ['a', 'b'] True") != std::string::npos);
  CHECK(o.output.find("ctx 5") != std::string::npos);
  CHECK(o.output.find("KeyError caught 'nope'") != std::string::npos);
}

TEST_CASE("pybridge: numpy scalars reach CPython as numpy scalars, hashable labels", "[dap][pybridge]") {
  REQUIRE_BRIDGE("pandas, sklearn");
  fs::path dir = scratch("scalars");
  fs::path prog = writeProgram(dir, "labels.py", R"(
import numpy as np
import pandas as pd
from sklearn.preprocessing import MultiLabelBinarizer
y = np.array([3, 1, 3], dtype=np.uint8)
m = MultiLabelBinarizer().fit_transform([[i] for i in y])
print(m.tolist(), pd.Series([y[0]]).dtype, pd.Series([np.float32(1.5)]).dtype)
)");
  Outcome o = runProgram(prog);
  INFO(o.output);
  CHECK(o.status == 0);
  CHECK(o.output.find("[[0, 1], [1, 0], [0, 1]] uint8 float32") != std::string::npos);
}

TEST_CASE("pybridge: a pandas + scikit-learn + Keras program runs end to end", "[dap][pybridge]") {
  REQUIRE_BRIDGE("pandas, sklearn");
  fs::path dir = scratch("e2e");
  std::ofstream(dir / "data.csv") << "x1,x2,label\n";
  {
    std::ofstream csv(dir / "data.csv", std::ios::app);
    for (int i = 0; i < 200; ++i) csv << (i % 17) / 17.0 << "," << (i % 5) / 5.0 << "," << ((i % 17) / 17.0 + (i % 5) / 5.0 > 1.0 ? 1 : 0) << "\n";
  }
  fs::path prog = writeProgram(dir, "e2e.py", R"(
import os
import pandas as pd
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import StandardScaler
from sklearn.metrics import accuracy_score
from tensorflow import keras
df = pd.read_csv(os.path.join(os.path.dirname(__file__), "data.csv"))
X = df[["x1", "x2"]].values.astype("float32")
y = df["label"].values
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.25, random_state=1)
scaler = StandardScaler()
X_train = scaler.fit_transform(X_train)
X_test = scaler.transform(X_test)
model = keras.Sequential([keras.layers.Dense(8, activation="relu", input_shape=(2,)), keras.layers.Dense(1, activation="sigmoid")])
model.compile(optimizer=keras.optimizers.Adam(0.05), loss="binary_crossentropy", metrics=["accuracy"])
model.fit(X_train, y_train, epochs=30, batch_size=32, verbose=0)
pred = (model.predict(X_test, verbose=0) > 0.5).astype("int64").ravel()
print("accuracy", accuracy_score(y_test, pred) > 0.8, X_train.shape, X_test.shape)
)");
  Outcome o = runProgram(prog);
  INFO(o.output);
  CHECK(o.status == 0);
  CHECK(o.output.find("accuracy True (150, 2) (50, 2)") != std::string::npos);
}

TEST_CASE("pybridge: matplotlib figures become PNG files beside the program", "[dap][pybridge]") {
  REQUIRE_BRIDGE("matplotlib");
  fs::path dir = scratch("figures");
  fs::path prog = writeProgram(dir, "plot.py", R"(
import matplotlib.pyplot as plt
plt.plot([1, 2, 3], [4, 5, 6])
plt.title("shown")
plt.show()
plt.figure()
plt.plot([3, 2, 1])  # left open: written at exit
)");
  Outcome o = runProgram(prog);
  INFO(o.output);
  CHECK(o.status == 0);
  for (const char* name : {"plot_figure1.png", "plot_figure2.png"}) {
    fs::path png = dir / name;
    CHECK(o.output.find("tlens: wrote figure " + png.string()) != std::string::npos);
    REQUIRE(fs::exists(png));
    std::ifstream f(png, std::ios::binary);
    char magic[8] = {};
    f.read(magic, 8);
    CHECK(std::string(magic + 1, 3) == "PNG");
  }
}

TEST_CASE("pybridge: bytes cross both ways as bytes (savefig into the program's BytesIO)", "[dap][pybridge]") {
  REQUIRE_BRIDGE("matplotlib, PIL");
  fs::path dir = scratch("bytes");
  fs::path prog = writeProgram(dir, "buf.py", R"(
import io
import matplotlib.pyplot as plt
from PIL import Image
plt.plot([1, 2])
buf = io.BytesIO()
plt.savefig(buf, format='png')
buf.seek(0)
data = buf.getvalue()
print(type(data).__name__, data[1:4])
im = Image.frombytes("L", (2, 1), b"\x00\xff")
print(im.getpixel((1, 0)), type(im.tobytes()).__name__, im.tobytes())
)");
  Outcome o = runProgram(prog);
  INFO(o.output);
  CHECK(o.status == 0);
  CHECK(o.output.find("bytes b'PNG'") != std::string::npos);
  CHECK(o.output.find("255 bytes b'\\x00\\xff'") != std::string::npos);
}

TEST_CASE("pybridge: waiting for a button press writes the figures and returns at once", "[dap][pybridge]") {
  // pkmital/tensorflow_tutorials end with plt.waitforbuttonpress(): with no window, matplotlib's
  // Agg backend would wait forever.
  REQUIRE_BRIDGE("matplotlib");
  fs::path dir = scratch("wait");
  fs::path prog = writeProgram(dir, "wait.py", R"(
import matplotlib.pyplot as plt
plt.ion()
plt.plot([1, 2, 3])
plt.draw()
print("pressed", plt.waitforbuttonpress(), plt.ginput(2))
)");
  Outcome o = runProgram(prog);
  INFO(o.output);
  CHECK(o.status == 0);
  CHECK(o.output.find("pressed None []") != std::string::npos);
  CHECK(fs::exists(dir / "wait_figure1.png"));
}

TEST_CASE("pybridge: keras plot_model draws the model into the file asked for", "[dap][pybridge]") {
  // hunkim/DeepLearningZeroToAll: from keras.utils.vis_utils import plot_model; Keras draws with
  // pydot and graphviz, tensorlens with matplotlib.
  REQUIRE_BRIDGE("matplotlib");
  fs::path dir = scratch("plot_model");
  fs::path prog = writeProgram(dir, "model.py", R"(
import os
from keras.models import Model
from keras.layers import Input, Dense, concatenate
from keras.utils.vis_utils import plot_model
a = Input(shape=(4,))
b = Dense(3, name="left")(a)
c = Dense(2, name="right")(a)
out = Dense(1, name="out")(concatenate([b, c]))
plot_model(Model(a, out), to_file=os.path.join(os.path.dirname(__file__), "branches.png"), show_shapes=True)
print("plotted")
)");
  Outcome o = runProgram(prog);
  INFO(o.output);
  CHECK(o.status == 0);
  CHECK(o.output.find("plotted") != std::string::npos);
  fs::path png = dir / "branches.png";
  REQUIRE(fs::exists(png));
  std::ifstream f(png, std::ios::binary);
  char magic[8] = {};
  f.read(magic, 8);
  CHECK(std::string(magic + 1, 3) == "PNG");
  CHECK(!fs::exists(dir / "model_figure1.png"));  // its figure is closed, not shown again at exit
}

TEST_CASE("pybridge: a CPython exception is a Python exception of the program, with its traceback", "[dap][pybridge]") {
  REQUIRE_BRIDGE("pandas");
  fs::path dir = scratch("exception");
  fs::path prog = writeProgram(dir, "boom.py", R"(
import pandas as pd
df = pd.DataFrame({"a": [1, 2]})
try:
    df["missing"]
except KeyError:
    print("caught KeyError")
def f(row):
    return 1 / 0
df.apply(f, axis=1)
)");
  Outcome o = runProgram(prog);
  INFO(o.output);
  CHECK(o.status == 1);
  CHECK(o.output.find("caught KeyError") != std::string::npos);
  // The callback's own exception comes back through pandas, raised at the user's line.
  CHECK(o.output.find("ZeroDivisionError") != std::string::npos);
  CHECK(o.output.find("pandas DataFrame.apply [python]") != std::string::npos);
  CHECK(o.output.find("line 9, in f") != std::string::npos);

  fs::path prog2 = writeProgram(dir, "value_error.py", R"(
import numpy as np
from sklearn.linear_model import LinearRegression
LinearRegression().fit(np.zeros((3, 2)), np.zeros(5))
)");
  o = runProgram(prog2);
  INFO(o.output);
  CHECK(o.status == 1);
  CHECK(o.output.find("ValueError") != std::string::npos);
  CHECK(o.output.find("CPython traceback (most recent call last):") != std::string::npos);
  CHECK(o.output.find("sklearn/") != std::string::npos);
}

TEST_CASE("pybridge: missing modules, a module that raises on import, a Python that is not there", "[dap][pybridge]") {
  if (!bridgeBuilt()) {
    WARN("skipped: tensorlens was built without the Python bridge");
    return;
  }
  fs::path dir = scratch("bad");
  writeProgram(dir, "raises_on_import_mod.py", "");  // shadowed below: a package dir on sys.path is not searched
  fs::path missing = writeProgram(dir, "missing.py", R"(
try:
    import no_such_module_xyz
except ImportError as e:
    print("handled:", e)
import no_such_module_xyz.sub
)");
  Outcome o = runProgram(missing);
  INFO(o.output);
  CHECK(o.status == 1);
  CHECK(o.output.find("handled: No module named 'no_such_module_xyz'") != std::string::npos);
  CHECK(o.output.find(std::string("Python 3.")) != std::string::npos);
  CHECK(o.output.find(kPython) != std::string::npos);
  CHECK(o.output.find("ModuleNotFoundError") != std::string::npos);

  // A module of the user's Python that raises when imported: its own exception and traceback.
  fs::path site = dir / "site";
  fs::create_directories(site);
  std::ofstream(site / "broken_on_import.py") << "x = 1\nraise RuntimeError('broken on purpose')\n";
  fs::path broken = writeProgram(dir, "broken.py", "import broken_on_import\n");
  o = sh("PYTHONPATH='" + site.string() + "' timeout 120 " TLENS_BINARY " run --python " + kPython + " '" + broken.string() + "'");
  INFO(o.output);
  CHECK(o.status == 1);
  CHECK(o.output.find("RuntimeError: broken on purpose") != std::string::npos);
  CHECK(o.output.find("broken_on_import.py\", line 2") != std::string::npos);

  // `from m import *` of a module of the user's Python: its public names (no __all__ here).
  std::ofstream(site / "star_mod.py") << "x = 1\n_hidden = 2\ndef f():\n    return 3\n";
  fs::path star = writeProgram(dir, "star.py", "from star_mod import *\ntry:\n    _hidden\nexcept NameError:\n    print('star', x, f())\n");
  o = sh("PYTHONPATH='" + site.string() + "' timeout 120 " TLENS_BINARY " run --python " + kPython + " '" + star.string() + "'");
  INFO(o.output);
  CHECK(o.status == 0);
  CHECK(o.output.find("star 1 3") != std::string::npos);

  // A Python that is not there.
  o = runProgram(missing, "/nonexistent/python3");
  INFO(o.output);
  CHECK(o.status == 1);
  CHECK(o.output.find("No module named 'no_such_module_xyz'") != std::string::npos);
  CHECK(o.output.find("/nonexistent/python3' could not be run (not found") != std::string::npos);

  // The standard library is tensorlens' own (modelled) or refused, never CPython's.
  fs::path stdlib = writeProgram(dir, "stdlib.py", "import xdrlib\n");
  o = runProgram(stdlib);
  INFO(o.output);
  CHECK(o.status == 1);
  CHECK(o.output.find("a standard-library module tensorlens does not model") != std::string::npos);
}

TEST_CASE("pybridge: a Python of another version than the bridge's is refused, naming both", "[dap][pybridge]") {
  if (!bridgeBuilt()) {
    WARN("skipped: tensorlens was built without the Python bridge");
    return;
  }
  // A fake "Python 2.7" that answers the bridge's question.
  fs::path dir = scratch("version");
  fs::path fake = dir / "python2.7";
  std::ofstream(fake) << "#!/bin/sh\necho '{\"executable\": \"" << fake.string()
                      << "\", \"version\": \"2.7\", \"full\": \"2.7.18\", \"path\": [], \"stdlib\": []}'\n";
  fs::permissions(fake, fs::perms::owner_all);
  fs::path prog = writeProgram(dir, "p.py", "import pandas\n");
  Outcome o = runProgram(prog, fake.string());
  INFO(o.output);
  CHECK(o.status == 1);
  CHECK(o.output.find("Python 2.7.18 (" + fake.string() + ") does not match the Python 3.") != std::string::npos);
}

TEST_CASE("pybridge: a C extension that crashes ends the run with a message", "[dap][pybridge]") {
  REQUIRE_BRIDGE("ctypes");
  fs::path dir = scratch("crash");
  fs::path site = dir / "site";
  fs::create_directories(site);
  std::ofstream(site / "crasher.py") << "import ctypes\ndef crash():\n    ctypes.string_at(0)\n";
  fs::path prog = writeProgram(dir, "crash.py", "import crasher\nprint('before')\ncrasher.crash()\nprint('after')\n");
  Outcome o = sh("PYTHONPATH='" + site.string() + "' timeout 120 " TLENS_BINARY " run --python " + kPython + " '" + prog.string() + "'");
  INFO(o.output);
  CHECK(o.output.find("before") != std::string::npos);
  CHECK(o.output.find("after") == std::string::npos);
  CHECK(o.output.find("tlens: the program crashed inside a C extension of the embedded Python") != std::string::npos);
  CHECK(o.output.find("crasher.py\", line 3 in crash") != std::string::npos);  // faulthandler's stack
  CHECK(o.status == 128 + SIGSEGV);
}

TEST_CASE("pybridge: tlens itself, tlens check and tlens lsp never load libpython", "[dap][pybridge]") {
  Outcome o = sh("ldd " TLENS_BINARY);
  INFO(o.output);
  CHECK(o.status == 0);
  CHECK(o.output.find("libpython") == std::string::npos);
  if (!bridgeBuilt()) return;
  // tlens check of a program that imports pandas: the import is unknown, nothing is loaded.
  fs::path dir = scratch("check");
  fs::path prog = writeProgram(dir, "p.py", "import pandas as pd\ndf = pd.DataFrame()\nprint(df.shape)\n");
  o = sh("LD_DEBUG=libs timeout 60 " TLENS_BINARY " check '" + prog.string() + "' 2>&1 | grep -E 'libpython|libtlens_pybridge'");
  INFO(o.output);
  CHECK(o.output.find("libtlens_pybridge") == std::string::npos);
  CHECK(o.output.find("libpython") == std::string::npos);
  // While `tlens run` of the same program does load it.
  o = sh("LD_DEBUG=libs timeout 60 " TLENS_BINARY " run --python " + std::string(kPython) + " '" + prog.string() +
         "' 2>&1 | grep -E 'libpython|libtlens_pybridge'");
  INFO(o.output);
  if (havePython("pandas")) CHECK(o.output.find("libtlens_pybridge") != std::string::npos);
}

TEST_CASE("pybridge: the debugger stops in a function called from df.apply, under a frame for the library call", "[dap][pybridge]") {
  REQUIRE_BRIDGE("pandas");
  Fixture f = Fixture::fromText("bridge_apply.py", R"(import pandas as pd
df = pd.DataFrame({"a": [1, 2, 3]})
def scale(row):
    y = row["a"] * 10  #$ inside
    return y
out = df.apply(scale, axis=1)  #$ apply
print("sum", out.sum())
)");
  Client c;
  c.start(f.path, {{f.line("inside"), json()}}, {{"python", kPython}});
  json s = c.event("stopped");
  REQUIRE(s.is_object());
  CHECK(s["body"]["reason"] == "breakpoint");
  json frames = c.stackTrace();
  REQUIRE(frames.size() >= 3);
  CHECK(frames[0]["name"] == "scale");
  CHECK(frames[0]["line"] == f.line("inside"));
  CHECK(frames[1]["name"] == "pandas DataFrame.apply [python]");
  CHECK(frames[1]["line"] == f.line("apply"));
  CHECK(frames[2]["name"] == "<module>");
  // The row is a proxy of a pandas Series; its value shows as pandas prints it.
  json locals = c.scope(0, "Locals");
  json row = Client::named(locals, "row");
  CHECK(row["value"].get<std::string>().find("a    1") != std::string::npos);
  c.request("setBreakpoints", {{"source", {{"path", f.path}}}, {"breakpoints", json::array()}});
  REQUIRE(c.request("continue", {{"threadId", 1}})["success"] == true);
  json exited = c.event("exited");
  REQUIRE(exited.is_object());
  CHECK(exited["body"]["exitCode"] == 0);
  CHECK(c.output().find("sum 60") != std::string::npos);
}

TEST_CASE("pybridge: an exception raised in CPython stops the debugger post mortem with its CPython traceback", "[dap][pybridge]") {
  REQUIRE_BRIDGE("sklearn, numpy");
  Fixture f = Fixture::fromText("bridge_raise.py", R"(import numpy as np
from sklearn.linear_model import LinearRegression
model = LinearRegression()
model.fit(np.zeros((3, 2)), np.zeros(5))  #$ fit
)");
  Client c;
  c.start(f.path, {}, {{"python", kPython}}, {"uncaught"});
  json s = c.event("stopped");
  REQUIRE(s.is_object());
  CHECK(s["body"]["reason"] == "exception");
  json frames = c.stackTrace();
  CHECK(frames[0]["line"] == f.line("fit"));
  json info = c.request("exceptionInfo", {{"threadId", 1}});
  std::string text = info["body"].dump();
  INFO(text);
  CHECK(text.find("inconsistent numbers of samples") != std::string::npos);
  CHECK(text.find("CPython traceback (most recent call last)") != std::string::npos);
  REQUIRE(c.request("continue", {{"threadId", 1}})["success"] == true);
  CHECK(c.event("exited")["body"]["exitCode"] == 1);
}
