# tf.estimator (TF1): Estimator with a model_fn, EstimatorSpec, ModeKeys, RunConfig, and the
# canned DNNClassifier (multi-class) and DNNRegressor. Each train/evaluate/predict call builds a
# fresh graph, as TensorFlow does: input_fn's tensors (tf.data or numpy_input_fn), model_fn's
# spec, a global step; variables restored from the newest checkpoint in model_dir (initialized
# when there is none), and train saves one at its end. Hooks, distribution and export are not
# modelled.
import os as _os
import tempfile as _tempfile
import numpy as _np
import _tlens
import tensorflow as _tf
from tensorflow.estimator import inputs


class ModeKeys:
    TRAIN = "train"
    EVAL = "eval"
    PREDICT = "infer"


class EstimatorSpec:
    def __init__(self, mode, predictions=None, loss=None, train_op=None, eval_metric_ops=None, export_outputs=None,
                 training_chief_hooks=None, training_hooks=None, scaffold=None, evaluation_hooks=None,
                 prediction_hooks=None):
        if mode == ModeKeys.TRAIN and train_op is None:
            raise ValueError("Missing train_op.")
        if mode in (ModeKeys.TRAIN, ModeKeys.EVAL) and loss is None:
            raise ValueError("Missing loss.")
        if mode == ModeKeys.PREDICT and predictions is None:
            raise ValueError("Missing predictions.")
        self.mode = mode
        self.predictions = predictions
        self.loss = loss
        self.train_op = train_op
        self.eval_metric_ops = dict(eval_metric_ops or {})
        self.export_outputs = export_outputs


class RunConfig:
    def __init__(self, model_dir=None, tf_random_seed=None, save_summary_steps=100, save_checkpoints_steps=None,
                 save_checkpoints_secs=None, session_config=None, keep_checkpoint_max=5,
                 keep_checkpoint_every_n_hours=10000, log_step_count_steps=100, train_distribute=None,
                 device_fn=None, protocol=None, eval_distribute=None, experimental_distribute=None,
                 experimental_max_worker_delay_secs=None, session_creation_timeout_secs=7200):
        self.model_dir = model_dir
        self.tf_random_seed = tf_random_seed
        self.save_summary_steps = save_summary_steps
        self.keep_checkpoint_max = keep_checkpoint_max
        self.log_step_count_steps = log_step_count_steps
        self.session_config = session_config

    def replace(self, **kwargs):
        c = RunConfig()
        c.__dict__.update(self.__dict__)
        c.__dict__.update(kwargs)
        return c


def _split_input(result):
    if hasattr(result, "make_one_shot_iterator"):  # a tf.data Dataset
        result = result.make_one_shot_iterator().get_next()
    if isinstance(result, (tuple, list)) and len(result) == 2:
        return result[0], result[1]
    return result, None


class Estimator:
    def __init__(self, model_fn, model_dir=None, config=None, params=None, warm_start_from=None):
        if not callable(model_fn):
            raise ValueError("model_fn must be provided to Estimator.")
        self._config = config if config is not None else RunConfig()
        model_dir = model_dir if model_dir is not None else self._config.model_dir
        if model_dir is None:
            model_dir = _tempfile.mkdtemp()
            _tf.logging.warning("Using temporary folder as model directory: %s", model_dir)
        self._model_dir = model_dir
        self._config = self._config.replace(model_dir=model_dir)
        self._model_fn = model_fn
        self._params = dict(params or {})

    @property
    def model_dir(self):
        return self._model_dir

    @property
    def config(self):
        return self._config

    @property
    def params(self):
        return dict(self._params)

    def _call_model_fn(self, features, labels, mode):
        names = _tlens.param_names(self._model_fn)
        kwargs = {}
        if "mode" in names:
            kwargs["mode"] = mode
        if "params" in names:
            kwargs["params"] = self._params
        if "config" in names:
            kwargs["config"] = self._config
        if "labels" in names:
            kwargs["labels"] = labels
        elif labels is not None and mode != ModeKeys.PREDICT:
            raise ValueError("model_fn does not take labels, but input_fn returns labels.")
        spec = self._model_fn(features=features, **kwargs)
        if not isinstance(spec, EstimatorSpec):
            raise ValueError("model_fn should return an EstimatorSpec.")
        return spec

    def _build(self, input_fn, mode):
        if self._config.tf_random_seed is not None:
            _tf.set_random_seed(self._config.tf_random_seed)
        step = _tf.train.get_or_create_global_step()
        names = _tlens.param_names(input_fn)
        features, labels = _split_input(input_fn(params=self._params) if "params" in names else input_fn())
        return step, self._call_model_fn(features, labels, mode)

    def latest_checkpoint(self):
        return _tf.train.latest_checkpoint(self._model_dir)

    def _restore_or_init(self, sess, saver, required):
        latest = self.latest_checkpoint()
        if latest is None:
            if required:
                raise ValueError("Could not find trained model in model_dir: {}.".format(self._model_dir))
            sess.run(_tf.global_variables_initializer())
        else:
            sess.run(_tf.global_variables_initializer())
            saver.restore(sess, latest)
        sess.run(_tf.local_variables_initializer())

    def train(self, input_fn, hooks=None, steps=None, max_steps=None, saving_listeners=None):
        if steps is not None and max_steps is not None:
            raise ValueError("Can not provide both steps and max_steps.")
        if steps is not None and steps <= 0:
            raise ValueError("Must specify steps > 0, given: {}".format(steps))
        if max_steps is not None and max_steps <= 0:
            raise ValueError("Must specify max_steps > 0, given: {}".format(max_steps))
        with _tf.Graph().as_default():
            step, spec = self._build(input_fn, ModeKeys.TRAIN)
            if _tlens.is_abstract():
                return self  # the analysis checks the graph; it does not train
            saver = _tf.train.Saver(max_to_keep=self._config.keep_checkpoint_max)
            with _tf.Session() as sess:
                self._restore_or_init(sess, saver, False)
                start = int(sess.run(step))
                if max_steps is not None and start >= max_steps:
                    _tf.logging.info("Skipping training since max_steps has already saved.")
                    return self
                done = 0
                loss = None
                log_every = self._config.log_step_count_steps or 100
                while True:
                    if steps is not None and done >= steps:
                        break
                    if max_steps is not None and start + done >= max_steps:
                        break
                    try:
                        _, loss = sess.run([spec.train_op, spec.loss])
                    except _tf.errors.OutOfRangeError:
                        break
                    done += 1
                    if done == 1 or done % log_every == 0:
                        _tf.logging.info("loss = %s, step = %d", loss, start + done)
                final = int(sess.run(step))
                path = saver.save(sess, _os.path.join(self._model_dir, "model.ckpt"), global_step=final)
                _tf.logging.info("Saving checkpoints for %d into %s.", final, path)
                _tf.logging.info("Loss for final step: %s.", loss)
        return self

    def evaluate(self, input_fn, steps=None, hooks=None, checkpoint_path=None, name=None):
        with _tf.Graph().as_default():
            step, spec = self._build(input_fn, ModeKeys.EVAL)
            metrics = dict(spec.eval_metric_ops)
            if "loss" not in metrics:
                metrics["loss"] = _tf.metrics.mean(spec.loss) if _tlens.style() == "graph" \
                    else _tf._metric_mean(spec.loss)
            if _tlens.is_abstract():
                results = {k: _tlens.value(_tlens.typed(v.dtype.base_dtype, [])) for k, (v, _) in metrics.items()}
                results["global_step"] = _tlens.value(_tlens.typed(_tf.int64, []))
                return results
            saver = _tf.train.Saver()
            with _tf.Session() as sess:
                if checkpoint_path is not None:
                    sess.run(_tf.global_variables_initializer())
                    saver.restore(sess, checkpoint_path)
                    sess.run(_tf.local_variables_initializer())
                else:
                    self._restore_or_init(sess, saver, True)
                updates = [u for _, u in metrics.values()]
                done = 0
                while steps is None or done < steps:
                    try:
                        sess.run(updates)
                    except _tf.errors.OutOfRangeError:
                        break
                    done += 1
                results = {k: sess.run(v) for k, (v, _) in metrics.items()}
                results["global_step"] = sess.run(step)
        return results

    def predict(self, input_fn, predict_keys=None, hooks=None, checkpoint_path=None, yield_single_examples=True):
        with _tf.Graph().as_default():
            _, spec = self._build(input_fn, ModeKeys.PREDICT)
            predictions = spec.predictions
            if isinstance(predictions, dict) and predict_keys is not None:
                predictions = {k: v for k, v in predictions.items() if k in predict_keys}
            if _tlens.is_abstract():
                # One example of the predictions' types: the analysis runs no session.
                def example(t):
                    dims = t.shape.as_list()[1:] if t.shape.ndims is not None and yield_single_examples else None
                    return _tlens.typed(t.dtype.base_dtype, dims, True)
                yield {k: example(v) for k, v in predictions.items()} if isinstance(predictions, dict) \
                    else example(predictions)
                return
            saver = _tf.train.Saver()
            with _tf.Session() as sess:
                if checkpoint_path is not None:
                    sess.run(_tf.global_variables_initializer())
                    saver.restore(sess, checkpoint_path)
                    sess.run(_tf.local_variables_initializer())
                else:
                    self._restore_or_init(sess, saver, True)
                while True:
                    try:
                        batch = sess.run(predictions)
                    except _tf.errors.OutOfRangeError:
                        return
                    if not yield_single_examples:
                        yield batch
                        continue
                    if isinstance(batch, dict):
                        n = len(next(iter(batch.values())))
                        for i in range(n):
                            yield {k: v[i] for k, v in batch.items()}
                    else:
                        for row in batch:
                            yield row

    def get_variable_names(self):
        latest = self.latest_checkpoint()
        if latest is None:
            raise ValueError("Could not find trained model in model_dir: {}.".format(self._model_dir))
        return [k for k, _ in _tlens.read_checkpoint(latest)]


def _dnn_logits(features, feature_columns, hidden_units, units, activation_fn, dropout, mode):
    with _tf.variable_scope("dnn"):
        with _tf.variable_scope("input_from_feature_columns"):
            net = _tf.feature_column.input_layer(features, feature_columns)
        for i, n in enumerate(hidden_units):
            with _tf.variable_scope("hiddenlayer_%d" % i):
                net = _tf.layers.dense(net, n, activation=activation_fn,
                                       kernel_initializer=_tf.glorot_uniform_initializer(), name="hiddenlayer_%d" % i)
                if dropout is not None and mode == ModeKeys.TRAIN:
                    net = _tf.layers.dropout(net, rate=dropout, training=True)
        with _tf.variable_scope("logits"):
            return _tf.layers.dense(net, units, kernel_initializer=_tf.glorot_uniform_initializer(), name="logits")


def _optimizer(opt, default_rate):
    if opt is None or opt == "Adagrad":
        return _tf.train.AdagradOptimizer(default_rate)
    if opt == "Adam":
        return _tf.train.AdamOptimizer(default_rate)
    if opt == "SGD":
        return _tf.train.GradientDescentOptimizer(default_rate)
    if opt == "RMSProp":
        return _tf.train.RMSPropOptimizer(default_rate)
    if isinstance(opt, str):
        raise ValueError("Unsupported optimizer name: {}. Supported names are: ['Adagrad', 'Adam', 'Ftrl', "
                         "'RMSProp', 'SGD']".format(opt))
    return opt() if callable(opt) and not hasattr(opt, "minimize") else opt


class DNNClassifier(Estimator):
    """The canned DNN classifier of TF1 for n_classes > 2: softmax cross-entropy summed over the
    batch (TF1's canned loss reduction), Adagrad at 0.05 by default; predictions logits,
    probabilities, class_ids, classes; metrics accuracy, average_loss and loss."""

    def __init__(self, hidden_units, feature_columns, model_dir=None, n_classes=2, weight_column=None,
                 label_vocabulary=None, optimizer="Adagrad", activation_fn=_tf.nn.relu, dropout=None,
                 input_layer_partitioner=None, config=None, warm_start_from=None, loss_reduction=None,
                 batch_norm=False):
        if n_classes <= 2:
            raise NotImplementedError("tensorlens: DNNClassifier with n_classes=2 (the binary head) is not modelled")
        if weight_column is not None or label_vocabulary is not None:
            raise NotImplementedError("tensorlens: DNNClassifier's weight_column and label_vocabulary are not modelled")
        feature_columns = list(feature_columns)

        def model_fn(features, labels, mode, config):
            logits = _dnn_logits(features, feature_columns, hidden_units, n_classes, activation_fn, dropout, mode)
            class_ids = _tf.argmax(logits, 1)
            predictions = {"logits": logits, "probabilities": _tf.nn.softmax(logits),
                           "class_ids": _tf.expand_dims(class_ids, 1),
                           "classes": _tf.expand_dims(_tf.as_string(class_ids), 1)}
            if mode == ModeKeys.PREDICT:
                return EstimatorSpec(mode, predictions=predictions)
            ids = _tf.reshape(_tf.cast(labels, _tf.int64), [-1])
            per_example = _tf.nn.sparse_softmax_cross_entropy_with_logits(labels=ids, logits=logits)
            loss = _tf.reduce_sum(per_example)
            if mode == ModeKeys.EVAL:
                mm = _tf._metric_mean
                return EstimatorSpec(mode, loss=loss, predictions=predictions, eval_metric_ops={
                    "accuracy": _tf._metric_accuracy(ids, class_ids),
                    "average_loss": mm(per_example), "loss": mm(loss)})
            opt = _optimizer(optimizer, 0.05)
            return EstimatorSpec(mode, loss=loss, predictions=predictions,
                                 train_op=opt.minimize(loss, global_step=_tf.train.get_global_step()))
        Estimator.__init__(self, model_fn, model_dir, config)


class DNNRegressor(Estimator):
    """TF1's canned DNN regressor: squared error summed over the batch, Adagrad at 0.05."""

    def __init__(self, hidden_units, feature_columns, model_dir=None, label_dimension=1, weight_column=None,
                 optimizer="Adagrad", activation_fn=_tf.nn.relu, dropout=None, input_layer_partitioner=None,
                 config=None, warm_start_from=None, loss_reduction=None, batch_norm=False):
        feature_columns = list(feature_columns)

        def model_fn(features, labels, mode, config):
            out = _dnn_logits(features, feature_columns, hidden_units, label_dimension, activation_fn, dropout, mode)
            predictions = {"predictions": out}
            if mode == ModeKeys.PREDICT:
                return EstimatorSpec(mode, predictions=predictions)
            y = _tf.reshape(_tf.cast(labels, _tf.float32), [-1, label_dimension])
            per_example = _tf.square(out - y)
            loss = _tf.reduce_sum(per_example)
            if mode == ModeKeys.EVAL:
                mm = _tf._metric_mean
                return EstimatorSpec(mode, loss=loss, predictions=predictions, eval_metric_ops={
                    "average_loss": mm(per_example), "loss": mm(loss)})
            opt = _optimizer(optimizer, 0.05)
            return EstimatorSpec(mode, loss=loss, predictions=predictions,
                                 train_op=opt.minimize(loss, global_step=_tf.train.get_global_step()))
        Estimator.__init__(self, model_fn, model_dir, config)
