// The numpy functions of lang/tf/python/numpy._*.py and numpy.linalg in abstract mode (the
// language server, `tlens check`): static dtypes and shapes from shapes alone, unknown dims kept
// unknown, no diagnostics and nothing raised for values that are not known; and the static types
// agree with what a concrete run computes. Their values are pinned by NumpyApiTests.cpp.
#include "lang/tf/exec/Agreement.h"
#include "TfTestSupport.h"

using namespace tlens;
using namespace tlens::tf;
using namespace tlens::tf::testing;
using interp::Mode;

TEST_CASE("abstract mode types numpy's math, shape and statistics functions from shapes", "[tf][numpy]") {
  TfRun a = runTf(R"(import numpy as np
x = np.random.rand(4, 3)
i = np.random.randint(0, 5, size=(6,))
t = np.tan(x)
l = np.log10(i)
f = np.floor_divide(i, 2)
c = np.isclose(x, 0.5)
fl = np.flip(x, 0)
r9 = np.rot90(x)
sw = np.swapaxes(np.zeros((2, 3, 4)), 0, 2)
mv = np.moveaxis(np.zeros((2, 3, 4)), 0, -1)
b = np.broadcast_to(np.arange(3), (5, 3))
cs = np.cumsum(x, axis=0)
ci = np.cumsum(i)
cp = np.cumprod(np.ones((2, 2), dtype=np.int32), axis=1)
d = np.diff(x, axis=1)
md = np.median(x, axis=0)
pc = np.percentile(x, [25, 75], axis=1)
v = np.var(x, axis=0, ddof=1)
o = np.outer(np.arange(3), np.ones(4))
td = np.tensordot(x, np.ones((3, 5)), axes=1)
es = np.einsum("ij,jk->ik", x, np.ones((3, 2), dtype=np.float32))
tr = np.tril(x)
dg = np.diagonal(np.zeros((5, 5)))
ss = np.searchsorted(np.arange(10), x)
ap = np.append(x, x, axis=0)
cv = np.cov(x)
nm = np.nanmean(x, axis=1)
)", Mode::Abstract);
  CHECK(a.diagnostics() == "");
  CHECK(a.type("t") == "float64[4, 3]");
  CHECK(a.type("l") == "float64[6]");
  CHECK(a.type("f") == "int64[6]");
  CHECK(a.type("c") == "bool[4, 3]");
  CHECK(a.type("fl") == "float64[4, 3]");
  CHECK(a.type("r9") == "float64[3, 4]");
  CHECK(a.type("sw") == "float64[4, 3, 2]");
  CHECK(a.type("mv") == "float64[3, 4, 2]");
  CHECK(a.type("b") == "int64[5, 3]");
  CHECK(a.type("cs") == "float64[4, 3]");
  CHECK(a.type("ci") == "int64[6]");
  CHECK(a.type("cp") == "int64[2, 2]");
  CHECK(a.type("d") == "float64[4, 2]");
  CHECK(a.type("md") == "float64[3]");
  CHECK(a.type("pc") == "float64[2, 4]");
  CHECK(a.type("v") == "float64[3]");
  CHECK(a.type("o") == "float64[3, 4]");
  CHECK(a.type("td") == "float64[4, 5]");
  CHECK(a.type("es") == "float64[4, 2]");
  CHECK(a.type("tr") == "float64[4, 3]");
  CHECK(a.type("dg") == "float64[5]");
  CHECK(a.type("ss") == "int64[4, 3]");
  CHECK(a.type("ap") == "float64[8, 3]");
  CHECK(a.type("cv") == "float64[4, 4]");
  CHECK(a.type("nm") == "float64[4]");
}

TEST_CASE("abstract mode types np.linalg from shapes and keeps float32", "[tf][numpy]") {
  TfRun a = runTf(R"(import numpy as np
m = np.random.rand(3, 3).astype(np.float32)
n = np.linalg.norm(m)
na = np.linalg.norm(np.random.rand(5, 4), axis=1)
iv = np.linalg.inv(m)
dt = np.linalg.det(np.random.rand(2, 3, 3))
so = np.linalg.solve(np.random.rand(3, 3), np.random.rand(3))
u, s, vh = np.linalg.svd(np.random.rand(5, 3), full_matrices=False)
q, r = np.linalg.qr(np.random.rand(5, 3))
w, v = np.linalg.eigh(m)
ch = np.linalg.cholesky(np.eye(4))
pi = np.linalg.pinv(np.random.rand(5, 3))
)", Mode::Abstract);
  CHECK(a.diagnostics() == "");
  CHECK(a.type("n") == "float32[]");
  CHECK(a.type("na") == "float64[5]");
  CHECK(a.type("iv") == "float32[3, 3]");
  CHECK(a.type("dt") == "float64[2]");
  CHECK(a.type("so") == "float64[3]");
  CHECK(a.type("u") == "float64[5, 3]");
  CHECK(a.type("s") == "float64[3]");
  CHECK(a.type("vh") == "float64[3, 3]");
  CHECK(a.type("q") == "float64[5, 3]");
  CHECK(a.type("r") == "float64[3, 3]");
  CHECK(a.type("w") == "float32[3]");
  CHECK(a.type("v") == "float32[3, 3]");
  CHECK(a.type("ch") == "float64[4, 4]");
  CHECK(a.type("pi") == "float64[3, 5]");
}

TEST_CASE("abstract mode: numpy functions whose results depend on values return typed unknowns and raise nothing", "[tf][numpy]") {
  TfRun a = runTf(R"(import sys
import numpy as np
k = int(sys.argv[1])
x = np.zeros((k, 3))
y = np.random.rand(k)
bc = np.bincount(np.array([k, 1]))
h, e = np.histogram(y, bins=5)
md = np.median(y)
q = np.quantile(x, 0.5, axis=0)
cs = np.cumsum(x, axis=0)
dl = np.delete(x, [0], axis=1)
ins = np.insert(np.arange(4), 1, 9)
tk = np.take(y, [0, 1])
dg = np.digitize(y, [0.0, 0.5, 1.0])
cc = np.count_nonzero(y)
g = np.gcd(np.arange(k), 4)
ls = np.linalg.lstsq(np.random.rand(k, 2), np.random.rand(k), rcond=None)[0]
)", Mode::Abstract);
  CHECK(a.diagnostics() == "");
  CHECK(a.type("x") == "float64[?, 3]");
  CHECK(a.type("bc") == "int64[?]");
  CHECK(a.type("h") == "int64[5]");
  CHECK(a.type("e") == "float64[6]");
  CHECK(a.type("md") == "float64[]");
  CHECK(a.type("q") == "float64[3]");
  CHECK(a.type("cs") == "float64[?, 3]");
  CHECK(a.type("dl") == "float64[?, 2]");
  CHECK(a.type("ins") == "int64[5]");
  CHECK(a.type("tk") == "float64[2]");
  CHECK(a.type("dg") == "int64[?]");
  CHECK(a.type("ls") == "float64[2]");
}

TEST_CASE("the numpy families' static types agree with what runs", "[tf][numpy]") {
  AgreementReport r = checkAgreement("main.py", R"(import numpy as np
np.random.seed(0)
x = np.random.rand(4, 3)
i = np.arange(6)
t = np.arctan(x) + np.log2(x) + np.cbrt(x)
f = np.floor_divide(i, 4) + np.mod(i, 4)
cs = np.cumsum(x, axis=1)
d = np.diff(i)
md = np.median(x, axis=0)
pc = np.percentile(x, 30, axis=1)
o = np.outer(i, i)
td = np.tensordot(x, x, axes=([0], [0]))
es = np.einsum("ij,kj->ik", x, x)
tr = np.triu(x, 1)
n = np.linalg.norm(x, axis=0)
iv = np.linalg.inv(np.eye(3) + 0.1 * x[:3])
s = np.linalg.svd(x, compute_uv=False)
fl = np.flip(x, 1)
ss = np.searchsorted(np.sort(x[:, 0]), 0.5)
bc = np.bincount(i % 3)
)");
  INFO(r.str());
  CHECK(r.concreteExit == 0);
  CHECK(r.compared > 20);
  CHECK(r.disagreements.empty());
}
