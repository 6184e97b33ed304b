# keras.optimizers: SGD, Adam, RMSprop, Adagrad with Keras 2.11+'s update rules. Slots and the
# step counter are eager variables (created under _tlens.init_scope, so apply_gradients also
# works inside a tf.function), updated with the registry's ops (AssignSub, ...). Each rule computes
# every new value from the old ones before it assigns, and returns its assign ops, so the same
# rule is a graph update in TF1 programs (keras._session_steps), where nothing orders two ops
# but their inputs and control dependencies.
import _tlens
import tensorflow as _tf
from keras import constraints as _constraints


def _lr_for(lr, v):
    # The rate variable is float32; a float64 model's updates read it in their own dtype.
    if _tlens.is_tensor(lr) and lr.dtype != v.dtype.base_dtype and v.dtype.is_floating:
        return _tf.cast(lr, v.dtype.base_dtype)
    return lr


def _fusable(g, v, dt):
    """Whether the fused update kernels take this gradient and variable (a dense gradient of the
    variable's floating dtype and fully known shape)."""
    return (_tlens.is_tensor(g) and not _tlens.is_ndarray(g) and dt.is_floating and g.dtype == dt
            and g.shape.is_fully_defined() and g.shape.as_list() == v.shape.as_list())


class Optimizer:
    _default_name = "Optimizer"

    def __init__(self, learning_rate=0.001, name=None, clipnorm=None, clipvalue=None, global_clipnorm=None, **kwargs):
        if "lr" in kwargs:
            learning_rate = kwargs["lr"]
        self.name = name if name is not None else self._default_name
        self._lr = None
        self.learning_rate = learning_rate
        self.clipvalue = clipvalue
        self._slots = {}
        with _tlens.init_scope():
            self.iterations = _tf.Variable(0, trainable=False, name=self.name + "/iter", dtype=_tf.int64)

    # Keras 2.11+: a number becomes a float32 variable, `learning_rate`, that the update rules
    # read, so K.set_value(opt.learning_rate, v) and `opt.learning_rate = v` (callbacks) change
    # the rate of steps already traced; a schedule (a callable) is kept as it is.
    @property
    def learning_rate(self):
        return self._lr

    @learning_rate.setter
    def learning_rate(self, value):
        self._lr_given = value if isinstance(value, (int, float)) else None
        if callable(value) and not _tlens.is_tensor(value):
            self._lr = value
        elif self._lr is not None and _tlens.is_tensor(self._lr) and hasattr(self._lr, "assign"):
            self._lr.assign(value)
        else:
            with _tlens.init_scope():
                self._lr = _tf.Variable(value, trainable=False, name="learning_rate", dtype=_tf.float32)

    lr = learning_rate

    def _lr_config(self):
        if not _tlens.is_tensor(self._lr):
            return self._lr
        if _tlens.is_abstract():
            return self._lr_given
        return float(str(self._lr.numpy()))  # float32 0.01 shows as 0.01, as Keras' numpy scalar does

    def _current_lr(self):
        lr = self._lr
        if callable(lr) and not _tlens.is_tensor(lr):
            lr = lr(self.iterations)
        return lr

    def _slot(self, var, name, init=0.0):
        key = (id(var), name)
        s = self._slots.get(key)
        if s is None:
            with _tlens.init_scope():
                dt = var.dtype.base_dtype if var.dtype.is_floating else _tf.float32
                s = _tf.Variable(_tf.fill(_tf.constant(var.shape.as_list(), _tf.int32), _tf.constant(init, dt)), trainable=False,
                                 name=self.name + "/" + name)
            self._slots[key] = s
        return s

    def apply_gradients(self, grads_and_vars, name=None, **kwargs):
        pairs = []
        for g, v in grads_and_vars:
            if _tlens.is_unknown(g) or _tlens.is_unknown(v):
                return None  # abstract mode, unknown gradients: nothing to check
            if g is not None:
                pairs.append((g, v))
        if not pairs:
            if _tlens.is_abstract():
                return None
            raise ValueError("No gradients provided for any variable.")
        lr = self._current_lr()
        if _tf.executing_eagerly() or _tlens.style() != "graph":
            for g, v in pairs:
                if self.clipvalue is not None:
                    g = _tf.clip_by_value(g, -self.clipvalue, self.clipvalue)
                self._apply(g, v, _lr_for(lr, v))
                c = _constraints.of(v)
                if c is not None:
                    v.assign(c(v))  # Keras applies a weight's constraint after its update
            self._finish_step()
            return self.iterations.assign_add(1)
        # A TF1 graph: every update after every gradient (a variable must not change before the
        # gradients that read it are computed), the step counter after every update.
        ops = []
        with _tf.control_dependencies([g for g, v in pairs]):
            for g, v in pairs:
                if self.clipvalue is not None:
                    g = _tf.clip_by_value(g, -self.clipvalue, self.clipvalue)
                ops.extend(self._update(g, v, _lr_for(lr, v)))
        with _tf.control_dependencies(ops):
            ops = ops + self._finish_step()
            for g, v in pairs:
                c = _constraints.of(v)
                if c is not None:
                    ops.append(v.assign(c(v.read_value() if hasattr(v, "read_value") else v)))
        with _tf.control_dependencies(ops):
            return self.iterations.assign_add(1)

    def _apply(self, g, v, lr):
        """One variable's update run now (eagerly, or traced by tf.function): the rule's ops, or a
        fused form of them that computes the same values (Adam)."""
        self._update(g, v, lr)

    def _finish_step(self):
        """The updates of the optimizer's own per-step state, after every variable's (their ops)."""
        return []

    def minimize(self, loss, var_list, tape=None):
        if tape is None:
            with _tf.GradientTape() as t:
                value = loss() if callable(loss) else loss
            tape = t
        else:
            value = loss
        if callable(var_list):
            var_list = var_list()
        grads = tape.gradient(value, var_list)
        return self.apply_gradients(zip(grads, var_list))

    def get_config(self):
        # The constructor's arguments (keras._config.record_init, applied below), name and rate.
        from keras import _config
        cfg = dict(_config.ctor_arguments(self) or {})
        cfg.pop("lr", None)
        cfg["name"] = self.name
        cfg["learning_rate"] = self._lr_config()
        return _config.serialize(cfg, "the optimizer's config")

    def variables(self):
        return [self.iterations] + list(self._slots.values())


class SGD(Optimizer):
    _default_name = "SGD"

    def __init__(self, learning_rate=0.01, momentum=0.0, nesterov=False, name="SGD", **kwargs):
        Optimizer.__init__(self, learning_rate, name, **kwargs)
        self.momentum = momentum
        self.nesterov = nesterov

    def _update(self, g, v, lr):
        if not self.momentum:
            return [v.assign_sub(g * lr)]
        m = self._slot(v, "momentum")
        m_new = m * self.momentum - g * lr
        if self.nesterov:
            return [m.assign(m_new), v.assign_add(m_new * self.momentum - g * lr)]
        return [m.assign(m_new), v.assign_add(m_new)]

    def _apply(self, g, v, lr):
        # The plain rule (no momentum) as one fused in-place kernel, rounding as Mul and
        # AssignSub do (see Adam._apply).
        dt = v.dtype.base_dtype
        if (type(self)._update is SGD._update and not self.momentum and _tlens.fused_cpu_updates()
                and _fusable(g, v, dt) and _tlens.is_tensor(lr) and lr.dtype.base_dtype == dt and lr.shape.as_list() == []):
            _tlens.op("_KerasSGDStep", [v, lr, g])
        else:
            self._update(g, v, lr)


class Adam(Optimizer):
    _default_name = "Adam"

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-07, amsgrad=False, name="Adam", **kwargs):
        Optimizer.__init__(self, learning_rate, name, **kwargs)
        self.beta_1 = beta_1
        self.beta_2 = beta_2
        self.epsilon = epsilon

    def _update(self, g, v, lr):
        dt = v.dtype.base_dtype if v.dtype.is_floating else _tf.float32
        step = _tf.cast(self.iterations + 1, dt)
        b1p = _tf.pow(_tf.constant(self.beta_1, dt), step)
        b2p = _tf.pow(_tf.constant(self.beta_2, dt), step)
        alpha = lr * _tf.sqrt(1.0 - b2p) / (1.0 - b1p)
        m = self._slot(v, "m")
        s = self._slot(v, "v")
        m_new = m + (g - m) * (1.0 - self.beta_1)
        s_new = s + (_tf.square(g) - s) * (1.0 - self.beta_2)
        return [m.assign(m_new), s.assign(s_new), v.assign_sub((m_new * alpha) / (_tf.sqrt(s_new) + self.epsilon))]

    def _apply(self, g, v, lr):
        # _update's rule in two fused in-place kernels around the same Sqrt, with the same float
        # roundings (engine/kernels/cpu/KerasUpdateKernels.cpp): bit-identical values, a third of
        # the memory traffic. CPU kernels only; any case outside theirs runs the rule's ops.
        dt = v.dtype.base_dtype
        # Subclasses with rules of their own (Adamax, Nadam, a user's) run their rule.
        fused = (type(self)._update is Adam._update and _tlens.fused_cpu_updates() and _fusable(g, v, dt)
                 and all(isinstance(h, (int, float)) for h in (self.beta_1, self.beta_2, self.epsilon)))
        if not fused:
            self._update(g, v, lr)
            return
        step = _tf.cast(self.iterations + 1, dt)
        b1p = _tf.pow(_tf.constant(self.beta_1, dt), step)
        b2p = _tf.pow(_tf.constant(self.beta_2, dt), step)
        alpha = lr * _tf.sqrt(1.0 - b2p) / (1.0 - b1p)
        m = self._slot(v, "m")
        s = self._slot(v, "v")
        _tlens.op("_KerasAdamMoments", [m, s, _tf.constant(1.0 - self.beta_1, dt), _tf.constant(1.0 - self.beta_2, dt), g])
        _tlens.op("_KerasAdamStep", [v, alpha, _tf.constant(self.epsilon, dt), m, _tf.sqrt(s)])


class RMSprop(Optimizer):
    _default_name = "RMSprop"

    def __init__(self, learning_rate=0.001, rho=0.9, momentum=0.0, epsilon=1e-07, centered=False, name="RMSprop", **kwargs):
        Optimizer.__init__(self, learning_rate, name, **kwargs)
        self.rho = rho
        self.momentum = momentum
        self.epsilon = epsilon
        self.centered = centered

    def _update(self, g, v, lr):
        a = self._slot(v, "velocity", getattr(self, "_tf1_rms_init", 0.0))
        a_new = a * self.rho + _tf.square(g) * (1.0 - self.rho)
        ops = [a.assign(a_new)]
        denom = a_new
        if self.centered:
            mg = self._slot(v, "average_gradient")
            mg_new = mg * self.rho + g * (1.0 - self.rho)
            ops.append(mg.assign(mg_new))
            denom = a_new - _tf.square(mg_new)
        inc = g * lr / _tf.sqrt(denom + self.epsilon)
        if self.momentum:
            m = self._slot(v, "momentum")
            m_new = m * self.momentum + inc
            return ops + [m.assign(m_new), v.assign_sub(m_new)]
        return ops + [v.assign_sub(inc)]

    def _apply(self, g, v, lr):
        # The plain rule (no momentum, not centered) in two fused in-place kernels around the
        # rule's own Add and Sqrt, rounding as its separate ops do (see Adam._apply).
        dt = v.dtype.base_dtype
        fused = (type(self)._update is RMSprop._update and not self.momentum and not self.centered
                 and _tlens.fused_cpu_updates() and _fusable(g, v, dt)
                 and _tlens.is_tensor(lr) and lr.dtype.base_dtype == dt and lr.shape.as_list() == []
                 and all(isinstance(h, (int, float)) for h in (self.rho, self.epsilon)))
        if not fused:
            self._update(g, v, lr)
            return
        a = self._slot(v, "velocity", getattr(self, "_tf1_rms_init", 0.0))
        _tlens.op("_KerasRMSpropAverage", [a, _tf.constant(self.rho, dt), _tf.constant(1.0 - self.rho, dt), g])
        _tlens.op("_KerasRMSpropStep", [v, lr, g, _tf.sqrt(a + self.epsilon)])


class Adagrad(Optimizer):
    _default_name = "Adagrad"

    def __init__(self, learning_rate=0.001, initial_accumulator_value=0.1, epsilon=1e-07, name="Adagrad", **kwargs):
        Optimizer.__init__(self, learning_rate, name, **kwargs)
        self.initial_accumulator_value = initial_accumulator_value
        self.epsilon = epsilon

    def _update(self, g, v, lr):
        acc = self._slot(v, "accumulator", self.initial_accumulator_value)
        acc_new = acc + _tf.square(g)
        return [acc.assign(acc_new), v.assign_sub(g * lr / _tf.sqrt(acc_new + self.epsilon))]


class Adadelta(Optimizer):
    _default_name = "Adadelta"

    def __init__(self, learning_rate=0.001, rho=0.95, epsilon=1e-07, name="Adadelta", **kwargs):
        Optimizer.__init__(self, learning_rate, name, **kwargs)
        self.rho = rho
        self.epsilon = epsilon

    def _update(self, g, v, lr):
        acc = self._slot(v, "accumulated_grad")
        delta_acc = self._slot(v, "accumulated_delta_var")
        acc_new = acc * self.rho + _tf.square(g) * (1.0 - self.rho)
        delta = -_tf.sqrt(delta_acc + self.epsilon) * g / _tf.sqrt(acc_new + self.epsilon)
        return [acc.assign(acc_new), delta_acc.assign(delta_acc * self.rho + _tf.square(delta) * (1.0 - self.rho)),
                v.assign_add(delta * lr)]


class Adamax(Adam):
    _default_name = "Adamax"

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-07, name="Adamax", **kwargs):
        Adam.__init__(self, learning_rate, beta_1, beta_2, epsilon, name=name, **kwargs)

    def _update(self, g, v, lr):
        # Keras 2.11+: m as Adam's, u the exponentially weighted infinity norm.
        dt = v.dtype.base_dtype if v.dtype.is_floating else _tf.float32
        step = _tf.cast(self.iterations + 1, dt)
        b1p = _tf.pow(_tf.constant(self.beta_1, dt), step)
        m = self._slot(v, "m")
        u = self._slot(v, "u")
        m_new = m + (g - m) * (1.0 - self.beta_1)
        u_new = _tf.maximum(u * self.beta_2, _tf.abs(g))
        return [m.assign(m_new), u.assign(u_new), v.assign_sub((m_new * lr) / ((1.0 - b1p) * (u_new + self.epsilon)))]


class Nadam(Adam):
    """Keras 2.11+'s Nadam: Adam with Nesterov momentum and the momentum schedule
    u_t = beta_1 * (1 - 0.5 * 0.96^t), whose running product is the optimizer's own state."""
    _default_name = "Nadam"

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-07, name="Nadam", **kwargs):
        Adam.__init__(self, learning_rate, beta_1, beta_2, epsilon, name=name, **kwargs)
        with _tlens.init_scope():
            self._u_product = _tf.Variable(1.0, trainable=False, name=self.name + "/u_product", dtype=_tf.float64)
        self._u_product_t = None

    def _update(self, g, v, lr):
        dt = v.dtype.base_dtype if v.dtype.is_floating else _tf.float32
        it = _tf.cast(self.iterations, _tf.float64)
        decay = _tf.constant(0.96, _tf.float64)
        u_t = self.beta_1 * (1.0 - 0.5 * _tf.pow(decay, it + 1.0))
        u_t_1 = self.beta_1 * (1.0 - 0.5 * _tf.pow(decay, it + 2.0))
        u_product_t = self._u_product * u_t
        self._u_product_t = u_product_t
        u_product_t_1 = u_product_t * u_t_1
        u_t, u_t_1 = _tf.cast(u_t, dt), _tf.cast(u_t_1, dt)
        u_product_t, u_product_t_1 = _tf.cast(u_product_t, dt), _tf.cast(u_product_t_1, dt)
        b2p = _tf.pow(_tf.constant(self.beta_2, dt), _tf.cast(self.iterations + 1, dt))
        m = self._slot(v, "m")
        s = self._slot(v, "v")
        m_new = m + (g - m) * (1.0 - self.beta_1)
        s_new = s + (_tf.square(g) - s) * (1.0 - self.beta_2)
        m_hat = u_t_1 * m_new / (1.0 - u_product_t_1) + (1.0 - u_t) * g / (1.0 - u_product_t)
        s_hat = s_new / (1.0 - b2p)
        return [m.assign(m_new), s.assign(s_new), v.assign_sub((m_hat * lr) / (_tf.sqrt(s_hat) + self.epsilon))]

    def _finish_step(self):
        if self._u_product_t is None:
            return []
        op = self._u_product.assign(self._u_product_t)
        self._u_product_t = None
        return [op]


# Keras 2's lowercase aliases (keras.optimizers.rmsprop(lr=...)).
sgd, adam, rmsprop, adagrad, adadelta, adamax, nadam = SGD, Adam, RMSprop, Adagrad, Adadelta, Adamax, Nadam

_by_name = {"sgd": SGD, "adam": Adam, "rmsprop": RMSprop, "adagrad": Adagrad, "adadelta": Adadelta,
            "adamax": Adamax, "nadam": Nadam}


def _from_tf1(opt):
    # tf.keras of TF 1.x takes a tf.train optimizer (it wraps it in a TFOptimizer): here the
    # Keras optimizer with the same update rule and hyperparameters (TF1's epsilons; Adagrad
    # has none in TF1).
    kind, p, lr = opt._kind, opt._params, opt._lr
    if kind == "GradientDescent":
        return SGD(lr)
    if kind == "Momentum":
        return SGD(lr, momentum=p.get("momentum", 0.0), nesterov=bool(p.get("use_nesterov", 0)))
    if kind == "Adam":
        return Adam(lr, beta_1=p.get("beta1", 0.9), beta_2=p.get("beta2", 0.999), epsilon=p.get("epsilon", 1e-8))
    if kind == "RMSProp":
        o = RMSprop(lr, rho=p.get("decay", 0.9), momentum=p.get("momentum", 0.0), epsilon=p.get("epsilon", 1e-10))
        o._tf1_rms_init = 1.0  # TF1's RMSProp starts its mean square at ones
        return o
    if kind == "Adagrad":
        return Adagrad(lr, initial_accumulator_value=p.get("initial_accumulator_value", 0.1), epsilon=0.0)
    if kind == "Adadelta":
        return Adadelta(lr, rho=p.get("rho", 0.95), epsilon=p.get("epsilon", 1e-8))
    raise ValueError("Could not interpret optimizer identifier: %r" % (opt,))


def get(identifier):
    if isinstance(identifier, Optimizer):
        return identifier
    if isinstance(identifier, _tf._Optimizer):
        return _from_tf1(identifier)
    if isinstance(identifier, str):
        cls = _by_name.get(identifier.lower())
        if cls is None:
            raise ValueError("Could not interpret optimizer identifier: %s" % identifier)
        return cls()
    if isinstance(identifier, type):
        return identifier()
    raise ValueError("Could not interpret optimizer identifier: %r" % (identifier,))


legacy = _tf._Namespace("keras.optimizers.legacy")
legacy.SGD = SGD
legacy.Adam = Adam
legacy.RMSprop = RMSprop
legacy.Adagrad = Adagrad
legacy.Adadelta = Adadelta


class LearningRateSchedule:
    """The base of learning-rate schedules: a callable of the optimizer's step counter."""

    def __call__(self, step):
        raise NotImplementedError("Learning rate schedule '%s' must override `__call__(self, step)`." % type(self).__name__)

    def get_config(self):
        raise NotImplementedError("Learning rate schedule '%s' must override `get_config()` in order to be serializable." % type(self).__name__)

    @classmethod
    def from_config(cls, config):
        return cls(**config)

    def _progress(self, step):
        """step / decay_steps as float32, floored with `staircase` (the exponential and
        inverse-time decays' exponent and divisor)."""
        p = _tf.cast(step, _tf.float32) / float(self.decay_steps)
        return _tf.floor(p) if self.staircase else p


class ExponentialDecay(LearningRateSchedule):
    def __init__(self, initial_learning_rate, decay_steps, decay_rate, staircase=False, name=None):
        self.initial_learning_rate = initial_learning_rate
        self.decay_steps = decay_steps
        self.decay_rate = decay_rate
        self.staircase = staircase

    def __call__(self, step):
        p = self._progress(step)
        return self.initial_learning_rate * _tf.pow(_tf.constant(self.decay_rate, _tf.float32), p)

    def get_config(self):
        return {"initial_learning_rate": self.initial_learning_rate, "decay_steps": self.decay_steps,
                "decay_rate": self.decay_rate, "staircase": self.staircase}


class PiecewiseConstantDecay(LearningRateSchedule):
    def __init__(self, boundaries, values, name=None):
        if len(boundaries) != len(values) - 1:
            raise ValueError("The length of boundaries should be 1 less than the length of values. Received: boundaries=%s of length %d, and values=%s of length %d." % (boundaries, len(boundaries), values, len(values)))
        self.boundaries = boundaries
        self.values = values
        self.name = name

    def __call__(self, step):
        # values[i] while step <= boundaries[i] (and after the previous boundary); the last after.
        step = _tf.cast(step, _tf.float32)
        lr = _tf.constant(float(self.values[-1]), _tf.float32)
        for b, v in reversed(list(zip(self.boundaries, self.values[:-1]))):
            lr = _tf.where(step <= float(b), _tf.constant(float(v), _tf.float32), lr)
        return lr

    def get_config(self):
        return {"boundaries": self.boundaries, "values": self.values, "name": self.name}


class PolynomialDecay(LearningRateSchedule):
    def __init__(self, initial_learning_rate, decay_steps, end_learning_rate=0.0001, power=1.0, cycle=False, name=None):
        self.initial_learning_rate = initial_learning_rate
        self.decay_steps = decay_steps
        self.end_learning_rate = end_learning_rate
        self.power = power
        self.cycle = cycle
        self.name = name

    def __call__(self, step):
        step = _tf.cast(step, _tf.float32)
        steps = _tf.constant(float(self.decay_steps), _tf.float32)
        if self.cycle:
            mult = _tf.where(_tf.equal(step, 0.0), 1.0, _tf.ceil(step / steps))
            steps = steps * mult
        else:
            step = _tf.minimum(step, steps)
        frac = 1.0 - step / steps
        return (self.initial_learning_rate - self.end_learning_rate) * _tf.pow(frac, float(self.power)) + self.end_learning_rate

    def get_config(self):
        return {"initial_learning_rate": self.initial_learning_rate, "decay_steps": self.decay_steps,
                "end_learning_rate": self.end_learning_rate, "power": self.power, "cycle": self.cycle, "name": self.name}


class InverseTimeDecay(LearningRateSchedule):
    def __init__(self, initial_learning_rate, decay_steps, decay_rate, staircase=False, name=None):
        self.initial_learning_rate = initial_learning_rate
        self.decay_steps = decay_steps
        self.decay_rate = decay_rate
        self.staircase = staircase
        self.name = name

    def __call__(self, step):
        p = self._progress(step)
        return self.initial_learning_rate / (1.0 + self.decay_rate * p)

    def get_config(self):
        return {"initial_learning_rate": self.initial_learning_rate, "decay_steps": self.decay_steps,
                "decay_rate": self.decay_rate, "staircase": self.staircase, "name": self.name}


class CosineDecay(LearningRateSchedule):
    def __init__(self, initial_learning_rate, decay_steps, alpha=0.0, name=None, warmup_target=None, warmup_steps=0):
        self.initial_learning_rate = initial_learning_rate
        self.decay_steps = decay_steps
        self.alpha = alpha
        self.name = name

    def __call__(self, step):
        step = _tf.minimum(_tf.cast(step, _tf.float32), float(self.decay_steps))
        cosine = 0.5 * (1.0 + _tf.cos(3.141592653589793 * step / float(self.decay_steps)))
        return self.initial_learning_rate * ((1.0 - self.alpha) * cosine + self.alpha)

    def get_config(self):
        return {"initial_learning_rate": self.initial_learning_rate, "decay_steps": self.decay_steps,
                "alpha": self.alpha, "name": self.name}


schedules = _tf._Namespace("keras.optimizers.schedules")
schedules.LearningRateSchedule = LearningRateSchedule
schedules.ExponentialDecay = ExponentialDecay
schedules.PiecewiseConstantDecay = PiecewiseConstantDecay
schedules.PolynomialDecay = PolynomialDecay
schedules.InverseTimeDecay = InverseTimeDecay
schedules.CosineDecay = CosineDecay


def _record_optimizers():
    from keras import _config
    for cls in (SGD, Adam, RMSprop, Adagrad, Adadelta):
        _config.record_init(cls)


_record_optimizers()
