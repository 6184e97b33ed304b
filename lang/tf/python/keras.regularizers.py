# keras.regularizers: weight penalties added to the training loss (layer.losses).
import tensorflow as _tf


class Regularizer:
    def __call__(self, x):
        return 0.0

    def get_config(self):
        raise NotImplementedError("Regularizer %s does not implement get_config()" % type(self).__name__)


class L1L2(Regularizer):
    def __init__(self, l1=0.0, l2=0.0):
        self.l1 = float(l1)
        self.l2 = float(l2)

    def get_config(self):
        return {"l1": self.l1, "l2": self.l2}

    def __call__(self, x):
        r = 0.0
        if self.l1:
            r = r + self.l1 * _tf.reduce_sum(_tf.abs(x))
        if self.l2:
            r = r + self.l2 * _tf.reduce_sum(_tf.square(x))
        return r


def L1(l1=0.01):
    return L1L2(l1=l1)


def L2(l2=0.01):
    return L1L2(l2=l2)


def l1_l2(l1=0.01, l2=0.01):
    return L1L2(l1, l2)


l1 = L1
l2 = L2


def get(identifier):
    if identifier is None:
        return None
    if isinstance(identifier, str):
        return {"l1": L1, "l2": L2, "l1_l2": l1_l2}[identifier]()
    return identifier


def serialize(regularizer):
    """Keras' {"class_name", "config"} of a regularizer."""
    if regularizer is None:
        return None
    return {"class_name": type(regularizer).__name__, "config": regularizer.get_config()}


def deserialize(config, custom_objects=None):
    if config is None:
        return None
    if isinstance(config, str):
        return get(config)
    cls = (custom_objects or {}).get(config["class_name"]) or {"L1L2": L1L2}.get(config["class_name"])
    if cls is None:
        raise ValueError("Unknown regularizer: '%s'" % config["class_name"])
    return cls(**config.get("config", {}))
