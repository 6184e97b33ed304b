// Hovers on string tensors (tf.string): constants, placeholders, the string ops' results, and a
// queue-based input pipeline, as the language server types them without running anything.
#include "tests/lsp/LspTestSupport.h"

using namespace tlens::lsp;
using namespace tlens::lsp::test;

TEST_CASE("hover shows string tensors and the string ops' results", "[lsp][hover][strings]") {
  checkHovers(R"(import tensorflow as tf
fruits = tf.constant(['apple', 'peach', 'banana'])
# <- hover: string[3]
names = tf.placeholder(tf.string, [None])
joined = tf.strings.join([names, 'x'], separator='-')
# <- hover: string[batch]
n = tf.string_to_number(fruits)
# <- hover: float32[3]
cols = tf.decode_csv(joined, [[0], ['']])
first = cols[0]
# <- hover: int32[batch]
same = tf.equal(fruits, 'peach')
# <- hover: bool[3]
)");
}

TEST_CASE("hover types a queue-based input pipeline", "[lsp][hover][queues]") {
  checkHovers(R"(import tensorflow as tf
sess = tf.Session()
files = tf.train.string_input_producer(['data.csv'])
key, value = tf.TextLineReader(skip_header_lines=1).read(files)
line = value
# <- hover: string[]
a, b = tf.decode_csv(value, record_defaults=[[1.0], [1]])
xb, yb = tf.train.shuffle_batch([a, b], batch_size=4, capacity=40, min_after_dequeue=20)
# <- hover: float32[4]
)");
}
