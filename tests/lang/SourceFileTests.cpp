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

TEST_CASE("a lone carriage return ends a line, for positions and for the parser", "[lang][syntax]") {
  // The LSP's line ends are \n, \r\n and \r; Python's universal newlines agree.
  SourceFile f("a.py", "x = 1\ry = 2\r\nz = (\r3)\r");
  CHECK(f.lineCount() == 5);
  CHECK(f.positionOf(6) == TextPos{1, 0});
  CHECK(f.positionOf(13) == TextPos{2, 0});
  CHECK(f.offsetOf({3, 0}) == 19);
  CHECK(f.lineText(1) == "y = 2");
  CHECK(f.syntaxErrors().empty());
  CHECK(ts_node_start_point(ts_node_named_child(f.root(), 1)).row == 1);
  CHECK(ts_node_named_child_count(f.root()) == 3);
}

TEST_CASE("syntax errors are reported with positions and the rest still parses", "[lang][syntax]") {
  SourceFile f("b.py", "a = tf.matmul(x, y\nb = 2\ndef f(:\n  pass\n");
  REQUIRE_FALSE(f.syntaxErrors().empty());
  CHECK(f.syntaxErrors()[0].start.line <= 2);
  CHECK(ts_node_named_child_count(f.root()) >= 1);
}

TEST_CASE("an assignment with nothing after its '=' on the line is a syntax error, as in CPython", "[lang][syntax]") {
  // Tree-sitter parses `env = # FILL IN\nprint(1)` as `env = print(1)`; CPython's tokenizer ends
  // the line (exercise notebooks leave such blanks).
  SourceFile f("e.py", "import os\nenv = # FILL IN\nprint(1)\nif os:\n    n += # TODO\n    pass\n");
  REQUIRE(f.syntaxErrors().size() == 2);
  CHECK(f.syntaxErrors()[0].start == TextPos{1, 5});
  CHECK(f.syntaxErrors()[0].message == "invalid syntax");
  CHECK(f.syntaxErrors()[1].start.line == 4);
  // Continuations are not: a backslash, brackets, chained targets, multi-line right sides.
  SourceFile ok("ok.py", R"(x = \
  3
y = (1 +
  2)
z = w = \
  4
d = {
  'a': 1}
s = '''a
b'''
f(a=
  1)
)");
  CHECK(ok.syntaxErrors().empty());
}

TEST_CASE("a syntax error Tree-sitter wraps with the statements around it is reported where those statements end", "[lang][syntax]") {
  // An exercise notebook's blanks: Tree-sitter's recovery makes the whole file one ERROR node
  // starting at the licence comment; CPython says line 4.
  const char* text = R"(#@title Licensed under the Apache License
import os

image_gen = 

model = 

# Compile the model

epochs = 

history = 

acc = 
val_acc = 

loss = 
val_loss = 
)";
  SourceFile f("e.py", text);
  REQUIRE_FALSE(f.syntaxErrors().empty());
  CHECK(f.syntaxErrors()[0].start.line == 3);  // 0-based: line 4, CPython's
  CHECK(f.syntaxErrors()[0].message == "invalid syntax");
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

TEST_CASE("typing a line character by character: the incremental parse reports what a fresh one does",
          "[lang][syntax]") {
  // The language server re-parses each keystroke from the previous tree; Tree-sitter's error
  // recovery must land where a fresh parse (tlens check) does, broken text included.
  const std::string text =
      "import tensorflow as tf\n"
      "x = tf.placeholder(tf.float32, [None, 784])\n"
      "def layer(inputs, size):\n"
      "    w = tf.Variable(tf.zeros([784, size]))\n"
      "    if size > 10:\n"
      "        return tf.nn.relu(tf.matmul(inputs, w))\n"
      "    return tf.matmul(inputs, w)\n"
      "h = layer(x, 256)\n"
      "logits = layer(h, 10)\n";
  const std::string typed = "y = tf.reduce_sum(tf.matmul(x, [1, (2";
  auto errors = [](const SourceFile& f) {
    std::string s;
    for (const SyntaxError& e : f.syntaxErrors())
      s += std::to_string(e.start.line) + ":" + std::to_string(e.start.column) + "-" + std::to_string(e.end.line) +
           ":" + std::to_string(e.end.column) + " " + e.message + "\n";
    return s;
  };
  int broken = 0;
  for (size_t at = 0; at != std::string::npos && at < text.size(); at = text.find('\n', at + 1)) {
    size_t ins = at == 0 ? 0 : at + 1;
    for (const std::string indent : {"", "    "}) {
      auto prev = std::make_shared<SourceFile>("t.py", text);
      for (size_t k = 1; k <= typed.size(); ++k) {
        std::string now = text.substr(0, ins) + indent + typed.substr(0, k) + "\n" + text.substr(ins);
        auto next = std::make_shared<SourceFile>(*prev, now);
        SourceFile fresh("t.py", now);
        INFO("at byte " << ins << ", typed '" << indent << typed.substr(0, k) << "'");
        CHECK(errors(*next) == errors(fresh));
        broken += !fresh.syntaxErrors().empty();
        prev = next;
      }
    }
  }
  CHECK(broken > 100);  // most of those states are broken code
}
