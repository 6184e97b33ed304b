#include <catch2/catch.hpp>

#include "lang/syntax/SourceFile.h"

using namespace tlens;
using namespace tlens::lang;

TEST_CASE("a source file maps bytes, lines and UTF-16 columns", "[lang][syntax]") {
  SourceFile f("a.py", "x = 1\ny = 'é𝄞' + z\n");
  CHECK(f.lineCount() == 3);
  CHECK(f.positionOf(6) == TextPos{1, 0});
  CHECK(f.offsetOf({1, 4}) == 10);
  CHECK(f.lineText(1) == "y = 'é𝄞' + z");
  // 'é' is 2 bytes / 1 UTF-16 unit; '𝄞' is 4 bytes / 2 units.
  CHECK(f.utf16Column(1, 11) == 8);
  CHECK(f.byteColumn(1, 8) == 11);
  CHECK(f.byteColumn(1, 6) == 7);
  CHECK(f.syntaxErrors().empty());
}

TEST_CASE("syntax errors are reported with positions and the rest still parses", "[lang][syntax]") {
  SourceFile f("b.py", "a = tf.matmul(x, y\nb = 2\ndef f(:\n  pass\n");
  REQUIRE_FALSE(f.syntaxErrors().empty());
  CHECK(f.syntaxErrors()[0].start.line <= 2);
  CHECK(ts_node_named_child_count(f.root()) >= 1);
}

TEST_CASE("deeply nested code does not overflow the stack", "[lang][syntax]") {
  std::string deep = "x = " + std::string(10000, '(') + "1" + std::string(9990, ')') + "\n";
  SourceFile f("deep.py", deep);
  CHECK_FALSE(f.syntaxErrors().empty());
}

TEST_CASE("nodes map to the engine's 1-based source locations", "[lang][syntax]") {
  SourceFile f("c.py", "import tensorflow as tf\nh = tf.nn.relu(x)\n");
  TSNode call = f.nodeAt(f.offsetOf({1, 4}));
  SourceLocation loc = f.locationOf(call);
  CHECK(loc.line == 2);
  CHECK(loc.column == 5);
}

namespace {
std::string sexp(const SourceFile& f) {
  char* s = ts_node_string(f.root());
  std::string out(s);
  free(s);
  return out;
}
}  // namespace

TEST_CASE("an incremental re-parse gives the tree and errors a fresh parse gives", "[lang][syntax]") {
  const std::string base =
      "import tensorflow as tf\n"
      "x = tf.placeholder(tf.float32, [None, 784])\n"
      "def f(a):\n"
      "    return tf.matmul(a, w)\n"
      "y = f(x)  # é𝄞\n";
  // Each case: a later version of `base` (one edit: insert, delete, replace, broken, at the
  // start, in the middle, at the end, multi-line).
  std::vector<std::string> versions = {
      base,
      "#\n" + base,
      base + "z = y + 1\n",
      "import tensorflow as tf\nx = tf.placeholder(tf.float32, [None, 785])\ndef f(a):\n    return tf.matmul(a, w)\ny = f(x)  # é𝄞\n",
      "import tensorflow as tf\nx = tf.placeholder(tf.float32, [None, 784]\ndef f(a):\n    return tf.matmul(a, w)\ny = f(x)  # é𝄞\n",
      "import tensorflow as tf\ny = f(x)  # é𝄞\n",
      "import tensorflow as tf\nx = tf.placeholder(tf.float32, [None, 784])\ndef f(a):\n    if a:\n        return 1\n    return tf.matmul(a, w)\ny = f(x)  # é𝄞\n",
      "",
  };
  SourceFile previous("m.py", base);
  for (const std::string& v : versions) {
    CAPTURE(v);
    SourceFile fresh("m.py", v);
    SourceFile incremental(previous, v);
    CHECK(incremental.path() == "m.py");
    CHECK(incremental.text() == v);
    CHECK(sexp(incremental) == sexp(fresh));
    CHECK(incremental.lineCount() == fresh.lineCount());
    REQUIRE(incremental.syntaxErrors().size() == fresh.syntaxErrors().size());
    for (size_t i = 0; i < fresh.syntaxErrors().size(); ++i) {
      CHECK(incremental.syntaxErrors()[i].start == fresh.syntaxErrors()[i].start);
      CHECK(incremental.syntaxErrors()[i].end == fresh.syntaxErrors()[i].end);
    }
    // Chained edits: each version re-parsed from the one before.
    SourceFile again(incremental, base);
    CHECK(sexp(again) == sexp(previous));
  }
  // The old file keeps its tree: positions in it are unchanged by the new version.
  CHECK(previous.text() == base);
  CHECK(ts_node_end_byte(previous.root()) == base.size());
}
