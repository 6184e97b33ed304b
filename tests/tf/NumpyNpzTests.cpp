// .npz archives (lang/tf/python/numpy._io.py): np.load reads what numpy's savez and
// savez_compressed wrote (tests/tf/data/npz/make_fixtures.py), by name, with their dtypes and
// Fortran order, and abstract mode reads no file; np.savez writes members byte for byte as numpy's.
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

TEST_CASE("np.savez and savez_compressed write .npy members byte for byte as numpy's np.save, and np.load reads them back", "[tf][numpy]") {
  TfRun r = runTf(R"(import os, zipfile
import numpy as np
p = "/tmp/tlens_npz_test_%d" % os.getpid()
np.savez(p, np.arange(3), x=np.arange(6.0).reshape(2, 3), b=np.array([True, False]))
np.savez_compressed(p + "c.npz", y=np.arange(100) % 7)
z = zipfile.ZipFile(p + ".npz")
print(z.namelist(), z.read("x.npy")[:128])
d = np.load(p + ".npz")
print(repr(d["arr_0"]), repr(d["x"]), repr(d["b"]))
c = np.load(p + "c.npz")
print(c["y"].shape, c["y"][:9].tolist(), zipfile.ZipFile(p + "c.npz").read("y.npy")[:10])
os.remove(p + ".npz")
os.remove(p + "c.npz")
)");
  INFO(r.err);
  CHECK(r.status == 0);
  // The header is what numpy 1.24's np.save writes for a float64 (2, 3) array (64-byte aligned).
  CHECK(r.out == R"(['arr_0.npy', 'x.npy', 'b.npy'] b"\x93NUMPY\x01\x00v\x00{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }                                                          \n"
array([0, 1, 2]) array([[0., 1., 2.],
       [3., 4., 5.]]) array([ True, False])
(100,) [0, 1, 2, 3, 4, 5, 6, 0, 1] b'\x93NUMPY\x01\x00v\x00'
)");
}

TEST_CASE("np.save/load, savez, savetxt/loadtxt and tf.io.gfile take pathlib paths (os.PathLike) as file names", "[tf][numpy]") {
  TfRun r = runTf(R"(import os, shutil
from pathlib import Path
import numpy as np
import tensorflow as tf
d = Path('/tmp') / ('tlens_pathlike_%d' % os.getpid())
shutil.rmtree(d, ignore_errors=True)
tf.io.gfile.makedirs(d / 'sub')
np.save(d / 'a', np.arange(3))
np.savez(d / 'b.npz', x=np.ones(2))
np.savetxt(d / 'c.txt', np.array([[1.0, 2.0]]))
print(np.load(d / 'a.npy'), np.load(d / 'b.npz')['x'], np.loadtxt(d / 'c.txt'))
print(tf.io.gfile.exists(d / 'a.npy'), sorted(tf.io.gfile.listdir(d)), tf.io.gfile.isdir(d / 'sub'), len(tf.io.gfile.glob(d / '*.np*')))
with tf.io.gfile.GFile(d / 'c.txt') as f:
    print(f.read().split()[0])
shutil.rmtree(d)
)");
  INFO(r.err);
  CHECK(r.status == 0);
  CHECK(r.out == "[0 1 2] [1. 1.] [1. 2.]\n"
                 "True ['a.npy', 'b.npz', 'c.txt', 'sub'] True 2\n"
                 "1.000000000000000000e+00\n");
}
