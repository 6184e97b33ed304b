#!/usr/bin/env python3
"""The language server benchmark's files: several differently shaped ~5,000-line Python programs,
generated deterministically (nothing random, nothing committed but this script).

    python3 bench/lsp_files.py OUTDIR [--lines N]      writes OUTDIR/<shape>.py for every shape
    python3 bench/lsp_files.py OUTDIR --check TLENS    and runs `TLENS check` on each: exit 1 when
                                                       one crashes or reports an internal error

Shapes (each valid Python that TensorFlow of its era accepts; every block differs in names and
sizes, so nothing is a copy of the block before it):
  tf2_models     TF2: annotated functions (`def f(x: tf.Tensor) -> tf.Tensor`), `tf.random.normal`
                 weights, attention blocks, Keras subclassed and functional models, GradientTape
                 training loops.
  tf1_graph      TF1 graph style: placeholders, variable_scope / get_variable, many layers,
                 Session.run loops with feed_dict.
  numpy_pipeline numpy-heavy data preparation (normalise, split, batch, one-hot) feeding Keras
                 Sequential models.
  flat_module    one big flat module: many small top-level functions, constants and classes.
The file of `tlens_bench --tf-file 5000` (bench/TfStyleFile.h) is the fifth, `tf1_blocks`.

Every file holds the number 784 (an input width) in every block: bench/lsp_bench.js edits one of
them in the middle, near the start and near the end of the file.
"""
import argparse
import os
import subprocess
import sys


def tf2_block(b):
    d = 32 * (1 + b % 4)          # model width
    h = 2 ** (1 + b % 3)           # heads
    u = 64 + 16 * (b % 5)          # hidden units
    return f'''

def dense_{b}(x: tf.Tensor, units: int = {u}) -> tf.Tensor:
    """A dense layer with fresh random weights."""
    w = tf.random.normal([x.shape[-1], units], stddev=0.05)
    bias = tf.zeros([units])
    return tf.nn.relu(tf.matmul(x, w) + bias)


def attention_{b}(q: tf.Tensor, k: tf.Tensor, v: tf.Tensor) -> tf.Tensor:
    depth = tf.cast(tf.shape(k)[-1], tf.float32)
    scores = tf.matmul(q, k, transpose_b=True) / tf.math.sqrt(depth)
    weights = tf.nn.softmax(scores, axis=-1)
    return tf.matmul(weights, v)


class MultiHead{b}(tf.keras.layers.Layer):
    def __init__(self, d_model: int = {d}, num_heads: int = {h}):
        super().__init__()
        self.num_heads = num_heads
        self.depth = d_model // num_heads
        self.wq = tf.keras.layers.Dense(d_model)
        self.wk = tf.keras.layers.Dense(d_model)
        self.wv = tf.keras.layers.Dense(d_model)
        self.out = tf.keras.layers.Dense(d_model)

    def split_heads(self, x: tf.Tensor, batch: int) -> tf.Tensor:
        x = tf.reshape(x, (batch, -1, self.num_heads, self.depth))
        return tf.transpose(x, perm=[0, 2, 1, 3])

    def call(self, x: tf.Tensor) -> tf.Tensor:
        batch = x.shape[0]
        q = self.split_heads(self.wq(x), batch)
        k = self.split_heads(self.wk(x), batch)
        v = self.split_heads(self.wv(x), batch)
        heads = attention_{b}(q, k, v)
        heads = tf.transpose(heads, perm=[0, 2, 1, 3])
        return self.out(tf.reshape(heads, (batch, -1, self.num_heads * self.depth)))


class Classifier{b}(tf.keras.Model):
    def __init__(self, classes: int = 10):
        super().__init__()
        self.hidden = tf.keras.layers.Dense({u}, activation="relu")
        self.drop = tf.keras.layers.Dropout(0.1)
        self.logits = tf.keras.layers.Dense(classes)

    def call(self, x: tf.Tensor, training: bool = False) -> tf.Tensor:
        x = self.hidden(x)
        x = self.drop(x, training=training)
        return self.logits(x)


inputs_{b} = tf.keras.Input(shape=(784,))
hidden_{b} = tf.keras.layers.Dense({u}, activation="relu")(inputs_{b})
outputs_{b} = tf.keras.layers.Dense(10)(hidden_{b})
functional_{b} = tf.keras.Model(inputs=inputs_{b}, outputs=outputs_{b})

sequence_{b} = tf.random.normal([4, 12, {d}])
attended_{b} = MultiHead{b}()(sequence_{b})
pooled_{b} = tf.reduce_mean(attended_{b}, axis=1)
features_{b} = dense_{b}(pooled_{b})

model_{b} = Classifier{b}()
optimizer_{b} = tf.keras.optimizers.Adam(learning_rate=1e-3)
x_batch_{b} = tf.random.normal([32, 784])
y_batch_{b} = tf.random.uniform([32], maxval=10, dtype=tf.int32)
for step in range(2):
    with tf.GradientTape() as tape:
        logits = model_{b}(x_batch_{b}, training=True)
        loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y_batch_{b}, logits=logits))
    grads = tape.gradient(loss, model_{b}.trainable_variables)
    optimizer_{b}.apply_gradients(zip(grads, model_{b}.trainable_variables))
predictions_{b} = functional_{b}(x_batch_{b})
'''


def tf1_block(b):
    u = 100 + 20 * (b % 6)
    n = 3 + b % 3                  # layers in the stack
    return f'''

def stack_{b}(x, sizes, scope="stack_{b}"):
    with tf.variable_scope(scope):
        for i, size in enumerate(sizes):
            with tf.variable_scope("layer_%d" % i):
                w = tf.get_variable("w", [x.get_shape()[-1], size], initializer=tf.truncated_normal_initializer(stddev=0.1))
                b = tf.get_variable("b", [size], initializer=tf.constant_initializer(0.0))
                x = tf.nn.relu(tf.matmul(x, w) + b)
        return x


graph_{b} = tf.Graph()
with graph_{b}.as_default():
    x_{b} = tf.placeholder(tf.float32, [None, 784], name="x")
    y_{b} = tf.placeholder(tf.int64, [None], name="y")
    keep_{b} = tf.placeholder(tf.float32, name="keep")
    hidden_{b} = stack_{b}(x_{b}, [{u}] * {n})
    dropped_{b} = tf.nn.dropout(hidden_{b}, keep_prob=keep_{b})
    with tf.variable_scope("out_{b}"):
        w_out = tf.get_variable("w", [{u}, 10])
        b_out = tf.get_variable("b", [10], initializer=tf.zeros_initializer())
        logits_{b} = tf.matmul(dropped_{b}, w_out) + b_out
    loss_{b} = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y_{b}, logits=logits_{b}))
    train_{b} = tf.train.GradientDescentOptimizer(0.01).minimize(loss_{b})
    correct_{b} = tf.equal(tf.argmax(logits_{b}, 1), y_{b})
    accuracy_{b} = tf.reduce_mean(tf.cast(correct_{b}, tf.float32))
    init_{b} = tf.global_variables_initializer()

data_x_{b} = np.random.rand(64, 784).astype(np.float32)
data_y_{b} = np.random.randint(0, 10, size=64)
with tf.Session(graph=graph_{b}) as sess:
    sess.run(init_{b})
    for step in range(3):
        _, loss_value = sess.run([train_{b}, loss_{b}], feed_dict={{x_{b}: data_x_{b}, y_{b}: data_y_{b}, keep_{b}: 0.5}})
        if step % 2 == 0:
            print("step %d loss %.3f" % (step, loss_value))
    acc_{b} = sess.run(accuracy_{b}, feed_dict={{x_{b}: data_x_{b}, y_{b}: data_y_{b}, keep_{b}: 1.0}})
'''


def numpy_block(b):
    n = 200 + 40 * (b % 5)         # examples
    u = 32 * (1 + b % 4)
    return f'''

def normalise_{b}(a):
    mean = a.mean(axis=0, keepdims=True)
    std = a.std(axis=0, keepdims=True) + 1e-6
    return (a - mean) / std


def one_hot_{b}(labels, classes=10):
    out = np.zeros((labels.shape[0], classes), dtype=np.float32)
    out[np.arange(labels.shape[0]), labels] = 1.0
    return out


def batches_{b}(x, y, size=32):
    for start in range(0, x.shape[0], size):
        yield x[start:start + size], y[start:start + size]


raw_{b} = np.random.rand({n}, 784).astype(np.float32)
labels_{b} = np.random.randint(0, 10, size={n})
clean_{b} = normalise_{b}(np.clip(raw_{b}, 0.05, 0.95))
images_{b} = clean_{b}.reshape(-1, 28, 28, 1)
flipped_{b} = images_{b}[:, :, ::-1, :]
augmented_{b} = np.concatenate([images_{b}, flipped_{b}], axis=0)
targets_{b} = one_hot_{b}(np.concatenate([labels_{b}, labels_{b}]))
order_{b} = np.arange(augmented_{b}.shape[0])
split_{b} = int(0.8 * augmented_{b}.shape[0])
x_train_{b}, x_val_{b} = augmented_{b}[order_{b}[:split_{b}]], augmented_{b}[order_{b}[split_{b}:]]
y_train_{b}, y_val_{b} = targets_{b}[order_{b}[:split_{b}]], targets_{b}[order_{b}[split_{b}:]]
stats_{b} = {{"mean": float(x_train_{b}.mean()), "count": int(x_train_{b}.shape[0])}}
sizes_{b} = [batch.shape[0] for batch, _ in batches_{b}(x_train_{b}, y_train_{b})]

model_{b} = keras.Sequential([
    keras.Input(shape=(28, 28, 1)),
    layers.Conv2D({u}, kernel_size=3, activation="relu"),
    layers.MaxPooling2D(pool_size=2),
    layers.Flatten(),
    layers.Dense({u * 2}, activation="relu"),
    layers.Dense(10, activation="softmax"),
])
model_{b}.compile(loss="categorical_crossentropy", optimizer="adam", metrics=["accuracy"])
history_{b} = model_{b}.fit(x_train_{b}, y_train_{b}, batch_size=64, epochs=1, validation_data=(x_val_{b}, y_val_{b}), verbose=0)
scores_{b} = model_{b}.predict(x_val_{b}[:16], verbose=0)
best_{b} = np.argmax(scores_{b}, axis=1)
'''


def flat_block(b):
    k = 3 + b % 5
    return f'''
WIDTH_{b} = 784
SCALE_{b} = {1 + b % 7} / 10.0


def scale_{b}(x):
    return x * SCALE_{b}


def clip_{b}(x, low=0.0, high=1.0):
    return tf.clip_by_value(x, low, high)


def pad_{b}(x):
    return tf.pad(x, [[0, 0], [1, 1]])


def name_{b}(prefix, index):
    return "%s_%d" % (prefix, index)


def total_{b}(values):
    s = 0
    for v in values:
        s += v
    return s


class Point{b}:
    def __init__(self, x, y):
        self.x = x
        self.y = y

    def norm(self):
        return (self.x ** 2 + self.y ** 2) ** 0.5


class Projection{b}:
    width = WIDTH_{b}

    def __init__(self, units={k * 8}):
        self.w = tf.ones([WIDTH_{b}, units])

    def __call__(self, x):
        return tf.matmul(x, self.w)


vector_{b} = tf.ones([2, WIDTH_{b}])
projected_{b} = Projection{b}()(clip_{b}(scale_{b}(vector_{b})))
padded_{b} = pad_{b}(projected_{b})
label_{b} = name_{b}("block", {b})
point_{b} = Point{b}({b}, {k}).norm()
count_{b} = total_{b}(range({k}))
'''


SHAPES = {
    "tf2_models": ("import tensorflow as tf\n", tf2_block),
    "tf1_graph": ("import numpy as np\nimport tensorflow as tf\n", tf1_block),
    "numpy_pipeline": ("import numpy as np\nfrom tensorflow import keras\nfrom tensorflow.keras import layers\n\n"
                       "np.random.seed(0)\n", numpy_block),
    "flat_module": ('"""Many small helpers in one module."""\nimport tensorflow as tf\n', flat_block),
}


def generate(shape, lines):
    head, block = SHAPES[shape]
    parts = [head]
    count = head.count("\n")
    b = 0
    while count < lines:
        text = block(b)
        parts.append(text)
        count += text.count("\n")
        b += 1
    return "".join(parts)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("outdir")
    p.add_argument("--lines", type=int, default=5000)
    p.add_argument("--only", help="one shape")
    p.add_argument("--check", metavar="TLENS", help="run TLENS check on every file written")
    a = p.parse_args()
    os.makedirs(a.outdir, exist_ok=True)
    for shape in ([a.only] if a.only else SHAPES):
        text = generate(shape, a.lines)
        compile(text, shape, "exec")  # valid Python, or no file
        with open(os.path.join(a.outdir, shape + ".py"), "w") as f:
            f.write(text)
        print(os.path.join(a.outdir, shape + ".py"), text.count("\n"), "lines", file=sys.stderr)
    failed = 0
    for shape in ([a.only] if a.only else SHAPES) if a.check else []:
        path = os.path.join(a.outdir, shape + ".py")
        r = subprocess.run([a.check, "check", path], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=600)
        out = r.stdout.decode("utf-8", "replace")
        # 0: clean, 1: errors reported (the user's code); anything else, or an internal error, is ours.
        if r.returncode not in (0, 1) or "internal-error" in out:
            print("%s: tlens check exited %d\n%s" % (path, r.returncode, out[-2000:]), file=sys.stderr)
            failed += 1
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
