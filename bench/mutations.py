#!/usr/bin/env python3
"""Seeded shape bugs in correct corpus programs: does `tlens check` find them?

Each mutation replaces one snippet of a program from the corpus (../shared/corpus, or --corpus)
with a bug of a kind real TF1/Keras programs crash on: a wrong reshape size, a wrong feed,
transposed weights, labels that are not one-hot. The mutated program is checked in a scratch
directory. A mutation is found when `tlens check` reports an error whose line, or the line of
one of its related notes, is the mutated line or the line TensorFlow's error names (`at`: a
snippet of the mutated file). Every unmutated program is checked too: any error there is a false
error. Prints a table and totals; --json writes them.

    /usr/bin/python3 bench/mutations.py --tlens build/tlens [--corpus DIR] [--json out.json]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

H = "Hvass-Labs__TensorFlow-Tutorials/03B_Layers_API.py"
A10 = "ageron__handson-ml/10_introduction_to_artificial_neural_networks.py"
A11 = "ageron__handson-ml/11_deep_learning.py"
A15 = "ageron__handson-ml/15_autoencoders.py"
C03 = "chiphuyen__stanford-tensorflow-tutorials/2017/examples/03_logistic_regression_mnist_sol.py"
F21 = "fchollet__deep-learning-with-python-notebooks/first_edition/2.1-a-first-look-at-a-neural-network.py"
F51 = "fchollet__deep-learning-with-python-notebooks/first_edition/5.1-introduction-to-convnets.py"
F35 = "fchollet__deep-learning-with-python-notebooks/first_edition/3.5-classifying-movie-reviews.py"

# (program, kind, old snippet, new snippet, `at`: snippets of lines TensorFlow's error names)
MUTATIONS = [
    (H, "reshape", "x_image = tf.reshape(x, [-1, img_size, img_size, num_channels])",
     "x_image = tf.reshape(x, [-1, img_size, img_size, 3])", []),
    (H, "reshape", "net = tf.contrib.layers.flatten(net)", "net = tf.reshape(net, [-1, 7 * 7 * 16])",
     ["cross_entropy = tf.nn.softmax_cross_entropy_with_logits"]),
    (H, "feed", "feed_dict_train = {x: x_batch,", "feed_dict_train = {x: x_batch[:, 1:],",
     ["session.run(optimizer, feed_dict=feed_dict_train)"]),
    (H, "labels", "y_true: y_true_batch}", "y_true: np.argmax(y_true_batch, axis=1)}",
     ["session.run(optimizer, feed_dict=feed_dict_train)"]),
    (A10, "transpose", "init = tf.truncated_normal((n_inputs, n_neurons), stddev=stddev)",
     "init = tf.truncated_normal((n_neurons, n_inputs), stddev=stddev)", ["Z = tf.matmul(X, W) + b"]),
    (A10, "feed", "acc_val = accuracy.eval(feed_dict={X: X_valid, y: y_valid})",
     "acc_val = accuracy.eval(feed_dict={X: X_valid, y: y_test})", ["correct = tf.nn.in_top_k(logits, y, 1)"]),
    (A10, "labels", "            sess.run(training_op, feed_dict={X: X_batch, y: y_batch})\n        acc_batch = accuracy.eval(feed_dict={X: X_batch, y: y_batch})\n        acc_val = accuracy.eval(feed_dict={X: X_valid, y: y_valid})",
     "            sess.run(training_op, feed_dict={X: X_batch, y: y_batch.reshape(-1, 1)})\n        acc_batch = accuracy.eval(feed_dict={X: X_batch, y: y_batch})\n        acc_val = accuracy.eval(feed_dict={X: X_valid, y: y_valid})",
     ["xentropy = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y,"]),
    (A10, "feed", "Z = logits.eval(feed_dict={X: X_new_scaled})",
     "Z = logits.eval(feed_dict={X: X_new_scaled.reshape(-1, 28, 28)})", []),
    (A15, "reshape", "hidden3 = my_dense_layer(hidden2, n_hidden3)",
     "hidden3 = my_dense_layer(tf.reshape(hidden2, [-1, 2 * n_hidden2]), n_hidden3)",
     ["reconstruction_loss = tf.reduce_mean(tf.square(outputs - X))\n\nreg_losses"]),
    (A15, "transpose", "hidden = tf.layers.dense(X, n_hidden)",
     "hidden = tf.matmul(X, tf.Variable(tf.zeros([n_hidden, n_inputs])))", []),
    (A15, "feed", "        training_op.run(feed_dict={X: X_train})\n    codings_val = codings.eval(feed_dict={X: X_test})",
     "        training_op.run(feed_dict={X: X_train})\n    codings_val = codings.eval(feed_dict={X: X_test.T})", []),
    (C03, "feed", "X_batch, Y_batch = mnist.test.next_batch(batch_size)",
     "X_batch, Y_batch = mnist.test.next_batch(100)", ["accuracy_batch = sess.run([accuracy]"]),
    (C03, "transpose", "w = tf.Variable(tf.random_normal(shape=[784, 10], stddev=0.01), name='weights')",
     "w = tf.Variable(tf.random_normal(shape=[10, 784], stddev=0.01), name='weights')", ["logits = tf.matmul(X, w) + b"]),
    (F21, "reshape", "train_images = train_images.reshape((60000, 28 * 28))",
     "train_images = train_images.reshape((60000, 28, 28))", ["network.fit(train_images, train_labels"]),
    (F21, "labels", "train_labels = to_categorical(train_labels)", "train_labels = train_labels",
     ["network.fit(train_images, train_labels"]),
    (F51, "reshape", "train_images = train_images.reshape((60000, 28, 28, 1))",
     "train_images = train_images.reshape((60000, 28 * 28))", ["model.fit(train_images, train_labels"]),
    (F51, "labels", "train_labels = to_categorical(train_labels)", "train_labels = train_labels",
     ["model.fit(train_images, train_labels"]),
    (F35, "feed", "x_train = vectorize_sequences(train_data)", "x_train = vectorize_sequences(train_data, dimension=5000)",
     ["history = model.fit(partial_x_train", "model.fit(x_train, y_train"]),
]


def line_of(text, snippet):
    i = text.find(snippet)
    return None if i < 0 else text.count("\n", 0, i) + 1


def check(tlens, path):
    t0 = time.perf_counter()
    p = subprocess.run([tlens, "check", "--format", "json", os.path.basename(path)], cwd=os.path.dirname(path),
                       capture_output=True, text=True, timeout=120)
    ms = (time.perf_counter() - t0) * 1000
    try:
        diags = json.loads(p.stdout) if p.stdout.strip() else []
    except json.JSONDecodeError:
        diags = []
    return [d for d in diags if d.get("severity") == "error"], ms


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tlens", default=os.path.join(here, "..", "build", "tlens"))
    ap.add_argument("--corpus", default=os.path.join(here, "..", "..", "shared", "corpus"))
    ap.add_argument("--json")
    args = ap.parse_args()
    tlens = os.path.abspath(args.tlens)
    results = {"programs": {}, "mutations": []}
    with tempfile.TemporaryDirectory(prefix="tlens-mutations-") as tmp:
        for prog in sorted({m[0] for m in MUTATIONS}):
            src = open(os.path.join(args.corpus, prog), encoding="utf-8").read()
            path = os.path.join(tmp, "original", os.path.basename(prog))
            os.makedirs(os.path.dirname(path), exist_ok=True)
            open(path, "w", encoding="utf-8").write(src)
            errs, ms = check(tlens, path)
            results["programs"][prog] = {"false_errors": len(errs), "ms": round(ms, 1),
                                         "errors": ["%d: %s" % (d["line"], d["message"][:100]) for d in errs]}
        for k, (prog, kind, old, new, at) in enumerate(MUTATIONS):
            src = open(os.path.join(args.corpus, prog), encoding="utf-8").read()
            if src.count(old) != 1:
                sys.exit("mutation %d: the snippet occurs %d times in %s" % (k, src.count(old), prog))
            start = src.find(old)
            mutated = src.replace(old, new)
            first = mutated.count("\n", 0, start) + 1
            lines = set(range(first, first + new.count("\n") + 1))
            for a in at:
                n = line_of(mutated, a)
                if n is None:
                    sys.exit("mutation %d: '%s' is not in the mutated %s" % (k, a, prog))
                lines.add(n)
            path = os.path.join(tmp, "m%02d" % k, os.path.basename(prog))
            os.makedirs(os.path.dirname(path), exist_ok=True)
            open(path, "w", encoding="utf-8").write(mutated)
            errs, ms = check(tlens, path)
            at_line = [d for d in errs if d["line"] in lines]
            via_note = [d for d in errs if d not in at_line and any(r["line"] in lines for r in d.get("related", []))]
            results["mutations"].append({
                "id": k, "program": prog, "kind": kind, "lines": sorted(lines),
                "found": bool(at_line), "found_via_note": bool(via_note), "ms": round(ms, 1),
                "errors": ["%d: %s" % (d["line"], d["message"][:100]) for d in errs]})
    ms = results["mutations"]
    for m in ms:
        print("%-3d %-9s %-6s %-70s %s" % (m["id"], m["kind"], "found" if m["found"] else ("note" if m["found_via_note"] else "-"),
                                          m["program"][-70:], "; ".join(m["errors"])[:160]))
    found = sum(m["found"] for m in ms)
    noted = sum(m["found_via_note"] and not m["found"] for m in ms)
    false = sum(p["false_errors"] for p in results["programs"].values())
    times = sorted([p["ms"] for p in results["programs"].values()])
    print("found at the line: %d of %d; only in a related note: %d; false errors on the %d unmutated programs: %d; "
          "median check time of the unmutated programs: %.0f ms" % (found, len(ms), noted, len(times), false, times[len(times) // 2]))
    for prog, p in sorted(results["programs"].items()):
        if p["false_errors"]:
            print("false errors in %s: %s" % (prog, "; ".join(p["errors"])))
    if args.json:
        json.dump(results, open(args.json, "w"), indent=1)


if __name__ == "__main__":
    main()
