// Diagnostics on annotated fixtures: the full set of published diagnostics is compared with the
// annotations both ways, so a missing diagnostic and an unexpected one both fail.
#include "tests/lsp/LspTestSupport.h"

using namespace tlens::lsp;
using namespace tlens::lsp::test;

namespace {

struct Fixture {
  const char* name;
  const char* source;
};

// Each diagnostic kind has a positive fixture and a negative one (the corrected program).
const Fixture kFixtures[] = {
    {"matmul inner dimensions differ", R"(import tensorflow as tf
a = tf.placeholder(tf.float32, [None, 3])
b = tf.Variable(tf.zeros([4, 5]))
c = tf.matmul(a, b)
#   ^^^^^^^^^^^^^^^ error: Dimensions must be equal, but are 3 and 4
d = tf.nn.relu(c)
)"},
    {"matmul inner dimensions agree", R"(import tensorflow as tf
a = tf.placeholder(tf.float32, [None, 4])
b = tf.Variable(tf.zeros([4, 5]))
c = tf.matmul(a, b)
d = tf.nn.relu(c)
)"},
    {"matmul with transpose_b resolves the mismatch", R"(import tensorflow as tf
a = tf.placeholder(tf.float32, [None, 5])
b = tf.Variable(tf.zeros([4, 5]))
c = tf.matmul(a, b, transpose_b=True)
)"},
    {"broadcasting incompatible shapes", R"(import tensorflow as tf
a = tf.zeros([2, 3])
b = tf.ones([4, 3])
c = a + b
#   ^^^^^ error: Dimensions must be equal, but are 2 and 4
)"},
    {"broadcasting compatible shapes", R"(import tensorflow as tf
a = tf.zeros([2, 3])
b = tf.ones([1, 3])
c = a + b
)"},
    {"reshape to a different element count", R"(import tensorflow as tf
a = tf.zeros([4, 6])
b = tf.reshape(a, [5, 5])
#   ^^^^^^^^^^^^^^^^^^^^^ error: reshape
)"},
    {"reshape keeping the element count", R"(import tensorflow as tf
a = tf.zeros([4, 6])
b = tf.reshape(a, [-1, 3])
)"},
    {"concat of mismatched ranks", R"(import tensorflow as tf
a = tf.zeros([2, 3])
b = tf.zeros([2, 3, 4])
c = tf.concat([a, b], axis=0)
#   ^^^^^^^^^^^^^^^^^^^^^^^^^ error: rank
)"},
    {"concat of matching shapes", R"(import tensorflow as tf
a = tf.zeros([2, 3])
b = tf.zeros([5, 3])
c = tf.concat([a, b], axis=0)
)"},
    {"int32 bias added to float32 activations", R"(import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 4], name="x")
w = tf.Variable(tf.ones([4, 3]), name="w")
bias = tf.constant([1, 2, 3], name="bias")
activations = tf.matmul(x, w)
out = tf.add(activations, bias)
#     ^^^^^^^^^^^^^^^^^^^^^^^^^ error: int32
)"},
    {"float32 bias added to float32 activations", R"(import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 4], name="x")
w = tf.Variable(tf.ones([4, 3]), name="w")
bias = tf.constant([1.0, 2.0, 3.0], name="bias")
activations = tf.matmul(x, w)
out = tf.add(activations, bias)
)"},
    {"a feed of the wrong shape", R"(import tensorflow as tf
import numpy as np
x = tf.placeholder(tf.float32, [None, 19], name="x")
y = x * 2.0
data = np.zeros((19,))
with tf.Session() as sess:
    sess.run(y, feed_dict={x: data})
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error: Cannot feed value of shape (19,)
)"},
    {"a feed of the right shape", R"(import tensorflow as tf
import numpy as np
x = tf.placeholder(tf.float32, [None, 19], name="x")
y = x * 2.0
data = np.zeros((8, 19))
with tf.Session() as sess:
    sess.run(y, feed_dict={x: data})
)"},
    {"unknown dims never produce a diagnostic", R"(import tensorflow as tf
import sys
n = int(sys.argv[1]) if len(sys.argv) > 1 else 7
a = tf.placeholder(tf.float32, [None, None])
b = tf.zeros([5, 6])
c = tf.matmul(a, b)
d = tf.reshape(c, [-1, 3])
)"},
    {"an unknown value never produces a diagnostic", R"(import tensorflow as tf
import os
def load():
    return os.environ.get("DATA")
x = load()
y = tf.matmul(x, x)
z = x[3] + 2
)"},
    {"a syntax error is an error and the rest is analysed", R"(import tensorflow as tf
a = tf.zeros([2, 3]
# <- error: invalid syntax
b = tf.zeros([3, 4])
)"},
    {"a shape error inside a function called with known shapes", R"(import tensorflow as tf
def dense(x, units):
    w = tf.zeros([3, units])
    return tf.matmul(x, w)
#          ^^^^^^^^^^^^^^^ error: Dimensions must be equal, but are 5 and 3
y = dense(tf.zeros([2, 5]), 4)
)"},
    {"a function nobody calls is analysed without false alarms", R"(import tensorflow as tf
def dense(x, units):
    w = tf.zeros([3, units])
    return tf.matmul(x, w)
)"},
    {"an exception on known values is a warning", R"(x = 1
z = x / 0
#   ^^^^^ warning: ZeroDivisionError
w = 2
)"},
    {"a division by a known non-zero is fine", R"(x = 1
z = x / 2
)"},
    {"module-level while True is cut by the budget, not a hang", R"(i = 0
while True:
    i += 1
)"},
    {"TF2 eager matmul mismatch", R"(import tensorflow as tf
x = tf.ones([2, 3])
w = tf.Variable(tf.zeros([2, 4]))
y = tf.matmul(x, w)
#   ^^^^^^^^^^^^^^^ error: Dimensions must be equal, but are 3 and 2
)"},
    {"TF2 eager matmul agreement", R"(import tensorflow as tf
x = tf.ones([2, 3])
w = tf.Variable(tf.zeros([3, 4]))
y = tf.matmul(x, w)
)"},
    {"numpy broadcasting mismatch", R"(import numpy as np
a = np.zeros((3, 4))
b = np.ones((5,))
c = a + b
#   ^^^^^ error: Dimensions must be equal, but are 4 and 5
)"},
    {"numpy broadcasting agreement", R"(import numpy as np
a = np.zeros((3, 4))
b = np.ones((4,))
c = a + b
)"},
};

}  // namespace

TEST_CASE("annotated fixtures: the published diagnostics are exactly the annotated ones", "[lsp][diagnostics]") {
  for (const Fixture& f : kFixtures) {
    DYNAMIC_SECTION(f.name) { checkDiagnostics(f.source); }
  }
}

TEST_CASE("a shape error's related information points at where each shape came from", "[lsp][diagnostics]") {
  auto snap = analyzeFixture(kFixtures[0].source);
  REQUIRE(snap);
  auto ds = diagnostics(*snap);
  REQUIRE(ds.size() == 1);
  REQUIRE(ds[0].related.size() == 2);
  CHECK(ds[0].related[0].range.start.line == 1);
  CHECK(ds[0].related[1].range.start.line == 2);
  CHECK(ds[0].related[0].file == "/fixture.py");
}

TEST_CASE("unsupported constructs are published as hints, never errors", "[lsp][diagnostics]") {
  auto snap = analyzeFixture("async def f():\n    pass\nx = 1\n");
  REQUIRE(snap);
  for (const auto& d : diagnostics(*snap)) {
    INFO(describe(d));
    if (d.code == "unsupported") CHECK(d.severity == 4);
  }
}

TEST_CASE("the fixture checker fails on a missing and on an unexpected diagnostic", "[lsp][diagnostics]") {
  // The checker itself must be able to fail: compare by hand what checkDiagnostics compares.
  auto annotated = parseAnnotations(kFixtures[0].source);
  REQUIRE(annotated.size() == 1);
  CHECK(annotated[0].kind == "error");
  CHECK(annotated[0].start == tlens::lang::TextPos{3, 4});
  CHECK(annotated[0].end == tlens::lang::TextPos{3, 19});
  auto snapOk = analyzeFixture(kFixtures[1].source);
  CHECK(diagnostics(*snapOk).empty());  // the annotation of fixture 0 would be missing here
  auto snapBad = analyzeFixture(kFixtures[0].source);
  CHECK(diagnostics(*snapBad).size() == 1);  // and unexpected in fixture 1
}
