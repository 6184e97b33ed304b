// The interpreter's two targets (issue #3):
// - abstract analysis of a 5,000-line TF-style file <= 100 ms (the language server's first
//   diagnostics; the parse alone is measured in the same run as the baseline);
// - concrete mode: the interpreter's overhead on the MLP training step (784-256-256-10, batch 128,
//   Adam, TF1 Session.run with feed_dict) <= 10% of the step, against the same graph stepped from
//   C++ (tools/workloads GraphMlp). The per-step cost of the Python program is the slope between a
//   short and a long run, so module import and graph construction are not counted.
#include <string>

#include "BenchUtil.h"
#include "TfStyleFile.h"
#include "engine/runtime/ThreadPool.h"
#include "lang/interp/Interpreter.h"
#include "lang/syntax/SourceFile.h"
#include "lang/tf/TfRuntime.h"
#include "lang/tf/exec/KernelExecution.h"
#include "tools/workloads/Mlp.h"

namespace tlens::bench {

namespace {

const char* kMlpProgram = R"(
import sys
import numpy as np
import tensorflow as tf
steps = int(sys.argv[1])
np.random.seed(0)
batches = [(np.random.rand(128, 784).astype(np.float32), np.eye(10, dtype=np.float32)[np.random.randint(0, 10, 128)]) for _ in range(8)]
x = tf.placeholder(tf.float32, [None, 784])
y = tf.placeholder(tf.float32, [None, 10])
w1 = tf.Variable(tf.random_normal([784, 256], stddev=0.05))
b1 = tf.Variable(tf.zeros([256]))
w2 = tf.Variable(tf.random_normal([256, 256], stddev=0.05))
b2 = tf.Variable(tf.zeros([256]))
w3 = tf.Variable(tf.random_normal([256, 10], stddev=0.05))
b3 = tf.Variable(tf.zeros([10]))
h1 = tf.nn.relu(tf.matmul(x, w1) + b1)
h2 = tf.nn.relu(tf.matmul(h1, w2) + b2)
logits = tf.matmul(h2, w3) + b3
loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(labels=y, logits=logits))
train = tf.train.AdamOptimizer(0.001).minimize(loss)
sess = tf.Session()
sess.run(tf.global_variables_initializer())
for step in range(steps):
    bx, by = batches[step % 8]
    _, l = sess.run([train, loss], feed_dict={x: bx, y: by})
)";

double runProgram(int steps) {
  interp::InterpOptions o;
  o.argv = {std::to_string(steps)};
  interp::Interpreter in(o);
  tf::TfOptions to;
  to.style = tf::ApiStyle::Graph;
  to.execution = &tf::kernelExecution();
  tf::installTensorFlow(in, to);
  double s = now();
  int rc = in.runSource("mlp.py", kMlpProgram);
  double t = now() - s;
  if (rc != 0) std::printf("the MLP program failed (exit %d)\n", rc);
  return t;
}

}  // namespace

void interpBench(bool quick) {
  std::printf("\n== abstract analysis of a 5,000-line TF-style file ==\n");
  std::string file = tfStyleFile(5000);
  int lines = 0;
  for (char c : file) lines += c == '\n';
  double tParse = timePerCall([&] { lang::SourceFile f("big.py", file); }, 1, quick ? 3 : 7);
  double tAnalyse = timePerCall(
      [&] {
        interp::InterpOptions o;
        o.mode = interp::Mode::Abstract;
        interp::Interpreter in(o);
        tf::installTensorFlow(in, {});
        in.runSource("big.py", file);
        if (!in.diagnostics().empty() && in.diagnostics().front().severity == interp::Severity::Error)
          std::printf("unexpected diagnostic: %s\n", interp::format(in.diagnostics().front()).c_str());
      },
      1, quick ? 3 : 7);
  std::printf("%d lines: parse %.1f ms (baseline), analysis %.1f ms (%.1fx the parse)   target <= 100 ms  %s\n",
              lines, tParse * 1e3, tAnalyse * 1e3, tAnalyse / tParse, verdict(tAnalyse <= 0.1));

  for (int threads : {1, 2}) {
    setIntraOpThreads(threads);
    std::printf("\n== concrete mode: MLP training step through the interpreter, %d thread(s) ==\n", threads);
    workloads::MlpConfig c;
    workloads::GraphMlp graph(c);
    std::vector<workloads::MlpBatch> batches;
    for (int i = 0; i < 8; ++i) batches.push_back(workloads::makeBatch(c, static_cast<uint64_t>(i)));
    int k = 0;
    double tCpp = timePerCall([&] { graph.step(batches[static_cast<size_t>(k++ % 8)]); }, quick ? 10 : 40,
                              quick ? 3 : 9);
    const int shortRun = 10, longRun = quick ? 40 : 110;
    std::vector<double> slopes;
    for (int trial = 0; trial < (quick ? 2 : 5); ++trial)
      slopes.push_back((runProgram(longRun) - runProgram(shortRun)) / (longRun - shortRun));
    std::sort(slopes.begin(), slopes.end());
    double tPy = slopes[slopes.size() / 2];
    double over = (tPy / tCpp - 1) * 100;
    std::printf("C++ Session.run step %8.3f ms\nPython program step  %8.3f ms   interpreter overhead %+.1f%%   target <= 10%%  %s\n",
                tCpp * 1e3, tPy * 1e3, over, verdict(over <= 10));
  }
}

}  // namespace tlens::bench
