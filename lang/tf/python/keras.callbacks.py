# keras.callbacks: the hooks Model.fit calls, each with a logs dict as Keras passes it.
# ModelCheckpoint saves the model; TensorBoard and CSVLogger are accepted and write nothing.
import _tlens


class Callback:
    def __init__(self):
        self.model = None
        self.params = {}

    def set_model(self, model):
        self.model = model

    def set_params(self, params):
        self.params = params

    def on_train_begin(self, logs=None):
        pass

    def on_train_end(self, logs=None):
        pass

    def on_epoch_begin(self, epoch, logs=None):
        pass

    def on_epoch_end(self, epoch, logs=None):
        pass

    def on_train_batch_begin(self, batch, logs=None):
        self.on_batch_begin(batch, logs=logs)  # Keras' backwards-compatible alias

    def on_train_batch_end(self, batch, logs=None):
        self.on_batch_end(batch, logs=logs)

    def on_batch_begin(self, batch, logs=None):
        pass

    def on_batch_end(self, batch, logs=None):
        pass


class History(Callback):
    def __init__(self):
        Callback.__init__(self)
        self.history = {}
        self.epoch = []

    def on_train_begin(self, logs=None):
        self.epoch = []

    def on_epoch_end(self, epoch, logs=None):
        self.epoch.append(epoch)
        for k in logs or {}:
            self.history.setdefault(k, []).append(logs[k])


class EarlyStopping(Callback):
    def __init__(self, monitor="val_loss", min_delta=0, patience=0, verbose=0, mode="auto", baseline=None,
                 restore_best_weights=False, start_from_epoch=0):
        Callback.__init__(self)
        self.monitor = monitor
        self.min_delta = abs(min_delta)
        self.patience = patience
        self.mode = mode
        self.restore_best_weights = restore_best_weights
        self.stopped_epoch = 0

    def _better(self, a, b):
        maximize = self.mode == "max" or (self.mode == "auto" and ("acc" in self.monitor or "auc" in self.monitor))
        if maximize:
            return a - self.min_delta > b
        return a + self.min_delta < b

    def on_train_begin(self, logs=None):
        self.wait = 0
        self.best = None
        self.best_weights = None

    def on_epoch_end(self, epoch, logs=None):
        v = (logs or {}).get(self.monitor)
        if v is None:
            return
        if self.best is None or self._better(v, self.best):
            self.best = v
            self.wait = 0
            if self.restore_best_weights:
                self.best_weights = self.model.get_weights()
            return
        self.wait += 1
        if self.wait >= self.patience and epoch > 0:
            self.stopped_epoch = epoch
            self.model.stop_training = True
            if self.restore_best_weights and self.best_weights is not None:
                self.model.set_weights(self.best_weights)


class LearningRateScheduler(Callback):
    def __init__(self, schedule, verbose=0):
        Callback.__init__(self)
        self.schedule = schedule
        self.verbose = verbose

    def on_epoch_begin(self, epoch, logs=None):
        opt = self.model.optimizer
        try:
            lr = self.schedule(epoch, float(opt.learning_rate))
        except TypeError:
            lr = self.schedule(epoch)
        if not isinstance(lr, float) and not _tlens.is_tensor(lr) and not hasattr(lr, "dtype"):
            raise ValueError('The output of the "schedule" function should be float. Got: %s' % (lr,))
        opt.learning_rate = lr
        if self.verbose > 0:
            print("\nEpoch %05d: LearningRateScheduler setting learning rate to %s." % (epoch + 1, float(lr)))

    def on_epoch_end(self, epoch, logs=None):
        if logs is not None:
            logs["lr"] = float(self.model.optimizer.learning_rate)


class ReduceLROnPlateau(Callback):
    def __init__(self, monitor="val_loss", factor=0.1, patience=10, verbose=0, mode="auto", min_delta=1e-4,
                 cooldown=0, min_lr=0, **kwargs):
        Callback.__init__(self)
        self.monitor = monitor
        self.factor = factor
        self.patience = patience
        self.min_lr = min_lr
        self.best = None
        self.wait = 0
        self.verbose = verbose

    def on_epoch_end(self, epoch, logs=None):
        if logs is not None:
            logs["lr"] = float(self.model.optimizer.learning_rate)
        v = (logs or {}).get(self.monitor)
        if v is None:
            return
        if self.best is None or v < self.best:
            self.best = v
            self.wait = 0
            return
        self.wait += 1
        if self.wait >= self.patience:
            opt = self.model.optimizer
            old = float(opt.learning_rate)
            new = max(old * self.factor, self.min_lr)
            if old > self.min_lr:
                opt.learning_rate = new
                if self.verbose > 0:
                    print("\nEpoch %05d: ReduceLROnPlateau reducing learning rate to %s." % (epoch + 1, new))
            self.wait = 0


class LambdaCallback(Callback):
    def __init__(self, on_epoch_begin=None, on_epoch_end=None, on_batch_begin=None, on_batch_end=None,
                 on_train_begin=None, on_train_end=None, **kwargs):
        Callback.__init__(self)
        if on_epoch_begin is not None:
            self.on_epoch_begin = on_epoch_begin
        if on_epoch_end is not None:
            self.on_epoch_end = on_epoch_end
        if on_train_begin is not None:
            self.on_train_begin = on_train_begin
        if on_train_end is not None:
            self.on_train_end = on_train_end


class ModelCheckpoint(Callback):
    """Saves the model (Model.save, or save_weights) at the end of each epoch, or only when the
    monitored value improved (save_best_only); the path may hold {epoch} and log fields."""

    def __init__(self, filepath, monitor="val_loss", verbose=0, save_best_only=False, save_weights_only=False,
                 mode="auto", save_freq="epoch", initial_value_threshold=None, **kwargs):
        Callback.__init__(self)
        self.filepath = str(filepath)
        self.monitor = monitor
        self.verbose = verbose
        self.save_best_only = save_best_only
        self.save_weights_only = save_weights_only
        self.mode = mode
        self.best = initial_value_threshold

    def _better(self, a, b):
        if b is None:
            return True
        maximize = self.mode == "max" or (self.mode == "auto" and ("acc" in self.monitor or "auc" in self.monitor
                                                                 or self.monitor.startswith("fmeasure")))
        return a > b if maximize else a < b

    def on_epoch_end(self, epoch, logs=None):
        logs = logs or {}
        fields = dict(logs)
        fields["epoch"] = epoch + 1
        path = self.filepath.format(**fields)
        if self.save_best_only:
            v = logs.get(self.monitor)
            if v is None:
                print("WARNING: Can save best model only with %s available, skipping." % self.monitor)
                return
            if not self._better(v, self.best):
                return
            if self.verbose:
                print("\nEpoch %d: %s improved from %s to %.5f, saving model to %s" % (epoch + 1, self.monitor, self.best, v, path))
            self.best = v
        if self.save_weights_only:
            self.model.save_weights(path)
        else:
            self.model.save(path)


class TensorBoard(Callback):
    # FIXME: tensorlens writes no event files.
    def __init__(self, log_dir="logs", **kwargs):
        Callback.__init__(self)
        self.log_dir = log_dir


class CSVLogger(Callback):
    # FIXME: tensorlens writes no log files.
    def __init__(self, filename, separator=",", append=False):
        Callback.__init__(self)
        self.filename = filename


class ProgbarLogger(Callback):
    pass
