// The fetched tree-sitter-python grammar loads into Debian's tree-sitter runtime (ABI 14) and
// parses TensorFlow-style code, recovering from syntax errors.
#include <catch2/catch.hpp>
#include <tree_sitter/api.h>

#include <cstring>
#include <string>

extern "C" const TSLanguage* tree_sitter_python();

TEST_CASE("the python grammar has an ABI the runtime accepts", "[grammar]") {
  const TSLanguage* lang = tree_sitter_python();
  REQUIRE(ts_language_version(lang) <= TREE_SITTER_LANGUAGE_VERSION);
  REQUIRE(ts_language_version(lang) >= TREE_SITTER_MIN_COMPATIBLE_LANGUAGE_VERSION);
  TSParser* p = ts_parser_new();
  REQUIRE(ts_parser_set_language(p, lang));
  ts_parser_delete(p);
}

TEST_CASE("the python grammar parses a TF program and flags a syntax error", "[grammar]") {
  TSParser* p = ts_parser_new();
  ts_parser_set_language(p, tree_sitter_python());
  std::string ok = "import tensorflow as tf\nx = tf.placeholder(tf.float32, [None, 784])\n";
  TSTree* t = ts_parser_parse_string(p, nullptr, ok.c_str(), static_cast<uint32_t>(ok.size()));
  TSNode root = ts_tree_root_node(t);
  CHECK(std::strcmp(ts_node_type(root), "module") == 0);
  CHECK_FALSE(ts_node_has_error(root));
  CHECK(ts_node_named_child_count(root) == 2);
  ts_tree_delete(t);
  std::string bad = "x = tf.matmul(a, b\ny = 3\n";
  t = ts_parser_parse_string(p, nullptr, bad.c_str(), static_cast<uint32_t>(bad.size()));
  CHECK(ts_node_has_error(ts_tree_root_node(t)));
  ts_tree_delete(t);
  ts_parser_delete(p);
}
