// ValuePool (lsp/analysis/ValuePool.h): a snapshot's values are compact, each distinct string and
// each distinct set of rare facts stored once, and read back exactly as rendered.
#include "lsp/analysis/ValuePool.h"
#include "tests/lsp/LspTestSupport.h"

using namespace tlens;
using namespace tlens::lsp;
using namespace tlens::lsp::test;

namespace {

RenderedValue tensor(const std::string& type, const std::string& node) {
  RenderedValue r;
  r.kind = ValueInfo::Kind::Tensor;
  r.type = type;
  r.known = true;
  r.value = "Tensor";
  r.device = "/job:localhost/replica:0/task:0/device:CPU:0";
  r.node = node;
  r.op = "Relu";
  return r;
}

RenderedValue callable(const std::string& signature) {
  RenderedValue r;
  r.kind = ValueInfo::Kind::Callable;
  r.type = "function";
  r.signature = signature;
  r.params = {"a", "b", "transpose_a=False"};
  r.doc = "Multiplies matrix a by matrix b.";
  return r;
}

}  // namespace

TEST_CASE("a value pool reads back every field as rendered", "[lsp][values]") {
  ValuePool pool;
  RenderedValue k = callable("matmul(a, b, transpose_a=False)");
  k.placementNote = "no GPU: placed on the CPU";
  k.summaryRows = {{"Layer (type)", "Output Shape", "Param #"}, {"dense (Dense)", "(None, 10)", "650"}};
  k.members = std::make_shared<std::vector<Member>>(std::vector<Member>{{"shape", Member::Kind::Value, "TensorShape", ""}});
  ValueInfo v = pool.add(RenderedValue(k));
  pool.finish();
  CHECK(v.kind == ValueInfo::Kind::Callable);
  CHECK(!v.known);
  CHECK(v.type() == "function");
  CHECK(v.value().empty());
  CHECK(v.device().empty());
  CHECK(v.node().empty());
  CHECK(v.op().empty());
  CHECK(v.signature() == "matmul(a, b, transpose_a=False)");
  CHECK(v.params() == k.params);
  CHECK(v.doc() == k.doc);
  CHECK(v.placementNote() == k.placementNote);
  CHECK(v.summaryRows() == k.summaryRows);
  CHECK(v.types().empty());
  REQUIRE(v.members());
  CHECK(v.members()->at(0).name == "shape");

  ValueInfo none;
  CHECK(none.type().empty());
  CHECK(none.signature().empty());
  CHECK(none.params().empty());
  CHECK(!none.members());
}

TEST_CASE("a value pool stores each distinct string once", "[lsp][values]") {
  ValuePool pool;
  ValueInfo a = pool.add(tensor("float32[?, 784]", "fc1/Relu"));
  ValueInfo b = pool.add(tensor("float32[?, 784]", "fc2/Relu"));
  std::string longType(100000, 'x');  // longer than a chunk of the pool: a chunk of its own
  ValueInfo c = pool.add(tensor(longType, "fc3/Relu"));
  CHECK(a.type().data() == b.type().data());
  CHECK(a.device().data() == b.device().data());
  CHECK(a.op().data() == c.op().data());
  CHECK(a.node() == "fc1/Relu");
  CHECK(b.node() == "fc2/Relu");
  CHECK(c.type() == longType);
  // type, value, device, op once; three nodes; the long type.
  CHECK(pool.strings() == 8);
  CHECK(pool.details() == 0);  // plain tensors have no rare facts
  CHECK(&a.params() == &ValueInfo().params());
}

TEST_CASE("values with the same rare facts share one detail", "[lsp][values]") {
  ValuePool pool;
  ValueInfo a = pool.add(callable("matmul(a, b, transpose_a=False)"));
  ValueInfo b = pool.add(callable("matmul(a, b, transpose_a=False)"));
  ValueInfo c = pool.add(callable("matmul(x, y)"));
  CHECK(&a.params() == &b.params());
  CHECK(&a.params() != &c.params());
  CHECK(c.signature() == "matmul(x, y)");
  CHECK(pool.details() == 2);
}

TEST_CASE("a value's types are kept with its other facts", "[lsp][values]") {
  ValuePool pool;
  ValueInfo v = pool.add(callable("f(a, b, transpose_a=False)"));
  pool.setTypes(v, {"function", "int"});
  CHECK(v.types() == std::vector<std::string>{"function", "int"});
  CHECK(v.signature() == "f(a, b, transpose_a=False)");  // the rest stays
  size_t details = pool.details();
  pool.setTypes(v, {"function", "int"});  // the same list: nothing new
  CHECK(pool.details() == details);

  ValueInfo t = pool.add(tensor("float32[2]", "a"));
  pool.setTypes(t, {"float32[2]", "float32[3]"});
  CHECK(t.types().size() == 2);
  pool.setTypes(t, {});
  CHECK(t.types().empty());
  CHECK(&t.params() == &ValueInfo().params());  // back to no detail at all
}

TEST_CASE("an analysis keeps its values compact and shares their strings", "[lsp][values]") {
  CHECK(sizeof(ValueInfo) <= 72);
  auto snap = analyzeFixture(R"(import tensorflow as tf
a = tf.zeros([2, 3])
b = tf.matmul(a, tf.zeros([3, 4]))
c = tf.matmul(b, tf.zeros([4, 5]))
def twice(x):
    return x * 2.0
d = twice(a)
e = twice(b)
)");
  REQUIRE(snap);
  REQUIRE(snap->pool);
  const std::string& text = snap->file->text();
  size_t first = text.find("tf.matmul"), second = text.find("tf.matmul", first + 1);
  const ValueInfo* m1 = snap->valueOf(static_cast<uint32_t>(first), static_cast<uint32_t>(first + 9));
  const ValueInfo* m2 = snap->valueOf(static_cast<uint32_t>(second), static_cast<uint32_t>(second + 9));
  REQUIRE(m1);
  REQUIRE(m2);
  CHECK(m1->kind == ValueInfo::Kind::Callable);
  CHECK(m1->signature().substr(0, 7) == "matmul(");
  CHECK(&m1->params() == &m2->params());  // one detail for both sightings of tf.matmul
  // Every tensor of the same kind lists the same members, held once.
  size_t ta = text.find("a = "), tb = text.find("b = ");
  const ValueInfo* va = snap->valueOf(static_cast<uint32_t>(ta), static_cast<uint32_t>(ta + 1));
  const ValueInfo* vb = snap->valueOf(static_cast<uint32_t>(tb), static_cast<uint32_t>(tb + 1));
  REQUIRE(va);
  REQUIRE(vb);
  CHECK(va->type() == "float32[2, 3]");
  CHECK(vb->type() == "float32[2, 4]");
  CHECK(va->device().data() == vb->device().data());
  CHECK(va->members() == vb->members());
  // The parameter of twice() saw two types; a hover lists both.
  size_t x = text.find("x * 2.0");
  const ValueInfo* vx = snap->valueOf(static_cast<uint32_t>(x), static_cast<uint32_t>(x + 1));
  REQUIRE(vx);
  CHECK(vx->types() == std::vector<std::string>{"float32[2, 3]", "float32[2, 4]"});
}

TEST_CASE("a function seen again renders anew when its doc or a list default changed", "[lsp][values]") {
  // The collector renders a function or module once per object (lsp/analysis/Collector.h) while
  // nothing it shows can have changed.
  auto snap = analyzeFixture(R"(import tensorflow as tf
def f(x, n=2):
    "first doc"
    return x
def g(x, sizes=[1]):
    sizes.append(2)
    return x
a1 = f
f.__doc__ = "second doc"
a2 = f
b1 = g
g(0)
b2 = g
m1 = tf
m2 = tf
)");
  REQUIRE(snap);
  const std::string& text = snap->file->text();
  auto at = [&](const std::string& line) {  // the value on the right of `line`
    size_t s = text.find(line) + line.find(" = ") + 3;
    return snap->valueOf(static_cast<uint32_t>(s), static_cast<uint32_t>(text.find(line) + line.size()));
  };
  auto both = [&](const std::string& x, const std::string& y) {  // the two values, both seen
    std::pair<const ValueInfo*, const ValueInfo*> p{at(x), at(y)};
    REQUIRE(p.first);
    REQUIRE(p.second);
    return p;
  };
  auto [a1, a2] = both("a1 = f", "a2 = f");
  CHECK(a1->doc() == "first doc");
  CHECK(a2->doc() == "second doc");
  CHECK(a1->signature() == a2->signature());
  auto [b1, b2] = both("b1 = g", "b2 = g");
  CHECK(b1->signature() == "g(x, sizes=[1])");
  CHECK(b2->signature() == "g(x, sizes=[1, 2])");
  auto [m1, m2] = both("m1 = tf", "m2 = tf");
  CHECK(m1->kind == ValueInfo::Kind::Module);
  CHECK(m1->value() == m2->value());
  CHECK(m1->members() == m2->members());
}
