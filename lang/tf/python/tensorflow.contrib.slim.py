# tf.contrib.slim: TF-slim's layers (those of tf.contrib.layers), arg_scope, repeat and stack, the
# variable helpers and the losses of tf.losses. slim.learning and the model zoo are not modelled.
import tensorflow as tf
from tensorflow.contrib.layers import *
from tensorflow.contrib.framework import add_arg_scope, arg_scope, arg_scoped_arguments, current_arg_scope, \
    get_global_step, get_model_variables, get_or_create_global_step, get_trainable_variables, get_variables, \
    get_variables_to_restore, has_arg_scope

losses = tf.losses


def _scope_name(layer, scope):
    if scope is not None:
        return scope
    return getattr(layer, "__name__", None) or getattr(getattr(layer, "func", None), "__name__", None) or "repeat"


def repeat(inputs, repetitions, layer, *args, **kwargs):
    """layer applied `repetitions` times, each in scope <scope>/<scope>_<i>."""
    scope = kwargs.pop("scope", None)
    with tf.variable_scope(scope, "Repeat", [inputs]):
        outputs = tf.convert_to_tensor(inputs)
        name = _scope_name(layer, scope)
        for i in range(repetitions):
            kwargs["scope"] = name + "_" + str(i + 1)
            outputs = layer(outputs, *args, **kwargs)
        return outputs


def stack(inputs, layer, stack_args, **kwargs):
    """layer applied once per entry of stack_args (a tuple of positional arguments, or one)."""
    scope = kwargs.pop("scope", None)
    if not isinstance(stack_args, (list, tuple)):
        raise ValueError("stack_args need to be a list or tuple")
    with tf.variable_scope(scope, "Stack", [inputs]):
        outputs = tf.convert_to_tensor(inputs)
        name = _scope_name(layer, scope)
        for i in range(len(stack_args)):
            kwargs["scope"] = name + "_" + str(i + 1)
            a = stack_args[i]
            if not isinstance(a, (list, tuple)):
                a = [a]
            outputs = layer(outputs, *a, **kwargs)
        return outputs
