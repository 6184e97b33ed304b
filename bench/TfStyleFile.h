// The TF1-style source file the abstract-analysis benchmarks use: `tlens_bench interp` (the
// interpreter's 5,000-line target) and bench/lsp_bench.sh (the language server's targets), which
// gets it from `tlens_bench --tf-file LINES`.
#pragma once

#include <string>

namespace tlens::bench {

/// A TF1-style file of about `lines` lines: layer helpers, loops, scopes, reshapes, convs.
inline std::string tfStyleFile(int lines) {
  std::string s = "import tensorflow as tf\nimport numpy as np\n\n";
  int n = 0;
  for (int block = 0; n < lines; ++block) {
    std::string b = std::to_string(block);
    std::string text =
        "\n"
        "def layer_" + b + "(inputs, size_in, size_out, name=\"layer_" + b + "\"):\n"
        "    with tf.name_scope(name):\n"
        "        w = tf.Variable(tf.truncated_normal([size_in, size_out], stddev=0.1), name=\"W\")\n"
        "        b = tf.Variable(tf.constant(0.1, shape=[size_out]), name=\"B\")\n"
        "        act = tf.nn.relu(tf.matmul(inputs, w) + b)\n"
        "        return act\n"
        "\n"
        "\n"
        "x_" + b + " = tf.placeholder(tf.float32, [None, 784], name=\"x_" + b + "\")\n"
        "y_" + b + " = tf.placeholder(tf.float32, [None, 10], name=\"y_" + b + "\")\n"
        "image_" + b + " = tf.reshape(x_" + b + ", [-1, 28, 28, 1])\n"
        "conv_" + b + " = tf.nn.conv2d(image_" + b + ", tf.Variable(tf.zeros([5, 5, 1, 32])), strides=[1, 1, 1, 1], padding=\"SAME\")\n"
        "pool_" + b + " = tf.nn.max_pool(conv_" + b + ", ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding=\"SAME\")\n"
        "flat_" + b + " = tf.reshape(pool_" + b + ", [-1, 14 * 14 * 32])\n"
        "hidden_" + b + " = layer_" + b + "(flat_" + b + ", 14 * 14 * 32, 128)\n"
        "logits_" + b + " = layer_" + b + "(hidden_" + b + ", 128, 10, name=\"logits\")\n"
        "loss_" + b + " = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(labels=y_" + b + ", logits=logits_" + b + "))\n"
        "sizes_" + b + " = [int(d) for d in [784, 128, 10]]\n"
        "for i in range(3):\n"
        "    sizes_" + b + ".append(sizes_" + b + "[-1] * 2)\n"
        "data_" + b + " = np.zeros((32, 784), dtype=np.float32)\n"
        "config_" + b + " = {\"lr\": 0.01, \"steps\": 100, \"name\": \"block" + b + "\"}\n"
        "message_" + b + " = \"loss for %s is %d\" % (config_" + b + "[\"name\"], len(sizes_" + b + "))\n";
    s += text;
    for (char ch : text) n += ch == '\n';
  }
  return s;
}

}  // namespace tlens::bench
