# tf.contrib.eager (TF 1.5-1.15), as tfe: eager execution's early API. Implicit gradients are those
# of the trainable variables the function read (GradientTape.watched_variables).
import tensorflow as tf

enable_eager_execution = tf.enable_eager_execution
executing_eagerly = tf.executing_eagerly
in_eager_mode = tf.executing_eagerly
Variable = tf.Variable
GradientTape = tf.GradientTape
defun = tf.function


def num_gpus():
    return len(tf.config.experimental.list_physical_devices("GPU")) if hasattr(tf, "config") else 0


def Iterator(dataset):
    """tfe.Iterator(dataset): the dataset's elements, one per next()."""
    return iter(dataset)


def _implicit(f):
    def value_and_pairs(*args, **kwargs):
        with tf.GradientTape() as tape:
            value = f(*args, **kwargs)
        variables = list(tape.watched_variables())
        if not variables:
            raise ValueError("No trainable variables were accessed while the function was being computed.")
        grads = tape.gradient(value, variables)
        return value, list(zip(grads, variables))
    return value_and_pairs


def implicit_value_and_gradients(f):
    """f's value and the (gradient, variable) pairs of the trainable variables it read."""
    return _implicit(f)


def implicit_gradients(f):
    """The (gradient, variable) pairs of the trainable variables f read."""
    g = _implicit(f)

    def pairs(*args, **kwargs):
        return g(*args, **kwargs)[1]
    return pairs


def _explicit(f, params):
    def value_and_grads(*args, **kwargs):
        xs = [tf.convert_to_tensor(a) for a in args]
        chosen = list(range(len(xs))) if params is None else list(params)
        with tf.GradientTape() as tape:
            for i in chosen:
                tape.watch(xs[i])
            value = f(*xs, **kwargs)
        grads = tape.gradient(value, [xs[i] for i in chosen])
        return value, list(grads)
    return value_and_grads


def gradients_function(f, params=None):
    """A function returning the gradients of f with respect to its arguments (those of `params`)."""
    g = _explicit(f, params)

    def grads(*args, **kwargs):
        return g(*args, **kwargs)[1]
    return grads


def value_and_gradients_function(f, params=None):
    return _explicit(f, params)
