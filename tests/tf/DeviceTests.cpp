// Devices as a TensorFlow program sees them: tf.config, tf.device, soft and hard placement,
// log_device_placement, per-device memory, and the same placement in abstract mode (hovers) as
// at run time. Virtual GPUs (`tlens run --virtual-gpus N`) stand in for GPUs on this machine.
#include "TfTestSupport.h"

using namespace tlens;
using namespace tlens::tf;
using namespace tlens::tf::testing;

namespace {

TfOptions virtualGpus(int n) {
  TfOptions o;
  o.devices.virtualGpus = n;
  return o;
}

TensorObj* tensor(const TfRun& r, const std::string& name) {
  return dynamic_cast<TensorObj*>(r.interp->mainModule()->get(name).get());
}

}  // namespace

TEST_CASE("devices: tf.config lists virtual GPUs and ops default to /gpu:0", "[tf][devices]") {
  TfRun r = runTf(R"(
import tensorflow as tf
gpus = tf.config.list_physical_devices('GPU')
names = [g.name for g in gpus]
cpus = len(tf.config.list_physical_devices('CPU'))
available = tf.test.is_gpu_available()
gpu_name = tf.test.gpu_device_name()
a = tf.random.normal([4, 3])
b = tf.ones([3, 2])
c = tf.matmul(a, b)
with tf.device('/cpu:0'):
    d = c + 1.0
with tf.device('/gpu:1'):
    e = tf.reduce_sum(d)
v = tf.Variable(tf.zeros([2]))
v.assign_add(tf.ones([2]))
where = [c.device, d.device, e.device, v.device]
mem = tf.config.experimental.get_memory_info('GPU:0')
)", interp::Mode::Concrete, std::nullopt, virtualGpus(2));
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("names") == "['/physical_device:GPU:0', '/physical_device:GPU:1']");
  CHECK(r.repr("cpus") == "1");
  CHECK(r.repr("available") == "True");
  CHECK(r.repr("gpu_name") == "'/device:GPU:0'");
  CHECK(r.repr("where") ==
        "['/job:localhost/replica:0/task:0/device:GPU:0', '/job:localhost/replica:0/task:0/device:CPU:0', "
        "'/job:localhost/replica:0/task:0/device:GPU:1', '/job:localhost/replica:0/task:0/device:GPU:0']");
  CHECK_THAT(r.repr("mem"), Catch::Contains("'peak': "));
  CHECK(r.repr("mem").find("'peak': 0}") == std::string::npos);
}

TEST_CASE("devices: without a GPU, eager soft placement runs on the CPU and can be turned off", "[tf][devices]") {
  TfRun r = runTf(R"(
import tensorflow as tf
with tf.device('/gpu:0'):
    x = tf.ones([2]) * 3.0
where = x.device
gpus = tf.config.list_physical_devices('GPU')
tf.config.set_soft_device_placement(False)
try:
    with tf.device('/gpu:0'):
        y = tf.ones([2]) * 3.0
    caught = 'no error'
except tf.errors.InvalidArgumentError as e:
    caught = str(e)
)", interp::Mode::Concrete, std::nullopt, virtualGpus(0));
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("where") == "'/job:localhost/replica:0/task:0/device:CPU:0'");
  CHECK(r.repr("gpus") == "[]");
  CHECK_THAT(r.repr("caught"), Catch::Contains("Cannot assign a device for operation"));
  CHECK_THAT(r.repr("caught"), Catch::Contains("requested /gpu:0, which this program does not have"));
}

TEST_CASE("devices: a TF1 session refuses an impossible tf.device unless soft placement is on", "[tf][devices]") {
  const std::string prog = R"(
import tensorflow as tf
with tf.device('/cpu:0'):
    a = tf.constant([[1.0, 2.0], [3.0, 4.0]], name='a')
with tf.device('/gpu:0'):
    c = tf.matmul(a, a, name='c')
with tf.Session(config=CONFIG) as sess:
    out = sess.run(c).tolist()
)";
  auto with = [&](const std::string& config) {
    std::string p = prog;
    p.replace(p.find("CONFIG"), 6, config);
    return runTf(p, interp::Mode::Concrete, ApiStyle::Graph, virtualGpus(0));
  };
  TfRun hard = with("tf.ConfigProto()");
  CHECK(hard.status == 1);
  CHECK_THAT(hard.err, Catch::Contains("InvalidArgumentError: Cannot assign a device for operation c: Operation was "
                                       "explicitly assigned to /job:localhost/replica:0/task:0/device:GPU:0"));
  CHECK_THAT(hard.err, Catch::Contains("allow_soft_placement=True"));

  TfRun soft = with("tf.ConfigProto(allow_soft_placement=True)");
  INFO(soft.err);
  REQUIRE(soft.status == 0);
  CHECK(soft.repr("out") == "[[7.0, 10.0], [15.0, 22.0]]");
  CHECK_THAT(soft.err, Catch::Contains("soft placement moved 1 node(s) to /cpu:0: c (c: requested /gpu:0"));

  // With a (virtual) GPU the same program runs where it asked, and logs it.
  std::string logged = prog;
  logged.replace(logged.find("CONFIG"), 6, "tf.ConfigProto(log_device_placement=True)");
  TfRun gpu = runTf(logged, interp::Mode::Concrete, ApiStyle::Graph, virtualGpus(1));
  INFO(gpu.err);
  REQUIRE(gpu.status == 0);
  CHECK(gpu.repr("out") == "[[7.0, 10.0], [15.0, 22.0]]");
  CHECK_THAT(gpu.err, Catch::Contains("c: (MatMul): /job:localhost/replica:0/task:0/device:GPU:0"));
  CHECK_THAT(gpu.err, Catch::Contains("a: (Const): /job:localhost/replica:0/task:0/device:CPU:0"));
  CHECK_THAT(gpu.err, Catch::Contains("this run copied 2 tensor(s) between devices"));
  CHECK_THAT(gpu.err, Catch::Contains("a:0: /cpu:0 -> /gpu:0 (16 B)"));
  CHECK_THAT(gpu.err, Catch::Contains("c:0: /gpu:0 -> /cpu:0 (16 B)"));
}

TEST_CASE("devices: a TF1 training loop on two virtual GPUs learns exactly what it learns on the CPU", "[tf][devices]") {
  const std::string prog = R"(
import tensorflow as tf
import numpy as np
rng = np.random.RandomState(0)
X = rng.randn(64, 8).astype(np.float32)
Y = (X.sum(axis=1, keepdims=True) > 0).astype(np.float32)
x = tf.placeholder(tf.float32, [None, 8])
y = tf.placeholder(tf.float32, [None, 1])
with tf.device('/gpu:0'):
    w1 = tf.Variable(tf.random_normal([8, 16], seed=1))
    h = tf.nn.relu(tf.matmul(x, w1))
with tf.device('/gpu:1'):
    w2 = tf.Variable(tf.random_normal([16, 1], seed=2))
    logits = tf.matmul(h, w2)
loss = tf.reduce_mean(tf.nn.sigmoid_cross_entropy_with_logits(labels=y, logits=logits))
train = tf.train.AdamOptimizer(0.01).minimize(loss)
losses = []
with tf.Session(config=tf.ConfigProto(allow_soft_placement=True)) as sess:
    sess.run(tf.global_variables_initializer())
    for i in range(30):
        _, l = sess.run([train, loss], feed_dict={x: X, y: Y})
        losses.append(float(l))
devices = [w1.device, w2.device, logits.device]
)";
  TfRun cpu = runTf(prog, interp::Mode::Concrete, ApiStyle::Graph, virtualGpus(0));
  TfRun gpu = runTf(prog, interp::Mode::Concrete, ApiStyle::Graph, virtualGpus(2));
  INFO(cpu.err << gpu.err);
  REQUIRE(cpu.status == 0);
  REQUIRE(gpu.status == 0);
  CHECK(gpu.repr("losses") == cpu.repr("losses"));
  CHECK(gpu.repr("devices") == "['/job:localhost/replica:0/task:0/device:GPU:0', "
                               "'/job:localhost/replica:0/task:0/device:GPU:1', '/job:localhost/replica:0/task:0/device:GPU:1']");
  CHECK(cpu.repr("devices") == "['/job:localhost/replica:0/task:0/device:CPU:0', "
                               "'/job:localhost/replica:0/task:0/device:CPU:0', '/job:localhost/replica:0/task:0/device:CPU:0']");
  CHECK_THAT(cpu.err, Catch::Contains("soft placement moved 9 node(s) to /cpu:0: random_normal/Const, "));
}

TEST_CASE("devices: set_logical_device_configuration splits a virtual GPU, only before first use", "[tf][devices]") {
  TfRun r = runTf(R"(
import tensorflow as tf
gpus = tf.config.list_physical_devices('GPU')
tf.config.set_logical_device_configuration(gpus[0], [tf.config.LogicalDeviceConfiguration(memory_limit=64),
                                                     tf.config.LogicalDeviceConfiguration(memory_limit=64)])
logical = [d.name for d in tf.config.list_logical_devices('GPU')]
with tf.device('/gpu:1'):
    x = tf.ones([4]) + 1.0
where = x.device
try:
    tf.config.set_logical_device_configuration(gpus[0], [tf.config.LogicalDeviceConfiguration()])
    late = 'no error'
except RuntimeError as e:
    late = str(e)
tf.config.set_visible_devices([], 'GPU') if False else None
)", interp::Mode::Concrete, std::nullopt, virtualGpus(1));
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("logical") == "['/device:GPU:0', '/device:GPU:1']");
  CHECK(r.repr("where") == "'/job:localhost/replica:0/task:0/device:GPU:1'");
  CHECK(r.repr("late") == "'Virtual devices cannot be modified after being initialized'");
}

TEST_CASE("devices: set_visible_devices hides GPUs before first use", "[tf][devices]") {
  TfRun r = runTf(R"(
import tensorflow as tf
tf.config.set_visible_devices([], 'GPU')
x = tf.ones([2]) * 2.0
where = x.device
n = len(tf.config.list_logical_devices('GPU'))
)", interp::Mode::Concrete, std::nullopt, virtualGpus(2));
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("n") == "0");
  CHECK(r.repr("where") == "'/job:localhost/replica:0/task:0/device:CPU:0'");
}

TEST_CASE("devices: abstract mode places every tensor where the run places it, with the reasons", "[tf][devices][abstract]") {
  const std::string prog = R"(
import tensorflow as tf
a = tf.random.normal([4, 3])
b = tf.matmul(a, tf.ones([3, 2]))
with tf.device('/cpu:0'):
    c = b * 2.0
with tf.device('/gpu:5'):
    d = c - 1.0
e = tf.shape(d)
v = tf.Variable(tf.zeros([2]))
)";
  TfRun concrete = runTf(prog, interp::Mode::Concrete, std::nullopt, virtualGpus(2));
  TfRun abstract = runTf(prog, interp::Mode::Abstract, std::nullopt, virtualGpus(2));
  REQUIRE(concrete.status == 0);
  for (const char* name : {"a", "b", "c", "d", "e", "v"}) {
    INFO(name);
    TensorObj* s = tensor(abstract, name);
    TensorObj* c = tensor(concrete, name);
    REQUIRE(s);
    REQUIRE(c);
    CHECK(s->deviceName() == c->concrete().tensor.device().str());
    CHECK(s->devicePlacementNote() == c->devicePlacementNote());
  }
  CHECK(tensor(abstract, "b")->deviceName() == "/gpu:0");
  CHECK(tensor(abstract, "c")->deviceName() == "/cpu:0");
  CHECK_THAT(tensor(abstract, "d")->devicePlacementNote(), Catch::Contains("requested /gpu:5"));
  CHECK_THAT(tensor(abstract, "e")->devicePlacementNote(), Catch::Contains("Shape has no GPU kernel"));
  // Abstract analysis allocated nothing and ran no kernel on any device.
  CHECK(abstract.out.empty());
}

TEST_CASE("devices: a tf.function replays each op on the device its node was placed on", "[tf][devices]") {
  TfRun r = runTf(R"(
import tensorflow as tf
@tf.function
def f(x):
    with tf.device('/cpu:0'):
        a = x * 2.0
    with tf.device('/gpu:1'):
        b = a + 1.0
    return a, b + 0.0
a, b = f(tf.ones([3]))
where = [a.device, b.device]
)", interp::Mode::Concrete, std::nullopt, virtualGpus(2));
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.repr("where") == "['/job:localhost/replica:0/task:0/device:CPU:0', '/job:localhost/replica:0/task:0/device:GPU:0']");
}
