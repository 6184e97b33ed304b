// tf.string tensors from Python: constants and placeholders of str/bytes, what Session.run,
// .numpy() and print give (bytes, numpy object arrays, TensorFlow's reprs), the string ops'
// wrappers, the TypeError of a math op on strings, numpy's str arrays, and the static types the
// language server shows for all of them without false diagnostics.
#include "TfTestSupport.h"

#include "engine/runtime/PrintSink.h"

using namespace tlens;
using namespace tlens::tf;
using namespace tlens::tf::testing;
using interp::Mode;

TEST_CASE("TF1 string constants and placeholders run to bytes and object arrays", "[tf][strings]") {
  TfRun r = runTf(R"(
import tensorflow as tf
import numpy as np
hello = tf.constant("Hello")
fruits = tf.constant(['apple', 'peach', 'banana'])
names = tf.placeholder(tf.string, [None])
joined = tf.string_join([names, tf.constant('x')], separator='-')
same = tf.equal(fruits, 'peach')
picked = tf.gather(fruits, [2, 0])
grid = tf.reshape(tf.concat([fruits, fruits], 0), [2, 3])
print(hello)
with tf.Session() as sess:
    h = sess.run(hello)
    print(h)
    f = sess.run(fruits)
    print(f)
    print(repr(f))
    j = sess.run(joined, {names: ['a', b'b']}).tolist()
    jn = sess.run(joined, {names: np.array(['c'])}).tolist()
    s = sess.run(same).tolist()
    p = sess.run(picked).tolist()
    g = sess.run(grid).tolist()
    first = f[0]
)", Mode::Concrete, ApiStyle::Graph);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.out ==
        "Tensor(\"Const:0\", shape=(), dtype=string)\n"
        "b'Hello'\n"
        "[b'apple' b'peach' b'banana']\n"
        "array([b'apple', b'peach', b'banana'], dtype=object)\n");
  CHECK(r.repr("h") == "b'Hello'");
  CHECK(r.repr("j") == "[b'a-x', b'b-x']");
  CHECK(r.repr("jn") == "[b'c-x']");
  CHECK(r.repr("s") == "[False, True, False]");
  CHECK(r.repr("p") == "[b'banana', b'apple']");
  CHECK(r.repr("g") == "[[b'apple', b'peach', b'banana'], [b'apple', b'peach', b'banana']]");
  CHECK(r.repr("first") == "b'apple'");
  CHECK(r.type("fruits") == "string[3]");
  CHECK(r.type("joined") == "string[batch]");
}

TEST_CASE("eager string tensors print as TensorFlow's and .numpy() gives bytes", "[tf][strings]") {
  TfRun r = runTf(R"(
import tensorflow as tf
t = tf.constant("Hello distributed TensorFlow!")
print(t)
print(repr(tf.constant([b'a', b'b'])))
n = t.numpy()
arr = tf.constant([['x', 'y']]).numpy()
nums = tf.strings.to_number(['1.5', '-2']).numpy().tolist()
ints = tf.string_to_number(tf.constant(['7']), out_type=tf.int32).numpy().tolist()
s = tf.as_string([1.5, 2.0]).numpy().tolist()
w = tf.as_string(tf.constant([7]), width=3, fill='0').numpy().tolist()
ln = tf.strings.length(['abc', '']).numpy().tolist()
j = tf.strings.join(['a', 'b', 'c'], separator='.').numpy()
st = tf.stack([tf.constant('p'), tf.constant('q')]).numpy().tolist()
up = [u.numpy() for u in tf.unstack(tf.constant(['m', 'n']))]
raw = tf.io.decode_raw(tf.constant([b'\x01\x02']), tf.uint8).numpy().tolist()
)", Mode::Concrete, ApiStyle::Eager);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.out ==
        "tf.Tensor(b'Hello distributed TensorFlow!', shape=(), dtype=string)\n"
        "<tf.Tensor: shape=(2,), dtype=string, numpy=array([b'a', b'b'], dtype=object)>\n");
  CHECK(r.repr("n") == "b'Hello distributed TensorFlow!'");
  CHECK(r.repr("arr") == "array([[b'x', b'y']], dtype=object)");
  CHECK(r.repr("nums") == "[1.5, -2.0]");
  CHECK(r.repr("ints") == "[7]");
  CHECK(r.repr("s") == "[b'1.500000', b'2.000000']");
  CHECK(r.repr("w") == "[b'007']");
  CHECK(r.repr("ln") == "[3, 0]");
  CHECK(r.repr("j") == "b'a.b.c'");
  CHECK(r.repr("st") == "[b'p', b'q']");
  CHECK(r.repr("up") == "[b'm', b'n']");
  CHECK(r.repr("raw") == "[[1, 2]]");
}

TEST_CASE("tf.decode_csv parses records into one tensor per column", "[tf][strings]") {
  TfRun r = runTf(R"(
import tensorflow as tf
lines = tf.constant(['1,2.5,yes', '3,,no'])
a, b, c = tf.decode_csv(lines, record_defaults=[[0], [9.0], ['']])
with tf.Session() as sess:
    av, bv, cv = sess.run([a, b, c])
    av, bv, cv = av.tolist(), bv.tolist(), cv.tolist()
    try:
        sess.run(tf.decode_csv(tf.constant('1,2,3'), [[0], [0]]))
    except tf.errors.InvalidArgumentError as e:
        err = str(e)
)", Mode::Concrete, ApiStyle::Graph);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.type("a") == "int32[2]");
  CHECK(r.type("b") == "float32[2]");
  CHECK(r.type("c") == "string[2]");
  CHECK(r.repr("av") == "[1, 3]");
  CHECK(r.repr("bv") == "[2.5, 9.0]");
  CHECK(r.repr("cv") == "[b'yes', b'no']");
  CHECK_THAT(r.repr("err"), Catch::Contains("Expect 2 fields but have 3 in record 0"));
}

TEST_CASE("math on strings raises TensorFlow's TypeError, printing strings works", "[tf][strings]") {
  std::vector<std::string> lines;
  PrintSink old = setPrintSink([&](const std::string& l) { lines.push_back(l); });
  TfRun r = runTf(R"(
import tensorflow as tf
s = tf.constant(['a', 'b'])
try:
    tf.square(s)
except TypeError as e:
    err = str(e)
p = tf.Print(s, [s, tf.constant(3)], message='values: ')
with tf.Session() as sess:
    sess.run(p)
)", Mode::Concrete, ApiStyle::Graph);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK_THAT(r.repr("err"), Catch::Contains("Value passed to parameter 'x' has DataType string not in list of allowed values"));
  setPrintSink(old);
  CHECK(lines == std::vector<std::string>{"values: [a b][3]"});
}

TEST_CASE("numpy str arrays keep numpy's kind, repr and elements", "[tf][strings][numpy]") {
  TfRun r = runTf(R"(
import numpy as np
a = np.array(['a', 'bb', 'ccc'])
print(a)
print(repr(a))
b = np.array([b'x', b'yz'])
print(repr(b))
e = a[1]
lst = a.tolist()
eq = (a == 'bb').tolist()
rev = a[::-1].tolist()
o = np.array(['p', 'q'], dtype=object)
)", Mode::Concrete);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.out == "['a' 'bb' 'ccc']\narray(['a', 'bb', 'ccc'], dtype='<U3')\narray([b'x', b'yz'], dtype='|S2')\n");
  CHECK(r.repr("e") == "'bb'");
  CHECK(r.repr("lst") == "['a', 'bb', 'ccc']");
  CHECK(r.repr("eq") == "[False, True, False]");
  CHECK(r.repr("rev") == "['ccc', 'bb', 'a']");
}

TEST_CASE("the language server types string tensors without false diagnostics", "[tf][strings][abstract]") {
  TfRun r = runTf(R"(
import tensorflow as tf
hello = tf.constant("Hello")
fruits = tf.constant(['apple', 'peach', 'banana'])
names = tf.placeholder(tf.string, [None, 2])
joined = tf.strings.join([names, 'x'], separator='-')
n = tf.string_to_number(fruits)
cols = tf.decode_csv(tf.constant(['1,2']), [[0], [0.0]])
g = tf.gather(fruits, [0, 1])
with tf.Session() as sess:
    v = sess.run(hello)
    w = sess.run(fruits)
bad = tf.square(fruits)
)", Mode::Abstract, ApiStyle::Graph);
  INFO(r.err);
  CHECK(r.type("hello") == "string[]");
  CHECK(r.type("fruits") == "string[3]");
  CHECK(r.type("joined") == "string[batch, 2]");
  CHECK(r.type("n") == "float32[3]");
  CHECK(r.type("g") == "string[2]");
  const std::string d = r.diagnostics();
  INFO(d);
  // One diagnostic: the square of strings.
  CHECK_THAT(d, Catch::Contains("has DataType string not in list of allowed values"));
  CHECK(std::count(d.begin(), d.end(), '\n') == 1);
}
