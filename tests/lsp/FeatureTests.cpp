// Inlay hints, document symbols, definition/references, completion, signature help, code actions.
#include <algorithm>

#include "tests/lsp/LspTestSupport.h"

using namespace tlens::lsp;
using namespace tlens::lsp::test;

namespace {

const char* kProgram = R"(import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 784], name="x")

class Model:
    def __init__(self, units):
        self.units = units

    def forward(self, x):
        w = tf.zeros([784, self.units])
        return tf.matmul(x, w)

def loss(logits):
    total = tf.reduce_sum(logits)
    return total

m = Model(10)
y = m.forward(x)
l = loss(y)
)";

bool hasLabel(const std::vector<CompletionInfo>& items, const std::string& label) {
  return std::any_of(items.begin(), items.end(), [&](const CompletionInfo& c) { return c.label == label; });
}

}  // namespace

TEST_CASE("inlay hints show the type after each tensor assignment target", "[lsp][inlay]") {
  auto snap = analyzeFixture(kProgram);
  REQUIRE(snap);
  auto hints = inlayHints(*snap, {{0, 0}, {100, 0}});
  std::vector<std::string> labels;
  for (const auto& h : hints) labels.push_back(std::to_string(h.position.line) + ":" + h.label);
  INFO(Catch::Detail::stringify(labels));
  bool sawX = false, sawW = false, sawM = false;
  for (const auto& h : hints) {
    if (h.position.line == 2 && h.position.column == 1) sawX = h.label == ": float32[batch, 784]";
    if (h.position.line == 9) sawW = h.label == ": float32[784, 10]";
    if (h.position.line == 16) sawM = true;  // m is a Python object: no hint
  }
  CHECK(sawX);
  CHECK(sawW);
  CHECK(!sawM);
}

TEST_CASE("inlay hints are limited to the requested range", "[lsp][inlay]") {
  auto snap = analyzeFixture(kProgram);
  auto hints = inlayHints(*snap, {{9, 0}, {9, 100}});
  REQUIRE(hints.size() == 1);
  CHECK(hints[0].position.line == 9);
}

TEST_CASE("document symbols list classes with methods, functions and globals", "[lsp][symbols]") {
  auto snap = analyzeFixture(kProgram);
  auto syms = documentSymbols(*snap);
  std::vector<std::string> names;
  for (const auto& s : syms) names.push_back(s.name);
  CHECK(names == std::vector<std::string>{"x", "Model", "loss", "m", "y", "l"});
  const SymbolInfo& model = syms[1];
  CHECK(model.kind == 5);
  REQUIRE(model.children.size() == 2);
  CHECK(model.children[0].name == "__init__");
  CHECK(model.children[1].name == "forward");
  CHECK(model.children[1].kind == 6);
  CHECK(syms[2].kind == 12);
  CHECK(syms[0].detail == "float32[batch, 784]");
}

TEST_CASE("definition of a name goes to where it is bound, following Python's scopes", "[lsp][xrefs]") {
  auto snap = analyzeFixture(kProgram);
  // `x` in `tf.matmul(x, w)` (line 10) is forward's parameter, not the global.
  auto d = definition(*snap, {10, 25});
  REQUIRE(d.size() == 1);
  CHECK(d[0].start == tlens::lang::TextPos{8, 22});
  // `x` in `m.forward(x)` (line 17) is the global.
  auto g = definition(*snap, {17, 14});
  REQUIRE(g.size() == 1);
  CHECK(g[0].start == tlens::lang::TextPos{2, 0});
  // `loss` in `l = loss(y)`.
  auto f = definition(*snap, {18, 5});
  REQUIRE(f.size() == 1);
  CHECK(f[0].start == tlens::lang::TextPos{12, 4});
}

TEST_CASE("references find every use of a symbol in its scope only", "[lsp][xrefs]") {
  auto snap = analyzeFixture(kProgram);
  auto refs = references(*snap, {2, 0}, true);  // the global x
  REQUIRE(refs.size() == 2);
  CHECK(refs[0].start.line == 2);
  CHECK(refs[1].start.line == 17);
  auto noDecl = references(*snap, {2, 0}, false);
  CHECK(noDecl.size() == 1);
  auto total = references(*snap, {13, 4}, true);  // total: bound and returned
  CHECK(total.size() == 2);
}

TEST_CASE("completion after tf. lists the module's members with signatures", "[lsp][completion]") {
  auto snap = analyzeFixture("import tensorflow as tf\nimport numpy as np\ny = tf.mat\n");
  REQUIRE(snap);
  auto items = completion(*snap, {2, 10});
  REQUIRE(hasLabel(items, "matmul"));
  for (const auto& c : items) CHECK(c.label.rfind("mat", 0) == 0);
  auto mm = std::find_if(items.begin(), items.end(), [](const CompletionInfo& c) { return c.label == "matmul"; });
  CHECK(mm->kind == Member::Kind::Function);
  CHECK(mm->detail.find("transpose_b") != std::string::npos);
}

TEST_CASE("completion after a submodule and np.", "[lsp][completion]") {
  auto snap = analyzeFixture("import tensorflow as tf\nimport numpy as np\na = tf.nn.\nb = np.\n");
  REQUIRE(snap);
  CHECK(hasLabel(completion(*snap, {2, 10}), "relu"));
  CHECK(hasLabel(completion(*snap, {3, 7}), "zeros"));
}

TEST_CASE("completion of user symbols sees locals and globals", "[lsp][completion]") {
  auto snap = analyzeFixture(kProgram);
  auto items = completion(*snap, {14, 13});  // inside loss(): "return to|tal", prefix "to"
  CHECK(hasLabel(items, "total"));
  auto globals = completion(*snap, {18, 5});  // "l = l|oss(y)": prefix "l"
  CHECK(hasLabel(globals, "loss"));
  CHECK(hasLabel(globals, "logits") == false);  // another function's local
}

TEST_CASE("signature help names the active parameter of the call being typed", "[lsp][signature]") {
  auto snap = analyzeFixture("import tensorflow as tf\na = tf.zeros([2, 2])\nb = tf.matmul(a, \n");
  REQUIRE(snap);
  auto sh = signatureHelp(*snap, {2, 17});
  REQUIRE(sh);
  CHECK(sh->label.rfind("matmul(", 0) == 0);
  CHECK(sh->activeParameter == 1);
  REQUIRE(sh->params.size() >= 4);
  CHECK(sh->params[0] == "a");
  CHECK(!signatureHelp(*snap, {1, 2}));
}

TEST_CASE("signature help on a Keras layer class shows its constructor's own parameters", "[lsp][signature][keras]") {
  // Built-in Keras classes wrap __init__ to record their arguments (keras._config); the wrapper
  // says what it wraps, so the help is Dense's signature, not (*args, **kwargs).
  auto snap = analyzeFixture("from tensorflow.keras import layers\nd = layers.Dense(3, activation=\"relu\")\n");
  REQUIRE(snap);
  auto sh = signatureHelp(*snap, {1, 20});
  REQUIRE(sh);
  CHECK(sh->label.rfind("Dense(units, activation=None", 0) == 0);
  CHECK(sh->activeParameter == 1);
}

TEST_CASE("code actions offer tf.cast for an int32 operand of a float32 op", "[lsp][codeaction]") {
  auto snap = analyzeFixture(R"(import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 4], name="x")
w = tf.Variable(tf.ones([4, 3]), name="w")
bias = tf.constant([1, 2, 3], name="bias")
out = tf.add(tf.matmul(x, w), bias)
)");
  REQUIRE(snap);
  auto actions = codeActions(*snap, {{4, 0}, {4, 10}});
  INFO(Catch::Detail::stringify(diagnostics(*snap).size()));
  for (auto& d : diagnostics(*snap)) INFO(describe(d));
  REQUIRE(!actions.empty());
  CHECK(actions[0].newText.find("tf.cast(") == 0);
}

TEST_CASE("code actions offer transpose_b=True only when it resolves the matmul mismatch", "[lsp][codeaction]") {
  auto fixable = analyzeFixture(R"(import tensorflow as tf
a = tf.placeholder(tf.float32, [None, 5])
b = tf.Variable(tf.zeros([4, 5]))
c = tf.matmul(a, b)
)");
  auto actions = codeActions(*fixable, {{3, 0}, {3, 0}});
  REQUIRE(actions.size() == 1);
  CHECK(actions[0].newText == ", transpose_b=True");
  CHECK(actions[0].edit.start == tlens::lang::TextPos{3, 18});
  auto unfixable = analyzeFixture(R"(import tensorflow as tf
a = tf.placeholder(tf.float32, [None, 3])
b = tf.Variable(tf.zeros([4, 5]))
c = tf.matmul(a, b)
)");
  REQUIRE(diagnostics(*unfixable).size() == 1);
  CHECK(codeActions(*unfixable, {{3, 0}, {3, 0}}).empty());
}
