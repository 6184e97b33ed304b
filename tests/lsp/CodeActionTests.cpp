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
