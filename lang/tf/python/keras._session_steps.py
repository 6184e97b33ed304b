# keras._session_steps: Keras' training loops in TF1 programs (graph mode), as tf.keras 1.x ran
# them: the step is built once per data signature as nodes of the default graph (placeholders for
# the batch, the model applied to them, the loss, the metrics, the gradients and the optimizer's
# updates) and each batch is one run of the Keras backend session (keras.backend.get_session(),
# which first initialises the variables no one has initialised yet).
#
# Steps are cached on the model per kind ("train", "test", "predict") and per input/target
# signature; compile() drops them, as it drops the eager steps. Stateful metrics (Metric objects
# with update_state) and subclasses overriding train_step are TF2 features: graph mode says so.
import _tlens
import tensorflow as _tf
import numpy as _np
from keras import backend as _backend
from keras import metrics as _metrics
from keras.layers import _flatten

_range = range


def _dtype_of(a, default):
    """The placeholder dtype for a batch array: the model input's dtype for floating data (Keras
    casts float64 arrays to float32 inputs), else the array's own dtype."""
    dt = getattr(a, "dtype", None)
    if dt is None:
        return default
    name = _tf.as_dtype(dt).name
    if name in ("float16", "float32", "float64"):
        return default if default is not None else _tf.float32
    return _tf.as_dtype(dt)


def _signature(batch):
    if batch is None:
        return None
    if isinstance(batch, dict):
        return tuple([(k, _signature(batch[k])) for k in sorted(batch.keys())])
    if isinstance(batch, (list, tuple)):
        return tuple([_signature(b) for b in batch])
    a = _np.asarray(batch) if not _tlens.is_tensor(batch) else batch
    dims = list(a.shape) if not _tlens.is_tensor(a) else a.shape.as_list()
    return (tuple(dims[1:]), _tf.as_dtype(a.dtype).name)


def _placeholders(batch, refs):
    """Placeholders shaped like `batch` (an array, or a list/dict of arrays), [None] for the batch
    dimension; `refs` gives the model's input tensors for their dtypes (may be shorter)."""
    if isinstance(batch, dict):
        keys = list(batch.keys())
        return dict([(k, _placeholders(batch[k], [])) for k in keys])
    if isinstance(batch, (list, tuple)):
        out = []
        for i in _range(len(batch)):
            out.append(_placeholders(batch[i], [refs[i]] if i < len(refs) else []))
        return out
    a = batch if _tlens.is_tensor(batch) else _np.asarray(batch)
    dims = a.shape.as_list() if _tlens.is_tensor(a) else list(a.shape)
    default = refs[0].dtype if refs else None
    return _tf.placeholder(_dtype_of(a, default), [None] + dims[1:])


def _feed(feed, phs, batch):
    if isinstance(phs, dict):
        for k in phs:
            _feed(feed, phs[k], batch[k])
        return
    if isinstance(phs, list):
        for p, b in zip(phs, batch):
            _feed(feed, p, b)
        return
    if _tlens.is_tensor(batch) and not _tlens.is_ndarray(batch):
        batch = batch.numpy() if _tf.executing_eagerly() else _backend.get_session().run(batch)
    feed[phs] = batch


class _Step:
    """One built step: placeholders, the fetches and how to read their values back as logs."""

    def __init__(self, x_ph, y_ph, fetches, names, updates):
        self.x_ph = x_ph
        self.y_ph = y_ph
        self.fetches = fetches
        self.names = names
        self.updates = updates

    def run(self, xb, yb):
        feed = {}
        _feed(feed, self.x_ph, xb)
        if self.y_ph is not None and yb is not None:
            _feed(feed, self.y_ph, yb)
        sess = _backend.get_session()
        values = sess.run(self.fetches + self.updates, feed)
        return values[:len(self.fetches)]


def _stateless(metrics):
    for name, fn in metrics:
        if isinstance(fn, _metrics._Stateful):
            raise NotImplementedError("tensorlens: the stateful metric '%s' (a Metric with update_state) is not supported in "
                                      "a TF1-style program (graph mode); use a metric function or run the program eagerly" % name)


def _check_model(model, what):
    if what == "train" and model._custom_train_step():
        raise NotImplementedError("tensorlens: Model.train_step overrides are TF2 Keras; this program uses the TF1 graph "
                                  "API (placeholders, sessions, tf.compat.v1, ...), so its Keras models train as session runs")


def _metric_tensors(model, y_ph, y_pred, metrics):
    """(names, tensors) of the per-batch logs after the loss, as _batch_logs computes them eagerly."""
    names, tensors = [], []
    if model._heads is not None:
        for h, l in zip(model._heads, getattr(model, "_head_losses", [])):
            if l is not None:
                names.append(h["name"] + "_loss")
                tensors.append(l)
        ys = list(y_ph) if isinstance(y_ph, (list, tuple)) else [y_ph]
        preds = list(y_pred) if isinstance(y_pred, (list, tuple)) else [y_pred]
        for i in _range(len(model._heads)):
            h = model._heads[i]
            _stateless(h["metrics"])
            for n, fn in h["metrics"]:
                names.append(h["name"] + "_" + n)
                tensors.append(_tf.reduce_mean(fn(ys[i], preds[i])))
        return names, tensors
    _stateless(metrics)
    for n, fn in metrics:
        names.append(n)
        tensors.append(_tf.reduce_mean(fn(y_ph, y_pred)))
    return names, tensors


def _build(model, kind, xb, yb, metrics):
    refs = list(model._kt_inputs) if model._kt_inputs else []
    x_ph = _placeholders(xb, refs)
    if kind == "predict":
        y_pred = model(x_ph, training=False)
        outs = list(y_pred) if isinstance(y_pred, (list, tuple)) else [y_pred]
        return _Step(x_ph, None, outs, ["output_%d" % i for i in _range(len(outs))], [])
    y_ph = _placeholders(yb, []) if yb is not None else None
    training = kind == "train"
    collected = []
    _backend._state["update_collector"].append(collected)
    try:
        y_pred = model(x_ph, training=training)
    finally:
        _backend._state["update_collector"].pop()
    loss = model._compute_loss(y_ph, y_pred)
    names, tensors = _metric_tensors(model, y_ph, y_pred, metrics)
    updates = []
    if training:
        variables = model.trainable_variables
        if not variables:
            raise ValueError("No gradients provided for any variable: the model has no trainable weights.")
        grads = _tf.gradients(loss, variables)
        op = model.optimizer.apply_gradients(zip(grads, variables))
        updates = ([op] if op is not None else []) + collected
    return _Step(x_ph, y_ph, [loss] + tensors, ["loss"] + names, updates)


def step(model, kind, xb, yb, metrics):
    """The cached graph step of `kind` for batches like (xb, yb), built on first use."""
    _check_model(model, kind)
    cache = getattr(model, "_session_steps", None)
    if cache is None:
        cache = {}
        model._session_steps = cache
    key = (kind, _signature(xb), _signature(yb) if kind != "predict" else None)
    s = cache.get(key)
    if s is None:
        s = _build(model, kind, xb, yb, metrics)
        cache[key] = s
    return s


def batch_logs(model, xb, yb, metrics, kind):
    """One train or test step on a batch, run in the session: its logs (floats)."""
    s = step(model, kind, xb, yb, metrics)
    values = s.run(xb, yb)
    logs = {}
    for n, v in zip(s.names, values):
        logs[n] = float(v)
    return logs


def predict_batch(model, xb):
    """The model's outputs on a batch, as numpy arrays (a list for several outputs)."""
    s = step(model, "predict", xb, None, [])
    values = s.run(xb, None)
    return values if len(values) > 1 else values[0]
