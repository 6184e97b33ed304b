// TF1's queue-based input pipelines (tensorflow._input_pipeline): queues and their errors, queue
// runners filled on demand, input producers, readers over real files, tf.train.batch and
// shuffle_batch, the Coordinator, tf.train.Example's protobuf encoding and TFRecord files read
// back through TFRecordReader and parse_single_example; and their static types.
#include <fstream>

#include "TfTestSupport.h"

using namespace tlens;
using namespace tlens::tf;
using namespace tlens::tf::testing;
using interp::Mode;

TEST_CASE("FIFOQueue enqueues, dequeues in order, and a closed empty queue raises OutOfRangeError", "[tf][queues]") {
  TfRun r = runTf(R"(
import tensorflow as tf
q = tf.FIFOQueue(capacity=10, dtypes=[tf.float32, tf.int32], shapes=[[2], []])
enq = q.enqueue_many([[[1., 2.], [3., 4.], [5., 6.], [0., 0.]], [7, 8, 9, 10]])
x, y = q.dequeue()
xs, ys = q.dequeue_many(2)
size = q.size()
close = q.close()
with tf.Session() as sess:
    sess.run(enq)
    n0 = int(sess.run(size))
    first = [v.tolist() for v in sess.run([x, y])]
    lone = int(sess.run(y))  # a run of y alone dequeues an element too (x's value is dropped)
    rest = [v.tolist() for v in sess.run([xs, ys])]
    n1 = int(sess.run(size))
    sess.run(close)
    try:
        sess.run(x)
    except tf.errors.OutOfRangeError as e:
        err = str(e)
)", Mode::Concrete, ApiStyle::Graph);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.type("x") == "float32[2]");
  CHECK(r.type("xs") == "float32[2, 2]");
  CHECK(r.type("ys") == "int32[2]");
  CHECK(r.repr("n0") == "4");
  CHECK(r.repr("first") == "[[1.0, 2.0], 7]");
  CHECK(r.repr("lone") == "8");
  CHECK(r.repr("rest") == "[[[5.0, 6.0], [0.0, 0.0]], [9, 10]]");
  CHECK(r.repr("n1") == "0");
  CHECK_THAT(r.repr("err"), Catch::Contains("FIFOQueue '_0_fifo_queue' is closed and has insufficient elements (requested 1, current size 0)"));
}

TEST_CASE("a dequeue that nothing will fill fails instead of blocking forever", "[tf][queues]") {
  TfRun r = runTf(R"(
import tensorflow as tf
q = tf.FIFOQueue(5, [tf.int32], shapes=[[]])
v = q.dequeue()
with tf.Session() as sess:
    try:
        sess.run(v)
    except tf.errors.OutOfRangeError as e:
        err = str(e)
)", Mode::Concrete, ApiStyle::Graph);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK_THAT(r.repr("err"), Catch::Contains("would wait forever"));
  CHECK_THAT(r.repr("err"), Catch::Contains("start_queue_runners"));
}

TEST_CASE("queue runners fill on demand, input producers count epochs, readers read files", "[tf][queues]") {
  const std::string dir = freshTempDir("queues");
  {
    std::ofstream(dir + "/a.csv") << "x,y\n1,2\n3,4\n5,6\n";
    std::ofstream(dir + "/b.csv") << "x,y\r\n7,8\r\n";
  }
  TfRun r = runTf("D = '" + dir + "'\n" + std::string(R"(
import tensorflow as tf
files = tf.train.string_input_producer([D + '/a.csv', D + '/b.csv'], num_epochs=1, shuffle=False)
reader = tf.TextLineReader(skip_header_lines=1)
key, value = reader.read(files)
a, b = tf.decode_csv(value, [[0], [0]])
batch_a, batch_b = tf.train.batch([a, b], batch_size=2)
with tf.Session() as sess:
    sess.run(tf.local_variables_initializer())
    coord = tf.train.Coordinator()
    threads = tf.train.start_queue_runners(sess=sess, coord=coord)
    k = sess.run(key)
    got = [sess.run(value)]
    got.append(sess.run([batch_a, batch_b])[0].tolist())
    try:
        sess.run(batch_a)
    except tf.errors.OutOfRangeError:
        ended = True
    coord.request_stop()
    coord.join(threads)
    stopped = coord.should_stop()
)"), Mode::Concrete, ApiStyle::Graph);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("k") == "b'" + dir + "/a.csv:2'");
  CHECK(r.repr("got") == "[b'3,4', [5, 7]]");
  CHECK(r.repr("ended") == "True");
  CHECK(r.repr("stopped") == "True");
  CHECK(r.type("batch_a") == "int32[2]");
}

TEST_CASE("a QueueRunner feeds a queue from enqueue ops, shuffle_batch mixes, Coordinator re-raises", "[tf][queues]") {
  TfRun r = runTf(R"(
import numpy as np
import tensorflow as tf
q = tf.FIFOQueue(capacity=50, dtypes=[tf.float32, tf.int32], shapes=[[2], []])
enq = q.enqueue_many([np.arange(8, dtype=np.float32).reshape(4, 2), np.arange(4)])
x, y = q.dequeue()
qr = tf.train.QueueRunner(q, [enq] * 2)
idx = tf.train.range_input_producer(6, shuffle=False).dequeue()
sb = tf.train.shuffle_batch([idx], batch_size=3, capacity=20, min_after_dequeue=5, seed=1)  # one tensor, as TF returns
with tf.Session() as sess:
    coord = tf.train.Coordinator()
    threads = qr.create_threads(sess, coord=coord, start=True) + tf.train.start_queue_runners(sess, coord)
    ys = [int(sess.run(y)) for _ in range(6)]
    s = sess.run(sb).tolist() + sess.run(sb).tolist()
    mixed = len(s) == 6 and all(0 <= v < 6 for v in s) and max(s.count(v) for v in s) <= 2 and s != [0, 1, 2, 3, 4, 5]
    coord.request_stop(ValueError("stop here"))
    try:
        coord.join(threads)
    except ValueError as e:
        err = str(e)
)", Mode::Concrete, ApiStyle::Graph);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("ys") == "[0, 1, 2, 3, 0, 1]");
  CHECK(r.type("sb") == "int32[3]");
  // Six draws from the repeating 0..5 stream, out of order: every value at most twice.
  INFO(r.repr("s"));
  CHECK(r.repr("mixed") == "True");
  CHECK(r.repr("err") == "'stop here'");
}

TEST_CASE("tf.train.Example encodes as protobuf, TFRecord files round-trip through the reader", "[tf][queues][tfrecord]") {
  const std::string dir = freshTempDir("tfrecord");
  TfRun r = runTf("D = '" + dir + "'\n" + std::string(R"(
import numpy as np
import tensorflow as tf
path = D + '/x.tfrecord'
ex = tf.train.Example(features=tf.train.Features(feature={
    'a': tf.train.Feature(int64_list=tf.train.Int64List(value=[1])),
}))
wire = ex.SerializeToString()
img = np.array([[1, 2], [3, 4]], np.uint8)
with tf.python_io.TFRecordWriter(path) as w:
    for label in [7, -3]:
        e = tf.train.Example(features=tf.train.Features(feature={
            'label': tf.train.Feature(int64_list=tf.train.Int64List(value=[label])),
            'image': tf.train.Feature(bytes_list=tf.train.BytesList(value=[img.tobytes()])),
            'w': tf.train.Feature(float_list=tf.train.FloatList(value=[0.5, 2.0])),
        }))
        w.write(e.SerializeToString())
raw = open(path, 'rb').read()
back = [tf.train.Example.FromString(s).features.feature['label'].int64_list.value[0] for s in tf.python_io.tf_record_iterator(path)]
q = tf.train.string_input_producer([path], num_epochs=1, shuffle=False)
_, serialized = tf.TFRecordReader().read(q)
f = tf.parse_single_example(serialized, features={
    'label': tf.FixedLenFeature([], tf.int64),
    'image': tf.FixedLenFeature([], tf.string),
    'w': tf.FixedLenFeature([2], tf.float32),
})
image = tf.reshape(tf.decode_raw(f['image'], tf.uint8), [2, 2])
with tf.Session() as sess:
    sess.run(tf.local_variables_initializer())
    coord = tf.train.Coordinator()
    threads = tf.train.start_queue_runners(sess=sess, coord=coord)
    l1, i1, w1 = sess.run([f['label'], image, f['w']])
    l2 = sess.run(f['label'])
    vals = [int(l1), i1.tolist(), w1.tolist(), int(l2)]
damaged = bytearray(raw)
damaged[20] ^= 1
with open(path, 'wb') as fh:
    fh.write(bytes(damaged))
try:
    list(tf.python_io.tf_record_iterator(path))
except tf.errors.DataLossError as e:
    err = str(e)
)"), Mode::Concrete, ApiStyle::Graph);
  INFO(r.err);
  REQUIRE(r.status == 0);
  // Example{features{feature{key:"a" value{int64_list{value:1}}}}} in protobuf's wire format
  CHECK(r.repr("wire") == "b'\\n\\x0c\\n\\n\\n\\x01a\\x12\\x05\\x1a\\x03\\n\\x01\\x01'");
  CHECK(r.repr("back") == "[7, -3]");
  CHECK(r.repr("vals") == "[7, [[1, 2], [3, 4]], [0.5, 2.0], -3]");
  CHECK(r.type("image") == "uint8[2, 2]");
  CHECK_THAT(r.repr("err"), Catch::Contains("corrupted record at 0"));
}

TEST_CASE("input pipelines are typed statically and never read files in the language server", "[tf][queues][abstract]") {
  TfRun r = runTf(R"(
import tensorflow as tf
files = tf.train.string_input_producer(['/nonexistent/data.csv'])
_, value = tf.TextLineReader(skip_header_lines=1).read(files)
cols = tf.decode_csv(value, record_defaults=[[1.0], [''], [1]])
features = tf.stack([cols[0], cols[0]])
xb, yb = tf.train.shuffle_batch([features, cols[2]], batch_size=4, capacity=40, min_after_dequeue=20)
q = tf.FIFOQueue(capacity=50, dtypes=[tf.float32, tf.int32], shapes=[[4], []])
d, l = q.dequeue()
with tf.Session() as sess:
    coord = tf.train.Coordinator()
    threads = tf.train.start_queue_runners(coord=coord)
    a, b = sess.run([xb, yb])
    coord.request_stop()
    coord.join(threads)
)", Mode::Abstract, ApiStyle::Graph);
  INFO(r.err);
  CHECK(r.type("value") == "string[]");
  CHECK(r.type("xb") == "float32[4, 2]");
  CHECK(r.type("yb") == "int32[4]");
  CHECK(r.type("d") == "float32[4]");
  CHECK(r.diagnostics() == "");
}

TEST_CASE("WholeFileReader, slice_input_producer, PaddingFIFOQueue and RandomShuffleQueue", "[tf][queues]") {
  const std::string dir = freshTempDir("wholefile");
  {
    std::ofstream(dir + "/w1.txt") << "hello\nworld";
    std::ofstream(dir + "/w2.txt") << "second";
  }
  TfRun r = runTf("D = '" + dir + "'\n" + std::string(R"(
import tensorflow as tf
fq = tf.train.string_input_producer([D + '/w1.txt', D + '/w2.txt'], shuffle=False, num_epochs=1)
k, v = tf.WholeFileReader().read(fq)
x1, y1 = tf.train.slice_input_producer([tf.constant([[1, 2], [3, 4], [5, 6]]), tf.constant(['a', 'b', 'c'])], shuffle=False)
pq = tf.PaddingFIFOQueue(10, [tf.int32], shapes=[[None]])
e1 = pq.enqueue([[1, 2, 3]])
e2 = pq.enqueue([[4]])
pb = pq.dequeue_many(2)
rq = tf.RandomShuffleQueue(10, 0, [tf.string], shapes=[[]], seed=3)
re = rq.enqueue_many([['p', 'q', 'r']])
rd = rq.dequeue_up_to(5)
cl = rq.close()
with tf.Session() as sess:
    sess.run(tf.local_variables_initializer())
    threads = tf.train.start_queue_runners(sess)
    files = [sess.run(v), sess.run(v)]
    try:
        sess.run(v)
    except tf.errors.OutOfRangeError:
        files.append('end')
    slices = [[a.tolist(), b] for a, b in [sess.run([x1, y1]), sess.run([x1, y1])]]
    sess.run(e1)
    sess.run(e2)
    padded = sess.run(pb).tolist()
    sess.run(re)
    sess.run(cl)
    shuffled = sorted(sess.run(rd).tolist())
    left = int(sess.run(rq.size()))
)"), Mode::Concrete, ApiStyle::Graph);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("files") == "[b'hello\\nworld', b'second', 'end']");
  CHECK(r.repr("slices") == "[[[1, 2], b'a'], [[3, 4], b'b']]");
  CHECK(r.repr("padded") == "[[1, 2, 3], [4, 0, 0]]");
  CHECK(r.type("pb") == "int32[2, d1]");  // the padded dim: unknown (a symbol)
  CHECK(r.repr("shuffled") == "[b'p', b'q', b'r']");
  CHECK(r.repr("left") == "0");
}

TEST_CASE("eager code gets TensorFlow's errors for queue-based input pipelines and readers", "[tf][queues]") {
  TfRun r = runTf(R"(
import tensorflow as tf
errs = []
try:
    tf.compat.v1.train.string_input_producer(['a.csv'])
except RuntimeError as e:
    errs.append(str(e))
try:
    tf.compat.v1.TextLineReader()
except RuntimeError as e:
    errs.append(str(e))
q = tf.queue.FIFOQueue(3, [tf.int32], shapes=[[]])
q.enqueue_many([[4, 5]])
v = q.dequeue().numpy()
)", Mode::Concrete, ApiStyle::Eager);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("errs") ==
        "['Input pipelines based on Queues are not supported when eager execution is enabled. Please use tf.data to "
        "ingest data into your model instead.', 'Readers are not supported when eager execution is enabled. Instead, "
        "please use tf.data to get data into your model.']");
  CHECK(r.repr("v") == "4");
}

TEST_CASE("parse_single_example in abstract mode gives each feature its declared type, reading nothing", "[tf]") {
  TfRun a = runTf(R"(import tensorflow as tf
def parse_record(record):
    features = {"label": tf.io.FixedLenFeature([], tf.int64), "pixels": tf.io.FixedLenFeature([784], tf.float32)}
    return tf.io.parse_single_example(record, features)
r = parse_record(tf.constant(b"not read"))
label = r["label"]
pixels = tf.reshape(r["pixels"], [28, 28])
)", Mode::Abstract, ApiStyle::Eager);
  CHECK(a.diagnostics() == "");
  CHECK(a.type("label") == "int64[]");
  CHECK(a.type("pixels") == "float32[28, 28]");
}

TEST_CASE("tf.train.match_filenames_once lists the files a pattern matches, for string_input_producer", "[tf][queues]") {
  const std::string dir = freshTempDir("match-filenames");
  TfRun r = runTf(R"(import tensorflow as tf
d = ")" + dir + R"("
for name in ["b.tfrecords-1", "a.tfrecords-0", "other.txt"]:
    open(d + "/" + name, "w").close()
files = tf.train.match_filenames_once(d + "/*.tfrecords-*")
none = tf.train.match_filenames_once(d + "/nothing-*")
with tf.Session() as sess:
    sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
    names = [f.decode().split("/")[-1] for f in sess.run(files)]
    empty = sess.run(none).shape
)", Mode::Concrete, ApiStyle::Graph);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("names") == "['a.tfrecords-0', 'b.tfrecords-1']");
  CHECK(r.repr("empty") == "(0,)");
}
