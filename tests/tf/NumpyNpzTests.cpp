// np.load of .npz archives (lang/tf/python/numpy._io.py's NpzFile): the arrays numpy's savez and
// savez_compressed wrote (tests/tf/data/npz/make_fixtures.py), read by name, with their dtypes and
// Fortran order; abstract mode reads no file and leaves the arrays unknown.
#include "TfTestSupport.h"

using namespace tlens;
using namespace tlens::tf::testing;
using interp::Mode;

namespace {

const char* kProgram = R"(import numpy as np
d = np.load(DIR + "/arrays.npz")
print(sorted(d.files), "x" in d, "z" in d)
print(repr(d["x"]), repr(d["y"]), repr(d["f"]), repr(d["b"]), d["s"].dtype, d["s"].shape, int(d["s"]))
with np.load(DIR + "/compressed.npz") as c:
    print(c.files, repr(c["arr_0"]), repr(c["labels"]))
try:
    d["z"]
except KeyError as e:
    print("KeyError", e)
x = d["x"]
)";

std::string withDir() { return std::string("DIR = '") + TLENS_SOURCE_DIR + "/tests/tf/data/npz'\n" + kProgram; }

}  // namespace

TEST_CASE("np.load reads .npz archives as numpy wrote them, stored or deflated", "[tf][numpy]") {
  TfRun r = runTf(withDir());
  INFO(r.err);
  CHECK(r.status == 0);
  // What numpy 1.24 prints for the same program (its 0-d uint8 printed through dtype and int()).
  CHECK(r.out == R"(['b', 'f', 's', 'x', 'y'] True False
array([[0, 1, 2],
       [3, 4, 5]]) array([1.5, 2.5], dtype=float32) array([[0., 1., 2.],
       [3., 4., 5.]]) array([ True, False]) uint8 () 7
['labels', 'arr_0'] array([0, 1, 2, 3]) array([3, 1], dtype=int32)
KeyError 'z is not a file in the archive'
)");
}

TEST_CASE("abstract mode opens no .npz archive and raises nothing for its arrays", "[tf][numpy]") {
  TfRun a = runTf("DIR = '/nonexistent'\n" + std::string(kProgram), Mode::Abstract);
  CHECK(a.diagnostics() == "");
  CHECK(a.type("x") == "<not a tensor>");
}
