// Code action fixtures: a program, the line of the diagnostic, and the edits the quick fixes make
// (the line after applying each). A fixture with no edits expects no action: a diagnostic no
// single edit can fix must not get a guess.
#include "tests/lsp/LspTestSupport.h"

using namespace tlens::lsp;
using namespace tlens::lsp::test;

namespace {

struct Fixture {
  const char* name;
  const char* source;
  int line;                         ///< 0-based line of the diagnostic
  std::vector<std::string> fixed;   ///< that line after each action, in order
};

const Fixture kReshape[] = {
    {"a literal dim that makes the counts match", R"(import tensorflow as tf
a = tf.zeros([2, 3])
b = tf.reshape(a, [4, 2])
)", 2, {"b = tf.reshape(a, [3, 2])"}},
    {"each dim that can be corrected gets an action", R"(import tensorflow as tf
a = tf.zeros([4, 6])
b = tf.reshape(a, [6, 6])
)", 2, {"b = tf.reshape(a, [4, 6])", "b = tf.reshape(a, [6, 4])"}},
    {"a dim given by a variable becomes -1", R"(import tensorflow as tf
n = 7
a = tf.zeros([4, 6])
w = tf.reshape(a, [n, 3])
)", 3, {"w = tf.reshape(a, [-1, 3])"}},
    {"the flattening size of a conv net (an expression) becomes -1", R"(import tensorflow as tf
x = tf.zeros([8, 7, 7, 64])
flat = tf.reshape(x, [8, 7 * 7 * 32])
)", 2, {"flat = tf.reshape(x, [16, 7 * 7 * 32])", "flat = tf.reshape(x, [8, -1])"}},
    {"shape= keyword and a tuple", R"(import tensorflow as tf
z = tf.reshape(tf.zeros([2, 3]), shape=(4, 2))
)", 1, {"z = tf.reshape(tf.zeros([2, 3]), shape=(3, 2))"}},
    {"a symbolic batch dim cancels out; the literal dim is corrected", R"(import tensorflow as tf
def f(x):
    return tf.reshape(x, [tf.shape(x)[0], 28, 28, 3])
x = tf.placeholder(tf.float32, [None, 784])
y = f(x)
)", 2, {"    return tf.reshape(x, [tf.shape(x)[0], 28, 28, 1])"}},
    {"numpy arrays reshape too", R"(import numpy as np
a = np.zeros((4, 6))
b = np.reshape(a, (5, 4))
)", 2, {"b = np.reshape(a, (6, 4))"}},
    // Negative: no single dim fixes it.
    {"no single dim fixes 24 -> [5, 5]", R"(import tensorflow as tf
a = tf.zeros([4, 6])
b = tf.reshape(a, [5, 5])
)", 2, {}},
    {"a -1 whose known dims do not divide: no guess", R"(import tensorflow as tf
a = tf.zeros([4, 6])
b = tf.reshape(a, [-1, 5])
)", 2, {}},
    {"the target is a variable, not a literal", R"(import tensorflow as tf
a = tf.zeros([2, 3])
shape = [4, 2]
b = tf.reshape(a, shape)
)", 3, {}},
    {"a correct reshape: no diagnostic, no action", R"(import tensorflow as tf
a = tf.zeros([2, 3])
b = tf.reshape(a, [3, 2])
)", 2, {}},
    {"another shape error on the line: not a reshape fix", R"(import tensorflow as tf
c = tf.matmul(tf.zeros([2, 3]), tf.zeros([4, 5]))
)", 1, {}},
};

std::string applyOnLine(const Snapshot& s, const CodeActionInfo& a, int line) {
  std::string text = s.file->text();
  uint32_t from = s.file->offsetOf(a.edit.start), to = s.file->offsetOf(a.edit.end);
  text.replace(from, to - from, a.newText);
  std::stringstream ss(text);
  std::string l;
  for (int i = 0; i <= line && std::getline(ss, l); ++i) {
  }
  return l;
}

}  // namespace

TEST_CASE("reshape quick fixes: a corrected target when one dim can make the counts match", "[lsp][codeaction]") {
  for (const Fixture& fx : kReshape) {
    SECTION(fx.name) {
      auto snap = analyzeFixture(fx.source);
      REQUIRE(snap);
      std::string diags;
      for (const auto& d : diagnostics(*snap)) diags += describe(d) + "\n";
      INFO("diagnostics:\n" << diags);
      int line = fx.line;
      auto actions = codeActions(*snap, {{line, 0}, {line, 0}});
      std::vector<std::string> got;
      for (const auto& a : actions) {
        CHECK(a.diagnostic.code == "shape-error");
        CHECK(a.title.find("Reshape to") == 0);
        got.push_back(applyOnLine(*snap, a, line));
      }
      CHECK(got == fx.fixed);
      // Every fix really fixes: the corrected program has no error on that line.
      for (const auto& a : actions) {
        std::string text = snap->file->text();
        uint32_t from = snap->file->offsetOf(a.edit.start), to = snap->file->offsetOf(a.edit.end);
        text.replace(from, to - from, a.newText);
        auto fixed = analyzeFixture(text);
        REQUIRE(fixed);
        for (const auto& d : diagnostics(*fixed)) {
          INFO(a.title << ": " << describe(d));
          CHECK(d.severity != 1);
        }
      }
    }
  }
}

TEST_CASE("quick fixes read the diagnostic's data: other message text gives the same fixes, no data gives none", "[lsp][codeaction][data]") {
  // One program per fix: a reshape target, transpose_b, a cast of an int32 operand.
  const std::pair<const char*, int> programs[] = {
      {R"(import tensorflow as tf
a = tf.zeros([4, 6])
b = tf.reshape(a, [6, 6])
)", 2},
      {R"(import tensorflow as tf
a = tf.placeholder(tf.float32, [None, 5])
b = tf.Variable(tf.zeros([4, 5]))
c = tf.matmul(a, b)
)", 3},
      {R"(import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 4], name="x")
w = tf.Variable(tf.ones([4, 3]), name="w")
bias = tf.constant([1, 2, 3], name="bias")
out = tf.add(tf.matmul(x, w), bias)
)", 4},
  };
  for (const auto& [source, line] : programs) {
    auto snap = analyzeFixture(source);
    REQUIRE(snap);
    TextRange range{{line, 0}, {line, 0}};
    auto expected = codeActions(*snap, range);
    INFO(source);
    REQUIRE(!expected.empty());
    // The same diagnostics with every message replaced (a translation, a reworded error).
    std::vector<DiagnosticInfo> reworded = diagnostics(*snap);
    for (DiagnosticInfo& d : reworded) {
      CHECK(!d.data.empty());
      d.message = "Die Formen passen nicht zusammen.";
      for (auto& r : d.related) r.message = "Eingabe";
    }
    auto got = codeActions(*snap, range, reworded);
    REQUIRE(got.size() == expected.size());
    for (size_t i = 0; i < got.size(); ++i) {
      CHECK(got[i].title == expected[i].title);
      CHECK(got[i].newText == expected[i].newText);
      CHECK(got[i].edit.start == expected[i].edit.start);
      CHECK(got[i].edit.end == expected[i].edit.end);
    }
    // The original messages without the data: nothing to go on, so no fix.
    std::vector<DiagnosticInfo> bare = diagnostics(*snap);
    for (DiagnosticInfo& d : bare) d.data = {};
    CHECK(codeActions(*snap, range, bare).empty());
  }
}

TEST_CASE("a shape error's data names the op, each operand's shape, dtype and place, and the blamed ones", "[lsp][codeaction][data]") {
  auto snap = analyzeFixture(R"(import tensorflow as tf
a = tf.placeholder(tf.float32, [None, 3])
b = tf.Variable(tf.zeros([4, 5]))
c = tf.matmul(a, b)
)");
  REQUIRE(snap);
  auto diags = diagnostics(*snap);
  REQUIRE(diags.size() == 1);
  const tlens::DiagnosticData& d = diags[0].data;
  CHECK(d.code == "shape-error");
  CHECK(d.opType == "MatMul");
  CHECK(d.conflict == "shape");
  REQUIRE(d.inputs.size() == 2);
  CHECK(d.inputs[0].shape.str() == "[batch,3]");  // a placeholder's None dim 0 is the symbol "batch"
  CHECK(d.inputs[1].shape.str() == "[4,5]");
  CHECK(d.inputs[0].dtype == "float32");
  CHECK(d.inputs[0].blamed);
  CHECK(d.inputs[1].blamed);
  CHECK(d.inputs[0].location.line == 2);  // 1-based: `tf.placeholder(...)` on line 2
  CHECK(d.inputs[1].location.line == 3);
}
