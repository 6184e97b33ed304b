// numpy.random: seeded programs draw numpy's own numbers (legacy RandomState: MT19937 and numpy
// 1.x's algorithms), results have numpy's types, and abstract mode only types them.
//
// Every expected line is what python3 with numpy 1.24.2 (Debian's python3-numpy) printed for
// the same snippet, copied here once.
#include <chrono>

#include "lang/tf/exec/Agreement.h"
#include "TfTestSupport.h"

using namespace tlens;
using namespace tlens::tf;
using namespace tlens::tf::testing;
using interp::Mode;

namespace {

struct SeededCase {
  const char* snippet;   // runs after `import numpy as np`
  const char* expected;  // numpy 1.24.2's output of the same snippet
};

void checkAgainstNumpy(const SeededCase& c) {
  INFO(c.snippet);
  TfRun r = runTf(std::string("import numpy as np\n") + c.snippet + "\n");
  REQUIRE(r.err == "");
  CHECK(r.out == std::string(c.expected) + "\n");
}

}  // namespace

TEST_CASE("np.random.seed gives numpy's streams for rand, randn, normal, uniform and random_sample", "[tf][numpy][random]") {
  const SeededCase cases[] = {
      {"np.random.seed(0); print(np.random.rand(3).tolist())",
       "[0.5488135039273248, 0.7151893663724195, 0.6027633760716439]"},
      {"np.random.seed(0); print(np.random.randn(5).tolist())",
       "[1.764052345967664, 0.4001572083672233, 0.9787379841057392, 2.240893199201458, 1.8675579901499675]"},
      {"np.random.seed(7); print(np.random.normal(2.0,3.0,size=(2,2)).tolist(), np.random.normal(), "
       "np.random.uniform(-1,1,3).tolist(), np.random.uniform(3,5), np.random.standard_normal(2).tolist(), "
       "np.random.random_sample(), np.random.random((2,)).tolist())",
       "[[7.071577111401068, 0.6021878883775016], [2.098460491035753, 3.2225488489895238]] -0.7889230286257386 "
       "[-0.46312203979625766, -0.00023499834888007776, 0.35845999224188096] 4.607478072208751 "
       "[0.00206557290594813, -0.6254289739667597] 0.28814559930799355 [0.9095935277196137, 0.2133853535799155]"},
      // Array seeds go through init_by_array; 2**32 - 1 is the largest int seed.
      {"np.random.seed([1,2,3]); print(np.random.rand(2).tolist())", "[0.6098612722867289, 0.8866970434146851]"},
      {"np.random.seed(2**32-1); print(np.random.rand(1).tolist())", "[0.0976320289940138]"},
      {"r=np.random.RandomState(42); print(r.rand(2).tolist(), r.randn(3).tolist(), r.randint(100,size=4).tolist())",
       "[0.3745401188473625, 0.9507143064099162] [0.6476885381006925, 1.5230298564080254, -0.23415337472333597] "
       "[74, 74, 87, 99]"},
  };
  for (const SeededCase& c : cases) checkAgainstNumpy(c);
}

TEST_CASE("a mixed sequence of rand, randn (with its cached second gaussian) and randint follows numpy", "[tf][numpy][random]") {
  checkAgainstNumpy({"np.random.seed(1); a=np.random.rand(2).tolist(); b=np.random.randn(3).tolist(); "
                     "c=np.random.randint(0,10,size=4).tolist(); d=np.random.randn(); e=np.random.randint(1,4); "
                     "print(a, b, c, d, e)",
                     "[0.417022004702574, 0.7203244934421581] [-0.5281717522634557, -1.0729686221561705, "
                     "0.8654076293246785] [5, 2, 4, 2] -2.3015386968802827 1"});
}

TEST_CASE("np.random.randint draws numpy's masked rejection samples for small, odd, 64-bit, uint8 and int32 ranges", "[tf][numpy][random]") {
  checkAgainstNumpy({"np.random.seed(123); print(np.random.randint(0,2,8).tolist(), np.random.randint(-5,1000003,3).tolist(), "
                     "np.random.randint(0,2**33+5,2).tolist(), np.random.randint(0,256,6,dtype=np.uint8).tolist(), "
                     "np.random.randint(3,10,3,dtype=np.int32).tolist(), np.random.randint(7))",
                     "[0, 1, 0, 0, 0, 0, 0, 1] [990798, 653413, 46198] [8507317462, 7236288608] "
                     "[113, 216, 102, 148, 126, 90] [4, 3, 9] 0"});
}

TEST_CASE("np.random.choice, permutation and shuffle give numpy's picks and orders", "[tf][numpy][random]") {
  checkAgainstNumpy({"np.random.seed(5); print(np.random.choice(10,5).tolist(), np.random.choice(10,4,replace=False).tolist(), "
                     "np.random.choice([1.5,2.5,3.5],6,p=[0.2,0.3,0.5]).tolist(), "
                     "np.random.choice(5,3,replace=False,p=[0.1,0.2,0.3,0.2,0.2]).tolist(), np.random.choice(7))",
                     "[3, 6, 6, 0, 9] [5, 1, 9, 2] [3.5, 3.5, 3.5, 3.5, 2.5, 3.5] [1, 4, 3] 1"});
  checkAgainstNumpy({"np.random.seed(9); p=np.random.permutation(8).tolist(); a=np.arange(12).reshape(6,2); "
                     "np.random.shuffle(a); l=list(range(7)); np.random.shuffle(l); "
                     "q=np.random.permutation([10,20,30,40]).tolist(); print(p, a.tolist(), l, q)",
                     "[7, 1, 2, 3, 0, 5, 4, 6] [[10, 11], [4, 5], [0, 1], [6, 7], [8, 9], [2, 3]] "
                     "[2, 5, 4, 6, 3, 0, 1] [20, 30, 40, 10]"});
  checkAgainstNumpy({"np.random.seed(4); print(np.random.choice(['rock', 'paper', 'scissors']), "
                     "np.random.choice(('a', 'b'), p=[0.1, 0.9]), np.random.rand())",
                     "scissors b 0.17269533107194568"});
}

TEST_CASE("a million seeded normals are numpy's and take milliseconds", "[tf][numpy][random]") {
  auto start = std::chrono::steady_clock::now();
  checkAgainstNumpy({"np.random.seed(0); x=np.random.randn(1000000); print(x.shape, x.dtype, x[0], x[1], x[999998], x[999999])",
                     "(1000000,) float64 1.764052345967664 0.4001572083672233 0.8747560931181503 1.37183066026284"});
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  CHECK(s < 2.0);  // ~0.05 s measured; a Python-speed generator would take far longer
}

TEST_CASE("np.random results have numpy's types: Python scalars without size, float64 and int64 arrays with it", "[tf][numpy][random]") {
  TfRun r = runTf(R"(import numpy as np
import tensorflow as tf
l = [10, 20, 30, 40]
i = np.random.randint(1, 4)
print(type(np.random.rand()).__name__, type(np.random.randn()).__name__, type(np.random.normal()).__name__,
      type(np.random.uniform()).__name__, type(i).__name__, type(np.random.choice(5)).__name__)
print(l[i] in l, len(list(range(np.random.randint(2, 3)))))
print(np.random.rand(2, 3).dtype, np.random.randn(4).dtype, np.random.randint(3, size=2).dtype,
      np.random.randint(3, size=2, dtype=np.int32).dtype, np.random.permutation(3).dtype)
print(tf.Variable(np.random.randn()).dtype, tf.Variable(np.random.rand(2)).dtype)
)");
  REQUIRE(r.err == "");
  CHECK(r.out == "float float float float int int\nTrue 2\nfloat64 float64 int64 int32 int64\n<dtype: 'float32'> <dtype: 'float64'>\n");
}

TEST_CASE("unseeded np.random is random but valid, and RandomState objects have streams of their own", "[tf][numpy][random]") {
  TfRun r = runTf(R"(import numpy as np
a = np.random.rand(1000)
b = np.random.rand(1000)
k = np.random.randint(3, 7, size=1000)
print(bool((a >= 0).all() and (a < 1).all()), bool((a != b).any()), int(k.min()) >= 3, int(k.max()) <= 6)
r1 = np.random.RandomState(3)
np.random.seed(3)
x = np.random.rand(2).tolist()
np.random.rand(5)
print(r1.rand(2).tolist() == x)
)");
  REQUIRE(r.err == "");
  CHECK(r.out == "True True True True\nTrue\n");
}

TEST_CASE("np.random's argument errors are numpy's", "[tf][numpy][random]") {
  const std::pair<const char*, const char*> cases[] = {
      {"np.random.seed(-1)", "ValueError: Seed must be between 0 and 2**32 - 1"},
      {"np.random.seed(2**32)", "ValueError: Seed must be between 0 and 2**32 - 1"},
      {"np.random.seed([])", "ValueError: Seed must be non-empty"},
      {"np.random.randint(5, 5)", "ValueError: low >= high"},
      {"np.random.randint(-1, 5, dtype=np.uint8)", "ValueError: low is out of bounds for uint8"},
      {"np.random.choice(3, 5, replace=False)", "ValueError: Cannot take a larger sample than population when 'replace=False'"},
      {"np.random.choice([1, 2], p=[0.5, 0.6])", "ValueError: probabilities do not sum to 1"},
      {"np.random.normal(0, -1)", "ValueError: scale < 0"},
      {"np.random.rand(-1)", "ValueError: negative dimensions are not allowed"},
  };
  for (const auto& [code, error] : cases) {
    INFO(code);
    TfRun r = runTf(std::string("import numpy as np\n") + code + "\n");
    CHECK(r.err.find(error) != std::string::npos);
  }
}

TEST_CASE("abstract mode types np.random results without drawing or allocating", "[tf][numpy][random]") {
  const char* src = R"(import numpy as np
np.random.seed(0)
big = np.random.randn(100000, 100000)
u = np.random.uniform(-1, 1, (3, 4))
k = np.random.randint(0, 10, size=(5,))
k8 = np.random.randint(0, 10, size=(5,), dtype=np.uint8)
p = np.random.permutation(7)
c = np.random.choice(10, (2, 3))
s = np.random.rand()
po = np.random.poisson(3.0, (2, 2))
bi = np.random.binomial(1, [0.5, 0.2])
a = np.arange(6)
np.random.shuffle(a)
)";
  TfRun a = runTf(src, Mode::Abstract);
  CHECK(a.diagnostics() == "");
  CHECK(a.type("big") == "float64[100000, 100000]");
  CHECK(a.type("u") == "float64[3, 4]");
  CHECK(a.type("k") == "int64[5]");
  CHECK(a.type("k8") == "uint8[5]");
  CHECK(a.type("p") == "int64[7]");
  CHECK(a.type("c") == "int64[2, 3]");
  CHECK(a.type("s") == "<not a tensor>");
  CHECK(a.type("po") == "int64[2, 2]");
  CHECK(a.type("bi") == "int64[2]");
  CHECK(a.type("a") == "int64[6]");
}

TEST_CASE("the tutorials' seeded minibatch loop (permutation, array_split, fancy indexing) prints numpy's batches", "[tf][numpy][random]") {
  // Expected output: python3 with numpy 1.24.2 on the same program.
  const char* src = R"(import numpy as np
np.random.seed(42)
X = np.random.rand(10, 3)
y = np.random.randint(0, 2, 10)
for epoch in range(2):
    rnd_idx = np.random.permutation(len(X))
    for batch_idx in np.array_split(rnd_idx, 3):
        X_batch, y_batch = X[batch_idx], y[batch_idx]
        print(batch_idx.tolist(), X_batch.shape, y_batch.tolist())
W = np.random.normal(size=(4, 4), scale=np.sqrt(1 / 100))
print(W[0].tolist())
a, b = np.random.randint(0, 10, 2)
print(a, b, [s.shape for s in np.split(np.arange(12).reshape(6, 2), 3)], np.roll(np.arange(5), 2).tolist(), np.roll(np.arange(6).reshape(3, 2), -1, axis=0).tolist())
print(np.random.normal(loc=[0.0, 10.0], scale=2.0).tolist(), np.random.uniform(low=[0, 5], high=10).tolist())
print(np.random.randint(0, [3, 5, 100]).tolist())
print(np.random.choice([3, 1, 4, 1, 5], 3, replace=False).tolist())
)";
  TfRun r = runTf(src);
  REQUIRE(r.err == "");
  CHECK(r.out ==
        "[0, 5, 2, 6] (4, 3) [0, 1, 0, 1]\n[3, 7, 4] (3, 3) [0, 0, 0]\n[9, 8, 1] (3, 3) [1, 1, 0]\n"
        "[4, 8, 1, 3] (4, 3) [0, 1, 0, 0]\n[0, 5, 2] (3, 3) [0, 1, 0]\n[9, 7, 6] (3, 3) [1, 0, 1]\n"
        "[-0.044674147097314605, 0.15242416328552064, 0.03229997972782976, -0.13934169408727037]\n"
        "8 8 [(2, 2), (2, 2), (2, 2)] [3, 4, 0, 1, 2] [[2, 3], [4, 5], [0, 1]]\n"
        "[-1.6868398467185692, 8.973349189205667] [0.1563640674119393, 7.117007403531848]\n"
        "[0, 3, 7]\n[1, 1, 3]\n");
  TfRun a = runTf(src, Mode::Abstract);
  CHECK(a.diagnostics() == "");
}

TEST_CASE("np.random.poisson and binomial follow numpy's legacy algorithms on both of their branches", "[tf][numpy][random]") {
  // poisson: lam < 10 multiplies uniforms, lam >= 10 is PTRS; binomial: inversion while
  // min(p, 1-p) * n <= 30, BTPE beyond. The sums run thousands of draws through every branch; the
  // trailing rand() checks that the same number of draws was taken.
  checkAgainstNumpy({"np.random.seed(3)\n"
                     "print(np.random.poisson(3.5, 8).tolist(), np.random.poisson(12.0, 8).tolist(), np.random.poisson(250.5, 6).tolist())\n"
                     "print(np.random.binomial(1, 0.5, 10).tolist(), np.random.binomial(100, 0.9, 6).tolist(), "
                     "np.random.binomial(1000, 0.4, 8).tolist(), np.random.binomial(5, 0.5), np.random.poisson())\n"
                     "s = 0\n"
                     "for lam in [10.0, 15.5, 33.3, 77.0, 500.0]:\n"
                     "    s += int(np.random.poisson(lam, 2000).sum())\n"
                     "for n, p in [(31, 0.99), (40, 0.8), (1000, 0.02), (1000, 0.03), (5000, 0.5), (50, 0.61)]:\n"
                     "    s += int(np.random.binomial(n, p, 2000).sum())\n"
                     "print(s, np.random.rand())",
                     "[6, 1, 1, 5, 3, 3, 3, 6] [14, 10, 11, 9, 11, 13, 9, 9] [251, 250, 260, 259, 245, 243]\n"
                     "[0, 0, 0, 0, 1, 0, 1, 1, 1, 0] [89, 94, 94, 93, 93, 94] [389, 379, 414, 374, 401, 418, 419, 386] 3 3\n"
                     "6557552 0.9211812321420668"});
}

TEST_CASE("np.random.multivariate_normal has the asked mean and covariance and keeps the stream in step with numpy", "[tf][numpy][random]") {
  // numpy factors cov by LAPACK's SVD, tensorlens by Cholesky: the samples differ, their
  // distribution and the number of draws do not, so the next rand() is numpy's
  // (0.5606349793063974: numpy 1.24.2 after the same calls).
  TfRun r = runTf(R"(import numpy as np
np.random.seed(0)
s = np.random.multivariate_normal(mean=[0, 3], cov=[[1, 0.5], [0.5, 1]], size=20000)
c = np.mean((s[:, 0] - s[:, 0].mean()) * (s[:, 1] - s[:, 1].mean()))
print(s.shape, s.dtype, abs(round(float(s[:, 0].mean()), 1)), round(float(s[:, 1].mean()), 1), round(float(c), 1), round(float(s[:, 1].std()), 1))
print(np.random.rand())
)");
  REQUIRE(r.err == "");
  CHECK(r.out == "(20000, 2) float64 0.0 3.0 0.5 1.0\n0.5606349793063974\n");
}

TEST_CASE("np.random.get_state and set_state replay a stream (the shuffle-two-arrays-in-unison idiom)", "[tf][numpy][random]") {
  checkAgainstNumpy({"np.random.seed(11)\n"
                     "X = np.arange(10).reshape(5, 2)\n"
                     "y = np.arange(5)\n"
                     "np.random.randn()\n"
                     "st = np.random.get_state()\n"
                     "np.random.shuffle(X)\n"
                     "np.random.set_state(st)\n"
                     "np.random.shuffle(y)\n"
                     "print(X.tolist(), y.tolist(), st[0], len(st[1]), st[2], st[3], st[4])\n"
                     "np.random.set_state(st)\n"
                     "print(np.random.randn(), np.random.rand())",
                     "[[8, 9], [0, 1], [4, 5], [6, 7], [2, 3]] [4, 0, 2, 3, 1] MT19937 624 8 1 -0.28607299681629417\n"
                     "-0.28607299681629417 0.42020360458772743"});
}

TEST_CASE("np.random's and numpy indexing's static types agree with what runs", "[tf][numpy][random]") {
  AgreementReport r = checkAgreement("main.py", R"(import numpy as np
np.random.seed(0)
a = np.random.rand(4, 3)
b = np.random.randn(5)
k = np.random.randint(0, 10, size=(2, 3))
k8 = np.random.randint(0, 255, 4, dtype=np.uint8)
u = np.random.uniform(-1, 1, (3,))
n = np.random.normal([0.0, 1.0], 2.0)
c = np.random.choice(5, 3, replace=False)
p = np.random.permutation(6)
po = np.random.poisson([1.0, 20.0])
bi = np.random.binomial(1, 0.5, 7)
mv = np.random.multivariate_normal([0, 0], [[1, 0], [0, 1]], 4)
ri = np.random.randint(0, [3, 5, 100])
oh = np.eye(10)[k8 % 10]
g = a[np.arange(4), np.array([0, 2, 1, 1])]
m = a[a[:, 0] > 0.5]
s = a[:, [0, 2]]
a[a > 0.9] = 0
)");
  INFO(r.str());
  CHECK(r.concreteExit == 0);
  CHECK(r.compared > 20);
  CHECK(r.disagreements.empty());
}
