// numpy's surface: values in concrete mode, static types in abstract mode.
#include <unistd.h>

#include <filesystem>

#include "lang/tf/exec/Agreement.h"
#include "TfTestSupport.h"

using namespace tlens;
using namespace tlens::tf;
using namespace tlens::tf::testing;
using interp::Mode;

TEST_CASE("np.random.permutation and shuffle permute, follow np.random.seed, and keep types", "[tf][numpy]") {
  const char* src = R"(import numpy as np
np.random.seed(3)
p = np.random.permutation(10)
q = np.random.permutation(10)
np.random.seed(3)
p2 = np.random.permutation(10)
a = np.arange(12).reshape(6, 2)
np.random.shuffle(a)
rows = np.random.permutation(np.ones((5, 3), dtype=np.float32))
l = [1, 2, 3, 4, 5]
np.random.shuffle(l)
)";
  TfRun r = runTf(std::string(src) + R"(print(sorted(p.tolist()) == list(range(10)), p.dtype, (p == p2).all(), (p != q).any())
print(sorted(a[:, 0].tolist()), (a[:, 1] == a[:, 0] + 1).all(), a.dtype, rows.shape, sorted(l))
)");
  REQUIRE(r.err == "");
  CHECK(r.out == "True int64 True True\n[0, 2, 4, 6, 8, 10] True int64 (5, 3) [1, 2, 3, 4, 5]\n");
  TfRun a = runTf(src, Mode::Abstract);
  CHECK(a.diagnostics() == "");
  CHECK(a.type("p") == "int64[10]");
  CHECK(a.type("a") == "int64[6, 2]");
  CHECK(a.type("rows") == "float32[5, 3]");
}

TEST_CASE("np.concatenate promotes its arrays and keeps the axis an integer", "[tf][numpy]") {
  const char* src = R"(import numpy as np
f = np.concatenate([np.zeros((2, 2)), np.ones((1, 2))], axis=0)
g = np.concatenate((np.zeros((2, 2)), np.ones((2, 1))), -1)
i = np.concatenate([[1, 2], [3]])
m = np.concatenate([np.zeros((1, 2), dtype=np.int32), np.array([[1.5, 2]], dtype=np.float32)], axis=0)
n = np.concatenate([np.array([[1, 2]]), np.array([[3]])], axis=None)
h = np.hstack([np.array([1]), np.array([2.5])])
v = np.vstack([[1, 2], [3, 4]])
)";
  TfRun r = runTf(std::string(src) + "print(f.tolist(), g.shape, i.tolist(), m.tolist(), n.tolist(), h.tolist(), v.dtype)\n");
  REQUIRE(r.err == "");
  CHECK(r.out == "[[0.0, 0.0], [0.0, 0.0], [1.0, 1.0]] (2, 3) [1, 2, 3] [[0.0, 0.0], [1.5, 2.0]] [1, 2, 3] [1.0, 2.5] int64\n");
  TfRun a = runTf(src, Mode::Abstract);
  CHECK(a.diagnostics() == "");
  CHECK(a.type("f") == "float64[3, 2]");
  CHECK(a.type("g") == "float64[2, 3]");
  CHECK(a.type("i") == "int64[3]");
  CHECK(a.type("m") == "float64[2, 2]");
  CHECK(a.type("n") == "int64[3]");
  CHECK(a.type("h") == "float64[2]");
}

TEST_CASE("sum, prod and mean of small int and bool arrays widen as numpy does", "[tf][numpy]") {
  const char* src = R"(import numpy as np
u = np.array([200, 100, 250], dtype=np.uint8)
s = u.sum()
p = np.prod(np.array([100, 100], dtype=np.uint8))
m = u.mean()
b = np.array([True, True, False]).sum()
bm = np.mean(np.array([True, False]))
i = np.array([2**31 - 1, 1], dtype=np.int32).sum(axis=0)
x = u.max()
d = u.sum(dtype=np.float32)
)";
  TfRun r = runTf(std::string(src) + "print(s, s.dtype, p, m, m.dtype, b, b.dtype, bm, i, i.dtype, x.dtype, d, d.dtype)\n");
  REQUIRE(r.err == "");
  CHECK(r.out == "550 int64 10000 183.33333333333334 float64 2 int64 0.5 2147483648 int64 uint8 550.0 float32\n");
  TfRun a = runTf(src, Mode::Abstract);
  CHECK(a.type("s") == "int64[]");
  CHECK(a.type("m") == "float64[]");
  CHECK(a.type("b") == "int64[]");
  CHECK(a.type("i") == "int64[]");
  CHECK(a.type("x") == "uint8[]");
  CHECK(a.type("d") == "float32[]");
}

TEST_CASE("np.repeat, tile, where(cond), argsort, unique, clip, linspace have numpy's semantics", "[tf][numpy]") {
  TfRun r = runTf(R"(import numpy as np
m = np.array([[1, 2], [3, 4]])
print(np.repeat([1, 2], 2).tolist(), np.repeat(m, [1, 2], axis=0).tolist(), m.repeat(2, axis=1).tolist())
print(np.tile([1, 2], 2).tolist(), np.tile(m, (1, 2)).tolist(), np.tile(np.array([1, 2]), (2, 1)).tolist())
rows, cols = np.where(np.array([[0, 1], [1, 0]]))
print(rows.tolist(), cols.tolist(), rows.dtype, np.where([0, 0])[0].shape, np.where(m > 2, m, 0).tolist())
print(np.argsort(np.array([3, 1, 2])).tolist(), np.argsort(np.array([[3, 1, 2], [0, 5, 4]])).tolist(),
      np.argsort(np.array([[3, 1], [0, 5]]), axis=0).tolist(), np.sort(np.array([2.5, -1.0, 0.0])).tolist())
u, c = np.unique(np.array([3, 1, 3, 2, 1]), return_counts=True)
s = np.array([[3, 1, 2], [9, 7, 8]])
s.sort()
print(u.tolist(), c.tolist(), u.dtype, np.unique([2.0, 1.0, 2.0]).tolist(), s.tolist())
print(np.clip(np.array([1, 5, 9]), 2, 6).tolist(), np.clip(np.array([1.0, 5.0]), None, 2).tolist(), m.clip(2).tolist())
print(np.linspace(0, 1, 5).tolist(), np.linspace(0, 1, 4, endpoint=False).tolist(), np.linspace(2, 3, 1).tolist(),
      np.linspace(0, 10, 3, dtype=np.int64).tolist(), np.linspace(0, 1, 0).shape, np.linspace(0, 1, 3, retstep=True)[1])
print(np.stack([np.ones(2), np.zeros(2)], axis=1).shape, np.vstack([np.ones(2), np.zeros(2)]).shape, np.hstack([m, m]).shape,
      np.hstack([1, 2.5]).tolist(), np.vstack([1, 2]).shape)
)");
  REQUIRE(r.err == "");
  CHECK(r.out == R"([1, 1, 2, 2] [[1, 2], [3, 4], [3, 4]] [[1, 1, 2, 2], [3, 3, 4, 4]]
[1, 2, 1, 2] [[1, 2, 1, 2], [3, 4, 3, 4]] [[1, 2], [1, 2]]
[0, 1] [1, 0] int64 (0,) [[0, 0], [3, 4]]
[1, 2, 0] [[1, 2, 0], [0, 2, 1]] [[1, 0], [0, 1]] [-1.0, 0.0, 2.5]
[1, 2, 3] [2, 1, 2] int64 [1.0, 2.0] [[1, 2, 3], [7, 8, 9]]
[2, 5, 6] [1.0, 2.0] [[2, 2], [3, 4]]
[0.0, 0.25, 0.5, 0.75, 1.0] [0.0, 0.25, 0.5, 0.75] [2.0] [0, 5, 10] (0,) 0.5
(2, 2) (2, 2) (2, 4) [1.0, 2.5] (2, 1)
)");
}

TEST_CASE("abstract mode types np.repeat, tile, where(cond), argsort, unique and clip without values", "[tf][numpy]") {
  TfRun a = runTf(R"(import numpy as np
x = np.random.rand(4, 3)
r = np.repeat(x, 2, axis=0)
f = np.repeat(x, 3)
t = np.tile(x, 2)
w = np.where(x > 0.5)
w0 = w[0]
s = np.argsort(x, axis=1)
u, c = np.unique(x, return_counts=True)
k = np.clip(x, 0.1, 0.9)
l = np.linspace(0.0, 1.0, 7)
z = np.random.permutation(x)
)", Mode::Abstract);
  CHECK(a.diagnostics() == "");
  CHECK(a.type("r") == "float64[8, 3]");
  CHECK(a.type("f") == "float64[36]");
  CHECK(a.type("t") == "float64[4, 6]");
  CHECK(a.type("w0") == "int64[?]");
  CHECK(a.type("s") == "int64[4, 3]");
  CHECK(a.type("u") == "float64[?]");
  CHECK(a.type("c") == "int64[?]");
  CHECK(a.type("k") == "float64[4, 3]");
  CHECK(a.type("l") == "float64[7]");
  CHECK(a.type("z") == "float64[4, 3]");

  TfRun b = runTf(R"(import sys
import numpy as np
n = int(sys.argv[1])
x = np.zeros((n, 3))
c = np.concatenate([x, np.ones((2, 3), dtype=np.int32)])
r = np.repeat(x, 2, axis=0)
t = np.tile(x, (2, 1))
s = np.argsort(x)
p = np.random.permutation(n)
np.random.shuffle(x)
k = np.where(np.array([0, 3, 0, 4]))[0]
)", Mode::Abstract);
  CHECK(b.diagnostics() == "");
  CHECK(b.type("c") == "float64[?, 3]");
  CHECK(b.type("r") == "float64[?, 3]");
  CHECK(b.type("t") == "float64[?, 3]");
  CHECK(b.type("s") == "int64[?, 3]");
  CHECK(b.type("p") == "int64[?]");
  CHECK(b.type("x") == "float64[?, 3]");
  CHECK(b.type("k") == "int64[2]");
}

TEST_CASE("np.save and np.load write and read .npy files, and abstract mode touches no file", "[tf][numpy]") {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / ("tlens_npy_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::string base = (dir / "x").string();
  std::string src = "import numpy as np\nnp.save('" + base + "', np.array([[1.5, 2.0], [3.0, 4.0]], dtype=np.float32))\n" +
                    "y = np.load('" + base + ".npy')\n";
  TfRun r = runTf(src + "print(y.tolist(), y.dtype, y.shape)\nnp.save('" + base + "i.npy', np.arange(3))\nprint(np.load('" + base +
                  "i.npy').tolist())\ntry:\n    np.load('" + base + "missing.npy')\nexcept FileNotFoundError:\n    print('missing')\n");
  REQUIRE(r.err == "");
  CHECK(r.out == "[[1.5, 2.0], [3.0, 4.0]] float32 (2, 2)\n[0, 1, 2]\nmissing\n");
  // numpy's header: magic, version 1.0, a dict padded so the data starts at a multiple of 64.
  CHECK(fs::file_size(base + ".npy") == 128 + 16);
  fs::remove_all(dir);
  fs::create_directories(dir);
  TfRun a = runTf(src, Mode::Abstract);
  CHECK(a.diagnostics() == "");
  CHECK(!fs::exists(base + ".npy"));
  CHECK(a.type("y") == "<not a tensor>");
  fs::remove_all(dir);
}

TEST_CASE("the new numpy functions' static types agree with what runs", "[tf][numpy]") {
  AgreementReport r = checkAgreement("main.py", R"(import numpy as np
np.random.seed(0)
x = np.random.rand(4, 3)
c = np.concatenate([x, np.ones((2, 3), dtype=np.int32)], axis=0)
r = np.repeat(x, 2, axis=0)
t = np.tile(x, (2, 1))
s = np.argsort(x)
p = np.random.permutation(5)
np.random.shuffle(x)
k = np.where(x > 0.5)
u, cnt = np.unique(np.array([1, 2, 2]), return_counts=True)
m = np.clip(x, 0.2, 0.8)
l = np.linspace(0, 1, 5)
w = np.where(x > 0.5, x, 0)
su = np.array([1, 2], dtype=np.uint8).sum()
)");
  INFO(r.str());
  CHECK(r.concreteExit == 0);
  CHECK(r.compared > 20);
  CHECK(r.disagreements.empty());
}

TEST_CASE("numpy scalars index lists, size range() and convert with int(), float() and math as numpy's do", "[tf][numpy]") {
  // Expected output: python3 with numpy 1.24.2 on the same program (the TypeError's message is numpy's).
  const char* src = R"(import math
import numpy as np
l = [10, 20, 30, 40]
print(l[np.int64(1)], l[np.array(2)], l[np.arange(4).sum() - 3], list(range(np.int32(3))), math.sqrt(np.float32(4.0)))
print(int(np.float32(2.5)), float(np.sqrt(6.0)), int(np.array([7])), "%d %.2f" % (np.int64(3), np.sqrt(2.0)))
try:
    l[np.float64(1.0)]
except TypeError as e:
    print(str(e).split(", not")[0])
print(type(np.float32(1.0)), type(np.sqrt(6.0)).__name__, type(np.int64(3)).__name__, type(np.array([1, 2]).sum()).__name__,
      type(np.array([1.0]) > 0).__name__, type((np.array([1.0]) > 0).all()).__name__)
)";
  TfRun r = runTf(src);
  REQUIRE(r.err == "");
  CHECK(r.out == "20 30 40 [0, 1, 2] 2.0\n2 2.449489742783178 7 3 1.41\nlist indices must be integers or slices\n"
                 "<class 'numpy.float32'> float64 int64 int64 ndarray bool_\n");
  TfRun a = runTf(src, Mode::Abstract);
  CHECK(a.diagnostics() == "");
}

TEST_CASE("a TensorFlow op casts numpy scalars to its tensors' dtype, as convert_to_tensor does", "[tf][numpy]") {
  const char* src = R"(import numpy as np
import tensorflow as tf
w = tf.Variable(tf.random_uniform([2, 3], minval=-np.sqrt(6.0 / 5), maxval=np.sqrt(6.0 / 5)))
x = tf.ones([2]) * np.float64(2.0)
v32 = tf.Variable(np.float32(1.0))
vpy = tf.Variable(np.random.randn())
)";
  TfRun r = runTf(std::string(src) + "print(w.dtype.name, x.dtype.name, x.numpy().tolist(), v32.dtype.name, vpy.dtype.name)\n");
  REQUIRE(r.err == "");
  CHECK(r.out == "float32 float32 [2.0, 2.0] float32 float32\n");
  TfRun a = runTf(src, Mode::Abstract);
  CHECK(a.diagnostics() == "");
  CHECK(a.type("x") == "float32[2]");
}

TEST_CASE("integer arrays of any integer dtype and boolean masks index and assign ndarrays as numpy does", "[tf][numpy]") {
  // Expected output: python3 with numpy 1.24.2 on the same program.
  const char* src = R"(import numpy as np
for dt in (np.uint8, np.int32, np.int64):
    oh = np.eye(10)[np.array([3, 0, 9], dtype=dt)]
    print(oh.shape, oh.dtype, oh.argmax(axis=1).tolist())
x = np.arange(12).reshape(4, 3)
print(x[np.array([[0, 1], [3, 2]])].shape, x[[0, -1]].tolist(), x[np.array([-2], dtype=np.int32)].tolist())
labels = np.array([1, 0, 1, 1])
print(x[labels == 1].tolist(), x[x % 5 == 0].tolist())
x[np.array([1, 3], dtype=np.uint8)] = np.array([7, 8, 9])
x[labels == 0] = -1
a = np.array([[1.0, -2.0], [-3.0, 4.0]])
a[a > 0] = 0
f = np.linspace(-1, 1, 5)
f[f < 0] *= 2
print(x.tolist(), a.tolist(), f.tolist())
try:
    x[np.array([True, False])]
except IndexError as e:
    print(e)
try:
    x[np.array([4])]
except IndexError as e:
    print(e)
)";
  TfRun r = runTf(src);
  REQUIRE(r.err == "");
  CHECK(r.out ==
        "(3, 10) float64 [3, 0, 9]\n(3, 10) float64 [3, 0, 9]\n(3, 10) float64 [3, 0, 9]\n"
        "(2, 2, 3) [[0, 1, 2], [9, 10, 11]] [[6, 7, 8]]\n"
        "[[0, 1, 2], [6, 7, 8], [9, 10, 11]] [0, 5, 10]\n"
        "[[0, 1, 2], [-1, -1, -1], [6, 7, 8], [7, 8, 9]] [[0.0, -2.0], [-3.0, 0.0]] [-2.0, -1.0, 0.0, 0.5, 1.0]\n"
        "boolean index did not match indexed array along dimension 0; dimension is 4 but corresponding boolean "
        "dimension is 2\nindex 4 is out of bounds for axis 0 with size 4\n");

  TfRun a = runTf(R"(import sys
import numpy as np
n = int(sys.argv[1])
labels = np.zeros((n,), dtype=np.uint8)
oh = np.eye(10)[labels]
x = np.zeros((n, 3))
pos = x[x[:, 0] > 0]
rows = x[np.array([0, 2])]
)", Mode::Abstract);
  CHECK(a.diagnostics() == "");
  CHECK(a.type("oh") == "float64[?, 10]");
  CHECK(a.type("pos") == "float64[?, 3]");
  CHECK(a.type("rows") == "float64[2, 3]");
}

TEST_CASE("np.pad takes numpy's pad_width forms and np.meshgrid builds xy and ij grids", "[tf][numpy]") {
  // Expected output: python3 with numpy 1.24.2 on the same program.
  const char* src = R"(import numpy as np
p1 = np.pad(np.ones((2, 2)), 1)
p2 = np.pad(np.ones((2, 2)), (1, 2))
p3 = np.pad(np.ones((2, 3)), ((0, 0), (1, 1)))
p4 = np.pad(np.arange(3), (2, 1), constant_values=9)
p5 = np.pad(np.ones((2, 2), dtype=np.float32), [1])
xx, yy = np.meshgrid(np.arange(3), np.array([10, 20]))
xi, yi = np.meshgrid([1, 2], [3, 4, 5], indexing='ij')
g = np.meshgrid(np.linspace(0, 1, 3), np.linspace(0, 1, 2), np.arange(4))
)";
  TfRun r = runTf(std::string(src) + R"(print(p1.tolist(), p2.shape, p3.shape, p4.tolist(), p5.shape, p5.dtype)
print(xx.tolist(), yy.tolist(), xi.tolist(), yi.tolist(), [a.shape for a in g])
)");
  REQUIRE(r.err == "");
  CHECK(r.out ==
        "[[0.0, 0.0, 0.0, 0.0], [0.0, 1.0, 1.0, 0.0], [0.0, 1.0, 1.0, 0.0], [0.0, 0.0, 0.0, 0.0]] (5, 5) (2, 5) "
        "[9, 9, 0, 1, 2, 9] (4, 4) float32\n"
        "[[0, 1, 2], [0, 1, 2]] [[10, 10, 10], [20, 20, 20]] [[1, 1, 1], [2, 2, 2]] [[3, 4, 5], [3, 4, 5]] "
        "[(2, 3, 4), (2, 3, 4), (2, 3, 4)]\n");
  TfRun a = runTf(src, Mode::Abstract);
  CHECK(a.diagnostics() == "");
  CHECK(a.type("p2") == "float64[5, 5]");
  CHECK(a.type("p5") == "float32[4, 4]");
  CHECK(a.type("xx") == "int64[2, 3]");
  CHECK(a.type("yi") == "int64[2, 3]");
}

TEST_CASE("numpy scalars hash as their values, so they find dict keys and dedupe in sets", "[tf][numpy]") {
  // Expected output: python3 with numpy 1.24.2 on the same program.
  TfRun r = runTf(R"(import numpy as np
d = {0: 'a', 1: 'b', 2: 'c'}
p = np.array([0.1, 0.7, 0.2])
print(d[np.argmax(p)], np.argmax(p) in d, d.get(np.int64(2)), len(set([np.int64(1), 1])), {1.5: 'x'}[np.float64(1.5)])
)");
  REQUIRE(r.err == "");
  CHECK(r.out == "b True c 1 x\n");
}

TEST_CASE("tuple keys with index arrays and masks (a[np.arange(n), y], a[:, idx], a[mask, 0]) index and assign as numpy does", "[tf][numpy]") {
  // Expected output: python3 with numpy 1.24.2 on the same program.
  const char* src = R"(import numpy as np
x = np.arange(24).reshape(4, 6)
y = np.array([1, 0, 5, 2])
print(x[np.arange(4), y].tolist(), x[range(4), y].tolist(), x[[0, 3], [1, -1]].tolist())
print(x[:, [0, 2]].tolist(), x[1:3, np.array([4, 5], dtype=np.uint8)].tolist(), x[y > 1, 0].tolist())
z = np.arange(60).reshape(3, 4, 5)
print(z[:, [0, 1], [2, 3]].shape, z[[0, 2], :, [1, 4]].shape, z[..., [0, 1]].shape, z[0, :, [1, 2]].shape, z[np.array([[0], [2]]), np.array([1, 3])].shape)
print(z[[0, 2], :, [1, 4]].tolist())
print(z[1, [0, 3], 1:4].tolist(), z[z.sum(axis=2) > 100].shape, z[:, z[0, :, 0] > 5].shape)
probs = np.array([[0.2, 0.8], [0.6, 0.4], [0.5, 0.5]])
labels = np.array([1, 0, 0])
probs[np.arange(3), labels] -= 1
print(probs.tolist())
x[[0, 1], [0, 1]] = [100, 200]
x[:, [5]] = 0
x[x[:, 0] > 50, 1:3] = -7
print(x.tolist())
try:
    x[[0, 1], [0, 1, 2]]
except IndexError as e:
    print(e)
try:
    x[0, [7]]
except IndexError as e:
    print(e)
)";
  TfRun r = runTf(src);
  REQUIRE(r.err == "");
  CHECK(r.out ==
        "[1, 6, 17, 20] [1, 6, 17, 20] [1, 23]\n"
        "[[0, 2], [6, 8], [12, 14], [18, 20]] [[10, 11], [16, 17]] [12, 18]\n"
        "(3, 2) (2, 4) (3, 4, 2) (2, 4) (2, 2, 5)\n"
        "[[1, 6, 11, 16], [44, 49, 54, 59]]\n"
        "[[21, 22, 23], [36, 37, 38]] (8, 5) (3, 2, 5)\n"
        "[[0.2, -0.19999999999999996], [-0.4, 0.4], [-0.5, 0.5]]\n"
        "[[100, -7, -7, 3, 4, 0], [6, 200, 8, 9, 10, 0], [12, 13, 14, 15, 16, 0], [18, 19, 20, 21, 22, 0]]\n"
        "shape mismatch: indexing arrays could not be broadcast together with shapes (2,) (3,) \n"
        "index 7 is out of bounds for axis 1 with size 6\n");
  TfRun a = runTf(src, Mode::Abstract);
  CHECK(a.diagnostics() == "");
}

TEST_CASE("abstract mode types tuple keys with index arrays and masks from shapes alone", "[tf][numpy]") {
  TfRun a = runTf(R"(import sys
import numpy as np
n = int(sys.argv[1])
x = np.zeros((n, 10))
labels = np.zeros((n,), dtype=np.int64)
p = x[labels, labels]
q = x[:, [1, 2]]
r = x[x[:, 0] > 0, 3]
z = np.zeros((3, 4, 5))
s = z[[0, 2], :, [1, 4]]
u = x[np.arange(n), labels]
)", Mode::Abstract);
  CHECK(a.diagnostics() == "");
  CHECK(a.type("p") == "float64[?]");
  CHECK(a.type("q") == "float64[?, 2]");
  CHECK(a.type("r") == "float64[?]");
  CHECK(a.type("s") == "float64[2, 4]");
  CHECK(a.type("u") == "float64<unknown>");  // np.arange of an unknown n is unknown
}

TEST_CASE("float32 and float16 numpy scalars print with their own precision's shortest digits", "[tf][numpy]") {
  // Expected output: python3 with numpy 1.24.2 (print and repr of np.float32/np.float16 scalars).
  TfRun r = runTf(R"(import numpy as np
for v in [0.1, 123456789.0, 1e-5, 1e16, 3.4e38, -2.5, 1e-4, 0.00012345, 16777217.0, 0.6931472]:
    print(repr(np.float32(v)), np.float16(v) if abs(v) < 6e4 else '')
print(np.array([[0.1, 0.2]], dtype=np.float32).mean(), float(np.float32(0.1)), np.float64(0.1))
)");
  REQUIRE(r.err == "");
  CHECK(r.out ==
        "0.1 0.1\n123456790.0 \n1e-05 1e-05\n1e+16 \n3.4e+38 \n-2.5 -2.5\n1e-04 0.0001\n0.00012345 0.0001235\n"
        "16777216.0 \n0.6931472 0.6934\n0.15 0.10000000149011612 0.1\n");
}

TEST_CASE("np.c_, np.r_, np.logical_not and the pre-1.24 aliases np.int, np.float, np.bool, np.infty", "[tf][numpy]") {
  // Expected output: python3 with numpy 1.24.2 on the same program, with np.float64, np.int64 and
  // np.bool_ for the aliases that numpy 1.24 removed (numpy 1.23 had them as the builtins).
  TfRun r = runTf(R"(import numpy as np
a = np.array([1, 2, 3])
b = np.array([4, 5, 6])
print(np.c_[a, b].tolist(), np.c_[np.ones((2, 2)), np.zeros(2)].tolist(), np.r_[a, 7, b].tolist())
print(np.logical_not(np.array([True, False])).tolist(), np.logical_not(np.array([0, 2])).tolist(), np.infty)
print(np.zeros(2, dtype=np.float).dtype, np.array([1.7], dtype=np.int).tolist(), np.array([1], dtype=np.bool).tolist())
)");
  REQUIRE(r.err == "");
  CHECK(r.out ==
        "[[1, 4], [2, 5], [3, 6]] [[1.0, 1.0, 0.0], [1.0, 1.0, 0.0]] [1, 2, 3, 7, 4, 5, 6]\n"
        "[False, True] [True, False] inf\nfloat64 [1] [True]\n");
}

TEST_CASE("abstract mode: numpy scalars of unknown value as list indices, range() bounds and math arguments raise nothing", "[tf][numpy]") {
  TfRun a = runTf(R"(import sys
import math
import numpy as np
n = int(sys.argv[1])
x = np.zeros((n, 3))
for i in range(x.argmax()):
    pass
m = math.sqrt(x.sum())
d = [1, 2, 3][x.argmax()]
e = float(np.zeros(n).mean())
)", Mode::Abstract);
  CHECK(a.diagnostics() == "");
}

TEST_CASE("abs, square, sign and negative keep uint8 and wrap as numpy does", "[tf][numpy]") {
  TfRun r = runTf(R"(import numpy as np
a = np.array([1, 200], dtype=np.uint8)
out = (np.abs(a).tolist(), str(np.abs(a).dtype), np.square(a).tolist(), np.negative(a).tolist(),
       np.sign(a).tolist(), str(np.sign(a).dtype))
)");
  INFO(r.err);
  REQUIRE(r.status == 0);
  // /usr/bin/python3 with numpy 1.24 prints the same.
  CHECK(r.repr("out") == "([1, 200], 'uint8', [1, 64], [255, 56], [1, 1], 'uint8')");
}

TEST_CASE("a tuple inside an index tuple selects like a list, as numpy reads it", "[tf][numpy]") {
  TfRun r = runTf(R"(import numpy as np
a = np.arange(20).reshape(4, 5)
cols = a[:, (2, 3)].tolist()
same = (a[:, (2, 3)] == a[:, [2, 3]]).all()
rows = a[(0, 3), 1:3].tolist()
)");
  INFO(r.err);
  REQUIRE(r.status == 0);
  // numpy 1.24 (/usr/bin/python3) gives the same.
  CHECK(r.repr("cols") == "[[2, 3], [7, 8], [12, 13], [17, 18]]");
  CHECK(r.repr("same") == "True");
  CHECK(r.repr("rows") == "[[1, 2], [16, 17]]");
}

TEST_CASE("a list of numpy integer scalars converts to a tensor as Python ints do", "[tf][numpy]") {
  // TensorFlow's sequence conversion takes numpy integers for Python ints: int32, int64 where a
  // value needs it; uint8 labels' max() used as a size is no dtype error.
  const char* src = R"(import numpy as np
import tensorflow as tf
labels = np.array([3, 1, 2], dtype=np.uint8)
n = labels.max() + 1
w = tf.random.truncated_normal([n, 4], stddev=0.1)
z = tf.zeros([n, 2])
d = tf.constant([np.uint8(4), 4])
big = tf.constant([np.int64(3000000000), 1])
asked = tf.constant([np.uint8(3), 1], dtype=tf.float32)
)";
  TfRun r = runTf(src, Mode::Concrete, ApiStyle::Eager);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.type("w") == "float32[4, 4]");
  CHECK(r.type("z") == "float32[4, 2]");
  CHECK(r.type("d") == "int32[2]");
  CHECK(r.type("big") == "int64[2]");
  CHECK(r.type("asked") == "float32[2]");
  TfRun a = runTf(src, Mode::Abstract, ApiStyle::Eager);
  CHECK(a.diagnostics() == "");
  // Abstract mode does not compute max(): the size is unknown, and no dtype error.
  CHECK(a.type("w") == "float32[?, 4]");
  CHECK(a.type("d") == "int32[2]");
}

TEST_CASE("numpy scalars follow numpy 1.x's scalar promotion, and element loops read and write elements", "[tf][numpy]") {
  TfRun r = runTf(R"(import numpy as np
a = np.float32(1)
b = np.float64(2)
types = [type(v).__name__ for v in (a + 1.0, a + 1, a + a, a + b, b + 1, a > 0, np.int32(1) + 1,
                                    np.array([1.0], dtype=np.float32)[0] * 2.5, np.zeros(2, np.float32) + 1.0)]
x = np.arange(12, dtype=np.float64).reshape(3, 4) / 7.0
y = np.ones((3, 4)) * 0.3
z = x.copy()
for i in range(3):
    for j in range(4):
        z[i, j] += y[i, j]
        z[i, j] = max(z[i, j], 0.5)
same = bool((z == np.maximum(x + y, 0.5)).all())
k = np.zeros((2, 2), dtype=np.int32)
k[0, 1] = 1.7
k[1, -1] = -2
f = np.zeros(2, dtype=np.float32)
f[1] = 1.1
picked = (x[2, 3], x[-1, 0], f[1], k.tolist(), 0.5 < z[0, 0], z[0, 0] <= 0.5)
inf = np.float64(1.0) / 0.0
)", Mode::Concrete, ApiStyle::Eager);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("types") == "['float64', 'float64', 'float32', 'float64', 'float64', 'bool_', 'int64', 'float64', 'ndarray']");
  CHECK(r.repr("same") == "True");
  CHECK(r.repr("picked") == "(1.5714285714285714, 1.1428571428571428, 1.1, [[0, 1], [0, -2]], False, True)");
  CHECK(r.repr("inf") == "inf");
}

TEST_CASE("a list of names left unknown is no vector to numpy: no false reshape error", "[tf][numpy]") {
  // hunkim/DeepLearningZeroToAll klab-12-5: rows built from random picks, stacked with
  // to_categorical / np.asarray and reshaped to [-1, 7, 20]. A row the analysis could not compute
  // is unknown (it may be a list): [row, row] is not a 1-D vector of 2 ints.
  const char* src = R"(import numpy as np
digit = "0123456789"
d = {w: i for i, w in enumerate(digit)}
rows = []
for i in range(10):
    pick = np.random.choice(10, 7)
    rows.append([d[digit[c]] for c in pick])
a = np.asarray(rows)
b = np.reshape(np.eye(20)[a], (-1, 7, 20))
r = np.random.choice(10, 7)
u = [r[0], r[1]]
v = np.asarray([u, u, u])
)";
  TfRun a = runTf(src, Mode::Abstract);
  CHECK(a.diagnostics() == "");
  CHECK(a.type("v") == "int64[3, 2]");  // elements known to be ints still give the shape
  TfRun r = runTf(std::string(src) + "print(a.shape, b.shape)\n");
  CHECK(r.out == "(10, 7) (10, 7, 20)\n");
}

TEST_CASE("numpy scalars are numbers as numpy registers them: floating Real, integer Integral, bool_ none", "[tf][numpy]") {
  // Expected output from numpy 1.24. tensorlens' numpy scalars are 0-d arrays (type numpy.float32,
  // ...); the numbers module's ABCs take them by dtype.
  const char* src = R"(import numbers
import numpy as np
a = np.arange(3.0)
vals = [np.float32(1.0), np.float64(2.0), np.int64(3), np.int32(1), np.uint8(2), np.bool_(True), a[1], np.arange(4)[2], a.sum(), a]
rows = [[isinstance(v, c) for v in vals] for c in (numbers.Number, numbers.Complex, numbers.Real, numbers.Rational, numbers.Integral)]
sub = issubclass(type(np.float32(1)), numbers.Real), issubclass(type(np.int64(1)), numbers.Integral), issubclass(type(np.float32(1)), numbers.Integral)
)";
  TfRun r = runTf(std::string(src) + "for row in rows:\n    print(row)\nprint(sub)\n");
  CHECK(r.out ==
        "[True, True, True, True, True, False, True, True, True, False]\n"
        "[True, True, True, True, True, False, True, True, True, False]\n"
        "[True, True, True, True, True, False, True, True, True, False]\n"
        "[False, False, True, True, True, False, False, True, False, False]\n"
        "[False, False, True, True, True, False, False, True, False, False]\n"
        "(True, True, False)\n");
  TfRun a = runTf(src, Mode::Abstract);
  CHECK(a.diagnostics() == "");
}

TEST_CASE("abstract mode: a value of a known type is an instance of the ABCs its type is registered with", "[tf][numpy]") {
  // An Unknown float is a numbers.Real (float is registered), an element of a float64 array read at
  // an unknown index too; whether the float is Integral stays unknown, as it did before.
  TfRun a = runTf(R"(import numbers, sys
import numpy as np
x = float(sys.argv[1])
real = isinstance(x, numbers.Real)
integral = isinstance(x, numbers.Integral)
s = np.arange(3.0)[int(x)]
sreal = isinstance(s, numbers.Real)
sint = isinstance(np.arange(3)[int(x)], numbers.Integral)
other = isinstance(sys.argv[1], numbers.Number)
)",
                  Mode::Abstract);
  CHECK(a.diagnostics() == "");
  CHECK(a.repr("real") == "True");
  CHECK(a.repr("sreal") == "True");
  CHECK(a.repr("sint") == "True");
  CHECK(a.repr("integral") == a.repr("other"));
}

TEST_CASE("hashlib hashes a numpy array or scalar as its bytes, as CPython's buffer protocol does", "[tf][numpy]") {
  // Expected digests from CPython 3.11 with numpy 1.24.
  const char* src = R"(import hashlib
import numpy as np
a = np.arange(6, dtype=np.float32).reshape(2, 3)
h = hashlib.sha1()
h.update(np.arange(3))
d = hashlib.md5(a).hexdigest(), hashlib.sha1(a.tobytes()).hexdigest()[:12], hashlib.sha256(np.int64(7)).hexdigest()[:12], h.hexdigest()[:12]
)";
  TfRun r = runTf(std::string(src) + "print(d)\n");
  CHECK(r.out == "('d49272c2a45d49b0c84bdd176f934982', '2613304e943c', 'aae89fc0f03e', 'ab2fa50ae23c')\n");
  TfRun a = runTf(src, Mode::Abstract);
  CHECK(a.diagnostics() == "");
}

TEST_CASE("abstract mode: np.array of a value it lost is unknown, and tf.add_n of a collection it could not fill is no error", "[tf][numpy]") {
  // geektutu/tensorflow-tutorial-samples feed np.array([1 - np.reshape(pil_image, 784)]) and
  // np.array([gym_state]); caicloud's tutorials tf.add_n(tf.get_collection('losses')) filled in a
  // module the analysis could not import. Neither is a shape error in TensorFlow.
  const char* src = R"(import numpy as np
import tensorflow as tf
from PIL import Image
img = Image.open("digit.png").convert("L")
x = np.array([1 - np.reshape(img, 784)])
X = tf.placeholder(tf.float32, [None, 784])
y = tf.reduce_sum(X)
import some_model_module
some_model_module.add_losses()
total = tf.add_n(tf.get_collection("losses"))
with tf.Session() as sess:
    sess.run(y, {X: x})
k = np.random.randint(3)
v = np.array([k, k])
)";
  TfRun a = runTf(src, Mode::Abstract, ApiStyle::Graph);
  CHECK(a.diagnostics().find("error") == std::string::npos);
  CHECK(a.type("v") == "int64[2]");  // unknowns known to be ints keep the list's shape
}

TEST_CASE("abstract mode: numpy's shape errors are reported with numpy's messages, and valid N-D dots are not", "[tf][numpy]") {
  // A question-and-answer program's `np.dot(X, w)` with w of the wrong orientation: the analysis
  // reported TensorFlow's MatMul message for numpy code, and a run said "matmul: ..." for np.dot.
  const char* src = R"(import numpy as np
X = np.random.randn(100, 3)
w = np.random.randn(100, 1)
pred = np.dot(X, w)
c = np.concatenate([X, np.zeros((4, 4))])
s = np.stack([X, w])
r = X.reshape(7, 3)
e = np.where(np.zeros(3) > 0, np.zeros(4), 0)
ok = np.dot(np.zeros((2, 3, 4)), np.zeros((3, 4, 2)))
ok2 = X.dot(np.zeros((3, 5)))
)";
  TfRun a = runTf(src, Mode::Abstract);
  const std::string d = a.diagnostics();
  CHECK(d.find("main.py:4:8: error: shapes (100,3) and (100,1) not aligned: 3 (dim 1) != 100 (dim 0) [shape-error]") != std::string::npos);
  CHECK(d.find("main.py:5:5: error: all the input array dimensions except for the concatenation axis must match exactly, but "
               "along dimension 1, the array at index 0 has size 3 and the array at index 1 has size 4 [shape-error]") != std::string::npos);
  CHECK(d.find("main.py:6:5: error: all input arrays must have the same shape [shape-error]") != std::string::npos);
  CHECK(d.find("main.py:7:5: error: cannot reshape array of size 300 into shape (7,3) [shape-error]") != std::string::npos);
  CHECK(d.find("main.py:8:5: error: operands could not be broadcast together with shapes (3,) (4,) () ") != std::string::npos);
  CHECK(d.find("main.py:9") == std::string::npos);
  CHECK(a.type("ok") == "float64[2, 3, 3, 2]");
  CHECK(a.type("ok2") == "float64[100, 5]");
  CHECK(d.find("MatMul") == std::string::npos);
  CHECK(d.find("ConcatV2") == std::string::npos);
}

TEST_CASE("abstract mode: Python-raised shape errors of TensorFlow's Python layer are errors, not silence", "[tf][numpy]") {
  // tf.data's from_tensor_slices of features and labels of different lengths (TensorFlow raises
  // "Dimensions 60000 and 10000 are not compatible"), and get_variable reused with another shape.
  TfRun a = runTf(R"(import tensorflow as tf
(x_train, y_train), (x_test, y_test) = tf.keras.datasets.mnist.load_data()
ds = tf.data.Dataset.from_tensor_slices((x_train, y_test))
good = tf.data.Dataset.from_tensor_slices((x_train, y_train))
)", Mode::Abstract);
  CHECK(a.diagnostics() == "main.py:3:6: error: Dimensions 60000 and 10000 are not compatible [shape-error]\n");
  TfRun b = runTf(R"(import tensorflow as tf
with tf.variable_scope("dense"):
    w = tf.get_variable("w", [784, 10])
with tf.variable_scope("dense", reuse=True):
    w2 = tf.get_variable("w", [784, 20])
)", Mode::Abstract, ApiStyle::Graph);
  CHECK(b.diagnostics().find("main.py:5:10: error: Trying to share variable dense/w, but specified shape (784, 20) and found shape (784, 10).") !=
        std::string::npos);
}

TEST_CASE("abstract mode: a shape error inside a try is raised to its handlers, and reported only if none catches it", "[tf][numpy]") {
  // Notebooks show errors on purpose (ageron's tools_numpy, chapter 12): `try: k + [33, 44]
  // except ValueError as e: print(e)`, `except tf.errors.InvalidArgumentError`. A run prints the
  // message and goes on, so the analysis reports nothing there; a handler of another type (a
  // training loop's `except KeyboardInterrupt`) lets the error through, and it is reported.
  TfRun a = runTf(R"(import numpy as np
import tensorflow as tf
k = np.zeros((2, 3))
try:
    k + [33, 44]
except ValueError as e:
    print(e)
try:
    tf.constant(2.0) + tf.constant(40)
except tf.errors.InvalidArgumentError as ex:
    print(ex)
try:
    tf.matmul(tf.zeros([2, 3]), tf.zeros([4, 5]))
except tf.errors.InvalidArgumentError as ex:
    handled = tf.zeros([1])
try:
    q = np.hstack((np.zeros((3, 2)), np.zeros((4, 3))))
except KeyboardInterrupt:
    pass
after = k.sum(axis=0)
)", Mode::Abstract);
  CHECK(a.diagnostics() ==
        "main.py:17:9: error: all the input array dimensions except for the concatenation axis must match exactly, but along "
        "dimension 0, the array at index 0 has size 3 and the array at index 1 has size 4 [shape-error]\n");
  CHECK(a.type("after") == "float64[3]");  // the analysis goes on after the uncaught one
  CHECK(a.type("handled") == "float32[1]");
  TfRun g = runTf(R"(import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 3])
try:
    y = x + tf.constant(1, tf.int32)
except TypeError as e:
    print(e)
try:
    z = tf.matmul(x, tf.zeros([4, 5]))
except ValueError:
    z = None
)", Mode::Abstract, ApiStyle::Graph);
  CHECK(g.diagnostics() == "");
}

TEST_CASE("abstract mode: an assignment of a value that does not fit its region is numpy's error", "[tf][numpy]") {
  // `data[i] = imgs[i]`: 784 values into a (28, 28) slot. Broadcasting assignments that fit (a
  // row into every row, a channel into three, leading 1-dims) are no error.
  TfRun a = runTf(R"(import numpy as np
data = np.zeros((10, 28, 28))
imgs = np.random.rand(10, 784)
i = 3
data[i] = imgs[i]
m = np.ones((5, 6, 3))
m[1:3, 2:4, :] = np.zeros((2, 2, 1))
m[0, 1:3] = np.arange(3)
m[:, 0] = np.arange(3) * 2
x = np.zeros((10, 4))
x[:, 0] = np.ones(10)
x[2] = np.ones((1, 4))
x[::2] = np.ones((5, 4))
x[::3] = np.ones((3, 4))
)", Mode::Abstract);
  CHECK(a.diagnostics() ==
        "main.py:5:1: error: could not broadcast input array from shape (784,) into shape (28,28) [shape-error]\n"
        "main.py:14:1: error: could not broadcast input array from shape (3,4) into shape (4,4) [shape-error]\n"
        "");
}

TEST_CASE("abstract mode: a list extended by what the analysis does not know has an unknown length, not its old one", "[tf][numpy]") {
  // nfmcclure/tensorflow_cookbook's text_helpers.generate_batch_data: `batch_data.extend(batch)`
  // with batch unknown left batch_data empty, and np.array(batch_data) of shape (0,) was a false
  // "Cannot feed value of shape (0,)" at every Session.run that fed it.
  const char* src = R"(import numpy as np
import tensorflow as tf
def gen(sentences, batch_size):
    batch_data = []
    while len(batch_data) < batch_size:
        batch = []
        if len(sentences) > 0:
            batch = [list(x) for x in sentences]
        batch_data.extend(batch[:batch_size])
    return np.array(batch_data)
b = gen(open("corpus.txt").read(), 500)
known = []
known.extend([1, 2, 3])
k = np.array(known)
x = tf.placeholder(tf.int32, [500, 6])
s = tf.reduce_sum(x)
with tf.Session() as sess:
    sess.run(s, {x: b})
)";
  TfRun a = runTf(src, Mode::Abstract, ApiStyle::Graph);
  CHECK(a.diagnostics() == "");
  CHECK(a.type("k") == "int64[3]");  // known values still extend exactly
}

TEST_CASE("abstract mode: a list comprehension over a long range or list has its length, so np.array of it has its first dimension", "[tf][numpy]") {
  // The sliding windows of time-series code, `np.array([series[i:i + 20] for i in range(900)])`,
  // were an unknown list, and an LSTM fed the 2-D result was not reported.
  TfRun a = runTf(R"(import numpy as np
series = np.sin(np.arange(1000) * 0.1)
X = np.array([series[i:i + 20] for i in range(900)])
M = np.array([[1.0, 2.0] for i in range(900)])
names = ["w%d" % k for k in range(40)]
L = [len(n) for n in names]
nL = len(L)
E = np.array([x * 2 for x in list(range(50))])
few = [i * i for i in range(5)]
odd = [i for i in range(100) if i % 2]
)", Mode::Abstract);
  CHECK(a.diagnostics() == "");
  CHECK(a.type("X").rfind("float64[900, ", 0) == 0);  // the window's length depends on i
  CHECK(a.type("M") == "float64[900, 2]");
  CHECK(a.type("E") == "int64[50]");
  CHECK(a.repr("few") == "[0, 1, 4, 9, 16]");  // short ones still run item by item
  CHECK(a.repr("nL") == "40");
  CHECK(a.repr("odd").find("[") == std::string::npos);  // a filter makes the length unknown
}
