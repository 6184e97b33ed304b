// TokenEdit: the re-parse of an edit that stays inside one token and keeps its kind (a digit of
// a number, a letter of a name, the words of a comment or a string), without parsing.
//
// Tree-sitter's incremental parse re-visits every top-level statement of a Python file: most of
// them are "fragile" (built while the parser explored two readings of the line), which it never
// reuses whole. A one-character edit of a 5,000-line file costs 6-8 ms. But an edit inside one
// token that lexes to the same kind of token (784 -> 785, layer_1 -> layer_12) gives the parser
// the same tokens: the tree is the old one with that token's end and everything after it moved.
// Tree-sitter's own edit (ts_tree_edit) does exactly that to a copy of the old tree, in
// microseconds. Anything else (a keyword typed, a quote, a bracket, a line break, an old tree
// with syntax errors) is left to the parser. tests/lang/TokenEditTests.cpp compares every node
// of the result with a fresh parse of the new text, over every kind of edit.
#pragma once

#include <string_view>

#include <tree_sitter/api.h>

namespace tlens::lang {

/// The tree of `newText` when `edit` (from `oldText` to `newText`, one range) stays inside one
/// token of `oldTree` and keeps its kind: a copy of `oldTree` with the edit applied (the caller
/// owns it). Null when the parser has to decide.
TSTree* editWithinToken(const TSTree* oldTree, std::string_view oldText, std::string_view newText,
                        const TSInputEdit& edit);

}  // namespace tlens::lang
