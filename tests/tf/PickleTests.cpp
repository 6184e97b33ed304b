// pickle and numpy: tensorlens reads the pickles CPython + numpy write (protocols 2, 4 and 5,
// Python 2's CIFAR-10 batch format with encoding='bytes' and 'latin1'; fixtures made by
// tests/tf/data/pickles/make_fixtures.py), and CPython + numpy read the pickles tensorlens writes.
#include <cstdio>
#include <fstream>

#include "TfTestSupport.h"

using namespace tlens;
using namespace tlens::tf::testing;
using interp::Mode;

namespace {

const char* kPrinter = R"(
import pickle
for p in (2, 4, 5):
    d = pickle.load(open(DIR + '/np%d.pkl' % p, 'rb'))
    for k in sorted(d):
        v = d[k]
        print(p, k, v.dtype, v.shape, v.tolist())
d = pickle.load(open(DIR + '/py2_cifar.pkl', 'rb'), encoding='bytes')
print(sorted(d.keys()), d[b'data'].shape, d[b'data'].dtype, d[b'data'].tolist(), d[b'labels'], d[b'filenames'], d[b'batch_label'])
d = pickle.load(open(DIR + '/py2_cifar.pkl', 'rb'), encoding='latin1')
print(sorted(d.keys()), d['data'].tolist(), d['batch_label'])
)";

/// What CPython 3.11 + numpy 1.24 print for kPrinter over the fixtures.
const char* kExpected =
      "2 b bool (2,) [True, False]\n"
      "2 f32 float32 (2, 3) [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]\n"
      "2 f64s float64 () 0.25\n"
      "2 fort int32 (2, 3) [[0, 1, 2], [3, 4, 5]]\n"
      "2 i64 int64 (2,) [-1, 5]\n"
      "2 u8 uint8 (2, 2) [[1, 2], [255, 0]]\n"
      "4 b bool (2,) [True, False]\n"
      "4 f32 float32 (2, 3) [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]\n"
      "4 f64s float64 () 0.25\n"
      "4 fort int32 (2, 3) [[0, 1, 2], [3, 4, 5]]\n"
      "4 i64 int64 (2,) [-1, 5]\n"
      "4 u8 uint8 (2, 2) [[1, 2], [255, 0]]\n"
      "5 b bool (2,) [True, False]\n"
      "5 f32 float32 (2, 3) [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]\n"
      "5 f64s float64 () 0.25\n"
      "5 fort int32 (2, 3) [[0, 1, 2], [3, 4, 5]]\n"
      "5 i64 int64 (2,) [-1, 5]\n"
      "5 u8 uint8 (2, 2) [[1, 2], [255, 0]]\n"
      "[b'batch_label', b'data', b'filenames', b'labels'] (2, 3) uint8 [[1, 2, 3], [250, 128, 0]] [6, 9, 6] [b'a.png', b'b.png'] b'training batch 1 of 5'\n"
      "['batch_label', 'data', 'filenames', 'labels'] [[1, 2, 3], [250, 128, 0]] training batch 1 of 5\n";

std::string run(const std::string& cmd) {
  std::string out;
  FILE* p = ::popen(cmd.c_str(), "r");
  if (!p) return out;
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  ::pclose(p);
  return out;
}

}  // namespace

TEST_CASE("pickle reads numpy arrays and Python 2 batches that CPython wrote", "[tf][pickle]") {
  TfRun r = runTf(std::string("DIR = '") + TLENS_SOURCE_DIR + "/tests/tf/data/pickles'\n" + kPrinter);
  INFO(r.err);
  CHECK(r.status == 0);
  CHECK(r.out == kExpected);
}

TEST_CASE("pickle writes numpy arrays that CPython and numpy load", "[tf][pickle]") {
  const std::string dir = freshTempDir("pickle-numpy");
  TfRun r = runTf("import pickle\nimport numpy as np\n"
                  "d = {'f32': np.arange(6, dtype=np.float32).reshape(2, 3), 'u8': np.array([[1, 2], [255, 0]], dtype=np.uint8),\n"
                  "     'i64': np.array([-1, 5]), 'f64s': np.float64(0.25), 'b': np.array([True, False]), 'list': [np.float32(1.5)]}\n"
                  "for p in (2, 3, 4, 5):\n"
                  "    with open('" + dir + "/out%d.pkl' % p, 'wb') as f:\n"
                  "        pickle.dump(d, f, protocol=p)\n"
                  "back = pickle.load(open('" + dir + "/out2.pkl', 'rb'))\n"
                  "print(sorted(back), back['f32'].tolist(), back['u8'].dtype, back['f64s'].shape)\n");
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.out == "['b', 'f32', 'f64s', 'i64', 'list', 'u8'] [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]] uint8 ()\n");
  if (run("/usr/bin/python3 -c 'import numpy; print(1)' 2>/dev/null") != "1\n") {
    WARN("Debian's python3-numpy is not installed: the CPython side of this check is skipped");
    return;
  }
  std::string got = run("/usr/bin/python3 -c \"import pickle\nfor p in (2, 3, 4, 5):\n    d = pickle.load(open('" + dir +
                        "/out%d.pkl' % p, 'rb'))\n    print(p, [(k, repr(d[k])) for k in sorted(d)])\" 2>&1");
  std::string want;
  for (int p = 2; p <= 5; ++p)
    want += std::to_string(p) +
            " [('b', 'array([ True, False])'), ('f32', 'array([[0., 1., 2.],\\n       [3., 4., 5.]], dtype=float32)'), "
            "('f64s', '0.25'), ('i64', 'array([-1,  5])'), ('list', '[1.5]'), ('u8', 'array([[  1,   2],\\n       [255,   0]], "
            "dtype=uint8)')]\n";
  CHECK(got == want);
}
