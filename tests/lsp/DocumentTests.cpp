// Incremental edits in both position encodings.
#include <catch2/catch.hpp>

#include "lsp/protocol/Uri.h"
#include "lsp/server/Document.h"

using namespace tlens::lsp;

TEST_CASE("an incremental edit replaces the range in UTF-16 units", "[lsp][document]") {
  std::string text = "a = \"é😀\"\nb = 2\n";
  // UTF-16: é is 1 unit, 😀 is 2 units: the closing quote is at column 8 (byte 11).
  applyChange(text, {Range{{0, 8}, {0, 9}}, "'"}, PositionEncoding::Utf16);
  CHECK(text == "a = \"é😀'\nb = 2\n");
  applyChange(text, {Range{{1, 4}, {1, 5}}, "42"}, PositionEncoding::Utf16);
  CHECK(text == "a = \"é😀'\nb = 42\n");
}

TEST_CASE("an incremental edit in UTF-8 counts bytes", "[lsp][document]") {
  std::string text = "a = \"é\"\n";
  applyChange(text, {Range{{0, 7}, {0, 8}}, "'"}, PositionEncoding::Utf8);
  CHECK(text == "a = \"é'\n");
}

TEST_CASE("out-of-range edits are clamped, whole-text changes replace everything", "[lsp][document]") {
  std::string text = "x = 1\n";
  applyChange(text, {Range{{5, 0}, {9, 9}}, "y = 2\n"}, PositionEncoding::Utf16);
  CHECK(text == "x = 1\ny = 2\n");
  applyChange(text, {std::nullopt, "z"}, PositionEncoding::Utf16);
  CHECK(text == "z");
}

TEST_CASE("file URIs and paths convert both ways", "[lsp][document]") {
  CHECK(uriToPath("file:///a/b%20c.py") == "/a/b c.py");
  CHECK(pathToUri("/a/b c.py") == "file:///a/b%20c.py");
  CHECK(uriToPath("untitled:1") == "untitled:1");
}

TEST_CASE("a lone carriage return ends a line for edit positions, as \\n and \\r\\n do", "[lsp][document]") {
  std::string text = "a = 1\rb = 2\r\nc = 3\n";
  applyChange(text, {Range{{1, 4}, {1, 5}}, "20"}, PositionEncoding::Utf16);
  CHECK(text == "a = 1\rb = 20\r\nc = 3\n");
  applyChange(text, {Range{{2, 4}, {2, 5}}, "30"}, PositionEncoding::Utf16);
  CHECK(text == "a = 1\rb = 20\r\nc = 30\n");
  // A column past the end of a \r\n line stops before the \r.
  applyChange(text, {Range{{1, 99}, {1, 99}}, "!"}, PositionEncoding::Utf16);
  CHECK(text == "a = 1\rb = 20!\r\nc = 30\n");
}
