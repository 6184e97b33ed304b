// An edit inside one token that keeps its kind is applied to the old tree without parsing
// (lang/syntax/TokenEdit): every node of the result must be the node a fresh parse of the new text
// gives (kind, bytes, rows and columns, named, missing, error), and so must the trees re-parsed
// from it. Edits that change a token's kind (a keyword typed, a quote, a line break) must go to
// the parser, and give the fresh parse's tree too.
#include <catch2/catch.hpp>

#include "lang/syntax/SourceFile.h"
#include "lang/syntax/TextDiff.h"
#include "lang/syntax/TokenEdit.h"
#include "tests/ExampleFiles.h"

using namespace tlens;
using namespace tlens::lang;

namespace {

/// Every node, anonymous ones too, with its place.
std::string dump(const SourceFile& f) {
  std::string out;
  TSTreeCursor c = ts_tree_cursor_new(f.root());
  int depth = 0;
  while (true) {
    TSNode n = ts_tree_cursor_current_node(&c);
    TSPoint s = ts_node_start_point(n), e = ts_node_end_point(n);
    out += std::to_string(depth) + " " + ts_node_type(n) + (ts_node_is_named(n) ? " N" : "") +
           (ts_node_is_missing(n) ? " M" : "") + (ts_node_has_error(n) ? " E" : "") + " " +
           std::to_string(ts_node_start_byte(n)) + "-" + std::to_string(ts_node_end_byte(n)) + " " +
           std::to_string(s.row) + ":" + std::to_string(s.column) + "-" + std::to_string(e.row) + ":" +
           std::to_string(e.column) + "\n";
    if (ts_tree_cursor_goto_first_child(&c)) {
      ++depth;
      continue;
    }
    while (!ts_tree_cursor_goto_next_sibling(&c)) {
      if (!ts_tree_cursor_goto_parent(&c)) {
        ts_tree_cursor_delete(&c);
        return out;
      }
      --depth;
    }
  }
}

/// Whether the edit from `a` to `b` is applied without parsing (as SourceFile would).
bool fast(const SourceFile& before, const std::string& b) {
  const std::string& a = before.text();
  size_t start = commonPrefix(a, b), tail = commonSuffix(a, b, start);
  TSInputEdit e{};
  e.start_byte = static_cast<uint32_t>(start);
  e.old_end_byte = static_cast<uint32_t>(a.size() - tail);
  e.new_end_byte = static_cast<uint32_t>(b.size() - tail);
  auto pointAt = [](const std::string& t, size_t byte) {
    TSPoint p{0, 0};
    for (size_t i = 0; i < byte; ++i) {
      if (t[i] == '\n') p = {p.row + 1, 0};
      else ++p.column;
    }
    return p;
  };
  e.start_point = pointAt(a, e.start_byte);
  e.old_end_point = pointAt(a, e.old_end_byte);
  e.new_end_point = pointAt(b, e.new_end_byte);
  TSTree* t = editWithinToken(before.tree(), a, b, e);
  if (t) ts_tree_delete(t);
  return t != nullptr;
}

struct Edit {
  std::string text;
  bool keepsKind;  ///< expected to be applied without parsing
  std::string what;
};

/// Edits of the token [from, to) of `text`, both kinds.
std::vector<Edit> editsOf(const std::string& text, const std::string& type, uint32_t from, uint32_t to) {
  std::string tok = text.substr(from, to - from);
  auto at = [&](uint32_t a, uint32_t b, const std::string& with) { return text.substr(0, a) + with + text.substr(b); };
  std::vector<Edit> v;
  if (type == "identifier") {
    // A name that is also a word of the grammar (`print`, `_` of patterns) is left to the parser.
    auto plain = [](const std::string& s) {
      return ts_language_symbol_for_name(pythonLanguage(), s.data(), static_cast<uint32_t>(s.size()), false) == 0;
    };
    v.push_back({at(to, to, "_2"), plain(tok), "append to a name"});
    v.push_back({at(from, from + 1, "q"), plain(tok) && plain("q" + tok.substr(1)), "replace a name's first letter"});
    if (tok.size() > 1)
      v.push_back({at(to - 1, to, ""), plain(tok) && plain(tok.substr(0, tok.size() - 1)), "delete a name's last letter"});
    v.push_back({at(from, to, "if"), false, "a name becomes a keyword"});
    v.push_back({at(from, to, "print"), false, "a name becomes print"});
    v.push_back({at(to, to, "\""), false, "a quote after a name"});
  } else if (type == "integer") {
    v.push_back({at(to - 1, to, tok.back() == '7' ? "8" : "7"), true, "change a digit"});
    v.push_back({at(to, to, "0"), true, "append a digit"});
    v.push_back({at(from, to, tok == "99" ? "12" : "99"), true, "replace a number"});
    // A digit before a number: Tree-sitter's edit gives it to the space before, so the parser
    // decides; unless the number starts with that digit (then the edit is seen after it).
    v.push_back({at(from, from, "1"), tok[0] == '1', "a digit before a number"});
    v.push_back({at(to, to, ".5"), false, "an integer becomes a float"});
    v.push_back({at(to, to, "x"), false, "a letter after a number"});
  } else if (type == "float") {
    v.push_back({at(to - 1, to, "9"), true, "change a float's digit"});
    v.push_back({at(to, to, "e3"), false, "an exponent"});
  } else if (type == "comment") {
    v.push_back({at(to, to, " more words (x, y)"), true, "extend a comment"});
    if (tok.size() > 2) v.push_back({at(from + 1, to, " tf.matmul"), true, "rewrite a comment"});
    v.push_back({at(to - 1, to - 1, "\nx = 1  #"), false, "a line break in a comment"});
    v.push_back({at(from, from + 1, "x"), false, "a comment loses its #"});
  } else if (type == "string_content") {
    v.push_back({at(to, to, " and more"), true, "extend a string"});
    v.push_back({at(from, from + 1, "Z"), true, "replace a string's first letter"});
    v.push_back({at(to, to, "{x}"), false, "a brace in a string"});
    v.push_back({at(from, from, "\""), false, "a quote in a string"});
    v.push_back({at(from, from, "\\"), false, "a backslash in a string"});
  }
  return v;
}

void collectLeaves(TSNode n, std::vector<TSNode>& out) {
  uint32_t count = ts_node_child_count(n);
  if (count == 0) {
    out.push_back(n);
    return;
  }
  for (uint32_t i = 0; i < count; ++i) collectLeaves(ts_node_child(n, i), out);
}

/// Edits every `stride`-th token of `text` (each edit: a fresh parse of the whole text).
void checkEdits(const std::string& path, const std::string& text, int& fastCount, int& parsedCount, size_t stride = 1) {
  SourceFile before(path, text);
  REQUIRE(before.syntaxErrors().empty());
  std::vector<TSNode> leaves;
  collectLeaves(before.root(), leaves);
  std::string original = dump(before);
  for (size_t i = 0; i < leaves.size(); i += stride) {
    TSNode leaf = leaves[i];
    for (const Edit& e : editsOf(text, ts_node_type(leaf), ts_node_start_byte(leaf), ts_node_end_byte(leaf))) {
      INFO(path << ": " << e.what << " at byte " << ts_node_start_byte(leaf) << " ('"
                << text.substr(ts_node_start_byte(leaf), ts_node_end_byte(leaf) - ts_node_start_byte(leaf)) << "')");
      SourceFile fresh(path, e.text);
      SourceFile incremental(before, e.text);
      bool applied = fast(before, e.text);
      if (e.keepsKind) CHECK(applied);
      else CHECK_FALSE(applied);
      (applied ? fastCount : parsedCount) += 1;
      REQUIRE(dump(incremental) == dump(fresh));
      // Re-parsed from a tree the edit made, back to the original text.
      SourceFile back(incremental, text);
      REQUIRE(dump(back) == original);
    }
  }
}

}  // namespace

TEST_CASE("an edit inside one token that keeps its kind: the old tree, moved, is the fresh parse's tree",
          "[lang][syntax]") {
  const std::string text =
      "import tensorflow as tf  # the graph API\n"
      "x = tf.placeholder(tf.float32, [None, 784], name=\"images\")\n"
      "lr = 0.01\n"
      "def layer(inputs, size, name='fc'):\n"
      "    # weights and biases\n"
      "    w = tf.Variable(tf.zeros([784, size]))  # [784, size]\n"
      "    b = tf.Variable(tf.zeros([size]))\n"
      "    return tf.nn.relu(tf.matmul(inputs, w) + b)\n"
      "h = layer(x, 256)\n"
      "msg = f\"loss {lr:.3f} of {h.shape}\" + 'done' + \"\"\"three\nlines\"\"\"\n"
      "y = [1, 2.5, .5, -3, h[0, 12]]\n";
  int fastCount = 0, parsedCount = 0;
  checkEdits("t.py", text, fastCount, parsedCount);
  CHECK(fastCount > 100);
  CHECK(parsedCount > 60);
}

TEST_CASE("token edits over every example program match a fresh parse", "[lang][syntax]") {
  int fastCount = 0, parsedCount = 0;
  for (const auto& path : tlens::test::examplePaths())
    checkEdits(path.filename().string(), tlens::test::readFile(path), fastCount, parsedCount, 3);
  CHECK(fastCount > 300);
}

TEST_CASE("token edits are left to the parser where the old tree has syntax errors or the edit spans tokens",
          "[lang][syntax]") {
  SourceFile broken("b.py", "x = tf.matmul(a, \ny = 784\n");
  REQUIRE_FALSE(broken.syntaxErrors().empty());
  CHECK_FALSE(fast(broken, "x = tf.matmul(a, \ny = 785\n"));
  SourceFile ok("o.py", "x = 784 + 12\n");
  CHECK(fast(ok, "x = 785 + 12\n"));
  CHECK_FALSE(fast(ok, "x = 78 + 512\n"));  // across the '+' and its spaces
  CHECK_FALSE(fast(ok, "x = 1784 + 12\n"));  // an insertion before a token goes to the space before it
  CHECK_FALSE(fast(ok, "x = 784 + 12\nz = 1\n"));
  SourceFile fresh("o.py", "x = 785 + 12\n");
  SourceFile incremental(ok, "x = 785 + 12\n");
  CHECK(dump(incremental) == dump(fresh));
}
